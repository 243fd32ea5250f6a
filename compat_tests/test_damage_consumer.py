"""A librdkafka consumer reads a damaged store: it gets every intact record, nothing else, and is never stalled.

confluent-kafka produces to three partitions of a broker process with 1 MiB CommitLog segments, the broker
stops, the store is damaged the way the issue found it damaged, and after a restart a confluent-kafka
consumer assigned to every partition from the beginning reads to the high watermark. The oracle is computed
from the bytes: a record is intact when its whole CommitLog record is unchanged by the damage.

- ``segment cut short``: the second CommitLog segment truncated mid-record, the checkpoint present (the
  high watermark stayed and zeros were served as batches; librdkafka aborted on them);
- ``commitlog flipped, no checkpoint``: one byte of a record in the middle flipped and the checkpoint
  deleted (recovery cut the shared log there: every partition lost everything after it);
- ``consumequeue flipped``: bytes flipped in the middle of a ConsumeQueue file (records unreadable, the
  high watermark lowered, a consumer stalled).
"""

from __future__ import annotations

import os
import struct
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka import TopicPartition as ConfluentPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.core_pyx.records import read_records
from rockafka.store.quarantine import read_losses

from .brokerproc import BrokerProcess

PARTITIONS = 3
PER_PARTITION = 1200
SEGMENT = 1 << 20


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path / "broker", {"log.segment.bytes": str(SEGMENT)}).start()
    try:
        yield process
    finally:
        process.kill()


def _produce(bootstrap: str, topic: str) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 16384, "acks": "all"})
    for partition in range(PARTITIONS):
        for n in range(PER_PARTITION):
            producer.produce(topic, value=b"%d-%d-" % (partition, n) + b"x" * 900, partition=partition)
            producer.poll(0)
    assert producer.flush(30) == 0


def _records(commitlog: Path) -> dict[int, tuple[bytes, list[bytes]]]:
    """physical offset -> (the record's bytes, the values of its records), for every record of the CommitLog."""
    found = {}
    for segment in sorted(commitlog.iterdir()):
        data, start, pos = segment.read_bytes(), int(segment.name), 0
        while pos + 8 <= len(data):
            size, magic = struct.unpack_from(">iI", data, pos)
            if size == 0 or magic != 0x524B4331:
                break
            found[start + pos] = (
                data[pos : pos + size],
                [r.value or b"" for r in read_records(data[pos + 64 : pos + size])],
            )
            pos += size
    return found


def _intact_values(before: dict[int, tuple[bytes, list[bytes]]], commitlog: Path) -> set[bytes]:
    values = set()
    for physical, (record, record_values) in before.items():
        segment = commitlog / f"{physical - physical % SEGMENT:020d}"
        if segment.exists():
            with open(segment, "rb") as file:
                file.seek(physical % SEGMENT)
                if file.read(len(record)) == record:
                    values.update(record_values)
    return values


def _flip(path: Path, at: int, count: int = 1) -> None:
    with open(path, "r+b") as file:
        for i in range(count):
            file.seek(at + 97 * i)
            byte = file.read(1)
            file.seek(at + 97 * i)
            file.write(bytes([byte[0] ^ 0x10]))


def _damage(data: Path, how: str, before: dict[int, tuple[bytes, list[bytes]]]) -> None:
    segments = sorted((data / "commitlog").iterdir())
    if how == "segment cut short":
        os.truncate(segments[1], SEGMENT // 2 + 11)
    elif how == "commitlog flipped, no checkpoint":
        middle = sorted(before)[len(before) // 2]
        _flip(segments[middle // SEGMENT], middle % SEGMENT + 64 + 200)
        (data / "checkpoint").unlink()
    else:
        queue = sorted(p for p in (data / "consumequeue").rglob("*") if p.is_file() and p.stat().st_size)[0]
        _flip(queue, 64 * 7 + 3, count=3)


def _consume(bootstrap: str, topic: str) -> list[bytes]:
    """Every record a consumer assigned to each partition from offset 0 gets until it reaches every high
    watermark (it must, within a minute: a stalled consumer fails the test)."""
    consumer = Consumer({
        "bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex}", "enable.auto.commit": False,
        "auto.offset.reset": "earliest",  # records lost at a partition's start move its log start past them
    })  # fmt: skip
    try:
        consumer.assign([ConfluentPartition(topic, p, 0) for p in range(PARTITIONS)])
        marks = {p: consumer.get_watermark_offsets(ConfluentPartition(topic, p), timeout=10) for p in range(PARTITIONS)}
        got: list[bytes] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for message in consumer.consume(500, timeout=0.5):
                assert message.error() is None, message.error()
                got.append(message.value())
            positions = consumer.position([ConfluentPartition(topic, p) for p in range(PARTITIONS)])
            if all(tp.offset >= marks[tp.partition][1] for tp in positions):
                return got
        raise AssertionError(f"the consumer stalled below the high watermarks {marks}: {positions}")
    finally:
        consumer.close()


@pytest.mark.parametrize("how", ["segment cut short", "commitlog flipped, no checkpoint", "consumequeue flipped"])
def test_a_consumer_gets_every_intact_record_after_damage(broker: BrokerProcess, how: str) -> None:
    topic = f"damage-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(10)
    _produce(broker.bootstrap, topic)
    broker.stop()
    data = broker.data_dir
    before = _records(data / "commitlog")
    assert len({p // SEGMENT for p in before}) >= 3
    _damage(data, how, before)
    intact = _intact_values(before, data / "commitlog")
    broker.start()
    got = _consume(broker.bootstrap, topic)
    assert len(got) == len(set(got)), "a record was served twice"
    produced = {b"%d-%d-" % (p, n) + b"x" * 900 for p in range(PARTITIONS) for n in range(PER_PARTITION)}
    assert set(got) <= produced, "a damaged record was served"
    assert intact <= set(got), f"{len(intact - set(got))} intact records were not served"
    if how != "consumequeue flipped":
        assert len(intact) < len(produced)
        losses = read_losses(data / "quarantine")
        assert losses and all(loss.source == "commitlog" for loss in losses)
        assert "store damage" in broker.log_text()
