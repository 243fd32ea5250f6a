"""The write path of every partition: batches (a client's, or a transaction marker) to the CommitLog and on.

One append, on the broker's loop thread: each batch is written behind its CommitLog header with the next
offsets of its partition and the store's current leader epoch (its base offset and partitionLeaderEpoch
patched in place, ``epochfile.py``; LogAppendTime topics get the broker time as
maxTimestamp, the CRC recomputed), dispatched (ConsumeQueue unit, transaction events; ``queuebuilder.py``),
then the CommitLog's write position is published, a durability future is taken under the sync flush policy,
and the append listeners run (parked fetches wake) before the ``AppendResult`` is returned.

A full disk (``space.py``): an append is refused before anything is written while the store is full or below
its free-space reserve (the broker's own coordinator records excepted: they use the reserve). One that meets a
full disk all the same leaves no record without its ConsumeQueue
unit: a record whose dispatch failed is taken back (the write position returns to its start, so the next
append overwrites it), and the batches of the append stored before it are published.

The writer is handed what it uses (the flusher's ``after_write`` for durability, ``Partitions.log_start``); it
never reaches back into the ``MessageStore`` facade. It is the records service's (``records.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.logrecord import HEADER_SIZE
from rockafka.core_pyx.recordbatch import validate_batch
from rockafka.core_pyx.records import read_records

from .commitlog import CommitLog, StoredBatch
from .config import TopicSettings
from .consumequeue import ConsumeQueue
from .control import marker_batch
from .epochfile import EpochFile
from .errors import InvalidRecordsError, KeylessRecordError, RecordTooLargeError, ReplicaOnlyError
from .partitions import Route
from .queuebuilder import QueueBuilder
from .results import AppendResult
from .space import FreeSpace

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from rockafka.core_pyx.recordbatch import BatchHeader

PartitionKey = tuple[bytes, int]
AppendListener = Callable[[AppendResult], None]


class Writer:
    def __init__(
        self,
        commitlog: CommitLog,
        queue_builder: QueueBuilder,
        *,
        epochs: EpochFile,
        space: FreeSpace,
        durable: Callable[[], Future[None] | None],
        log_start: Callable[[PartitionKey, ConsumeQueue], int],
        clock: Callable[[], int],
    ) -> None:
        self._commitlog = commitlog
        self._queue_builder = queue_builder
        self._epochs = epochs
        self._space = space
        self._durable = durable
        self._log_start = log_start
        self._clock = clock
        self._max_record_batch = commitlog.max_record_size - HEADER_SIZE
        self.listeners: tuple[AppendListener, ...] = ()
        self.replica_only = False
        """Set on a follower (``replica.py``): every append of the broker's own is refused."""

    def append(
        self, topic: str, partition: int, route: Route, records: Buffer, batches: Sequence[BatchHeader]
    ) -> AppendResult:
        """Store already-validated batches (``validate_batches`` headers of ``records``), assigning offsets."""
        view = memoryview(records).cast("B")
        self._check_batches(view, batches, route[2])
        space = self._space
        space.budget -= len(view)
        if space.budget < 0:
            space.check_append(len(view))
        if len(batches) == 1 and batches[0].position == 0 and batches[0].size == len(view):
            pieces: Iterable[tuple[memoryview, int]] = ((view, batches[0].last_offset_delta + 1),)
        else:
            pieces = [(view[h.position : h.position + h.size], h.last_offset_delta + 1) for h in batches]
        return self._write(topic, partition, route, pieces, self._clock())

    def append_internal(self, topic: str, partition: int, route: Route, batch: bytes) -> AppendResult:
        """One batch the broker writes itself (coordinator state, ``internaltopics.py``), taken from the free-space
        reserve: while a full store refuses clients' appends, offset commits and group changes go on as long as the
        current CommitLog segment has room; one that needs a new segment is refused like an append."""
        view = memoryview(batch)
        header = validate_batch(view)
        self._check_batches(view, (header,), route[2])
        self._space.budget -= len(view)
        return self._write(topic, partition, route, [(view, header.last_offset_delta + 1)], self._clock())

    def append_marker(
        self, topic: str, partition: int, route: Route, *, producer_id: int, producer_epoch: int,
        coordinator_epoch: int, commit: bool,
    ) -> AppendResult:  # fmt: skip
        """Store one transaction marker (``control.py``) stamped with the broker time."""
        now = self._clock()
        batch = marker_batch(
            producer_id=producer_id, producer_epoch=producer_epoch, coordinator_epoch=coordinator_epoch,
            commit=commit, timestamp=now,
        )  # fmt: skip
        self._space.budget -= len(batch)
        if self._space.budget < 0:
            self._space.check_append(len(batch))
        return self._write(topic, partition, route, [(memoryview(batch), 1)], now)

    def _write(
        self, topic: str, partition: int, route: Route, pieces: Iterable[tuple[memoryview, int]], now: int
    ) -> AppendResult:
        if self.replica_only:
            raise ReplicaOnlyError(f"this broker follows its group's leader: {topic}-{partition} takes no appends here")
        key, queue, settings = route
        append_time = now if settings.log_append_time else None
        base = queue.next_offset
        epoch = self._epochs.current
        size = 0
        for batch, count in pieces:
            stored: StoredBatch = self._commitlog.append(
                batch, topic_id=key[0], partition=partition, base_offset=queue.next_offset, leader_epoch=epoch,
                record_count=count, store_timestamp=now, log_append_time=append_time,
            )  # fmt: skip
            try:
                self._queue_builder.add_to(queue, stored)
            except OSError:
                self._take_back(queue, stored, size)
                raise
            size += len(batch)
        self._commitlog.publish()
        result = AppendResult(
            topic, partition, base, queue.next_offset - 1, append_time, self._log_start(key, queue), size,
            self._durable(),
        )  # fmt: skip
        for listener in self.listeners:
            listener(result)
        return result

    def _take_back(self, queue: ConsumeQueue, stored: StoredBatch, size_before: int) -> None:
        """After a failed dispatch of ``stored``: take the record back unless its unit was written; publish
        whatever of the append is complete."""
        if queue.next_physical <= stored.physical_offset:
            self._commitlog.write_offset = stored.physical_offset
        elif not size_before:
            size_before = stored.size
        if size_before:
            self._commitlog.publish()

    def _check_batches(self, view: memoryview, batches: Sequence[BatchHeader], settings: TopicSettings) -> None:
        if not batches:
            raise InvalidRecordsError("an append needs at least one batch")
        for header in batches:
            if header.position < 0 or header.position + header.size > len(view) or header.last_offset_delta < 0:
                raise InvalidRecordsError(f"batch header at {header.position} does not fit the records buffer")
            if header.size > settings.max_message_bytes:
                raise RecordTooLargeError(f"batch of {header.size} bytes exceeds max.message.bytes")
            if header.size > self._max_record_batch:
                raise RecordTooLargeError(f"batch of {header.size} bytes does not fit a CommitLog segment")
            if settings.cleanup_compact:
                _refuse_keyless(view, header)


def _refuse_keyless(view: memoryview, header: BatchHeader) -> None:
    """A compacted topic takes only keyed records (Kafka's LogValidator): its batches are decoded to check."""
    try:
        records = read_records(view, header.position)
    except KernelError as exc:
        raise InvalidRecordsError(f"batch at {header.position} does not decode: {exc}") from exc
    if any(record.key is None for record in records):
        raise KeylessRecordError("a compacted topic cannot accept a record without a key")
