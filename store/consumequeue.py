"""ConsumeQueue: per topic-partition, one fixed-width unit per stored batch, pointing into the CommitLog.

Files: ``consumequeue/<topic id, 32 hex digits>/<partition>/<20-digit byte position of the first unit>``,
each ``units_per_file * UNIT_SIZE`` bytes (RocketMQ: 300,000 units), created full size as sparse files.
Unit *i* of a partition sits at global byte position ``i * UNIT_SIZE``; the name of a file does not encode
a Kafka offset (one unit covers a whole batch of ``record_count`` offsets, as in RocketMQ 5's
BatchConsumeQueue).

Unit layout, ``UNIT_SIZE`` = 64 bytes, big-endian:

======  ====  ===============  ===========================================================================
offset  size  field            notes
======  ====  ===============  ===========================================================================
0       8     physical_offset  CommitLog offset of the record (its 64-byte header)
8       4     size             CommitLog record size, header included (0 marks unwritten space)
12      4     record_count     offsets the batch occupies (lastOffsetDelta + 1)
16      8     base_offset      Kafka offset of the batch's first record
24      8     max_timestamp    running maximum of the batches' maxTimestamp up to and including this one
32      8     store_timestamp  broker clock at append
40      8     bytes_before     batch bytes of every earlier unit of the partition (retention.bytes, sizes)
48      8     producer_id      -1 when not idempotent
56      2     producer_epoch
58      2     flags            the batch's attributes (transactional bit 4, control bit 5)
60      4     reserved         0 (room for a RocketMQ tag hash)
======  ====  ===============  ===========================================================================

Invariants: units are contiguous in offsets (``base[i+1] = base[i] + record_count[i]``) and increasing in
physical offset; a 64-byte unit never straddles a disk sector, so it is written whole or not at all; the
last file is never full (the next file is created as soon as one fills), so a lost last file shows.

Writes go through the mapping; blocks are allocated (zeros written) ``RESERVE_BYTES`` ahead of the write
position, so a full disk fails that write with ENOSPC rather than a write into the mapping with SIGBUS.

Nothing here is checksummed: a ConsumeQueue is derived data. On open, ``load(trusted_below)`` keeps the
units pointing below the checkpoint offset (their pages were fsynced before the checkpoint was written)
and drops the rest, which recovery re-dispatches from the CommitLog. A truncated file, a missing file,
or a full last file marks the partition *damaged* from that point: later units are dropped and
``rebuild_from`` tells recovery where in the CommitLog to start re-dispatching for it.

``UNIT`` and ``UNIT_SIZE`` are defined here only; the store's reader API re-exports the unit
(``CONSUME_QUEUE_UNIT``) for the pipeline, which reads the files in place.

Lookups: by Kafka offset, a binary search for the last unit with ``base_offset <= target`` with a cursor
so a sequential reader pays O(1); by time, a binary search for the first unit whose running maximum
reaches the target. Threads: the broker loop thread only (the flusher syncs files through ``DirtyFiles``).
"""

from __future__ import annotations

import bisect
import shutil
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rockafka.core_pyx.logrecord import HEADER_SIZE

from .commitlog import StoredBatch
from .mappedfile import MappedFile, MappedFileQueue

UNIT_SIZE: Final = 64
RESERVE_BYTES: Final = 64 * 1024  # blocks are allocated ahead of the writes by this much
UNIT: Final = struct.Struct(">qiiqqqqqhHI")
_HEAD = struct.Struct(">qiiq")  # physical_offset, size, record_count, base_offset
_HEAD_UNIT = struct.Struct(">qiiq40x")  # the same, a whole unit long
_INT64 = struct.Struct(">q")
_INT32 = struct.Struct(">i")
_BASE_AT: Final = 16
_MAX_TS_AT: Final = 24
_BYTES_BEFORE_AT: Final = 40
_ZEROS = bytes(1 << 20)
_WINDOW_UNITS = 1024  # units looked at right past a queue's end, then single units at doubling distances
_DISTANCES = tuple(1 << k for k in range(10, 40))


@dataclass(frozen=True, slots=True)
class Unit:
    physical_offset: int
    size: int
    record_count: int
    base_offset: int
    max_timestamp: int
    store_timestamp: int
    bytes_before: int
    producer_id: int
    producer_epoch: int
    flags: int

    @property
    def next_offset(self) -> int:
        return self.base_offset + self.record_count


class DirtyFiles:
    """Files written since the last flush; filled by the loop thread, drained by the flusher."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._files: dict[int, MappedFile] = {}

    def add(self, file: MappedFile) -> None:
        if id(file) in self._files:  # already marked since the last take (the common case: no lock)
            return
        with self._lock:
            self._files[id(file)] = file

    def take(self) -> list[MappedFile]:
        with self._lock:
            files, self._files = list(self._files.values()), {}
        return files


class _Column:
    """A read-only sequence view of one int64 field of the units, for ``bisect``."""

    __slots__ = ("_at", "_queue")

    def __init__(self, queue: ConsumeQueue, field_at: int) -> None:
        self._queue = queue
        self._at = field_at

    def __len__(self) -> int:
        return self._queue.end_index

    def __getitem__(self, index: int) -> int:
        file, pos = self._queue.locate(index)
        value: int = _INT64.unpack_from(file.view, pos + self._at)[0]
        return value


class ConsumeQueue:
    """The units of one partition and the partition's write state."""

    def __init__(self, directory: Path, units_per_file: int, dirty: DirtyFiles) -> None:
        self.directory = directory
        #: The partition, from the directory's name (``<topic id hex>/<partition>``): reads check records by it.
        self.topic_id, self.partition = _partition_of(directory)
        #: After ``load``: the CommitLog end the written units claim, trusted or not (a hint for recovery), and
        #: the (physical_offset, size, record_count, base_offset) of the units ``load`` dropped (recovery names
        #: from them the partition and offsets of records lost to damage, then clears them).
        self.claimed_end = 0
        self.claims: list[tuple[int, int, int, int]] = []
        self.units_per_file = units_per_file
        self._files = MappedFileQueue(directory, units_per_file * UNIT_SIZE)
        self._dirty = dirty
        self.first_index = 0
        self.end_index = 0
        self.next_offset = 0
        self.next_physical = 0
        self.max_timestamp = -1
        self.total_bytes = 0
        self._cursor_index = 0
        self._cursor_offset = -1
        self._tail: MappedFile | None = None  # the file unit ``end_index`` goes to
        self._reserved_to = 0  # blocks of the tail file are allocated below this position
        self._first_offset: int | None = None
        self._bases = _Column(self, _BASE_AT)
        self._maxima = _Column(self, _MAX_TS_AT)
        self._physicals = _Column(self, 0)

    # --- open and recovery ---

    def create(self) -> None:
        """A new, empty partition."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self._files.create(0)

    def load(self, trusted_below: int) -> bool:
        """Map the files and find the end; drop units at or past ``trusted_below``. True when damaged."""
        if not self.directory.is_dir():
            self.directory.mkdir(parents=True)
            self._files.create(0)
            return True
        sizes = {p.name: p.stat().st_size for p in self.directory.iterdir() if p.is_file()}
        self._files.load()
        damaged_at = self._first_damage(sizes)
        files = self._files.files
        if not files:
            self._files.create(0)
            return True
        self.first_index = files[0].start // UNIT_SIZE
        limit = damaged_at if damaged_at is not None else files[-1].end // UNIT_SIZE
        limit = min(limit, -(-(files[-1].start + files[-1].data_end()) // UNIT_SIZE))  # past it: holes, never read
        written = self._search_end(self.first_index, limit, 1 << 63)
        if written > self.first_index:
            physical, size = self.head(written - 1)[:2]
            self.claimed_end = physical + size
        end = self._search_end(self.first_index, limit, trusted_below)
        if not self._sane_after(written if trusted_below <= 0 else end, limit, trusted_below):
            damaged_at = end
        elif end > self.first_index + 1 and not self._follows(end - 1):
            damaged_at = end = end - 1  # a unit zeroed in part: what the zeros hid after it is re-dispatched
        self.claims = self._heads(end, written)
        if damaged_at is None and end == written and self._files.find(end * UNIT_SIZE) is self._files.last:
            self._refresh(end)  # nothing written past the end: the files stay as they are (no delete, no fsync)
        else:
            self._truncate_units(end)
        return damaged_at is not None

    def _sane_after(self, end: int, limit: int, trusted_below: int) -> bool:
        """Whether the units from ``end`` (where the search stopped) are what it assumes: untrusted units, then
        zeros. A flipped or zeroed unit can mislead the binary search; then this says so. Past the first zero
        unit, a window of units and then units at doubling distances are looked at (not the whole file, which
        a clean start would read for every partition): written units hidden behind a run of zeros show when
        they are at least about as many as the zeros."""
        index = end
        while index < limit:
            physical, size = self.head(index)[:2]
            if size == 0:
                break
            if physical < trusted_below:
                return False
            index += 1
        ends: dict[int, int] = {}
        return self._zeros(index, _WINDOW_UNITS, ends) and all(self._zeros(index + d, 1, ends) for d in _DISTANCES)

    def _zeros(self, index: int, count: int, data_ends: dict[int, int]) -> bool:
        """Whether ``count`` units from ``index`` (within one file) read as zero, or lie in no file or in a hole."""
        file = self._files.find(index * UNIT_SIZE)
        if file is None:
            return True
        if file.start not in data_ends:
            data_ends[file.start] = file.data_end()
        start = index * UNIT_SIZE - file.start
        return _all_zero(file.view[start : min(start + count * UNIT_SIZE, max(start, data_ends[file.start]))])

    def _heads(self, start: int, stop: int) -> list[tuple[int, int, int, int]]:
        """``head`` of units [start, stop), read in bulk."""
        found: list[tuple[int, int, int, int]] = []
        while start < stop:
            file, pos = self.locate(start)
            count = min(stop - start, (file.size - pos) // UNIT_SIZE)
            found.extend(_HEAD_UNIT.iter_unpack(file.view[pos : pos + count * UNIT_SIZE]))
            start += count
        return found

    def _follows(self, index: int) -> bool:
        """Whether unit ``index`` is whole and follows unit ``index - 1`` (offsets, position, byte count, time)."""
        before, unit = self.unit(index - 1), self.unit(index)
        return (
            unit.base_offset >= before.next_offset and unit.physical_offset >= before.physical_offset + before.size
            and unit.bytes_before == before.bytes_before + before.size - HEADER_SIZE
            and unit.max_timestamp >= before.max_timestamp and unit.record_count > 0
        )  # fmt: skip

    def cut_at(self, index: int) -> None:
        """Keep only the units before ``index`` (a repair re-dispatches the rest from the CommitLog)."""
        self._truncate_units(max(min(index, self.end_index), self.first_index))

    def _first_damage(self, sizes: dict[str, int]) -> int | None:
        """The unit index from which units are missing (gap, short file, lost last file), if any."""
        previous_end: int | None = None
        for file in self._files.files:
            if previous_end is not None and file.start != previous_end:
                return previous_end // UNIT_SIZE
            if sizes.get(file.path.name, 0) < file.size:
                return (file.start + sizes.get(file.path.name, 0)) // UNIT_SIZE
            previous_end = file.end
        last = self._files.last
        if last is not None and last.data_end() == last.size and self._size_at((last.end - UNIT_SIZE) // UNIT_SIZE):
            return last.end // UNIT_SIZE
        return None

    def _size_at(self, index: int) -> int:
        file, pos = self.locate(index)
        size: int = _INT32.unpack_from(file.view, pos + 8)[0]
        return size

    def _search_end(self, low: int, high: int, trusted_below: int) -> int:
        """First unit in [low, high) that is unwritten or points at or past ``trusted_below``."""
        while low < high:
            middle = (low + high) // 2
            file, pos = self.locate(middle)
            physical, size = _HEAD.unpack_from(file.view, pos)[:2]
            if size == 0 or physical >= trusted_below:
                high = middle
            else:
                low = middle + 1
        return low

    def load_readonly(self) -> None:
        """Map the files as they are, for the store tools: the units up to the first unwritten one."""
        self._files.load(readonly=True)
        files = self._files.files
        if files:
            self.first_index = files[0].start // UNIT_SIZE
            end = self.first_index
            for file in files:  # stop at a gap or a short file
                if file.start != end * UNIT_SIZE or file.size != self._files.file_size:
                    break
                end = file.end // UNIT_SIZE
            self._refresh(self._search_end(self.first_index, end, 1 << 63))

    def _truncate_units(self, end: int) -> None:
        """Keep units [first_index, end); zero the rest and delete later files; reload the write state (with no
        unit left, offsets go on from the first unit's, and dispatch from any CommitLog offset)."""
        if end <= self.first_index < self.end_index:
            first, before = self.first_offset, self.bytes_before(self.first_index)
            self.next_offset, self.next_physical, self.max_timestamp, self.total_bytes = first, 0, -1, before
        self._files.truncate_from(end * UNIT_SIZE)
        end = max(end, self.first_index)
        if self._files.find(end * UNIT_SIZE) is None:
            self._files.create(end * UNIT_SIZE - (end % self.units_per_file) * UNIT_SIZE)
        self._refresh(end)

    def _refresh(self, end: int) -> None:
        """Take the write state from the units [first_index, end)."""
        self._tail, self._first_offset = None, None
        self.end_index = end
        if self.end_index > self.first_index:
            last = self.unit(self.end_index - 1)
            self.next_offset = last.next_offset
            self.next_physical = last.physical_offset + last.size
            self.max_timestamp = last.max_timestamp
            self.total_bytes = last.bytes_before + last.size - HEADER_SIZE
        self._cursor_offset = -1

    def wipe(self, next_offset: int) -> None:
        """Delete every unit (a partition rebuilt from scratch); offsets continue at ``next_offset``."""
        self._files.close()
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory.mkdir(parents=True)
        self._files.create(0)
        self.first_index = self.end_index = 0
        self.next_offset, self.next_physical, self.max_timestamp, self.total_bytes = next_offset, 0, -1, 0
        self._cursor_offset = -1
        self._tail, self._first_offset = None, None

    def truncate_from_physical(self, physical_end: int) -> None:
        """Drop every unit whose record starts at or past ``physical_end``: a walk back from the last unit (not a
        binary search, which a zeroed unit in the middle would stop at), so it costs the units dropped."""
        index = self.end_index
        while index > self.first_index and self.head(index - 1)[0] >= physical_end:
            index -= 1
        if index < self.end_index:
            self._truncate_units(index)

    # --- append ---

    def append(self, batch: StoredBatch) -> bool:
        """Add the unit of ``batch`` unless it is already here (idempotent re-dispatch). True when added."""
        physical, size, _, _, base_offset, record_count, store_timestamp, attributes, max_timestamp, pid, epoch = batch
        if physical < self.next_physical or base_offset < self.next_offset:
            return False
        file = self._tail
        if file is None or file.closed:
            file = self._tail = self.locate(self.end_index)[0]
            self._reserved_to = 0
        pos = self.end_index * UNIT_SIZE - file.start
        if pos >= self._reserved_to:
            file.reserve(pos, RESERVE_BYTES)
            self._reserved_to = pos + RESERVE_BYTES
        if self.end_index == self.first_index:
            self._first_offset = base_offset
        if max_timestamp > self.max_timestamp:
            self.max_timestamp = max_timestamp
        UNIT.pack_into(
            file.view, pos, physical, size, record_count, base_offset, self.max_timestamp, store_timestamp,
            self.total_bytes, pid, epoch, attributes, 0,
        )  # fmt: skip
        self._dirty.add(file)
        self.end_index += 1
        if self.end_index % self.units_per_file == 0:
            self._tail = self._files.create(self.end_index * UNIT_SIZE)
            self._reserved_to = 0
        self.next_offset = base_offset + record_count
        self.next_physical = physical + size
        self.total_bytes += size - HEADER_SIZE
        return True

    # --- reads ---

    def locate(self, index: int) -> tuple[MappedFile, int]:
        file = self._files.find(index * UNIT_SIZE)
        if file is None:
            raise IndexError(f"unit {index} of {self.directory} is not mapped")
        return file, index * UNIT_SIZE - file.start

    def unit(self, index: int) -> Unit:
        file, pos = self.locate(index)
        return Unit(*UNIT.unpack_from(file.view, pos)[:10])

    def head(self, index: int) -> tuple[int, int, int, int]:
        """(physical_offset, size, record_count, base_offset) of unit ``index``: the read path's fields."""
        file, pos = self.locate(index)
        fields: tuple[int, int, int, int] = _HEAD.unpack_from(file.view, pos)
        return fields

    @property
    def first_offset(self) -> int:
        """Base offset of the oldest unit still held (``next_offset`` when there is none)."""
        if self.end_index == self.first_index:
            return self.next_offset
        if self._first_offset is None:
            self._first_offset = self.head(self.first_index)[3]
        return self._first_offset

    def index_of_offset(self, offset: int) -> int:
        """Index of the unit holding Kafka ``offset`` (first_index <= result < end_index is the caller's check)."""
        if offset == self._cursor_offset and self._cursor_index < self.end_index:
            return self._cursor_index
        return bisect.bisect_right(self._bases, offset, self.first_index, self.end_index) - 1

    def remember(self, index: int, offset: int) -> None:
        """Set the cursor: the next sequential read asks for ``offset``, held by unit ``index``."""
        self._cursor_index = index
        self._cursor_offset = offset

    def index_of_timestamp(self, timestamp: int, low: int) -> int:
        """First unit at or after ``low`` whose running maximum reaches ``timestamp`` (end_index if none)."""
        return bisect.bisect_left(self._maxima, timestamp, low, self.end_index)

    def index_of_physical(self, physical_offset: int) -> int:
        """First unit whose record starts at or after ``physical_offset``."""
        return bisect.bisect_left(self._physicals, physical_offset, self.first_index, self.end_index)

    def bytes_before(self, index: int) -> int:
        if index >= self.end_index:
            return self.total_bytes
        file, pos = self.locate(index)
        value: int = _INT64.unpack_from(file.view, pos + _BYTES_BEFORE_AT)[0]
        return value

    # --- retention ---

    def delete_files_below(self, physical_offset: int) -> None:
        """Delete files (never the last) whose every unit points below ``physical_offset``."""
        files = self._files.files
        while len(files) > 1:
            last_index = files[0].end // UNIT_SIZE - 1
            if self.head(last_index)[0] >= physical_offset:
                break
            self._files.remove(files[0])
            self.first_index = files[0].start // UNIT_SIZE
            self._first_offset = None
        self._cursor_offset = -1

    def close(self) -> None:
        self._files.close()

    def delete(self) -> None:
        self.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def _all_zero(view: memoryview) -> bool:
    for at in range(0, len(view), len(_ZEROS)):
        part = view[at : at + len(_ZEROS)].tobytes()
        if part != _ZEROS[: len(part)]:
            return False
    return True


def _partition_of(directory: Path) -> tuple[bytes, int]:
    try:
        return bytes.fromhex(directory.parent.name), int(directory.name)
    except ValueError:
        return b"", -1
