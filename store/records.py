"""``Records``: the partitions' records: append, read, and each partition's bounds (``store.records``).

Owns the record path of the broker: appends (through the ``Writer``, which stores the batches in the CommitLog
and has the ``QueueBuilder`` add their units), transaction markers, reads of whole batches (``partition.py``),
ListOffsets by time, the log start, high watermark and last stable offset of a partition, and DeleteRecords.

The high watermark is the partition's log end, unless a group leader set a confirm offset
(``set_confirmed``: the CommitLog offset every in-sync member holds): then it is the first offset of the first
batch stored at or past it, and reads stop there, so consumers never see a record a failover could lose. The
range a fetch may ask for stays [log start, log end]. Without a confirm offset (a single broker) nothing is
looked up.

A compacted partition's offsets below its compacted log's end are read from that log (``compactedlog.py``), with
the gaps compaction left; the rest from the ConsumeQueue and the CommitLog.

Threads: every method runs on the event loop thread; append listeners run on it too, before ``append``
returns. A read that finds a unit pointing at the wrong record repairs its queue there (``QueueBuilder.repair``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rockafka.core_pyx.errors import KernelError

from . import partition as partition_reads
from .commitlog import CommitLog
from .consumequeue import ConsumeQueue
from .errors import OffsetOutOfRangeError, StoreError
from .health import StoreHealth, guarded
from .partitions import PartitionKey, Partitions
from .queuebuilder import QueueBuilder
from .results import AppendResult, PartitionBounds, PartitionOffsets, ReadResult, TimestampOffset
from .transactions import TransactionTracker
from .writer import AppendListener, Writer

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from rockafka.core_pyx.recordbatch import BatchHeader


class Records:
    def __init__(
        self,
        health: StoreHealth,
        partitions: Partitions,
        commitlog: CommitLog,
        writer: Writer,
        builder: QueueBuilder,
        transactions: TransactionTracker,
    ) -> None:
        self._health = health
        self._partitions = partitions
        self._commitlog = commitlog
        self._writer = writer
        self._repair = builder.repair
        self._transactions = transactions
        self._confirmed: int | None = None

    def set_confirmed(self, physical_offset: int | None) -> None:
        """Hold the high watermark back to the batches stored below ``physical_offset`` (None: no limit)."""
        self._confirmed = physical_offset

    def _high_watermark(self, queue: ConsumeQueue, log_start: int) -> int:
        """The first batch at or past the confirm offset (never below the log start), or the log end. Callers test
        ``_confirmed`` for None first: a single broker's reads make no call."""
        confirmed = self._confirmed
        if confirmed is None or queue.next_physical <= confirmed:
            return queue.next_offset
        index = queue.index_of_physical(confirmed)
        return queue.next_offset if index >= queue.end_index else max(queue.head(index)[3], log_start)

    @guarded
    def append(self, topic: str, partition: int, records: Buffer, batches: Sequence[BatchHeader]) -> AppendResult:
        """Store already-validated batches (``validate_batches`` headers of ``records``), assigning offsets.

        Each batch's base offset is written in place in the mapped CommitLog; LogAppendTime topics get the
        broker time as maxTimestamp (CRC recomputed). Append listeners run before this returns.
        """
        return self._writer.append(topic, partition, self._partitions.route(topic, partition), records, batches)

    @guarded
    def append_internal(self, topic: str, partition: int, batch: bytes) -> AppendResult:
        """Store one batch the broker built itself (an internal topic's records), from the free-space reserve."""
        return self._writer.append_internal(topic, partition, self._partitions.route(topic, partition), batch)

    def add_append_listener(self, listener: AppendListener) -> None:
        """Call ``listener(result)`` on the appending thread after every append (to wake parked fetches)."""
        self._writer.listeners = (*self._writer.listeners, listener)

    def remove_append_listener(self, listener: AppendListener) -> None:
        listeners = list(self._writer.listeners)
        listeners.remove(listener)
        self._writer.listeners = tuple(listeners)

    @guarded
    def write_transaction_marker(
        self, topic: str, partition: int, *, producer_id: int, producer_epoch: int, coordinator_epoch: int,
        commit: bool,
    ) -> AppendResult:  # fmt: skip
        """Append a COMMIT or ABORT marker (``control.py``), ending ``producer_id``'s transaction on the partition."""
        return self._writer.append_marker(
            topic, partition, self._partitions.route(topic, partition), producer_id=producer_id,
            producer_epoch=producer_epoch, coordinator_epoch=coordinator_epoch, commit=commit,
        )  # fmt: skip

    @guarded
    def read(
        self, topic: str, partition: int, fetch_offset: int, max_bytes: int, *, max_offset: int | None = None
    ) -> ReadResult:
        """Whole batches from the one holding ``fetch_offset``, below ``max_offset`` (e.g. the LSO) if given.

        ``fetch_offset`` equal to the high watermark gives no batches; outside [log start, high watermark]
        raises ``OffsetOutOfRangeError``.
        """
        key, queue, _ = self._partitions.route(topic, partition)
        log_start, log_end = self._partitions.log_start(key, queue), queue.next_offset
        if not log_start <= fetch_offset <= log_end:
            raise OffsetOutOfRangeError(fetch_offset, log_start, log_end)
        high_watermark = queue.next_offset if self._confirmed is None else self._high_watermark(queue, log_start)
        limit = high_watermark if max_offset is None else min(max_offset, high_watermark)
        compacted = self._partitions.compacted.get(key)
        if compacted is not None and fetch_offset < compacted.end_offset:
            batches, size, next_offset = compacted.read(fetch_offset, max_bytes, min(limit, compacted.end_offset))
            if batches:
                return ReadResult(tuple(batches), size, next_offset, high_watermark, log_start)
            fetch_offset = compacted.end_offset  # nothing kept from there to the end: the rest of the gap
        batches, size, next_offset = partition_reads.read_batches(
            queue, self._commitlog, fetch_offset, max_bytes, limit, repair=self._repair
        )
        return ReadResult(tuple(batches), size, next_offset, high_watermark, log_start)

    @guarded
    def partition_offsets(self, topic: str, partition: int) -> PartitionOffsets:
        key, queue, _ = self._partitions.route(topic, partition)
        log_start = self._partitions.log_start(key, queue)
        start = self._queue_start(key, queue, log_start)
        if start >= queue.next_offset:
            first = queue.end_index
        elif start == queue.first_offset:  # the usual case: no search
            first = queue.first_index
        else:
            first = queue.index_of_offset(start)
        high_watermark = queue.next_offset if self._confirmed is None else self._high_watermark(queue, log_start)
        return PartitionOffsets(log_start, high_watermark, queue.total_bytes - queue.bytes_before(first))

    @guarded
    def last_stable_offset(self, topic: str, partition: int) -> int:
        """The first offset of the oldest open transaction (never below the log start), else the high watermark."""
        key, queue, _ = self._partitions.route(topic, partition)
        return self._last_stable(key, queue, self._partitions.log_start(key, queue))

    @guarded
    def partition_bounds(self, topic: str, partition: int) -> PartitionBounds:
        """High watermark, last stable offset and log start offset at once (what a fetch answers)."""
        key, queue, _ = self._partitions.route(topic, partition)
        log_start = self._partitions.log_start(key, queue)
        high_watermark = queue.next_offset if self._confirmed is None else self._high_watermark(queue, log_start)
        return PartitionBounds(high_watermark, self._last_stable(key, queue, log_start), log_start)

    def _last_stable(self, key: PartitionKey, queue: ConsumeQueue, log_start: int) -> int:
        first = self._transactions.first_unstable(key)
        high_watermark = queue.next_offset if self._confirmed is None else self._high_watermark(queue, log_start)
        if first is None:
            return high_watermark
        return max(min(first, high_watermark), log_start)

    @guarded
    def offset_for_timestamp(self, topic: str, partition: int, timestamp: int) -> TimestampOffset | None:
        """The first record whose timestamp is at least ``timestamp`` (exact, inside its batch), or None. In a
        compacted partition, its compacted log is searched first."""
        _, key, queue = self._partitions.get(topic, partition)
        log_start = self._partitions.log_start(key, queue)
        compacted = self._partitions.compacted.get(key)
        try:
            if compacted is not None and log_start < compacted.end_offset:
                found = compacted.first_at_or_after(timestamp, log_start)
                if found is not None:
                    return TimestampOffset(*found)
            start = self._queue_start(key, queue, log_start)
            return partition_reads.offset_for_timestamp(queue, self._commitlog, timestamp, start)
        except KernelError as exc:
            raise StoreError(f"a stored batch of {topic}-{partition} does not decode: {exc}") from exc

    @guarded
    def max_timestamp(self, topic: str, partition: int) -> TimestampOffset | None:
        """The first record carrying the partition's largest timestamp (ListOffsets MAX_TIMESTAMP), or None. In a
        compacted partition, its compacted log's and the part after it, the earlier on a tie."""
        _, key, queue = self._partitions.get(topic, partition)
        log_start = self._partitions.log_start(key, queue)
        start = self._queue_start(key, queue, log_start)
        compacted = self._partitions.compacted.get(key)
        try:
            found = partition_reads.max_timestamp(queue, self._commitlog, start)
            older = None if compacted is None else compacted.max_timestamp(log_start)
        except KernelError as exc:
            raise StoreError(f"a stored batch of {topic}-{partition} does not decode: {exc}") from exc
        if older is not None and (found is None or older[1] >= found.timestamp):
            return TimestampOffset(*older)
        return found

    def _queue_start(self, key: PartitionKey, queue: ConsumeQueue, log_start: int) -> int:
        """Where the partition's ConsumeQueue part starts: the log start, or past the compacted log."""
        compacted = self._partitions.compacted.get(key)
        if compacted is None:
            return log_start
        return min(max(log_start, compacted.end_offset, queue.first_offset), queue.next_offset)

    @guarded
    def delete_records(self, topic: str, partition: int, before_offset: int) -> int:
        """DeleteRecords: move the log start offset up to ``before_offset`` (-1: the high watermark); returns it."""
        _, key, queue = self._partitions.get(topic, partition)
        log_start, high_watermark = self._partitions.log_start(key, queue), queue.next_offset
        target = high_watermark if before_offset == -1 else before_offset
        if not 0 <= target <= high_watermark:
            raise OffsetOutOfRangeError(before_offset, log_start, high_watermark)
        if target > log_start:
            self._partitions.log_starts.set_many({key: target})
            self._transactions.prune(key, target)
        return max(target, log_start)
