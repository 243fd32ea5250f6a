"""Reading a Rockafka data directory's files in place, for the store source's Spark tasks.

The formats are those of ``docs/store-format.md``; the directory is only ever mapped read-only, no lock
is taken and nothing is written, so a broker may run on it meanwhile. Paths:
``commitlog/<20-digit physical offset>`` and ``consumequeue/<topic id hex>/<partition>/<20-digit byte
position>``.

A ConsumeQueue unit is unpacked with the store's own struct (``CONSUME_QUEUE_UNIT``, from the store's
reader API; layout in ``store/consumequeue.py``): the fields read here are physical_offset, size (0:
unwritten), base_offset, producer_id and flags (the batch's attributes). A queue's published units end at
the first unwritten one; the planner also bounds every read by the high watermark it saw, so a task
never follows a unit written after planning.

A CommitLog record is a 64-byte header and one RecordBatch v2; it is parsed by the record kernel
(:mod:`rockafka.core_pyx.logrecord`: header CRC, size, physical offset, batch header agreement, and the
batch CRC-32C where asked) and its records decoded by :mod:`rockafka.core_pyx.records` (which checks the
batch CRC-32C again). Control batches (attribute bit 5: transaction markers) hold no user records and
yield no rows, as a Kafka consumer returns none; attribute bit 3 is the timestamp type. A transactional batch
(attribute bit 4) whose producer has an aborted range (given by the planner) holding its base offset yields
no rows either.

Below a compacted partition's compacted end, a task reads the compacted log instead (``read_compacted_slice``,
through the store's reader API: its format is ``store/compactedlog.py``'s, whole RecordBatches in offset order).
"""

from __future__ import annotations

import bisect
import mmap
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.logrecord import CORRUPT, HEADER_SIZE, LIMIT, scan_records
from rockafka.core_pyx.recordbatch import CONTROL_BIT, TIMESTAMP_TYPE_BIT, TRANSACTIONAL_BIT
from rockafka.core_pyx.records import read_records
from rockafka.store.errors import StoreError
from rockafka.store.reader import CONSUME_QUEUE_UNIT as UNIT
from rockafka.store.reader import AbortedRange, compacted_records

from .errors import DataLossError, PipelineError
from .schema import BATCH_ROWS, ArrowRows

UNIT_SIZE = UNIT.size
_NEVER = 1 << 62
#: A QueueSlice's ``queue_file`` when it reads its partition's compacted log instead of a ConsumeQueue file.
COMPACTED_LOG = ""


@dataclass(frozen=True, slots=True)
class Unit:
    physical_offset: int
    size: int
    record_count: int
    base_offset: int
    producer_id: int
    flags: int


def aborted(ranges: tuple[AbortedRange, ...], flags: int, producer_id: int, base_offset: int) -> bool:
    """Whether a batch belongs to an aborted transaction: transactional, of a producer with an aborted range
    holding its base offset."""
    return bool(flags & TRANSACTIONAL_BIT) and any(
        r.producer_id == producer_id and r.first_offset <= base_offset <= r.last_offset for r in ranges
    )


def queue_dir(root: Path, topic_id_hex: str, partition: int) -> Path:
    return root / "consumequeue" / topic_id_hex / str(partition)


def queue_files(root: Path, topic_id_hex: str, partition: int) -> list[tuple[Path, int]]:
    """The queue's files in order, each with the base offset of its first published unit (files with none
    are left out)."""
    found = []
    directory = queue_dir(root, topic_id_hex, partition)
    names = sorted(p for p in directory.iterdir() if p.name.isdigit()) if directory.is_dir() else []
    for path in names:
        with path.open("rb") as file:
            head = file.read(UNIT_SIZE)
        if len(head) == UNIT_SIZE and UNIT.unpack(head)[1] > 0:
            found.append((path, UNIT.unpack(head)[3]))
    return found


def _map(path: Path) -> mmap.mmap | None:
    """The whole file mapped read-only (None for an empty file)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        return mmap.mmap(fd, size, prot=mmap.PROT_READ) if size else None
    finally:
        os.close(fd)


def read_units(path: Path) -> Iterator[Unit]:
    """The published units of one queue file, in order."""
    mapped = _map(path)
    if mapped is None:
        return
    with mapped:
        for pos in range(0, len(mapped) - UNIT_SIZE + 1, UNIT_SIZE):
            physical, size, count, base, _, _, _, producer_id, _, flags, _ = UNIT.unpack_from(mapped, pos)
            if size == 0:
                return
            yield Unit(physical, size, count, base, producer_id, flags)


def last_unit_end(path: Path) -> int | None:
    """Where the CommitLog record of the queue file's last published unit ends (None: no unit)."""
    mapped = _map(path)
    if mapped is None:
        return None
    with mapped:
        low, high = 0, len(mapped) // UNIT_SIZE  # units [0, low) are written, [high, ...) are not
        while low < high:
            middle = (low + high) // 2
            if UNIT.unpack_from(mapped, middle * UNIT_SIZE)[1] > 0:
                low = middle + 1
            else:
                high = middle
        if low == 0:
            return None
        physical, size = UNIT.unpack_from(mapped, (low - 1) * UNIT_SIZE)[:2]
        return int(physical + size)


class Segments:
    """The CommitLog's segments, mapped read-only on first use; closed with the reader."""

    def __init__(self, root: Path) -> None:
        directory = root / "commitlog"
        self.starts = sorted(int(p.name) for p in directory.iterdir() if p.name.isdigit())
        self._directory = directory
        self._maps: dict[int, mmap.mmap] = {}

    def path(self, start: int) -> Path:
        return self._directory / f"{start:020d}"

    def mapped(self, start: int) -> mmap.mmap:
        if start not in self._maps:
            mapped = _map(self.path(start))
            if mapped is None:
                raise PipelineError(f"CommitLog segment {self.path(start)} is empty")
            self._maps[start] = mapped
        return self._maps[start]

    def holding(self, physical: int) -> int | None:
        """The start of the segment holding global offset ``physical`` (None: deleted by retention)."""
        at = bisect.bisect_right(self.starts, physical) - 1
        if at < 0 or physical >= self.starts[at] + os.path.getsize(self.path(self.starts[at])):
            return None
        return self.starts[at]

    def close(self) -> None:
        for mapped in self._maps.values():
            mapped.close()
        self._maps.clear()


def _batch(segment: mmap.mmap, segment_start: int, physical: int) -> bytes:
    """A copy of the RecordBatch of the CommitLog record at ``physical``, its header checked by the record
    kernel (copies, not views, so the mapping can always be closed)."""
    parsed, _, stop, reason = scan_records(segment, physical - segment_start, segment_start, _NEVER, 1)
    if stop == CORRUPT or not parsed:
        raise PipelineError(f"CommitLog record at offset {physical} is corrupt: {reason or 'not a record'}")
    begin = physical - segment_start
    return segment[begin + HEADER_SIZE : begin + parsed[0][1]]


def _decode(batch: bytes, physical: int) -> list[Any]:
    try:
        return read_records(batch)
    except KernelError as exc:
        raise PipelineError(f"the batch at CommitLog offset {physical} does not decode: {exc}") from exc


@dataclass(frozen=True, slots=True)
class QueueSlice:
    """One Spark task of a ConsumeQueue read: offsets ``[start, end)`` of a partition, within one queue file."""

    root: str
    topic: str
    topic_id_hex: str
    partition: int
    queue_file: str
    start: int
    end: int
    include_headers: bool
    fail_on_data_loss: bool
    #: read_committed: the partition's aborted ranges overlapping the slice
    aborted: tuple[AbortedRange, ...] = ()


def read_compacted_slice(task: QueueSlice) -> Iterator[Any]:
    """Arrow batches of the slice's records from its partition's compacted log, in offset order (the cleaner
    left no aborted records there)."""
    rows = ArrowRows(task.topic, task.partition, task.include_headers)
    topic_id = bytes.fromhex(task.topic_id_hex)
    try:
        for record, attributes in compacted_records(Path(task.root), topic_id, task.partition, task.start, task.end):
            ts_type = 1 if attributes & TIMESTAMP_TYPE_BIT else 0
            rows.add(record.offset, record.timestamp, record.key, record.value, record.headers, ts_type)
            if len(rows) >= BATCH_ROWS:
                yield rows.take()
    except StoreError as exc:
        raise PipelineError(f"{task.topic}-{task.partition}: the compacted log does not read: {exc}") from exc
    yield from rows.drain()


def read_queue_slice(task: QueueSlice) -> Iterator[Any]:
    """Arrow batches of the slice's records, in offset order."""
    if task.queue_file == COMPACTED_LOG:
        yield from read_compacted_slice(task)
        return
    segments = Segments(Path(task.root))
    rows = ArrowRows(task.topic, task.partition, task.include_headers)
    try:
        for unit in read_units(Path(task.queue_file)):
            if unit.base_offset >= task.end:
                break
            if unit.base_offset + unit.record_count <= task.start or unit.flags & CONTROL_BIT:
                continue
            if aborted(task.aborted, unit.flags, unit.producer_id, unit.base_offset):
                continue
            segment_start = segments.holding(unit.physical_offset)
            if segment_start is None:
                if task.fail_on_data_loss:
                    raise DataLossError(f"{task.topic}-{task.partition}: offset {unit.base_offset}'s segment is gone")
                continue
            batch = _batch(segments.mapped(segment_start), segment_start, unit.physical_offset)
            ts_type = 1 if unit.flags & TIMESTAMP_TYPE_BIT else 0
            for record in _decode(batch, unit.physical_offset):
                if task.start <= record.offset < task.end:
                    rows.add(record.offset, record.timestamp, record.key, record.value, record.headers, ts_type)
            if len(rows) >= BATCH_ROWS:
                yield rows.take()
        yield from rows.drain()
    finally:
        segments.close()


@dataclass(frozen=True, slots=True)
class SegmentSlice:
    """One Spark task of a full scan: every record of one CommitLog segment, each batch CRC-32C verified.

    ``wanted`` maps topic id hex to (topic name, {partition: (start, end)}); ``published_end`` is where the
    records the ConsumeQueues had published at planning end: a torn record at or past it is a write in
    progress, not damage. ``aborted`` (read_committed) maps (topic id hex, partition) to its aborted ranges.
    """

    root: str
    segment_start: int
    wanted: Mapping[str, tuple[str, Mapping[int, tuple[int, int]]]]
    published_end: int
    include_headers: bool
    aborted: Mapping[tuple[str, int], tuple[AbortedRange, ...]]


def read_segment(task: SegmentSlice) -> Iterator[Any]:
    """Arrow batches of the wanted records of one segment, in CommitLog order (one batch per partition run)."""
    segments = Segments(Path(task.root))
    try:
        segment = segments.mapped(task.segment_start)
        position, rows = 0, None
        while task.segment_start + position < task.published_end:
            parsed, position, stop, reason = scan_records(segment, position, task.segment_start, 0, 256)
            for physical, size, topic_id, partition, base, count, _, attributes, _, producer_id, _ in parsed:
                if physical >= task.published_end:
                    break
                topic, ranges = task.wanted.get(topic_id.hex(), ("", {}))
                start, end = ranges.get(partition, (0, 0))
                if attributes & CONTROL_BIT or base >= end or base + count <= start:
                    continue
                if aborted(task.aborted.get((topic_id.hex(), partition), ()), attributes, producer_id, base):
                    continue
                if rows is None or (rows.topic, rows.partition) != (topic, partition):
                    if rows is not None:
                        yield from rows.drain()
                    rows = ArrowRows(topic, partition, task.include_headers)
                begin = physical - task.segment_start
                ts_type = 1 if attributes & TIMESTAMP_TYPE_BIT else 0
                for record in _decode(segment[begin + HEADER_SIZE : begin + size], physical):
                    if start <= record.offset < end:
                        rows.add(record.offset, record.timestamp, record.key, record.value, record.headers, ts_type)
                if len(rows) >= BATCH_ROWS:
                    yield rows.take()
            if stop == CORRUPT and task.segment_start + position < task.published_end:
                raise PipelineError(f"CommitLog segment {segments.path(task.segment_start).name}: "
                                    f"offset {task.segment_start + position}: {reason}")  # fmt: skip
            if stop != LIMIT:
                break
        if rows is not None:
            yield from rows.drain()
    finally:
        segments.close()
