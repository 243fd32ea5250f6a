"""Pure-Python twin of the offset-map kernel: log compaction's map of record keys to their latest offsets,
bounded in bytes, and the records of a batch that a cleaning pass keeps.

Both take the uncompressed payload of a RecordBatch v2 (the bytes after its 61-byte header; record layout in
``_records_py``: length varint, attributes byte, timestampDelta varlong, offsetDelta varint, key, value, headers)
and the batch's record count and base offset. A record's offset is base offset + offsetDelta.

``OffsetMap(budget)`` maps each record key, as its exact bytes (never a digest of them: two keys never share an
entry), to the offset of its latest record added. Its memory is accounted as

    footprint(entries, key_bytes) = key_bytes + SLOT_BYTES * slots(entries)
    slots(n) = the least power of two >= 2 * n, and at least MIN_SLOTS

which is what the compiled twin allocates: an open-addressing table of ``slots(entries)`` 24-byte slots (offset
i64, key position i64, key hash u32, key length i32; linear probing on the CRC-32C of the key, at most half
full) and one buffer holding the keys end to end. The budget is Kafka's ``log.cleaner.dedupe.buffer.size``.

``add(payload, count, base_offset, force=False)`` adds the batch's records that have a key (a later record
replaces an earlier one of the same key) and returns True; or returns False and adds nothing when the most the
batch could add, ``footprint(len(map) + count, key_bytes + len(payload))``, exceeds the budget, unless
``force``. So the map always ends at a batch boundary, where a pass that does not fit stops.

``select(payload, count, base_offset, drop_tombstones)`` returns a :class:`Selection` of the records a pass
keeps: a key (records without one are dropped), no later offset for it in the map (a key the map does not hold
is kept: the map covers only the dirty part of the range, and the cleaned part before it holds one record per
key), and not a tombstone (null value) when ``drop_tombstones`` (its delete horizon has passed). ``records`` are
the kept records' bytes as stored, end to end, so offsetDelta and timestampDelta keep their meaning under the
same base offset and base timestamp; ``max_timestamp_delta`` is the greatest timestampDelta among them (0 when
none are kept) and ``tombstones`` how many of them have a null value.

A record whose length, key or value runs past its end, or a payload with bytes left after its ``count``
records, raises :class:`CorruptBatchError`; a map that raised it may hold part of that batch, and its pass is
abandoned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from ._records_py import _Cursor
from .errors import CorruptBatchError

if TYPE_CHECKING:
    from typing_extensions import Buffer

#: Bytes of one slot of the compiled twin's table; the table is at most half full.
SLOT_BYTES: Final = 24
MIN_SLOTS: Final = 1024


def slots(entries: int) -> int:
    """How many slots a table of ``entries`` keys has: the least power of two >= 2 * entries, >= MIN_SLOTS."""
    count = MIN_SLOTS
    while count < 2 * entries:
        count *= 2
    return count


def footprint(entries: int, key_bytes: int) -> int:
    """The bytes an offset map of ``entries`` keys totalling ``key_bytes`` holds."""
    return key_bytes + SLOT_BYTES * slots(entries)


class Selection(NamedTuple):
    """The records of one batch that a pass keeps (module docstring)."""

    kept: int
    tombstones: int
    max_timestamp_delta: int
    records: bytes


class _Record(NamedTuple):
    start: int  # where its length varint starts
    end: int
    timestamp_delta: int
    offset_delta: int
    key: bytes | None
    is_tombstone: bool


def _records(payload: Buffer, count: int) -> list[_Record]:
    view = memoryview(payload).cast("B")
    cur = _Cursor(view, 0, len(view))
    found: list[_Record] = []
    for _ in range(count):
        start = cur.pos
        length = cur.varint(5)
        if length < 1 or length > cur.end - cur.pos:
            raise CorruptBatchError(f"record length {length} overruns the payload at byte {cur.pos}")
        record = _Cursor(view, cur.pos + 1, cur.pos + length)  # past the attributes byte
        cur.pos = record.end
        timestamp_delta = record.varint(10)
        offset_delta = record.varint(5)
        key = record.nullable()
        value_length = record.varint(5)
        if value_length < -1 or value_length > record.end - record.pos:
            raise CorruptBatchError(f"record value of {value_length} bytes overruns its record at byte {record.pos}")
        found.append(_Record(start, record.end, timestamp_delta, offset_delta, key, value_length < 0))
    if cur.pos != cur.end:
        raise CorruptBatchError(f"{cur.end - cur.pos} bytes follow the {count} records of the batch payload")
    return found


class OffsetMap:
    """Record keys to the offsets of their latest records, within ``budget`` bytes (module docstring)."""

    def __init__(self, budget: int) -> None:
        if budget < footprint(0, 0):
            raise ValueError(f"an offset map needs at least {footprint(0, 0)} bytes, not {budget}")
        self.budget = budget
        self._latest: dict[bytes, int] = {}
        self._key_bytes = 0

    def __len__(self) -> int:
        return len(self._latest)

    @property
    def footprint(self) -> int:
        return footprint(len(self._latest), self._key_bytes)

    def get(self, key: bytes) -> int | None:
        return self._latest.get(key)

    def add(self, payload: Buffer, count: int, base_offset: int, force: bool = False) -> bool:
        if not force and footprint(len(self._latest) + count, self._key_bytes + len(memoryview(payload))) > (
            self.budget
        ):
            return False
        for record in _records(payload, count):
            if record.key is None:
                continue
            if record.key not in self._latest:
                self._key_bytes += len(record.key)
            self._latest[record.key] = base_offset + record.offset_delta
        return True

    def select(self, payload: Buffer, count: int, base_offset: int, drop_tombstones: bool) -> Selection:
        view = memoryview(payload).cast("B")
        kept: list[bytes] = []
        tombstones = max_delta = 0
        for record in _records(view, count):
            if record.key is None or (record.is_tombstone and drop_tombstones):
                continue
            latest = self._latest.get(record.key)
            if latest is not None and latest > base_offset + record.offset_delta:
                continue
            max_delta = record.timestamp_delta if not kept else max(max_delta, record.timestamp_delta)
            kept.append(bytes(view[record.start : record.end]))
            tombstones += record.is_tombstone
        return Selection(len(kept), tombstones, max_delta, b"".join(kept))


__all__ = ["MIN_SLOTS", "SLOT_BYTES", "OffsetMap", "Selection", "footprint", "slots"]
