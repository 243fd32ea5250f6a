"""Reads of one partition: batches from an offset, and exact record lookups by time.

Two steps, as RocketMQ reads: ConsumeQueue unit, then the CommitLog slice it points at. A batch is served
only when the record header there names it (``CommitLog.checked_batch_view``: one unpack and six compares per
batch); a unit that points anywhere else has its queue repaired from the CommitLog (``repair``) and the read
goes on, once, from the repaired units. A partition whose batch was lost to damage has a gap in its offsets: a
read from inside the gap starts at the next batch. Batches come back whole, as ``memoryview`` slices of the
mapped CommitLog; the records inside a batch are decoded (and
decompressed) only for time lookups. ``log_start`` is the partition's effective log start offset; records
below it do not exist for these functions.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from rockafka.core_pyx.logrecord import HEADER_SIZE
from rockafka.core_pyx.recordbatch import MAX_TIMESTAMP_OFFSET
from rockafka.core_pyx.records import read_records

from .commitlog import CommitLog
from .consumequeue import ConsumeQueue
from .results import TimestampOffset

_MAX_TIMESTAMP_IN_BATCH = struct.Struct(">q")
Repair = Callable[[ConsumeQueue, int], bool]


def read_batches(
    queue: ConsumeQueue,
    commitlog: CommitLog,
    fetch_offset: int,
    max_bytes: int,
    limit: int,
    repair: Repair | None = None,
) -> tuple[list[memoryview], int, int]:
    """Whole batches from the one holding ``fetch_offset`` on, below offset ``limit``, up to ``max_bytes``
    (the first batch always): (batches, their bytes, the offset after the last one)."""
    batches: list[memoryview] = []
    total = 0
    next_offset = fetch_offset
    if fetch_offset >= limit:
        return batches, total, next_offset
    index = queue.index_of_offset(fetch_offset)
    topic_id, partition = queue.topic_id, queue.partition
    while index < queue.end_index:
        physical, size, count, base = queue.head(index)
        batch_size = size - HEADER_SIZE
        in_gap = base + count <= next_offset  # the batch holding the fetch offset was lost: a gap
        if batches and not in_gap and total + batch_size > max_bytes:
            break
        view = commitlog.checked_batch_view(physical, size, topic_id, partition, base, count)
        if view is None:  # checked before the limit too: a unit whose base was flipped high is no end
            if repair is None or not repair(queue, index):
                break
            repair = None
            index = max(queue.index_of_offset(next_offset), queue.first_index)
            continue
        if in_gap:
            index += 1
            continue
        if base >= limit:
            break
        batches.append(view)
        total += batch_size
        next_offset = base + count
        index += 1
    queue.remember(index, next_offset)
    return batches, total, next_offset


def offset_for_timestamp(
    queue: ConsumeQueue, commitlog: CommitLog, timestamp: int, log_start: int
) -> TimestampOffset | None:
    """The first record at or after ``log_start`` whose timestamp is at least ``timestamp``."""
    if log_start >= queue.next_offset:
        return None
    index = queue.index_of_timestamp(timestamp, queue.index_of_offset(log_start))
    while index < queue.end_index:
        found = _first_record_at_or_after(queue, commitlog, index, timestamp, log_start)
        if found is not None:
            return found
        index += 1
    return None


def max_timestamp(queue: ConsumeQueue, commitlog: CommitLog, log_start: int) -> TimestampOffset | None:
    """The first record (at or after ``log_start``) carrying the partition's largest timestamp."""
    if log_start >= queue.next_offset:
        return None
    low = queue.index_of_offset(log_start)
    index = queue.index_of_timestamp(queue.max_timestamp, low)
    found = _first_record_at_or_after(queue, commitlog, index, queue.max_timestamp, log_start)
    if found is not None:
        return found
    # The overall maximum lies below the log start: the largest maximum from there on, the first batch
    # (partly below the log start) decoded, the others by their header.
    best_index, best = low, -1
    for candidate in range(low, queue.end_index):
        physical, size, _, _ = queue.head(candidate)
        view = commitlog.batch_view(physical, size)
        if view is None:
            continue
        if candidate == low:
            batch_max = max((r.timestamp for r in read_records(view) if r.offset >= log_start), default=-1)
        else:
            batch_max = _MAX_TIMESTAMP_IN_BATCH.unpack_from(view, MAX_TIMESTAMP_OFFSET)[0]
        if batch_max > best:
            best_index, best = candidate, batch_max
    return _first_record_at_or_after(queue, commitlog, best_index, best, log_start)


def _first_record_at_or_after(
    queue: ConsumeQueue, commitlog: CommitLog, index: int, timestamp: int, log_start: int
) -> TimestampOffset | None:
    if index >= queue.end_index:
        return None
    physical, size, _, _ = queue.head(index)
    view = commitlog.batch_view(physical, size)
    if view is None:
        return None
    for record in read_records(view):
        if record.offset >= log_start and record.timestamp >= timestamp:
            return TimestampOffset(record.offset, record.timestamp)
    return None
