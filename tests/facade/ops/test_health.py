"""What /readyz answers for each state of the store, listeners and cluster membership (the broker-level answer is
in test_endpoints; a broker in a real one-node cluster here)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from rockafka.facade.ops.health import readiness
from rockafka.store import StoreStats
from rockafka.testing import Broker, LocalEtcd

from .helpers import free_port, get

ONLINE = StoreStats(
    commitlog_bytes=0, commitlog_segments=1, index_lag_bytes=0, index_failure=None, offline_reason=None,
    closed=False, open_seconds=0.1,
)  # fmt: skip


def test_ready_when_serving_over_an_online_store() -> None:
    state = readiness(True, ONLINE)
    assert (state.status, state.http_status) == ("ready", 200)


def test_a_stopped_index_thread_is_degraded_but_served() -> None:
    state = readiness(True, dataclasses.replace(ONLINE, index_failure="[Errno 5] Input/output error"))
    assert (state.http_status, state.text()) == (
        200,
        "degraded\nlisteners: bound\nstore: online\nindex: stopped: [Errno 5] Input/output error\n",
    )


def test_an_offline_store_or_a_broker_not_serving_is_not_ready() -> None:
    offline = readiness(True, dataclasses.replace(ONLINE, offline_reason="[Errno 5] Input/output error"))
    assert (offline.http_status, offline.checks[1]) == (503, ("store", "offline: [Errno 5] Input/output error"))
    starting = readiness(False, ONLINE)
    assert (starting.status, starting.checks[0]) == ("not ready", ("listeners", "not serving"))
    closed = readiness(True, dataclasses.replace(ONLINE, closed=True))
    assert (closed.status, closed.checks[1]) == ("not ready", ("store", "closed"))


def test_in_a_cluster_readiness_needs_the_registration() -> None:
    joined = readiness(True, ONLINE, "registered as node 1 (group group-1)")
    assert (joined.http_status, joined.text().splitlines()[-1]) == (
        200,
        "cluster: registered as node 1 (group group-1)",
    )
    for missing in ("not joined yet", "node 1 not registered in etcd", "no controller elected"):
        state = readiness(True, ONLINE, missing)
        assert (state.status, state.http_status, state.checks[-1]) == ("not ready", 503, ("cluster", missing))
    assert [name for name, _ in readiness(True, ONLINE).checks] == ["listeners", "store", "index"]  # one broker


def test_readyz_of_a_broker_in_a_cluster_names_its_registration(tmp_path: Path) -> None:
    port = free_port()
    with LocalEtcd() as etcd:
        settings = {"rockafka.cluster.etcd.endpoints": etcd.endpoint, "rockafka.http.listener": f"127.0.0.1:{port}",
                    "node.id": "3"}  # fmt: skip
        with Broker(data_dir=tmp_path / "data", settings=settings):
            status, _, body = get(port, "/readyz")
            waiting = [body.decode().splitlines()[-1]]
            for _ in range(100):  # until the controller election (its own) is seen, 10 s at most
                if status == 200:
                    break
                time.sleep(0.1)
                status, _, body = get(port, "/readyz")
                waiting.append(body.decode().splitlines()[-1])
    assert set(waiting[:-1]) <= {"cluster: no controller elected", "cluster: node 3 not registered in etcd"}
    registered = "cluster: registered as node 3 (group group-3)"
    assert (status, body.decode().splitlines()) == (
        200, ["ready", "listeners: bound", "store: online", "index: running", registered],
    )  # fmt: skip
