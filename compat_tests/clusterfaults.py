"""Faults under load on a ``rockafka.testing.Cluster``, and the checker of what was acknowledged.

Used by ``compat_tests/test_cluster_faults.py`` (one short round in CI) and ``bench/cluster_faults.py`` (many
rounds). The load, all from this process:

- :class:`AckedProducer`: confluent-kafka, ``enable.idempotence`` and ``acks=all``, message ``seq`` (its value,
  ``b"<seq>"``) to partition ``seq % partitions``, at a fixed rate; every delivery report is kept.
- :class:`GroupReader`: a confluent-kafka consumer group member (auto commit) reading on its own thread.

A schedule (from a seed, printed) of faults: ``kill-broker`` (SIGKILL a broker that is not the controller, start
it again), ``kill-controller`` (the same to the controller), ``pause-broker`` (SIGSTOP a broker past its
lease TTL, then SIGCONT: it must register again and serve) and ``restart-etcd`` (stop etcd by its PID for a
second, start it again: the load must not notice). After the load, :func:`check` reads every
partition from the start with a fresh consumer and requires: every acknowledged record is in the log at its
acknowledged offset, exactly once (no value twice: the idempotent producer's retries across a broker's
restart are deduplicated) and in order (values increase along each partition); no failed delivery; every
partition took records after the last fault (the killed and paused brokers serve again); and the group read
every acknowledged record (at least once: a rebalance may re-deliver).
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Final

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition

from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.testing import Cluster

from .clients.wire import RawClient

FAULTS: Final = ("kill-broker", "kill-controller", "pause-broker", "restart-etcd")
#: Bounds of every wait in a run (a broker's restart, the producer's flush, reading back).
WAIT_S: Final = 90.0


def schedule(seed: int, rounds: int) -> list[str]:
    """``rounds`` times every fault, each round in the order the seed draws."""
    rng = random.Random(seed)
    return [fault for _ in range(rounds) for fault in rng.sample(FAULTS, len(FAULTS))]


@dataclass
class AckedProducer:
    """Produces ``seq`` = 0, 1, ... at ``rate`` a second on its own thread until stopped; keeps the reports."""

    cluster: Cluster
    topic: str
    partitions: int
    rate: int = 200
    acked: dict[int, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    failed: list[str] = field(default_factory=list)
    sent: int = 0

    def __post_init__(self) -> None:
        self._producer = Producer(
            {
                "bootstrap.servers": self.cluster.bootstrap,
                "enable.idempotence": True,
                "acks": "all",
                "linger.ms": 5,
                "message.timeout.ms": int(WAIT_S * 1000),
            }
        )
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _report(self, error: KafkaError | None, message: Message) -> None:
        if error is not None:
            self.failed.append(f"seq {message.value()!r}: {error}")
        else:
            self.acked[message.partition()].append((message.offset(), int(message.value())))

    def _run(self) -> None:
        deadline = time.monotonic() + 20 * WAIT_S  # bounded even if never stopped
        while not self._stopping.is_set() and time.monotonic() < deadline:
            seq = self.sent
            try:
                self._producer.produce(
                    self.topic, value=str(seq).encode(), partition=seq % self.partitions, on_delivery=self._report
                )
            except BufferError:  # the local queue is full while a leader is down: wait for reports
                self._producer.poll(0.1)
                continue
            self.sent += 1
            self._producer.poll(0)
            time.sleep(1 / self.rate)

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(WAIT_S)
        left = self._producer.flush(WAIT_S)
        if left:
            self.failed.append(f"{left} records neither acknowledged nor failed after {WAIT_S}s")

    def acked_since(self, seq: int) -> set[int]:
        """The partitions that acknowledged a record numbered ``seq`` or later."""
        return {partition for partition, acks in self.acked.items() if any(value >= seq for _, value in acks)}


class GroupReader:
    """One member of a consumer group, polling on its own thread until stopped."""

    def __init__(self, cluster: Cluster, topic: str, group: str) -> None:
        self._read: set[tuple[int, int]] = set()  # (partition, value)
        self._lock = threading.Lock()
        self.error: str | None = None
        self._consumer = Consumer(
            {"bootstrap.servers": cluster.bootstrap, "group.id": group, "auto.offset.reset": "earliest"}
        )
        self._consumer.subscribe([topic])
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        deadline = time.monotonic() + 20 * WAIT_S
        while not self._stopping.is_set() and time.monotonic() < deadline:
            message = self._consumer.poll(0.2)
            if message is None:
                continue
            if message.error() is not None:
                if not message.error().retriable():
                    self.error = str(message.error())
                continue
            with self._lock:
                self._read.add((message.partition(), int(message.value())))

    def read(self) -> set[tuple[int, int]]:
        """(partition, value) of every record read so far (a copy: the reader thread goes on adding)."""
        with self._lock:
            return set(self._read)

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(WAIT_S)
        self._consumer.close()


def controller_of(cluster: Cluster) -> int:
    """The controller, as a live broker's Metadata names it."""
    for broker in cluster.brokers.values():
        if broker.running:
            with RawClient(broker.bootstrap) as raw:
                return raw.request(MetadataRequest(topics=[]), 12, MetadataResponse).controller_id
    raise AssertionError("no broker is running")


def inject(cluster: Cluster, fault: str, rng: random.Random, lease_ttl_s: float) -> int:
    """Apply ``fault`` and bring the cluster back; the node it hit (0: etcd)."""
    if fault == "restart-etcd":
        cluster.etcd.stop()
        time.sleep(1.0)
        cluster.etcd.start()
        cluster.wait_ready(timeout_s=WAIT_S)
        return 0
    controller = controller_of(cluster)
    node = controller if fault == "kill-controller" else rng.choice([n for n in cluster.brokers if n != controller])
    if fault == "pause-broker":
        cluster.pause(node)
        time.sleep(lease_ttl_s + 1.0)  # past its lease: the cluster drops it
        cluster.resume(node)
    else:
        cluster.restart(node)  # SIGKILL, then a start once its registration expired (a live one is refused)
    cluster.wait_ready(timeout_s=WAIT_S)
    return node


def read_log(cluster: Cluster, topic: str, partitions: int) -> dict[int, list[tuple[int, int]]]:
    """Every record of ``topic`` as (offset, value) per partition, read from the start up to the high watermarks."""
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "unused", "enable.auto.commit": False})
    try:
        ends = {
            p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=WAIT_S)[1] for p in range(partitions)
        }
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        log: dict[int, list[tuple[int, int]]] = defaultdict(list)
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and any(
            (log[p][-1][0] + 1 if log[p] else 0) < ends[p] for p in range(partitions)
        ):
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                log[message.partition()].append((message.offset(), int(message.value())))
        return log
    finally:
        consumer.close()


def check(
    log: dict[int, list[tuple[int, int]]], producer: AckedProducer, readers: list[GroupReader], after_faults: int
) -> list[str]:
    """What went wrong (empty: nothing); see the module docstring for the rules."""
    problems = list(producer.failed)
    for partition, records in sorted(log.items()):
        values = [value for _, value in records]
        if len(set(values)) != len(values):
            problems.append(f"partition {partition}: a record is in the log twice")
        if values != sorted(values):
            problems.append(f"partition {partition}: records out of order")
    for partition, acks in sorted(producer.acked.items()):
        written = dict(log.get(partition, []))
        lost = [(offset, value) for offset, value in acks if written.get(offset) != value]
        if lost:
            problems.append(f"partition {partition}: {len(lost)} acknowledged records missing, first {lost[0]}")
    silent = set(range(producer.partitions)) - producer.acked_since(after_faults)
    if silent:
        problems.append(f"partitions {sorted(silent)} took no record after the last fault")
    seen = set().union(*(reader.read() for reader in readers))
    unread = {(p, value) for p, acks in producer.acked.items() for _, value in acks} - seen
    if unread:
        problems.append(f"the group never read {len(unread)} acknowledged records, first {min(unread)}")
    problems.extend(f"group member: {reader.error}" for reader in readers if reader.error)
    return problems


def _acked_pairs(producer: AckedProducer) -> set[tuple[int, int]]:
    return {(partition, value) for partition, acks in producer.acked.items() for _, value in acks}


def run(cluster: Cluster, topic: str, partitions: int, seed: int, rounds: int, settle_s: float) -> list[str]:
    """The faults of ``schedule(seed, rounds)`` under the load, ``settle_s`` apart; the checker's problems.

    The topic must exist with ``partitions`` partitions. Prints the seed, the schedule and each fault's node."""
    faults = schedule(seed, rounds)
    print(f"cluster faults: seed {seed}, schedule {faults}", flush=True)
    rng = random.Random(seed)
    lease_ttl_s = int(cluster.brokers[1].settings["rockafka.cluster.lease.ttl.ms"]) / 1000
    producer = AckedProducer(cluster, topic, partitions)
    readers = [GroupReader(cluster, topic, f"{topic}-group") for _ in range(2)]
    try:
        time.sleep(settle_s)
        for fault in faults:
            node = inject(cluster, fault, rng, lease_ttl_s)
            print(f"cluster faults: {fault} hit node {node} at seq {producer.sent}", flush=True)
            time.sleep(settle_s)
        after_faults = producer.sent
        time.sleep(settle_s)  # every partition takes records again
    finally:
        producer.stop()
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and not _acked_pairs(producer) <= set().union(*(r.read() for r in readers)):
            time.sleep(0.2)
        for reader in readers:
            reader.stop()
    log = read_log(cluster, topic, partitions)
    print(f"cluster faults: {producer.sent} sent, {sum(map(len, producer.acked.values()))} acknowledged", flush=True)
    return check(log, producer, readers, after_faults)
