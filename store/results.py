"""Typed values that cross the ``MessageStore`` boundary: frozen slots dataclasses, never sentinels (the three
made on every append and every fetched partition, ``AppendResult``, ``ReadResult`` and ``PartitionOffsets``, are
named tuples: as immutable and typed, a third of the cost to build)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True, slots=True)
class TopicPartition:
    topic: str
    partition: int


@dataclass(frozen=True, slots=True)
class TopicInfo:
    """A topic as the store holds it: id, partition count and its Kafka configs (string values, as given)."""

    name: str
    topic_id: uuid.UUID
    partitions: int
    configs: Mapping[str, str]


class AppendResult(NamedTuple):
    """Where an append landed.

    ``durable`` is None under the async flush policy. Under ``sync`` it is a ``concurrent.futures.Future``
    that the flusher thread completes (result None) once the appended bytes are fsynced, or fails with
    ``StorageError``; wrap it with ``asyncio.wrap_future`` to await it. Appends of one group commit share
    it, so it refuses cancellation (cancelling an awaiting asyncio future leaves it alone).
    """

    topic: str
    partition: int
    base_offset: int
    last_offset: int
    #: The broker time written into LogAppendTime batches; None for CreateTime topics.
    log_append_time_ms: int | None
    log_start_offset: int
    #: Bytes of the appended batches (Kafka's log size accounting; store headers not counted).
    size_bytes: int
    durable: Future[None] | None

    @property
    def high_watermark(self) -> int:
        return self.last_offset + 1


class ReadResult(NamedTuple):
    """Whole stored RecordBatches as zero-copy ``memoryview`` slices of the mapped CommitLog.

    The first batch is returned even when it exceeds ``max_bytes``; a fetch offset in the middle of a batch
    returns that whole batch (clients skip records below their position). ``next_offset`` is the offset
    after the last returned batch (``fetch_offset`` when nothing was returned).
    """

    batches: tuple[memoryview, ...]
    size_bytes: int
    next_offset: int
    high_watermark: int
    log_start_offset: int


class PartitionOffsets(NamedTuple):
    log_start_offset: int
    high_watermark: int
    #: Bytes of the batches from the log start offset's batch to the end (DescribeLogDirs' partition size).
    size_bytes: int


class PartitionBounds(NamedTuple):
    """What a fetch answers for every partition, data or not."""

    high_watermark: int
    #: The first offset of the oldest open transaction, else the high watermark.
    last_stable_offset: int
    log_start_offset: int


@dataclass(frozen=True, slots=True)
class TimestampOffset:
    """An exact record: its offset and its timestamp (ListOffsets by time, or MAX_TIMESTAMP)."""

    offset: int
    timestamp: int


@dataclass(frozen=True, slots=True)
class KeyedRecord:
    """One record found by ``query_by_key``."""

    topic: str
    partition: int
    offset: int
    timestamp: int
    store_timestamp: int
    key: bytes
    value: bytes | None
    headers: tuple[tuple[str, bytes | None], ...]


@dataclass(frozen=True, slots=True)
class OffsetCommit:
    """One committed position, as a group coordinator hands it to ``store.offsets.commit``."""

    topic: str
    partition: int
    offset: int
    leader_epoch: int | None = None
    metadata: str = ""


@dataclass(frozen=True, slots=True)
class CommittedOffset:
    offset: int
    leader_epoch: int | None
    metadata: str
    commit_timestamp: int


@dataclass(frozen=True, slots=True)
class RetentionReport:
    deleted_segments: int
    freed_bytes: int
    #: Partitions whose log start offset moved (per-topic retention.ms / retention.bytes).
    log_start_moves: int


@dataclass(frozen=True, slots=True)
class CleanReport:
    """One published compaction pass: the offsets its compacted log now serves, and what it read and kept."""

    topic: str
    partition: int
    start_offset: int
    end_offset: int
    bytes_read: int
    bytes_written: int
    records_read: int
    records_kept: int


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What ``open`` found and repaired."""

    clean_shutdown: bool
    scan_from: int
    end_offset: int
    #: Why the log ended before its last written byte ("offset N: reason"), when a record was torn or corrupt.
    corrupt_record: str | None
    redispatched_batches: int
    #: Partitions whose ConsumeQueue was damaged and rebuilt from the CommitLog.
    rebuilt_partitions: tuple[TopicPartition, ...]
    removed_index_files: int
    #: CommitLog ranges [start, end) found damaged, skipped and quarantined (valid records after each were kept).
    damaged_ranges: tuple[tuple[int, int], ...] = ()
    #: Bytes of records lost in them (see the quarantine's ledger for the partitions and offsets).
    lost_bytes: int = 0


@dataclass(frozen=True, slots=True)
class OpenTransaction:
    """A transaction open on a partition: its producer and the offset of its first batch there."""

    producer_id: int
    producer_epoch: int
    first_offset: int


@dataclass(frozen=True, slots=True)
class AbortedTransaction:
    """An aborted transaction on a partition (Fetch's AbortedTransactions entry): its records start at
    ``first_offset`` and end before its ABORT marker."""

    producer_id: int
    first_offset: int


FLUSH_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the flush-time histogram's buckets (``StoreStats.flush_buckets``); +Inf is last."""


@dataclass(frozen=True, slots=True)
class StoreStats:
    """A snapshot of the store for monitoring (``MessageStore.stats``): cheap to take, nothing scanned."""

    #: Bytes from the CommitLog's first offset to its published end, and the segment files holding them.
    commitlog_bytes: int
    commitlog_segments: int
    #: CommitLog bytes published but not indexed yet (0 when the store keeps no IndexFiles).
    index_lag_bytes: int
    #: What stopped the index thread, or None while it runs.
    index_failure: str | None
    #: Why the store is offline (the I/O error that took it there), or None while it is online.
    offline_reason: str | None
    closed: bool
    #: Seconds ``MessageStore.open`` took: recovery included.
    open_seconds: float
    #: CommitLog positions: its first byte, the end of what readers see, what is fsynced, what is indexed.
    commitlog_min_offset: int = 0
    commitlog_published_offset: int = 0
    commitlog_synced_offset: int = 0
    indexed_offset: int = 0
    #: The flusher's rounds by fsync time, one count per bucket of ``FLUSH_BUCKETS`` (+Inf last), and
    #: their total seconds.
    flush_buckets: tuple[int, ...] = ()
    flush_seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class StoreFile:
    """One file of the store (``MessageStore.files``): what it is, its path under the data directory, its size."""

    kind: str
    """``commitlog``, ``consumequeue``, ``compacted`` or ``index``."""
    path: str
    size: int
