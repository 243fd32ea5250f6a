"""Building blocks of the transaction compat tests: the broker settings, input topics written plainly, a
consume-transform-produce worker run in a child process (``txnworker.py`` or the kafkajs script), and the
output read back with either isolation level by kafka-python (a client independent of the ones under test).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

from .clients.kafkajs_driver import NODE_DIR

#: Timed-out transactions are looked for every half second (Kafka's default is 10 s); short group sessions.
TXN_BROKER_SETTINGS = {
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500",
    "group.min.session.timeout.ms": "1000",
    "group.initial.rebalance.delay.ms": "0",
}
WORKER_TIMEOUT_S = 90.0
PREFIX = b"T:"
ROOT = Path(__file__).resolve().parent.parent


def create_topics(bootstrap: str, **partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(name, count, 1) for name, count in partitions.items()])
    finally:
        admin.close()


def write_input(bootstrap: str, topic: str, count: int, partitions: int) -> list[bytes]:
    """``count`` records ``in-00000``... spread over the partitions, written without transactions."""
    values = [f"in-{i:05d}".encode() for i in range(count)]
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    try:
        for index, value in enumerate(values):
            producer.send(topic, value, key=str(index).encode(), partition=index % partitions)
        producer.flush(30)
    finally:
        producer.close(10)
    return values


@dataclass
class WorkerRun:
    returncode: int
    events: list[dict[str, Any]]
    stderr: str

    @property
    def committed(self) -> int:
        return sum(e["count"] for e in self.events if e["event"] == "committed")

    @property
    def aborted(self) -> int:
        return sum(e["count"] for e in self.events if e["event"] == "aborted")

    @property
    def left_open(self) -> int:
        """Records acknowledged in the transaction the worker left open when it killed itself."""
        return sum(e["count"] for e in self.events if e["event"] == "crashing")

    @property
    def done(self) -> bool:
        return any(e["event"] == "done" for e in self.events)


def run_worker(client: str, settings: dict[str, Any]) -> WorkerRun:
    """Run one worker to its end (or its crash), bounded by ``WORKER_TIMEOUT_S``."""
    base = {"batch": 7, "abort_every": 3, "crash_after": None, "transaction_timeout_ms": 20_000}
    payload = json.dumps({**base, **settings, "client": client})
    if client == "kafkajs":
        command = ["node", str(NODE_DIR / "txn_worker.js"), payload]
        cwd = NODE_DIR
    else:
        command = [sys.executable, "-m", "compat_tests.txnworker", payload]
        cwd = ROOT
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = process.communicate(timeout=WORKER_TIMEOUT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    events = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    return WorkerRun(process.returncode, events, stderr[-4000:])


def read_all(bootstrap: str, topic: str, partitions: int, *, committed: bool) -> list[bytes]:
    """Every record value of ``topic`` up to its end for the isolation level (the LSO for read_committed)."""
    level = "read_committed" if committed else "read_uncommitted"
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, isolation_level=level,
                             consumer_timeout_ms=2000)  # fmt: skip
    try:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        ends = consumer.end_offsets(tps)
        values: list[bytes] = []
        deadline = time.monotonic() + 30
        while any(consumer.position(tp) < ends[tp] for tp in tps) and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                values.extend(record.value for record in records)
        assert all(consumer.position(tp) >= ends[tp] for tp in tps), "the output was not read to its end in time"
        return values
    finally:
        consumer.close()


def end_offsets(bootstrap: str, topic: str, partitions: int, *, committed: bool) -> list[int]:
    level = "read_committed" if committed else "read_uncommitted"
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, isolation_level=level)
    try:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        ends = consumer.end_offsets(tps)
        return [ends[tp] for tp in tps]
    finally:
        consumer.close()


def committed_offsets(bootstrap: str, group: str, topic: str, partitions: int) -> list[int | None]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False)
    try:
        return [consumer.committed(TopicPartition(topic, p)) for p in range(partitions)]
    finally:
        consumer.close()


def assert_exactly_once(bootstrap: str, inputs: list[bytes], output: str, out_partitions: int) -> Counter[bytes]:
    """read_committed output is the transformed input, each record once; returns the read_uncommitted surplus
    (records of aborted transactions, visible to read_uncommitted only)."""
    committed = read_all(bootstrap, output, out_partitions, committed=True)
    expected = [PREFIX + value for value in inputs]
    assert Counter(committed) == Counter(expected), _difference(committed, expected)
    uncommitted = read_all(bootstrap, output, out_partitions, committed=False)
    surplus = Counter(uncommitted) - Counter(committed)
    assert Counter(uncommitted) - surplus == Counter(committed)
    return surplus


def _difference(got: list[bytes], expected: list[bytes]) -> str:
    missing = Counter(expected) - Counter(got)
    extra = Counter(got) - Counter(expected)
    return (
        f"missing {sorted(missing)[:10]} ({sum(missing.values())}), extra {sorted(extra)[:10]} ({sum(extra.values())})"
    )
