"""The consumer-group scenario shared by every client's group test, and its checks.

A group of consumers (child processes: ``groupworker.py`` for the Python clients,
``node/groups_worker.js`` for kafkajs) reads a 12-partition topic while a producer writes to it without
pause. Members join one by one, one leaves cleanly (SIGTERM), one is killed (SIGKILL: the broker must
expire its session), and a new one joins. At every stable point the members' own views and the
broker's (DescribeGroups) must agree: Stable, every partition assigned exactly once. At the end every
acknowledged message must have been consumed, and a message may have been consumed twice only if at
most one of its consumptions was committed (the at-least-once window after a kill or a failed commit).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka import KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

PARTITIONS = 12
STABLE_TIMEOUT_S = 45.0
NODE_DIR = Path(__file__).parent / "node"


@dataclass
class Worker:
    """One consumer process and what it reported."""

    name: str
    command: list[str]
    log_path: Path
    events: list[dict[str, Any]] = field(default_factory=list)
    process: subprocess.Popen[str] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Worker:
        with self.log_path.open("a") as log:
            self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=log, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("{"):
                with self._lock:
                    self.events.append(json.loads(line))

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.events)

    @property
    def assignment(self) -> frozenset[int] | None:
        assigned = [e["partitions"] for e in self.snapshot() if e["event"] == "assigned"]
        return frozenset(assigned[-1]) if assigned else None

    def assignment_events(self) -> int:
        return sum(1 for e in self.snapshot() if e["event"] == "assigned")

    def log_tail(self, limit: int = 6000) -> str:
        """The worker's stderr tail and its last events, for a failure message."""
        try:
            stderr = self.log_path.read_text(errors="replace")[-limit:]
        except OSError:
            stderr = "(no worker log)"
        return f"{stderr}\nlast events: {self.snapshot()[-5:]}"

    def consumed(self) -> set[tuple[int, int]]:
        return {(p, o) for e in self.snapshot() if e["event"] == "records" for p, o, _ in e["items"]}

    def terminate(self) -> None:
        """A clean stop: the consumer closes and leaves the group."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(30)

    def kill(self) -> None:
        """A crash: no LeaveGroup, no last commit."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(30)


WorkerFactory = Callable[[str, dict[str, Any]], Worker]


def python_worker(client: str, log_dir: Path) -> WorkerFactory:
    def make(name: str, settings: dict[str, Any]) -> Worker:
        command = [sys.executable, "-m", "compat_tests.groupworker", json.dumps({"client": client, **settings})]
        return Worker(name, command, log_dir / f"{name}.log")

    return make


def kafkajs_worker(log_dir: Path) -> WorkerFactory:
    def make(name: str, settings: dict[str, Any]) -> Worker:
        command = ["node", str(NODE_DIR / "groups_worker.js"), json.dumps(settings)]
        return Worker(name, command, log_dir / f"{name}.log")

    return make


class Producer(threading.Thread):
    """Writes to every partition in turn, without pause, until stopped; keeps what was acknowledged."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        super().__init__(daemon=True)
        self._producer = KafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=False, acks=1, linger_ms=5)
        self._topic = topic
        self._halt = threading.Event()
        self.acked: dict[tuple[int, int], str] = {}
        self.failure: BaseException | None = None

    def run(self) -> None:
        sequence = 0
        try:
            while not self._halt.is_set():
                futures = []
                for _ in range(2 * PARTITIONS):
                    value = f"m-{sequence}"
                    partition = sequence % PARTITIONS
                    futures.append((value, self._producer.send(self._topic, value.encode(), partition=partition)))
                    sequence += 1
                self._producer.flush(10)
                for value, future in futures:
                    metadata = future.get(10)
                    self.acked[(metadata.partition, metadata.offset)] = value
                time.sleep(0.05)
        except BaseException as exc:  # reported by the test
            self.failure = exc
        finally:
            self._producer.close(5)

    def stop(self) -> dict[tuple[int, int], str]:
        self._halt.set()
        self.join(30)
        if self.failure is not None:
            raise AssertionError(f"the producer failed: {self.failure!r}")
        return self.acked


@dataclass
class Scenario:
    bootstrap: str
    make_worker: WorkerFactory
    settings: dict[str, Any]
    admin: KafkaAdminClient
    topic: str = field(default_factory=lambda: f"groups-{uuid.uuid4().hex[:8]}")
    group: str = field(default_factory=lambda: f"group-{uuid.uuid4().hex[:8]}")
    workers: list[Worker] = field(default_factory=list)
    stable_points: list[dict[str, frozenset[int]]] = field(default_factory=list)

    def create_topic(self) -> None:
        self.admin.create_topics([NewTopic(self.topic, PARTITIONS, 1)])

    def start_worker(self, name: str, **extra: Any) -> Worker:
        settings = {"bootstrap": self.bootstrap, "topic": self.topic, "group": self.group, **self.settings, **extra}
        worker = self.make_worker(name, settings).start()
        self.workers.append(worker)
        return worker

    def wait_stable(self, members: Sequence[Worker]) -> dict[str, frozenset[int]]:
        """Wait until the members' views and the broker's agree on a complete, disjoint assignment."""
        deadline = time.monotonic() + STABLE_TIMEOUT_S
        last = ""
        while time.monotonic() < deadline:
            views = {w.name: w.assignment for w in members}
            broker = broker_assignments(self.admin, self.group)
            last = f"members: {views}; broker: {broker}"
            settled = {name: view for name, view in views.items() if view is not None}
            agreed = broker is not None and sorted(broker.values(), key=sorted) == sorted(settled.values(), key=sorted)
            if agreed and _complete_and_disjoint(list(views.values())):
                self.stable_points.append(settled)
                return settled
            time.sleep(0.2)
        raise AssertionError(f"no stable point with {[w.name for w in members]} in {STABLE_TIMEOUT_S}s: {last}")

    def stop_all(self) -> None:
        for worker in self.workers:
            worker.terminate()


def _complete_and_disjoint(views: Sequence[frozenset[int] | None]) -> bool:
    if any(view is None or not view for view in views):
        return False
    total = sum(len(view) for view in views if view is not None)
    union = frozenset().union(*(view for view in views if view is not None))
    return total == PARTITIONS and union == frozenset(range(PARTITIONS))


def broker_assignments(admin: KafkaAdminClient, group: str) -> dict[str, frozenset[int]] | None:
    """The broker's view of a Stable group (member id -> partitions), or None while it is not Stable."""
    described = admin.describe_groups([group])[group]
    if described["group_state"] != "Stable":
        return None
    views = {}
    for member in described["members"]:
        assignment = member["member_assignment"] or {}
        partitions = [p for entry in assignment.get("assigned_partitions", []) for p in entry["partitions"]]
        views[member["member_id"]] = frozenset(partitions)
    return views


def wait_all_consumed(acked: dict[tuple[int, int], str], workers: Sequence[Worker], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    missing: set[tuple[int, int]] = set(acked)
    while time.monotonic() < deadline:
        consumed: set[tuple[int, int]] = set().union(*(w.consumed() for w in workers))
        missing = set(acked) - consumed
        if not missing:
            return
        time.sleep(0.2)
    raise AssertionError(f"{len(missing)} acknowledged messages never consumed, e.g. {sorted(missing)[:10]}")


def check_accounting(acked: dict[tuple[int, int], str], workers: Sequence[Worker]) -> dict[str, int]:
    """Values as produced; a message consumed twice at most once committed. Returns counts for the report."""
    committed_counts: dict[tuple[int, int], list[bool]] = {}
    for worker in workers:
        pending: list[tuple[int, int]] = []
        outcomes: dict[int, bool] = {}  # index in pending -> committed
        for event in worker.snapshot():
            if event["event"] == "records":
                for partition, offset, value in event["items"]:
                    assert acked.get((partition, offset), value) == value, f"{worker.name} read a wrong value"
                    pending.append((partition, offset))
            elif event["event"] == "committed":
                marks = {int(p): o for p, o in event["offsets"].items()}
                for index, (partition, offset) in enumerate(pending):
                    if index not in outcomes and partition in marks and offset < marks[partition]:
                        outcomes[index] = True
        for index, key in enumerate(pending):
            committed_counts.setdefault(key, []).append(outcomes.get(index, False))
    twice_committed = {key for key, flags in committed_counts.items() if sum(flags) > 1}
    assert not twice_committed, f"messages consumed again after a commit: {sorted(twice_committed)[:10]}"
    duplicates = sum(1 for flags in committed_counts.values() if len(flags) > 1)
    return {"acked": len(acked), "consumed": len(committed_counts), "redelivered": duplicates}


def run_membership_scenario(scenario: Scenario) -> dict[str, int]:
    """Join one by one, a clean leave, a kill, a newcomer; then account for every message."""
    scenario.create_topic()
    producer = Producer(scenario.bootstrap, scenario.topic)
    producer.start()
    try:
        first = scenario.start_worker("w1")
        scenario.wait_stable([first])
        second = scenario.start_worker("w2")
        scenario.wait_stable([first, second])
        third = scenario.start_worker("w3")
        scenario.wait_stable([first, second, third])
        first.terminate()
        scenario.wait_stable([second, third])
        second.kill()
        scenario.wait_stable([third])
        fourth = scenario.start_worker("w4")
        scenario.wait_stable([third, fourth])
    finally:
        acked = producer.stop()
    try:
        wait_all_consumed(acked, scenario.workers)
    finally:
        scenario.stop_all()
    return check_accounting(acked, scenario.workers)


def run_static_restart_scenario(scenario: Scenario) -> None:
    """Two static members; one is killed and restarted at once: same partitions, and no rebalance."""
    scenario.create_topic()
    try:
        first = scenario.start_worker("s1", instance_id="static-1")
        second = scenario.start_worker("s2", instance_id="static-2")
        settled = scenario.wait_stable([first, second])
        events_before = second.assignment_events()
        first.kill()
        again = scenario.start_worker("s1-again", instance_id="static-1")
        after = scenario.wait_stable([again, second])
        assert after["s1-again"] == settled["s1"] and after["s2"] == settled["s2"]
        time.sleep(1.0)  # a rebalance, had there been one, would have reached s2 by now
        assert second.assignment_events() == events_before, "the other static member saw a rebalance"
    finally:
        scenario.stop_all()


def run_join_leave_scenario(scenario: Scenario) -> None:
    """A shorter check of an assignor: two members share the topic, then one leaves and the other takes all."""
    scenario.create_topic()
    try:
        first = scenario.start_worker("a1")
        second = scenario.start_worker("a2")
        scenario.wait_stable([first, second])
        first.terminate()
        assert scenario.wait_stable([second]) == {"a2": frozenset(range(PARTITIONS))}
    finally:
        scenario.stop_all()


#: Broker settings for group tests: short sessions allowed, a short initial rebalance delay.
GROUP_BROKER_SETTINGS = {"group.min.session.timeout.ms": "1000", "group.initial.rebalance.delay.ms": "300"}
#: Consumer settings: a kill is noticed within the session timeout.
CONSUMER_SETTINGS: dict[str, Any] = {"session_timeout_ms": 4000, "heartbeat_interval_ms": 500}
