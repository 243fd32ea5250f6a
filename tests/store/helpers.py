"""Test helpers for the store: record batches built by kafka-python, small store configs, a reference model."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.core_pyx.records import read_records
from rockafka.store import MessageStore, StoreConfig

CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def build_batch(
    records: list[tuple[bytes | None, bytes | None]],
    *,
    timestamps: list[int] | None = None,
    codec: int = 0,
    producer_id: int = -1,
) -> bytes:
    """One RecordBatch v2 (base offset 0) as kafka-python's producer would send it."""
    builder = DefaultRecordBatchBuilder(
        magic=2,
        compression_type=codec,
        is_transactional=0,
        producer_id=producer_id,
        producer_epoch=0 if producer_id >= 0 else -1,
        base_sequence=0 if producer_id >= 0 else -1,
        batch_size=1 << 24,
    )
    stamps = timestamps or [1_000 + i for i in range(len(records))]
    for delta, ((key, value), stamp) in enumerate(zip(records, stamps, strict=True)):
        builder.append(delta, timestamp=stamp, key=key, value=value, headers=[])
    return bytes(builder.build())


def append(store: MessageStore, topic: str, partition: int, *batches: bytes) -> Any:
    buffer = b"".join(batches)
    return store.records.append(topic, partition, buffer, validate_batches(buffer))


def small_config(root: Path, **overrides: Any) -> StoreConfig:
    settings: dict[str, Any] = {
        "commitlog_segment_bytes": 8192,
        "consume_queue_units_per_file": 4,
        "index_slot_count": 16,
        "index_entry_count": 64,
        "preallocate": False,
        "flush_interval_ms": 50,
        "checkpoint_interval_ms": 60_000,
    }
    settings.update(overrides)
    return StoreConfig(root, **settings)


def with_base_offset(batch: bytes, base_offset: int) -> bytes:
    return struct.pack(">q", base_offset) + batch[8:]


def decoded(batches: tuple[memoryview, ...]) -> list[tuple[int, int, bytes | None, bytes | None]]:
    return [(r.offset, r.timestamp, r.key, r.value) for view in batches for r in read_records(view)]


@dataclass
class PartitionModel:
    """Expected contents of one partition: batches (as stored bytes) and the log start offset."""

    batches: list[tuple[int, bytes]] = field(default_factory=list)  # (base offset, stored bytes)
    next_offset: int = 0
    log_start: int = 0

    def add(self, batch: bytes, record_count: int) -> int:
        base = self.next_offset
        self.batches.append((base, with_base_offset(batch, base)))
        self.next_offset += record_count
        return base

    def add_at(self, batch: bytes, base: int, record_count: int) -> None:
        """A batch copied at its own ``base`` offset (``keptoffsets.py``): the offsets between are a gap."""
        self.batches.append((base, with_base_offset(batch, base)))
        self.next_offset = base + record_count

    def expected_read(self, fetch_offset: int, max_bytes: int) -> list[bytes]:
        out: list[bytes] = []
        total = 0
        for base, data in self.batches:
            count = struct.unpack_from(">i", data, 23)[0] + 1
            if base + count <= fetch_offset:
                continue
            if out and total + len(data) > max_bytes:
                break
            out.append(data)
            total += len(data)
        return out

    def records(self) -> list[tuple[int, int, bytes | None, bytes | None]]:
        found = []
        for _, data in self.batches:
            found.extend((r.offset, r.timestamp, r.key, r.value) for r in read_records(data))
        return [r for r in found if r[0] >= self.log_start]

    def first_at_or_after(self, timestamp: int) -> tuple[int, int] | None:
        for offset, stamp, _, _ in self.records():
            if stamp >= timestamp:
                return offset, stamp
        return None
