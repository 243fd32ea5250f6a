"""What /readyz answers for each state of the store and listeners (the broker-level answer is in test_endpoints)."""

from __future__ import annotations

import dataclasses

from rockafka.facade.ops.health import readiness
from rockafka.store import StoreStats

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
