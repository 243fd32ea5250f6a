"""``KeptOffsets``: one partition's batches copied from another broker, stored at their own offsets
(``store.kept_offsets``).

A partition moving between broker groups (docs/cluster.md, "Move a partition") is copied batch by batch from its
old leader, as Fetch answers them: each batch keeps its base offset, its records and their offsets, so a copy is
the same partition, offset for offset: the gaps compaction left, transaction markers and aborted batches
included. Unlike ``replica.py`` (a follower's whole CommitLog, at the same physical offsets), only one partition
is copied, appended to this CommitLog after whatever it holds, like a produced batch.

- ``start_at(topic, partition, log_start)``: the copy's first offset. The partition's log start offset rises to
  ``log_start`` (DeleteRecords' floor, persisted); an empty partition whose next offset is below it continues
  from there, so a partition whose every record is below its log start has the same bounds. It goes down to
  ``log_start`` only while this store still holds every record from there (its units were not deleted by
  retention): a partition moving back to a group it left, whose copy there was retired by moving its log start
  up, is whole again without copying what it still holds.
- ``append(topic, partition, records)``: ``records`` is a sequence of whole RecordBatches (v2, as Fetch returns
  them), each checked (length, magic, CRC-32C) and each at or past the partition's next offset, in order; the
  first that is not refuses the whole append with ``InvalidCopyError`` (nothing of it written). One exception:
  an empty partition takes a first batch that holds its next offset (the copy's log start fell inside that
  batch, as Fetch answers it whole), and continues after it. Each batch is
  written unchanged except for its partitionLeaderEpoch, which becomes this store's current epoch as in an
  append, then its ConsumeQueue unit and transaction events are dispatched and the records are published.
  Returns the partition's next offset.

Durability is the caller's: ``MessageStore.flush`` before relying on the copy. Append listeners are not told
(the partition is not served from here while it is being copied).

Threads: the broker loop thread, like every append.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import validate_batches

from .commitlog import CommitLog
from .consumequeue import ConsumeQueue
from .epochfile import EpochFile
from .errors import StoreError
from .health import StoreHealth, guarded
from .partitions import Partitions
from .queuebuilder import QueueBuilder

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from rockafka.core_pyx.recordbatch import BatchHeader


class InvalidCopyError(StoreError):
    """Copied batches that do not parse, or that do not continue the partition (an offset at or below one it
    already holds)."""


class KeptOffsets:
    def __init__(
        self,
        health: StoreHealth,
        partitions: Partitions,
        commitlog: CommitLog,
        builder: QueueBuilder,
        epochs: EpochFile,
        clock: Callable[[], int] = lambda: time.time_ns() // 1_000_000,
    ) -> None:
        self._health = health
        self._partitions = partitions
        self._commitlog = commitlog
        self._builder = builder
        self._epochs = epochs
        self._clock = clock

    @guarded
    def start_at(self, topic: str, partition: int, log_start: int) -> None:
        """Make ``log_start`` the partition's log start offset (and its next offset, when it is empty and behind)."""
        _, key, queue = self._partitions.get(topic, partition)
        if log_start < 0:
            raise InvalidCopyError(f"log start offset {log_start} of {topic}-{partition} is negative")
        if queue.end_index == queue.first_index and queue.next_offset < log_start:
            queue.wipe(log_start)
        stored = self._partitions.log_starts.get(*key)
        if log_start > stored or (log_start < stored and self._held_from(key, queue) <= log_start):
            self._partitions.log_starts.set_many({key: log_start})

    def _held_from(self, key: tuple[bytes, int], queue: ConsumeQueue) -> int:
        """The first offset whose records this store still holds (its first unit, or its compacted log's first)."""
        compacted = self._partitions.compacted.get(key)
        return queue.first_offset if compacted is None else min(compacted.start_offset, queue.first_offset)

    @guarded
    def append(self, topic: str, partition: int, records: Buffer) -> int:
        """Store the whole batches of ``records`` at their own offsets; the partition's next offset after them."""
        _, key, queue = self._partitions.get(topic, partition)
        view = memoryview(records).cast("B")
        try:
            headers = validate_batches(view)
        except KernelError as exc:
            raise InvalidCopyError(f"copied batches of {topic}-{partition} do not parse: {exc}") from exc
        if headers and _begins_inside(queue, headers[0]):
            queue.wipe(headers[0].base_offset)  # the copy began at a log start inside this batch: held whole
        next_offset = queue.next_offset
        for header in headers:
            if header.base_offset < next_offset:
                raise InvalidCopyError(
                    f"a copied batch of {topic}-{partition} starts at offset {header.base_offset}, below {next_offset}"
                )
            next_offset = header.base_offset + header.last_offset_delta + 1
        now, epoch = self._clock(), self._epochs.current
        try:
            for header in headers:
                stored = self._commitlog.append(
                    view[header.position : header.position + header.size], topic_id=key[0], partition=partition,
                    base_offset=header.base_offset, leader_epoch=epoch, record_count=header.last_offset_delta + 1,
                    store_timestamp=now, log_append_time=None,
                )  # fmt: skip
                self._builder.add_to(queue, stored)
        finally:
            self._commitlog.publish()
        return queue.next_offset


def _begins_inside(queue: ConsumeQueue, first: BatchHeader) -> bool:
    """Whether ``queue`` is empty and its next offset falls inside ``first`` (not at its base)."""
    empty = queue.end_index == queue.first_index
    return empty and first.base_offset < queue.next_offset <= first.base_offset + first.last_offset_delta
