"""How many requests this process has sent to etcd, by kind: the proof that the data path never calls etcd.

:mod:`.etcd` counts every request it sends in :data:`ETCD_REQUESTS` (``get``, ``get_prefix``, ``txn``,
``lease_grant``, ``lease_keepalive``, ``lease_revoke``, ``watch``, and ``connect``: the read that
probes an endpoint), before sending it, whether it succeeds or
not; a watch is one request however many events it then streams. The broker exports the counts on ``/metrics``
as ``rockafka_etcd_requests_total{kind=...}``. They are process-wide (brokers run in one process share them).
``lease_keepalive`` is the registration lease's timer (every third of the TTL), independent of traffic; every
other kind is sent only on a metadata change, an election or a watch (re)start, so over a produce and fetch run
their sum does not move (``bench.cluster`` and ``compat_tests/test_cluster_etcd_requests.py`` count it). This
module imports nothing, so the facade reads it without loading the etcd client.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

#: The registration lease's periodic refresh: the one kind a serving broker sends without a change to make.
KEEPALIVE: Final = "lease_keepalive"

ETCD_REQUESTS: Final[Counter[str]] = Counter()


def etcd_requests() -> dict[str, int]:
    """A copy of the counts so far, by kind."""
    return dict(ETCD_REQUESTS)
