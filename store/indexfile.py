"""IndexFile: RocketMQ's hash index from a record key to the CommitLog records that carry it.

Files: ``index/<creation time, UTC, yyyyMMddHHmmssSSS>``, each exactly
``HEADER_SIZE + slot_count * SLOT_SIZE + entry_count * ENTRY_SIZE`` bytes (RocketMQ's defaults, 5,000,000
slots and 20,000,000 entries, make 420,000,040 bytes). All integers big-endian.

Header, 40 bytes:

======  ====  ======================  =================================================================
offset  size  field                   notes
======  ====  ======================  =================================================================
0       8     begin_timestamp         store timestamp of the first entry (ms)
8       8     end_timestamp           store timestamp of the last entry (ms)
16      8     begin_physical_offset   CommitLog offset of the first record indexed
24      8     end_physical_offset     CommitLog offset of the last record indexed
32      4     hash_slot_count         slots in use
36      4     index_count             next entry number; starts at 1, entry 0 means "none"
======  ====  ======================  =================================================================

Slot table: ``slot_count * 4`` bytes, the number of the newest entry whose hash falls in the slot (0: none).

Entries: ``entry_count * 20`` bytes (entry *n* at ``HEADER_SIZE + slot_count * 4 + n * 20``; number 0 unused):

======  ====  ================  =======================================================================
offset  size  field             notes
======  ====  ================  =======================================================================
0       4     key_hash          ``CRC-32C(topic id (16 bytes) + record key) & 0x7FFFFFFF``
4       8     physical_offset   CommitLog offset of the record (batch) holding the key
12      4     time_diff         (store timestamp - begin_timestamp) // 1000, seconds, in [0, 2^31 - 1]
16      4     prev_index        the next older entry of the same slot (0: none)
======  ====  ======================  =================================================================

``slot = key_hash % slot_count``. A put writes the entry, then the slot, then the header, so a reader on
another thread always finds complete entries through the slot. Entries are put one record at a time
(``put``), or for a run of CommitLog records at once (``index_run``: the ``core_pyx.indexrun`` kernel, the
same entries, the GIL released). A hash identifies a key only up to collisions (of hashes and of slots):
queries re-check the actual key in the CommitLog.

Nothing is checksummed. A file is fsynced when it fills and at clean shutdown, and the checkpoint records
the end offset up to which files are complete; after a crash, files that end past it are deleted and
rebuilt from the CommitLog by the index thread.

The sizes and structs (``HEADER_SIZE``, ``SLOT_SIZE``, ``ENTRY_SIZE``, ``HEADER``, ``ENTRY``) are defined once,
by the ``core_pyx.indexhash`` kernel that writes the entries (``core_pyx/_indexhash_py.py``; the compiled
kernels cimport them from ``core_pyx/_layouts.pxd``), and imported here.
"""

from __future__ import annotations

import datetime
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.indexhash import ENTRY, ENTRY_SIZE, HEADER, HEADER_SIZE, SLOT_SIZE, put_entries
from rockafka.core_pyx.indexrun import IndexHeader, IndexRun, index_records

from .mappedfile import MappedFile

if TYPE_CHECKING:
    from typing_extensions import Buffer

NAME_LENGTH: Final = 17
_RESERVE_AHEAD = 1 << 20  # zeros are written this far ahead of the entries
_BYTES_PER_ENTRY_GUESS = 256  # a run over n bytes of records is reserved n / this many entries ahead

_SLOT = struct.Struct(">i")


def topic_seed(topic_id: bytes) -> int:
    """The CRC-32C of a topic id, from which its keys' hashes continue."""
    return int(crc32c(topic_id))


def key_hash(topic_id: bytes, key: bytes) -> int:
    return int(crc32c(key, topic_seed(topic_id))) & 0x7FFFFFFF


def file_name(created_ms: int) -> str:
    moment = datetime.datetime.fromtimestamp(created_ms / 1000, tz=datetime.UTC)
    return moment.strftime("%Y%m%d%H%M%S") + f"{created_ms % 1000:03d}"


def file_size(slot_count: int, entry_count: int) -> int:
    return HEADER_SIZE + slot_count * SLOT_SIZE + entry_count * ENTRY_SIZE


class IndexFile:
    """One mapped index file. Written by the index thread; read by any thread holding the service lock."""

    __slots__ = (
        "_entries_at",
        "_file",
        "_reserved_to",
        "begin_physical_offset",
        "begin_timestamp",
        "end_physical_offset",
        "end_timestamp",
        "entry_count",
        "hash_slot_count",
        "index_count",
        "slot_count",
    )

    begin_timestamp: int
    end_timestamp: int
    begin_physical_offset: int
    end_physical_offset: int
    hash_slot_count: int
    index_count: int

    def __init__(self, file: MappedFile, slot_count: int, entry_count: int) -> None:
        self._file = file
        self.slot_count = slot_count
        self.entry_count = entry_count
        self._entries_at = HEADER_SIZE + slot_count * SLOT_SIZE
        # a fresh file is a hole: read as zeros, not through the mapping (a full tmpfs answers that with SIGBUS)
        fields = HEADER.unpack_from(file.view if file.data_end() else bytes(HEADER.size), 0)
        self.begin_timestamp, self.end_timestamp, self.begin_physical_offset, self.end_physical_offset = fields[:4]
        self.hash_slot_count, self.index_count = fields[4], max(fields[5], 1)
        self._reserved_to = 0

    @classmethod
    def open(
        cls, path: Path, slot_count: int, entry_count: int, *, readonly: bool = False, check_size: bool = False
    ) -> IndexFile:
        """Map ``path`` (created when missing); ``check_size``: an existing file of another size is an ``OSError``
        rather than cut or extended."""
        size = file_size(slot_count, entry_count)
        if check_size and path.exists() and path.stat().st_size != size:
            raise OSError(f"{path.name} is {path.stat().st_size} bytes, not the {size} its geometry gives")
        file = MappedFile.open_readonly(path, 0) if readonly else MappedFile.open(path, 0, size)
        if file.size != size:
            file.close()
            raise OSError(f"{path} is {file.size} bytes, not the {size} its geometry gives")
        return cls(file, slot_count, entry_count)

    @property
    def path(self) -> Path:
        return self._file.path

    def damage(self) -> str | None:
        """What is impossible in the header, or None: counts beyond the geometry, offsets or times reversed."""
        if not 1 <= self.index_count <= self.entry_count or not 0 <= self.hash_slot_count <= self.slot_count:
            return f"header counts {self.index_count} entries, {self.hash_slot_count} slots"
        if self.index_count > 1 and (
            self.end_physical_offset < self.begin_physical_offset or self.end_timestamp < self.begin_timestamp
            or self.begin_physical_offset < 0
        ):  # fmt: skip
            return "header offsets or times reversed"
        return None

    def room(self) -> int:
        """Entries that still fit."""
        return self.entry_count - self.index_count

    def _reserve_for(self, entries: int) -> None:
        """Write zeros over the slot table of a fresh file and ahead of the next ``entries`` entries, so their
        blocks exist before the puts write through the mapping (a write fault on a hole costs ext4 a block
        allocation under its journal: ``MappedFile.reserve``). Only never-written bytes are zeroed."""
        if not self._reserved_to:
            if self.index_count <= 1 and not self.hash_slot_count:
                self._file.reserve(0, self._entries_at)
            self._reserved_to = self._entries_at + self.index_count * ENTRY_SIZE
        needed = self._entries_at + (self.index_count + entries) * ENTRY_SIZE
        while self._reserved_to < min(needed, self._file.size):
            self._file.reserve(self._reserved_to, _RESERVE_AHEAD)
            self._reserved_to += _RESERVE_AHEAD

    def put(self, hash_values: Sequence[int], physical_offset: int, store_timestamp: int) -> None:
        """Append an entry per hash for one record (the caller checked ``room()``), each its slot's new head."""
        self._reserve_for(len(hash_values))
        if self.index_count <= 1:
            self.begin_timestamp, self.begin_physical_offset = store_timestamp, physical_offset
        self.index_count, self.hash_slot_count = put_entries(
            self._file.view, self.slot_count, self.index_count, self.hash_slot_count, self.begin_timestamp,
            physical_offset, store_timestamp, hash_values,
        )  # fmt: skip
        self.end_timestamp, self.end_physical_offset = store_timestamp, physical_offset
        HEADER.pack_into(
            self._file.view, 0, self.begin_timestamp, self.end_timestamp, self.begin_physical_offset,
            self.end_physical_offset, self.hash_slot_count, self.index_count,
        )  # fmt: skip

    def index_run(
        self, segment: Buffer, position: int, end: int, segment_start: int, indexed_through: int, budget: int
    ) -> IndexRun:
        """Index the records of a CommitLog segment from ``position`` until ``end`` or a stop, the GIL released
        (``core_pyx.indexrun``: entries as ``put`` writes them, records at or below ``indexed_through`` skipped,
        at most about ``budget`` bytes of records walked); the header fields follow the run. The kernel sees
        only the reserved part of the file: it stops (FULL) where the allocated blocks end, never writing
        through the mapping into a hole (SIGBUS on a full disk)."""
        self._reserve_for(budget // _BYTES_PER_ENTRY_GUESS)
        header = IndexHeader(
            self.begin_timestamp, self.end_timestamp, self.begin_physical_offset, self.end_physical_offset,
            self.hash_slot_count, self.index_count,
        )  # fmt: skip
        run = index_records(
            segment, position, end, segment_start, self._file.view[: self._reserved_to], self.slot_count, header,
            indexed_through, budget,
        )  # fmt: skip
        after = run.header
        self.begin_timestamp, self.end_timestamp = after.begin_timestamp, after.end_timestamp
        self.begin_physical_offset, self.end_physical_offset = after.begin_physical_offset, after.end_physical_offset
        self.hash_slot_count, self.index_count = after.hash_slot_count, after.index_count
        return run

    def lookup(self, hash_value: int, begin_ms: int, end_ms: int) -> list[int]:
        """Physical offsets of the entries with ``hash_value`` stored within [begin_ms, end_ms], newest first.

        Entry times have one-second resolution, so a window is widened by a second downward: callers filter
        on the record's exact store timestamp.
        """
        if self.index_count <= 1 or self.end_timestamp < begin_ms - 1000 or self.begin_timestamp > end_ms:
            return []
        view = self._file.view
        number = _SLOT.unpack_from(view, HEADER_SIZE + (hash_value % self.slot_count) * SLOT_SIZE)[0]
        found: list[int] = []
        limit = self.index_count
        while 0 < number < limit:
            entry_hash, physical, diff, previous = ENTRY.unpack_from(view, self._entries_at + number * ENTRY_SIZE)
            moment = self.begin_timestamp + diff * 1000
            if moment < begin_ms - 1000:
                break
            if entry_hash == hash_value and moment <= end_ms:
                found.append(physical)
            limit, number = number, previous  # chains only go to older entries: guards against a loop
        return found

    def sync(self) -> None:
        self._file.sync()

    def close(self) -> None:
        self._file.close()

    def delete(self) -> None:
        self._file.delete()
