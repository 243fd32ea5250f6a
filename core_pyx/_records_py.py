"""Pure-Python twin of the records kernel: the records inside an uncompressed RecordBatch v2 payload.

Each record (Kafka's ``DefaultRecord``); varints are zigzag-encoded (Protocol Buffers style), at most 5 bytes
for a varint and 10 for a varlong:

==================  =======  =====================================================================
field               type     notes
==================  =======  =====================================================================
length              varint   bytes of the record after this field
attributes          int8     unused, 0
timestampDelta      varlong  timestamp - batch baseTimestamp
offsetDelta         varint   offset - batch baseOffset
keyLength           varint   -1: null key
key                 bytes
valueLength         varint   -1: null value
value               bytes
headerCount         varint   must not be negative
headers             …        per header: keyLength varint (>= 0), key UTF-8, valueLength varint
                             (-1: null), value
==================  =======  =====================================================================

A record's fields must use exactly its ``length`` bytes, the payload must hold ``count`` records and
nothing after them; anything else raises :class:`CorruptBatchError`. In a LogAppendTime batch every
record's timestamp is the batch's maxTimestamp (passed as ``log_append_time``). Header keys that are not
valid UTF-8 are decoded with replacement characters, as Java's ``new String(bytes, UTF_8)`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .errors import CorruptBatchError

if TYPE_CHECKING:
    from typing_extensions import Buffer


class Record(NamedTuple):
    """One record of a batch, its offset and timestamp made absolute."""

    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes | None], ...]


class _Cursor:
    """A bounds-checked read position in one payload."""

    __slots__ = ("end", "pos", "view")

    def __init__(self, view: memoryview, pos: int, end: int) -> None:
        self.view = view
        self.pos = pos
        self.end = end

    def varint(self, max_bytes: int) -> int:
        result = 0
        for shift in range(0, 7 * max_bytes, 7):
            if self.pos >= self.end:
                raise CorruptBatchError(f"record varint runs past its end at byte {self.pos}")
            byte = self.view[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                result &= (1 << (32 if max_bytes == 5 else 64)) - 1  # Java's int/long wrap-around
                return (result >> 1) ^ -(result & 1)
        raise CorruptBatchError(f"record varint longer than {max_bytes} bytes at byte {self.pos}")

    def take(self, length: int) -> bytes:
        if length > self.end - self.pos:
            raise CorruptBatchError(f"record field of {length} bytes overruns its record at byte {self.pos}")
        start = self.pos
        self.pos += length
        return bytes(self.view[start : self.pos])

    def nullable(self) -> bytes | None:
        length = self.varint(5)
        if length < -1:
            raise CorruptBatchError(f"record field length {length} is negative")
        return None if length == -1 else self.take(length)


def _headers(cur: _Cursor) -> tuple[tuple[str, bytes | None], ...]:
    count = cur.varint(5)
    if count < 0:
        raise CorruptBatchError(f"record has a negative header count {count}")
    headers: list[tuple[str, bytes | None]] = []
    for _ in range(count):
        key_length = cur.varint(5)
        if key_length < 0:
            raise CorruptBatchError(f"record header key length {key_length} is negative")
        key = cur.take(key_length).decode("utf-8", "replace")
        headers.append((key, cur.nullable()))
    return tuple(headers)


def _record(
    view: memoryview, cur: _Cursor, base_offset: int, base_timestamp: int, log_append_time: int | None
) -> Record:
    length = cur.varint(5)
    if length < 0 or length > cur.end - cur.pos:
        raise CorruptBatchError(f"record length {length} overruns the payload at byte {cur.pos}")
    body = _Cursor(view, cur.pos, cur.pos + length)
    cur.pos += length
    body.take(1)  # attributes: unused
    timestamp_delta = body.varint(10)
    offset_delta = body.varint(5)
    key = body.nullable()
    value = body.nullable()
    headers = _headers(body)
    if body.pos != body.end:
        raise CorruptBatchError(f"record declares {length} bytes but its fields use {length - (body.end - body.pos)}")
    timestamp = base_timestamp + timestamp_delta if log_append_time is None else log_append_time
    return Record(base_offset + offset_delta, timestamp, key, value, headers)


def decode_records(
    payload: Buffer, count: int, base_offset: int, base_timestamp: int, log_append_time: int | None = None
) -> list[Record]:
    """The ``count`` records of an uncompressed batch payload (the bytes after the 61-byte header)."""
    view = memoryview(payload).cast("B")
    cur = _Cursor(view, 0, len(view))
    records: list[Record] = []
    for _ in range(count):
        if cur.pos >= cur.end:
            raise CorruptBatchError(f"batch payload ends after {len(records)} of its {count} records")
        records.append(_record(view, cur, base_offset, base_timestamp, log_append_time))
    if cur.pos != cur.end:
        raise CorruptBatchError(f"{cur.end - cur.pos} bytes follow the {count} records of the batch payload")
    return records


def walk_records(payload: Buffer) -> tuple[int, int, int]:
    """``(count, least timestampDelta, greatest timestampDelta)`` of an uncompressed payload ((0, 0, 0) when
    empty), walking only the records' lengths and deltas.

    The produce path's check (no record objects made): every record's fields must fit exactly in its length,
    its offset delta must be its position in the batch, and the payload must end on a record boundary."""
    view = memoryview(payload).cast("B")
    cur = _Cursor(view, 0, len(view))
    count = least = greatest = 0
    while cur.pos < cur.end:
        length = cur.varint(5)
        if length < 1 or length > cur.end - cur.pos:
            raise CorruptBatchError(f"record {count} claims {length} bytes, {cur.end - cur.pos} remain")
        record = _Cursor(view, cur.pos + 1, cur.pos + length)  # past the attributes byte
        timestamp_delta = record.varint(10)
        offset_delta = record.varint(5)
        if offset_delta != count:
            raise CorruptBatchError(f"record {count} has offset delta {offset_delta}")
        _skip_fields(record, count)
        least = timestamp_delta if count == 0 else min(least, timestamp_delta)
        greatest = timestamp_delta if count == 0 else max(greatest, timestamp_delta)
        count += 1
        cur.pos += length
    return count, least, greatest


def _skip_bytes(record: _Cursor, nullable: bool) -> None:
    length = record.varint(5)
    if length < (-1 if nullable else 0) or length > record.end - record.pos:
        raise CorruptBatchError(f"record field of {length} bytes does not fit its record at byte {record.pos}")
    record.pos += max(length, 0)


def _skip_fields(record: _Cursor, index: int) -> None:
    """Key, value and headers of one record, checked for size only; the record must end exactly after them."""
    _skip_bytes(record, True)
    _skip_bytes(record, True)
    headers = record.varint(5)
    if headers < 0:
        raise CorruptBatchError(f"record {index} has {headers} headers")
    for _ in range(headers):
        _skip_bytes(record, False)
        _skip_bytes(record, True)
    if record.pos != record.end:
        raise CorruptBatchError(f"record {index} has {record.end - record.pos} bytes after its fields")
