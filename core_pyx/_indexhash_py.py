"""Pure-Python twin of the IndexFile kernel: record keys to IndexFile hashes, and entry writes.

``key_hashes(payload, count, seed)`` walks the ``count`` records of an uncompressed batch payload (the bytes
after the 61-byte batch header; record layout in ``_records_py``) and returns, in order of first appearance,
the distinct ``crc32c(key, seed) & 0x7FFFFFFF`` of the records' non-null keys, where ``seed`` is the
CRC-32C of the topic id. Only each record's length, key length and key are read; a record or key running
past its end raises :class:`CorruptBatchError`.

``put_entries`` appends IndexFile entries (RocketMQ's layout: ``store/indexfile.py`` in the store package)
for one CommitLog record: per hash, a 20-byte entry ``[hash i32][physical offset i64][time diff i32]
[previous entry i32]`` at ``HEADER_SIZE + slot_count * 4 + n * 20`` linked to its slot's old head, then the
slot (``HEADER_SIZE + (hash % slot_count) * 4``) set to ``n``. It returns the new (index_count,
hash_slot_count); the caller writes the header and checked that the entries fit.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ._crc32c_py import crc32c
from .errors import CorruptBatchError

if TYPE_CHECKING:
    from typing_extensions import Buffer

HEADER_SIZE: Final = 40
ENTRY_SIZE: Final = 20
SLOT_SIZE: Final = 4
MAX_TIME_DIFF: Final = 0x7FFFFFFF
# Where each HEADER field starts
BEGIN_TIMESTAMP_AT: Final = 0
END_TIMESTAMP_AT: Final = 8
BEGIN_PHYSICAL_AT: Final = 16
END_PHYSICAL_AT: Final = 24
HASH_SLOT_COUNT_AT: Final = 32
INDEX_COUNT_AT: Final = 36

HEADER: Final = struct.Struct(">qqqqii")
ENTRY: Final = struct.Struct(">iqii")
_SLOT = struct.Struct(">i")


def _varint(view: memoryview, pos: int, end: int, max_bytes: int) -> tuple[int, int]:
    result = 0
    for shift in range(0, 7 * max_bytes, 7):
        if pos >= end:
            raise CorruptBatchError(f"record varint runs past its end at byte {pos}")
        byte = view[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return (result >> 1) ^ -(result & 1), pos
    raise CorruptBatchError(f"record varint longer than {max_bytes} bytes at byte {pos}")


def key_hashes(payload: Buffer, count: int, seed: int) -> list[int]:
    """Distinct IndexFile hashes of the non-null record keys of an uncompressed payload, first seen first."""
    view = memoryview(payload).cast("B")
    pos, end = 0, len(view)
    hashes: list[int] = []
    seen: set[int] = set()
    for _ in range(count):
        length, pos = _varint(view, pos, end, 5)
        if length < 0 or length > end - pos:
            raise CorruptBatchError(f"record length {length} overruns the payload at byte {pos}")
        record_end = pos + length
        _, field = _varint(view, pos + 1, record_end, 10)  # attributes (1 byte), timestampDelta
        _, field = _varint(view, field, record_end, 5)  # offsetDelta
        key_length, field = _varint(view, field, record_end, 5)
        if key_length > record_end - field:
            raise CorruptBatchError(f"record key of {key_length} bytes overruns its record at byte {field}")
        if key_length >= 0:
            value = crc32c(view[field : field + key_length], seed) & 0x7FFFFFFF
            if value not in seen:
                seen.add(value)
                hashes.append(value)
        pos = record_end
    return hashes


def put_entries(
    index: Buffer,
    slot_count: int,
    index_count: int,
    hash_slot_count: int,
    begin_timestamp: int,
    physical_offset: int,
    store_timestamp: int,
    hashes: Sequence[int],
) -> tuple[int, int]:
    """Append one entry per hash for the record at ``physical_offset``; returns (index_count, hash_slot_count)."""
    view = memoryview(index)
    entries_at = HEADER_SIZE + slot_count * SLOT_SIZE
    if slot_count <= 0 or index_count < 1 or entries_at + (index_count + len(hashes)) * ENTRY_SIZE > len(view):
        raise ValueError("index entries do not fit the IndexFile")
    diff = min(max((store_timestamp - begin_timestamp) // 1000, 0), MAX_TIME_DIFF)
    for value in hashes:
        slot_at = HEADER_SIZE + (value % slot_count) * SLOT_SIZE
        previous = _SLOT.unpack_from(view, slot_at)[0]
        if not 0 < previous < index_count:
            previous = 0
            hash_slot_count += 1
        ENTRY.pack_into(view, entries_at + index_count * ENTRY_SIZE, value, physical_offset, diff, previous)
        _SLOT.pack_into(view, slot_at, index_count)
        index_count += 1
    return index_count, hash_slot_count
