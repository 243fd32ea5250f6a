"""What every scenario gets: the broker under test, a fresh topic on demand, a meter, and the read-back that
checks a produce run; and what it gives back: a :class:`Measurement`, or one of the two exceptions that
turn a run into "FAIL" (:class:`VerificationError`) or "n/a" (:class:`NotAvailable`)."""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from bench.suite.meter import Meter, Usage
from bench.suite.payload import Ledger, VerificationError
from bench.suite.wire import missing_group_apis

__all__ = ["Context", "Measurement", "NotAvailable", "VerificationError"]

GROUP_TIMEOUTS = {"session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}
"""Every group scenario uses these on every broker: Tansu holds a first join for session.timeout/2."""


class NotAvailable(Exception):
    """The broker does not offer what the scenario needs (for example consumer groups)."""


@dataclass(frozen=True, slots=True)
class Measurement:
    primary: float
    metrics: dict[str, float] = field(default_factory=dict)
    usage: Usage | None = None
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class Context:
    bootstrap: str
    broker_pid: int | None
    seconds: float
    scale: float
    workdir: Path
    meter_factory: Callable[[int | None], Meter] = Meter
    _topics: itertools.count[int] = field(default_factory=itertools.count)

    def meter(self) -> Meter:
        """The meter for the scenario's timed window (a profiler may stand in, see :mod:`profiles`)."""
        return self.meter_factory(self.broker_pid)

    def admin(self) -> AdminClient:
        return AdminClient({"bootstrap.servers": self.bootstrap, "socket.timeout.ms": 60_000})

    def topic(self, partitions: int, timeout_s: float = 120.0) -> str:
        """Create a fresh topic and wait until its metadata names a leader for every partition."""
        name = f"bench-{uuid.uuid4().hex[:10]}-{next(self._topics)}"
        admin = self.admin()
        futures = admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=timeout_s)
        futures[name].result(timeout_s)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            topic = admin.list_topics(name, timeout=timeout_s).topics.get(name)
            ready = topic is not None and topic.error is None and len(topic.partitions) == partitions
            if (
                ready
                and topic is not None
                and all(p.leader >= 0 and p.error is None for p in topic.partitions.values())
            ):
                return name
            time.sleep(0.2)
        raise VerificationError(f"topic {name} with {partitions} partitions never showed in metadata")

    def require_groups(self) -> None:
        missing = missing_group_apis(self.bootstrap)
        if missing:
            raise NotAvailable(f"broker does not answer {', '.join(missing)}")


def consumer(bootstrap: str, **settings: object) -> Consumer:
    conf: dict[str, object] = {
        "bootstrap.servers": bootstrap,
        "group.id": f"bench-{uuid.uuid4().hex[:8]}",
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "enable.partition.eof": False,
        **GROUP_TIMEOUTS,
    }
    conf.update(settings)
    return Consumer(conf)


def check(message: object) -> None:
    error = message.error()  # type: ignore[attr-defined]
    if error is not None and error.code() != KafkaError._PARTITION_EOF:
        raise VerificationError(f"consumer error: {error}")


def read_back(bootstrap: str, topic: str, ledger: Ledger) -> float:
    """Read the whole topic from the start into ``ledger``; seconds taken. Fails unless all came back once."""
    start = time.perf_counter()
    deadline = time.monotonic() + 30.0 + ledger.expected / 40_000
    reader = consumer(bootstrap, **{"fetch.wait.max.ms": 100})
    try:
        reader.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(ledger.partitions)])
        while not ledger.complete and time.monotonic() < deadline:
            for message in reader.consume(min(10_000, ledger.expected - ledger.count), 0.5):
                check(message)
                ledger.add(message.partition(), message.offset(), message.value())
        if not ledger.complete:
            raise VerificationError(ledger.missing())
        for message in reader.consume(10_000, 0.3):  # anything more would be a duplicate or a stranger
            check(message)
            ledger.add(message.partition(), message.offset(), message.value())
    finally:
        reader.close()
    return time.perf_counter() - start
