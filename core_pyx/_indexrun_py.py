"""Pure-Python twin of the index-run kernel: a run of CommitLog records indexed into one IndexFile at once.

``index_records(segment, position, end, segment_start, index, slot_count, header, indexed_through, budget)``
walks the CommitLog records of one segment (``segment``: a buffer over the whole file, whose byte 0 is
global offset ``segment_start``; record layout in ``store/commitlog.py`` of the store package) from
file-relative ``position`` while ``position < end`` (``end``: file-relative, the published offset or the
segment's length), and appends their IndexFile entries to ``index`` (a writable buffer over a whole
IndexFile of ``slot_count`` slots; layout in ``store/indexfile.py``) whose header fields are ``header``.

For each record it checks the magic, that the size fits what is left of the segment (leaving room for a
BLANK), that its ``physical_offset`` is where it sits, and that the batch's magic and length agree with the
record's size (a subset of what ``scan_records`` checks; the header CRC is not checked: records below the
published offset were written or verified by this process). A record then gets entries unless its
``physical_offset`` is at or below ``indexed_through`` (indexed already) or it is a control batch
(attributes bit 5): one entry per distinct key hash of its uncompressed records, in order of first
appearance (``key_hashes`` of the ``_indexhash`` kernel, seeded with the CRC-32C of the record's topic id;
a payload that does not decode, or has no non-null key, gets none). Entries are put as
``put_entries`` puts them (each entry before the slot that points to it), then the 40-byte header is
rewritten: ``begin_timestamp``/``begin_physical_offset`` from the file's first entry on, ``end_*`` from
this record, ``hash_slot_count`` and ``index_count``.

It stops, and says why (``IndexStop``), at:

- ``END``: ``position`` reached ``end``;
- ``SEGMENT_END``: a BLANK record that fills the rest of the segment (the data goes on in the next file);
- ``COMPRESSED``: a record to index whose batch is compressed (nothing of it is indexed: the caller
  decompresses it, indexes it, and calls again from its end);
- ``FULL``: a record whose entries do not fit the IndexFile (nothing of it is indexed: the caller starts a
  new file);
- ``UNPARSED``: bytes that are not a record passing the checks above, nor a BLANK of the right size;
- ``LIMIT``: ``budget`` bytes of records were walked (at least one record is walked per call), so the
  caller can look at its stop flag between calls.

The result (``IndexRun``) holds the file-relative position it stopped at (the start of the record it
stopped on, or ``end``), why, and the header fields after the last put (``IndexHeader``). The compiled twin
walks, hashes and writes with the GIL released.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from ._crc32c_py import crc32c
from ._indexhash_py import ENTRY_SIZE, SLOT_SIZE, key_hashes, put_entries
from ._indexhash_py import HEADER as INDEX_HEADER
from ._indexhash_py import HEADER_SIZE as INDEX_HEADER_SIZE
from ._logrecord_py import (
    BLANK_MAGIC,
    BLANK_SIZE,
    PARTITION_AT,
    PHYSICAL_OFFSET_AT,
    RECORD_MAGIC,
    STORE_TIMESTAMP_AT,
    TOPIC_ID_AT,
)
from ._logrecord_py import HEADER_SIZE as RECORD_HEADER_SIZE
from ._recordbatch_py import (
    ATTRIBUTES_OFFSET,
    COMPRESSION_MASK,
    CONTROL_BIT,
    LENGTH_OFFSET,
    LOG_OVERHEAD,
    MAGIC_OFFSET,
    RECORD_COUNT_OFFSET,
)
from ._recordbatch_py import RECORD_BATCH_OVERHEAD as BATCH_HEADER_SIZE
from .errors import CorruptBatchError

if TYPE_CHECKING:
    from typing_extensions import Buffer


_PREFIX = struct.Struct(">iI")
_INT64 = struct.Struct(">q")
_INT32 = struct.Struct(">i")
_UINT16 = struct.Struct(">H")


class IndexStop(IntEnum):
    """Why ``index_records`` stopped."""

    END = 0
    SEGMENT_END = 1
    COMPRESSED = 2
    FULL = 3
    UNPARSED = 4
    LIMIT = 5


@dataclass(frozen=True, slots=True)
class IndexHeader:
    """The header fields of an IndexFile (``index_count`` starts at 1)."""

    begin_timestamp: int
    end_timestamp: int
    begin_physical_offset: int
    end_physical_offset: int
    hash_slot_count: int
    index_count: int


@dataclass(frozen=True, slots=True)
class IndexRun:
    """Where ``index_records`` stopped (file-relative), why, and the IndexFile header afterwards."""

    position: int
    stop: IndexStop
    header: IndexHeader


def _check_arguments(segment_length: int, position: int, end: int, index_length: int, slot_count: int,
                    header: IndexHeader) -> int:  # fmt: skip
    """The IndexFile's entry count; ``ValueError`` for arguments the walk cannot start from."""
    entries_at = INDEX_HEADER_SIZE + slot_count * SLOT_SIZE
    if slot_count <= 0 or index_length < entries_at + 2 * ENTRY_SIZE or header.index_count < 1:
        raise ValueError("not an IndexFile of that slot count, or a header with index_count < 1")
    if not 0 <= position <= segment_length or end > segment_length:
        raise ValueError(f"position {position} or end {end} outside the {segment_length}-byte segment")
    return (index_length - entries_at) // ENTRY_SIZE


def _parse(view: memoryview, position: int, segment_start: int) -> tuple[IndexStop | None, int]:
    """(None, size) for a record passing the checks, else (the stop, 0)."""
    remaining = len(view) - position
    if remaining < BLANK_SIZE:
        return IndexStop.UNPARSED, 0
    total, magic = _PREFIX.unpack_from(view, position)
    if magic == BLANK_MAGIC:
        return (IndexStop.SEGMENT_END if total == remaining else IndexStop.UNPARSED), 0
    if magic != RECORD_MAGIC or not RECORD_HEADER_SIZE + BATCH_HEADER_SIZE <= total <= remaining - BLANK_SIZE:
        return IndexStop.UNPARSED, 0
    batch = position + RECORD_HEADER_SIZE
    if _INT64.unpack_from(view, position + PHYSICAL_OFFSET_AT)[0] != segment_start + position:
        return IndexStop.UNPARSED, 0
    if view[batch + MAGIC_OFFSET] != 2:
        return IndexStop.UNPARSED, 0
    if _INT32.unpack_from(view, batch + LENGTH_OFFSET)[0] + LOG_OVERHEAD != total - RECORD_HEADER_SIZE:
        return IndexStop.UNPARSED, 0
    return None, total


def _hashes(view: memoryview, position: int, total: int) -> list[int]:
    batch = position + RECORD_HEADER_SIZE
    count = _INT32.unpack_from(view, batch + RECORD_COUNT_OFFSET)[0]
    seed = crc32c(view[position + TOPIC_ID_AT : position + PARTITION_AT])  # the topic id
    try:
        return key_hashes(view[batch + BATCH_HEADER_SIZE : position + total], count, seed)
    except CorruptBatchError:
        return []  # a batch that does not decode has no keys to offer


def _put(index: memoryview, slot_count: int, header: IndexHeader, hashes: list[int], physical: int,
         stamp: int) -> IndexHeader:  # fmt: skip
    begin_timestamp, begin_physical = header.begin_timestamp, header.begin_physical_offset
    if header.index_count <= 1:
        begin_timestamp, begin_physical = stamp, physical
    index_count, used = put_entries(
        index, slot_count, header.index_count, header.hash_slot_count, begin_timestamp, physical, stamp, hashes
    )
    INDEX_HEADER.pack_into(index, 0, begin_timestamp, stamp, begin_physical, physical, used, index_count)
    return IndexHeader(begin_timestamp, stamp, begin_physical, physical, used, index_count)


def index_records(
    segment: Buffer,
    position: int,
    end: int,
    segment_start: int,
    index: Buffer,
    slot_count: int,
    header: IndexHeader,
    indexed_through: int,
    budget: int,
) -> IndexRun:
    """Index the records of ``segment`` from ``position`` until ``end`` or a stop; see the module docstring."""
    view, out = memoryview(segment).cast("B"), memoryview(index).cast("B")
    if out.readonly:
        raise BufferError("the IndexFile buffer is read-only")
    entry_count = _check_arguments(len(view), position, end, len(out), slot_count, header)
    walked = 0
    while True:
        if position >= end:
            return IndexRun(position, IndexStop.END, header)
        if walked and walked >= budget:
            return IndexRun(position, IndexStop.LIMIT, header)
        stop, total = _parse(view, position, segment_start)
        if stop is not None:
            return IndexRun(position, stop, header)
        physical = segment_start + position
        attributes = _UINT16.unpack_from(view, position + RECORD_HEADER_SIZE + ATTRIBUTES_OFFSET)[0]
        if physical > indexed_through and not attributes & CONTROL_BIT:
            if attributes & COMPRESSION_MASK:
                return IndexRun(position, IndexStop.COMPRESSED, header)
            hashes = _hashes(view, position, total)
            if hashes:
                if header.index_count + len(hashes) > entry_count:
                    return IndexRun(position, IndexStop.FULL, header)
                stamp = _INT64.unpack_from(view, position + STORE_TIMESTAMP_AT)[0]
                header = _put(out, slot_count, header, hashes, physical, stamp)
        position += total
        walked += total
