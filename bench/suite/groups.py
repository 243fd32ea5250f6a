"""Group rebalance time: consumer A alone in a group owns all partitions of a topic; then B subscribes.
``rebalance_s`` runs from B's subscribe until A and B hold disjoint, non-empty assignments that together
cover every partition; ``leave_s`` from B's close until A owns every partition again. Each consumer
polls in its own thread and notes its assignment in the rebalance callbacks. A split that overlaps or
leaves a partition unowned, or that does not settle within the time limit, is a failure.
"""

from __future__ import annotations

import threading
import time

from confluent_kafka import Consumer, TopicPartition

from bench.suite.context import Context, Measurement, consumer
from bench.suite.payload import VerificationError

SETTLE_S = 60.0


class _Member(threading.Thread):
    def __init__(self, ctx: Context, topic: str, group: str) -> None:
        super().__init__(daemon=True)
        self.client: Consumer = consumer(ctx.bootstrap, **{"group.id": group})
        self.topic = topic
        self.owned: frozenset[int] = frozenset()
        self.leaving = threading.Event()
        self.error: Exception | None = None

    def _assigned(self, _client: Consumer, partitions: list[TopicPartition]) -> None:
        self.owned = frozenset(p.partition for p in partitions)

    def _revoked(self, _client: Consumer, _partitions: list[TopicPartition]) -> None:
        self.owned = frozenset()

    def run(self) -> None:
        try:
            self.client.subscribe([self.topic], on_assign=self._assigned, on_revoke=self._revoked)
            deadline = time.monotonic() + 4 * SETTLE_S
            while not self.leaving.is_set() and time.monotonic() < deadline:
                self.client.poll(0.01)  # serves the rebalance callbacks as soon as they come
        except Exception as error:  # reported by the main thread
            self.error = error
        finally:
            self.client.close()


def _wait(condition, what: str, members: list[_Member]) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    deadline = time.monotonic() + SETTLE_S
    while not condition():
        for member in members:
            if member.error is not None:
                raise VerificationError(f"consumer failed: {member.error}")
        if time.monotonic() > deadline:
            owned = [sorted(m.owned) for m in members]
            raise VerificationError(f"{what} did not settle in {SETTLE_S:.0f}s (owned: {owned})")
        time.sleep(0.005)
    return time.perf_counter() - start


def rebalance_scenario(ctx: Context, partitions: int) -> Measurement:
    ctx.require_groups()
    topic = ctx.topic(partitions)
    everything = frozenset(range(partitions))
    group = f"bench-rebalance-{topic}"
    a, b = _Member(ctx, topic, group), _Member(ctx, topic, group)
    meter = ctx.meter()
    try:
        a.start()
        initial = _wait(lambda: a.owned == everything, "A's first join", [a])
        meter.start()
        b.start()

        def split() -> bool:
            return bool(a.owned) and bool(b.owned) and not a.owned & b.owned and a.owned | b.owned == everything

        rebalance = _wait(split, "the split", [a, b])
        b.leaving.set()
        leave = _wait(lambda: a.owned == everything and not b.is_alive(), "B's leave", [a, b])
        usage = meter.stop()
    finally:
        a.leaving.set()
        b.leaving.set()
        a.join(30)
        b.join(30)
    return Measurement(rebalance, {"initial_join_s": initial, "leave_s": leave}, usage)
