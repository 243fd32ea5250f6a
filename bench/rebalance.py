"""How long partitions stop while a 3rd member joins a 2-member group under load: consumer protocol vs classic.

``python -m bench.rebalance`` runs, on one broker and in one run, the same scene for each group protocol with
confluent-kafka (librdkafka): a producer writes to every partition of a 6-partition topic every 10 ms; two
members consume and commit; a third joins. For each partition it records when records were consumed (by any
member) and reports the longest gap from 1 s before the join to 10 s after (**pause**: the time a partition
went unconsumed although records were waiting, whatever the cause: on a loaded machine the consumers' own
scheduling shows here), the longest **handover** (a partition that moved: its last record consumed by the old
owner to its first by the new one), and how long the new member took to consume its first record
(**join**). Heartbeat intervals are 500 ms on both sides (the classic client's ``heartbeat.interval.ms``, the
broker's ``group.consumer.heartbeat.interval.ms``). Classic runs with ``range`` (eager: every partition is
revoked while the group rebalances) and ``cooperative-sticky`` (only moved partitions stop). The issue's
target: the consumer protocol's pause at most 0.5x the classic one, and no partition idle longer than one
heartbeat interval beyond the join. ``--rounds`` repeats each scene; medians are reported, with the ratios to classic
``range`` measured in the same run. Results: ``bench/results/rebalance.md``.

The profile of the longest handover splits it at the members' own callbacks: the old owner's last record to its
revoke callback (its consume loop, the client's), the revoke callback to the new owner's assign callback (the
commit and the revocation's acknowledgement, then the new owner's next heartbeat: the broker's part), and the
assign callback to the new owner's first record (OffsetFetch, Fetch and its consume loop, the client's). Each
round also prints where its longest pause was and when each member's callbacks ran relative to the join, so a
pause that has nothing to do with the rebalance (a loaded machine stalling a consumer thread) shows as such.
``--skip-cooperative`` leaves out the cooperative-sticky scene.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, NamedTuple

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench import write_table
from compat_tests.brokerproc import BrokerProcess

PARTITIONS = 6
HEARTBEAT_MS = 500
WINDOW_BEFORE_S, WINDOW_AFTER_S = 1.0, 10.0
SCENES = {
    "consumer protocol (uniform)": {"group.protocol": "consumer"},
    "classic, range (eager)": {"group.protocol": "classic", "partition.assignment.strategy": "range"},
    "classic, cooperative-sticky": {"group.protocol": "classic", "partition.assignment.strategy": "cooperative-sticky"},
}
CLASSIC = {"session.timeout.ms": 6000, "heartbeat.interval.ms": HEARTBEAT_MS}


class Scene:
    """One group under load: arrival times of consumed records per partition, and the joiner's first record."""

    def __init__(self, broker: BrokerProcess, settings: dict[str, Any]) -> None:
        suffix = uuid.uuid4().hex[:8]
        self.topic, self.group = f"rebalance-{suffix}", f"rebalance-group-{suffix}"
        self.broker = broker
        self.config: dict[str, Any] = {
            "bootstrap.servers": broker.bootstrap,
            "group.id": self.group,
            "auto.offset.reset": "latest",
            "enable.auto.commit": True,
            "auto.commit.interval.ms": 200,
            **settings,
            **(CLASSIC if settings["group.protocol"] == "classic" else {}),
        }
        #: per partition: (when, by which member) of each record consumed.
        self.consumed: dict[int, list[tuple[float, str]]] = {p: [] for p in range(PARTITIONS)}
        #: per (partition, member): when the member's revoke and assign callbacks ran for it (the last of each).
        self.revoked: dict[tuple[int, str], float] = {}
        #: Where the longest pause was (partition, owners before and after, start relative to the join).
        self.longest_at = ""
        self.assigned: dict[tuple[int, str], float] = {}
        self.first_record: dict[str, float] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def produce(self) -> None:
        producer = Producer({"bootstrap.servers": self.broker.bootstrap, "linger.ms": 0})
        while not self.stop.is_set():
            for partition in range(PARTITIONS):
                producer.produce(self.topic, b"x", partition=partition)
            producer.poll(0)
            time.sleep(0.01)
        producer.flush(10)

    def consume(self, name: str) -> None:
        consumer = Consumer(self.config)

        def on_assign(c: Consumer, partitions: list[Any]) -> None:
            self._mark(self.assigned, name, partitions)

        def on_revoke(c: Consumer, partitions: list[Any]) -> None:
            self._mark(self.revoked, name, partitions)

        consumer.subscribe([self.topic], on_assign=on_assign, on_revoke=on_revoke)
        try:
            while not self.stop.is_set():
                batch = consumer.consume(num_messages=500, timeout=0.05)
                now = time.monotonic()
                with self.lock:
                    for message in batch:
                        if message.error() is None:
                            self.consumed[message.partition()].append((now, name))
                            self.first_record.setdefault(name, now)
        finally:
            consumer.close()

    def _relative(self, events: dict[tuple[int, str], float], joined_at: float) -> str:
        return ", ".join(f"{p}{m}{t - joined_at:+.3f}" for (p, m), t in sorted(events.items()) if t > joined_at - 1)

    def _mark(self, events: dict[tuple[int, str], float], name: str, partitions: list[Any]) -> None:
        now = time.monotonic()
        with self.lock:
            for tp in partitions:
                events[(tp.partition, name)] = now

    def start(self, target: Any, *args: Any) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
        return thread

    def run(self) -> tuple[float, float, float]:
        admin = AdminClient({"bootstrap.servers": self.broker.bootstrap})
        for future in admin.create_topics([NewTopic(self.topic, PARTITIONS, 1)]).values():
            future.result(timeout=30)
        threads = [self.start(self.produce), self.start(self.consume, "a"), self.start(self.consume, "b")]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not ({"a", "b"} <= set(self.first_record)):
            time.sleep(0.1)
        time.sleep(5.0)  # both members settled
        joined_at = time.monotonic()
        threads.append(self.start(self.consume, "c"))
        time.sleep(WINDOW_AFTER_S)
        self.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        pause, handover, phases = self.gaps(joined_at)
        print(f"  longest pause: {self.longest_at}; revokes {self._relative(self.revoked, joined_at)}; "
              f"assigns {self._relative(self.assigned, joined_at)}", flush=True)  # fmt: skip
        return pause, handover, self.first_record.get("c", float("inf")) - joined_at, phases

    def gaps(self, joined_at: float) -> tuple[float, float, Phases]:
        """Around the join: the longest stretch any partition went unconsumed, the longest handover (a moved
        partition's last record by its old owner to its first by the new one), and that handover's phases."""
        start, end = joined_at - WINDOW_BEFORE_S, joined_at + WINDOW_AFTER_S
        longest = handover = 0.0
        phases = Phases(0.0, 0.0, 0.0)
        for partition, records in self.consumed.items():
            inside = [(start, ""), *((t, m) for t, m in records if start <= t <= end), (end, "")]
            for (before, old), (after, new) in itertools.pairwise(inside):
                if after - before > longest:
                    longest = after - before
                    self.longest_at = f"partition {partition} {old or '-'}->{new or '-'} at {before - joined_at:+.3f} s"
                if old and new and old != new and after - before > handover:
                    handover = after - before
                    phases = self.phases(partition, (before, old), (after, new))
        return longest, handover, phases

    def phases(self, partition: int, last: tuple[float, str], first: tuple[float, str]) -> Phases:
        """Where a handover went: the old owner's last record to its revoke callback, that to the new owner's assign
        callback (commit, the revocation's acknowledgement, the new owner's heartbeat), that to its first record."""
        revoked = self.revoked.get((partition, last[1]), last[0])
        assigned = self.assigned.get((partition, first[1]), revoked)
        return Phases(revoked - last[0], assigned - revoked, first[0] - assigned)


class Phases(NamedTuple):
    to_revoke: float
    revoke_to_assign: float
    assign_to_record: float


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rebalance", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-cooperative", action="store_true", help="leave out classic cooperative-sticky")
    parser.add_argument(
        "--fetch-wait-ms", type=int, help="the consumers' fetch.wait.max.ms (librdkafka's default: 500)"
    )
    args = parser.parse_args(argv)
    scenes = {name: scene for name, scene in SCENES.items() if not (args.skip_cooperative and "cooperative" in name)}
    if args.fetch_wait_ms is not None:
        scenes = {name: {**scene, "fetch.wait.max.ms": args.fetch_wait_ms} for name, scene in scenes.items()}
    results: dict[str, tuple[list[float], list[float], list[float]]] = {name: ([], [], []) for name in scenes}
    profiles: dict[str, list[Phases]] = {name: [] for name in scenes}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-rebalance-") as work:
        settings = {"group.consumer.heartbeat.interval.ms": str(HEARTBEAT_MS), "group.initial.rebalance.delay.ms": "0"}
        broker = BrokerProcess(Path(work), settings=settings).start()
        try:
            for _ in range(args.rounds):
                for name, scene_settings in scenes.items():
                    pause, handover, join, phases = Scene(broker, scene_settings).run()
                    for values, value in zip(results[name], (pause, handover, join), strict=True):
                        values.append(value)
                    profiles[name].append(phases)
                    print(f"{name}: pause {pause:.3f} s, handover {handover:.3f} s ({_phases(phases)}), "
                          f"join {join:.3f} s", flush=True)  # fmt: skip
        finally:
            broker.stop()
    baseline = statistics.median(results["classic, range (eager)"][0])
    rows = []
    for name, (pauses, handovers, joins) in results.items():
        pause, handover = statistics.median(pauses), statistics.median(handovers)
        median = Phases(*(statistics.median(values) for values in zip(*profiles[name], strict=True)))
        rows.append([
            name, f"{pause:.3f}", f"{pause / baseline:.2f}x", f"{handover:.3f}", _phases(median),
            f"{statistics.median(joins):.3f}",
        ])  # fmt: skip
    header = [
        "group protocol",
        "longest partition pause, s",
        "vs classic range",
        "longest handover of a moved partition, s",
        "its phases: last record to revoke / revoke to assign / assign to first record, s",
        "3rd member's first record, s",
    ]
    note = (
        f"Median of {args.rounds} rounds (`python -m bench.rebalance`), one broker, confluent-kafka, "
        f"{PARTITIONS} partitions written every 10 ms, heartbeat interval {HEARTBEAT_MS} ms"
        f"{'' if args.fetch_wait_ms is None else f', fetch.wait.max.ms {args.fetch_wait_ms}'}; load average "
        f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after (`uptime`, on {os.cpu_count()} cores)."
    )
    write_table("rebalance", "Pause when a 3rd member joins a 2-member group under load", note, header, rows)
    return 0


def _phases(phases: Phases) -> str:
    return " / ".join(f"{value:.3f}" for value in phases)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
