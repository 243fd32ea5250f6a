"""One etcd for the cluster tests of a session (each test uses its own cluster name, so its own key prefix)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from rockafka.cluster.local_etcd import LocalEtcd

_names = itertools.count()


@pytest.fixture(scope="session")
def etcd() -> Iterator[LocalEtcd]:
    """A real etcd on a free loopback port; fails (never skips) when etcd is not installed."""
    with LocalEtcd() as server:
        yield server


@pytest.fixture
def cluster_name(request: pytest.FixtureRequest) -> str:
    """A cluster name (key prefix) no other test of the session uses."""
    return f"t{next(_names)}-{request.node.name[:40]}".replace("[", "-").replace("]", "")
