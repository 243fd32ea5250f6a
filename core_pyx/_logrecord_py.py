"""Pure-Python twin of the CommitLog record kernel: write one record (64-byte header + batch) with one pwritev,
and scan records out of a mapped segment.

The record layout is the CommitLog's (specified in ``store/commitlog.py`` of the store package)::

    total_size i32 | magic u32 (0x524B4331) | header_crc u32 | topic_id 16 bytes | partition i32 |
    base_offset i64 | physical_offset i64 | store_timestamp i64 | record_count i32 | flags u16 | reserved u16
    then the RecordBatch

``header_crc`` is the CRC-32C of header bytes 0-7 continued over bytes 12-63. The batch is written as
given except its base offset and partitionLeaderEpoch (bytes 0-7 and 12-15, outside the batch CRC: the
``leader_epoch`` given) and, when ``log_append_time`` is not -1,
its attributes (bit 3 set) and maxTimestamp, with its CRC-32C recomputed. The caller's buffer is not
changed: the patched 61-byte batch header is written from a copy, the rest of the batch from the buffer.
``write_record`` returns (total size, the batch's attributes as stored, maxTimestamp, producerId,
producerEpoch); a short write raises ``OSError``.

``scan_records(segment, position, file_start, verify_from, limit, tail_room=BLANK_SIZE)`` parses up to
``limit`` records of one segment (a buffer holding the whole file, whose first byte is global offset
``file_start``) from file-relative ``position``; each record must leave ``tail_room`` bytes after it in the
buffer (a segment keeps room for the BLANK that closes it; a follower scanning copied data that ends with a
record passes 0). It returns ``(records, position, stop, reason)``: one tuple per valid record,
``(physical_offset, size, topic_id, partition, base_offset, record_count, store_timestamp, attributes,
max_timestamp, producer_id, producer_epoch)``, then where and why it stopped: ``LIMIT`` (go on from
``position``), ``SEGMENT_END`` (a BLANK at ``position``: the data goes on in the next file),
``END_OF_DATA`` (zeros at ``position``) or ``CORRUPT`` (``reason`` says what is wrong at ``position``).
``verify_crcs(segment, position, end)`` checks the batch CRC-32C of every record in [position, end) of a
segment whose records there were already parsed (each record's size is trusted), and returns the
file-relative position of the first whose CRC does not match, or -1. The compiled twin releases the GIL
for the whole range, so a thread can verify while another dispatches.

A record is valid when its size fits (``tail_room`` included), its header CRC matches, its physical offset is
where it sits, the batch's magic, length, base offset and last offset delta agree with the header and, for
records at or past global offset ``verify_from``, the batch CRC-32C matches.
"""

from __future__ import annotations

import os
import struct
from typing import TYPE_CHECKING, Final

from ._crc32c_py import crc32c
from ._recordbatch_py import (
    ATTRIBUTES_OFFSET,
    CRC_OFFSET,
    LOG_OVERHEAD,
    MAX_TIMESTAMP_OFFSET,
    PARTITION_LEADER_EPOCH_OFFSET,
    TIMESTAMP_TYPE_BIT,
)
from ._recordbatch_py import RECORD_BATCH_OVERHEAD as BATCH_HEADER_SIZE

if TYPE_CHECKING:
    from typing_extensions import Buffer

HEADER_SIZE: Final = 64
RECORD_MAGIC: Final = 0x524B4331
BLANK_MAGIC: Final = 0x524B4342
BLANK_SIZE: Final = 8
# Where each header field starts (total_size at 0)
MAGIC_AT: Final = 4
HEADER_CRC_AT: Final = 8
TOPIC_ID_AT: Final = 12
PARTITION_AT: Final = 28
BASE_OFFSET_AT: Final = 32
PHYSICAL_OFFSET_AT: Final = 40
STORE_TIMESTAMP_AT: Final = 48
RECORD_COUNT_AT: Final = 56
FLAGS_AT: Final = 60
RESERVED_AT: Final = 62
LIMIT: Final = 0
SEGMENT_END: Final = 1
END_OF_DATA: Final = 2
CORRUPT: Final = 3

HEADER: Final = struct.Struct(">iII16siqqqiHH")
_BATCH = struct.Struct(">qiibIhiqqqh")
_INT64 = struct.Struct(">q")
_INT32 = struct.Struct(">i")
_INT16 = struct.Struct(">h")
_UINT32 = struct.Struct(">I")
_PREFIX = struct.Struct(">iI")

Parsed = tuple[int, int, bytes, int, int, int, int, int, int, int, int]


def write_record(
    fd: int,
    position: int,
    batch: Buffer,
    topic_id: bytes,
    partition: int,
    base_offset: int,
    leader_epoch: int,
    record_count: int,
    store_timestamp: int,
    log_append_time: int,
    physical_offset: int,
) -> tuple[int, int, int, int, int]:
    source = memoryview(batch).cast("B")
    if len(source) < BATCH_HEADER_SIZE or len(topic_id) != 16:
        raise ValueError("a record needs a whole batch header and a 16-byte topic id")
    head = bytearray(source[:BATCH_HEADER_SIZE])
    _INT64.pack_into(head, 0, base_offset)
    _INT32.pack_into(head, PARTITION_LEADER_EPOCH_OFFSET, leader_epoch)
    if log_append_time != -1:
        attributes = _INT16.unpack_from(head, ATTRIBUTES_OFFSET)[0] | TIMESTAMP_TYPE_BIT
        _INT16.pack_into(head, ATTRIBUTES_OFFSET, attributes)
        _INT64.pack_into(head, MAX_TIMESTAMP_OFFSET, log_append_time)
        _UINT32.pack_into(
            head, CRC_OFFSET, crc32c(source[BATCH_HEADER_SIZE:], crc32c(memoryview(head)[ATTRIBUTES_OFFSET:]))
        )
    fields = _BATCH.unpack_from(head)
    attributes = fields[5] & 0xFFFF
    total = HEADER_SIZE + len(source)
    header = bytearray(HEADER_SIZE)
    HEADER.pack_into(
        header, 0, total, RECORD_MAGIC, 0, topic_id, partition, base_offset, physical_offset, store_timestamp,
        record_count, attributes, 0,
    )  # fmt: skip
    _UINT32.pack_into(header, HEADER_CRC_AT, _header_crc(memoryview(header)))
    written = os.pwritev(fd, [header, head, source[BATCH_HEADER_SIZE:]], position)
    if written != total:
        raise OSError(f"short write: {written} of {total} bytes")
    return total, attributes, fields[8], fields[9], fields[10]


def scan_records(
    segment: Buffer, position: int, file_start: int, verify_from: int, limit: int, tail_room: int = BLANK_SIZE
) -> tuple[list[Parsed], int, int, str]:
    view = memoryview(segment).cast("B")
    records: list[Parsed] = []
    while len(records) < limit:
        parsed, stop, reason = _parse(view, position, file_start, verify_from, tail_room)
        if parsed is None:
            return records, position, stop, reason
        records.append(parsed)
        position += parsed[1]
    return records, position, LIMIT, ""


def _parse(
    view: memoryview, pos: int, file_start: int, verify_from: int, tail_room: int
) -> tuple[Parsed | None, int, str]:
    """(the record, LIMIT, "") or (None, why the scan stops here, what is wrong)."""
    remaining = len(view) - pos
    if remaining < BLANK_SIZE:
        return None, CORRUPT, "no room for a record header"
    total, magic = _PREFIX.unpack_from(view, pos)
    if total == 0 and magic == 0:
        return None, END_OF_DATA, ""
    if magic == BLANK_MAGIC:
        return (None, SEGMENT_END, "") if total == remaining else (None, CORRUPT, "BLANK of the wrong size")
    if magic != RECORD_MAGIC:
        return None, CORRUPT, f"bad magic {magic:#010x}"
    if not HEADER_SIZE + BATCH_HEADER_SIZE <= total <= remaining - tail_room:
        return None, CORRUPT, f"bad record size {total}"
    _, _, header_crc, topic_id, partition, base, physical, stored_at, count, _, _ = HEADER.unpack_from(view, pos)
    if _header_crc(view[pos : pos + HEADER_SIZE]) != header_crc:
        return None, CORRUPT, "header checksum mismatch"
    if physical != file_start + pos:
        return None, CORRUPT, f"record claims physical offset {physical}"
    body = pos + HEADER_SIZE
    batch_base, length, _, batch_magic, batch_crc, attributes, delta, _, max_ts, pid, epoch = _BATCH.unpack_from(
        view, body
    )
    if batch_magic != 2 or length + LOG_OVERHEAD != total - HEADER_SIZE:
        return None, CORRUPT, "batch magic or length disagrees with the header"
    if batch_base != base or delta + 1 != count:
        return None, CORRUPT, "batch base offset or count disagrees with the header"
    if physical >= verify_from and crc32c(view[body + ATTRIBUTES_OFFSET : pos + total]) != batch_crc:
        return None, CORRUPT, "batch CRC-32C mismatch"
    record = (physical, total, bytes(topic_id), partition, base, count, stored_at, attributes & 0xFFFF, max_ts)
    return (*record, pid, epoch), LIMIT, ""


def _header_crc(header: memoryview) -> int:
    """The CRC-32C of a record header: the bytes before its CRC field, then those after it."""
    return crc32c(header[TOPIC_ID_AT:HEADER_SIZE], crc32c(header[:HEADER_CRC_AT]))


def verify_crcs(segment: Buffer, position: int, end: int) -> int:
    view = memoryview(segment).cast("B")
    if position < 0 or end > len(view):
        raise ValueError("range outside the segment")
    while position + HEADER_SIZE + BATCH_HEADER_SIZE <= end:
        total = _PREFIX.unpack_from(view, position)[0]
        if total < HEADER_SIZE + BATCH_HEADER_SIZE or position + total > end:
            return position
        body = position + HEADER_SIZE
        if crc32c(view[body + ATTRIBUTES_OFFSET : position + total]) != _UINT32.unpack_from(view, body + CRC_OFFSET)[0]:
            return position
        position += total
    return -1
