"""RecordBatch v2 blobs built offline by real clients' own builders (kafka-python 3.0.12, aiokafka 0.14).

Rockafka's kernels are tested against these, never against batches built by Rockafka itself.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import crc32c
from aiokafka.record.default_records import DefaultRecordBatchBuilder as AiokafkaBuilder
from kafka.record.default_records import DefaultRecordBatchBuilder as KafkaPythonBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder

CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


class Rec(NamedTuple):
    """One record to append: what a producer hands its batch builder."""

    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]
    timestamp: int


class Producer(NamedTuple):
    """Idempotent/transactional producer state stamped on a batch (-1s: a plain producer)."""

    producer_id: int = -1
    producer_epoch: int = -1
    base_sequence: int = -1
    transactional: bool = False


PLAIN = Producer()


def sample_records(count: int = 3, value_size: int = 100) -> list[Rec]:
    return [
        Rec(
            key=None if i % 3 == 2 else f"key-{i}".encode(),
            value=None if i % 5 == 4 else bytes((i + j) % 251 for j in range(value_size)),
            headers=[("trace", f"t{i}".encode()), ("empty", None)] if i % 2 else [],
            timestamp=1_700_000_000_000 + 7 * i,
        )
        for i in range(count)
    ]


def _build(builder: Any, codec: int, records: Sequence[Rec]) -> bytes:
    for offset, rec in enumerate(records):
        builder.append(offset, timestamp=rec.timestamp, key=rec.key, value=rec.value, headers=rec.headers)
    batch = bytes(builder.build())
    # Builders silently fall back to no compression when it does not pay: make sure tests get what they ask for.
    assert batch[22] & 0x07 == codec, f"builder wrote codec {batch[22] & 0x07}, not {codec}: use larger values"
    return batch


def kafka_python_batch(codec: int, records: Sequence[Rec], producer: Producer = PLAIN) -> bytes:
    builder = KafkaPythonBuilder(
        magic=2,
        compression_type=codec,
        is_transactional=producer.transactional,
        producer_id=producer.producer_id,
        producer_epoch=producer.producer_epoch,
        base_sequence=producer.base_sequence,
        batch_size=1 << 30,
    )
    return _build(builder, codec, records)


def aiokafka_batch(codec: int, records: Sequence[Rec], producer: Producer = PLAIN) -> bytes:
    builder = AiokafkaBuilder(
        2,
        codec,
        int(producer.transactional),
        producer.producer_id,
        producer.producer_epoch,
        producer.base_sequence,
        1 << 30,
    )
    return _build(builder, codec, records)


BUILDERS: dict[str, Callable[[int, Sequence[Rec]], bytes]] = {
    "kafka-python": kafka_python_batch,
    "aiokafka": aiokafka_batch,
}


def legacy_message_set(magic: int, count: int = 2) -> bytes:
    """A magic 0 or 1 message set, as kafka-python writes it for brokers older than 0.11."""
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=0, batch_size=1 << 20)
    for offset in range(count):
        builder.append(offset, timestamp=1_700_000_000_000 if magic else None, key=b"k", value=b"v")
    return bytes(builder.build())


def resign(batch: bytearray, pos: int = 0) -> bytearray:
    """Recompute the CRC-32C of the batch at ``pos`` after a test edited it (independent crc32c package)."""
    (length,) = struct.unpack_from(">i", batch, pos + 8)
    struct.pack_into(">I", batch, pos + 17, crc32c.crc32c(bytes(batch[pos + 21 : pos + 12 + length])))
    return batch
