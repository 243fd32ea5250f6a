"""Log compaction's rules: which records of a compacted partition one cleaning pass keeps, as Kafka's cleaner does.

A pass reads a partition's batches in offset order over its *cleanable range* (the already compacted log, then
the dirty records after it, up to the cleanable end) and writes out the batches it keeps. Kafka's guarantees,
which these rules keep (and ``tests/store/test_compaction_model.py`` checks against a dict of latest values):

- **Offsets never change.** A kept record keeps its offset; a batch keeps its base offset, lastOffsetDelta,
  producer id, epoch and base sequence (Kafka's ``overrideLastOffset``), so a consumer sees gaps and an
  idempotent producer's last sequence is unchanged.
- **The latest record of every key is kept.** A record is dropped only when a later record of the same key lies
  in the range. The *offset map* (key -> last offset, the ``offsetmap`` kernel) is built over the range's dirty
  part, the batches from ``dirty_from`` (the cleaned part before it holds one record per key already): a
  cleaned record is kept when the map has no later offset for its key, a dirty one when it is its key's last.
  The map holds at most ``log.cleaner.dedupe.buffer.size`` bytes, as Kafka's does: when the next dirty batch
  may not fit, the pass stops before it (``PassResult.stopped_at``) and cleans the prefix; the next pass goes
  on from there. The first dirty batch always goes in, so every pass moves on.
- **Records with a null key** (written before the topic became compacted) are dropped, as Kafka's cleaner does.
- **Tombstones** (null value) stay, as the latest record of their key, until their batch's *delete horizon*
  has passed. The horizon is Kafka's (KIP-534): the first pass that keeps a batch holding a tombstone or a
  transaction marker rewrites it with attribute bit 6 (``DELETE_HORIZON_BIT``) set and ``baseTimestamp`` =
  pass time + ``delete.retention.ms`` (record timestamps stay exact: their deltas are taken from it); a later
  pass after the horizon drops the tombstones.
- **Transactions.** Data of an aborted transaction is dropped (``aborted_ranges`` names each aborted
  transaction by producer id, first offset and ABORT marker offset, from the transaction tracker: a pass may
  begin after a transaction's first batch, which an earlier pass dropped, or end inside a transaction). A COMMIT
  or ABORT marker is kept while data of its transaction remains, and afterwards until its delete horizon has
  passed. The range never reaches past the last stable offset, so open transactions are never touched and
  read_committed reads see what they saw before.
- **Producer state.** The last batch of every producer id in the range is kept, empty if none of its records
  survive (Kafka's ``RETAIN_EMPTY``), so the producer's epoch and sequence can be rebuilt from the log.

A batch all of whose records stay, and that needs no new horizon, is copied byte for byte (compressed batches
stay compressed). A batch that loses records is rebuilt uncompressed (Kafka recompresses with the original codec;
this store does not yet), with its CRC-32C recomputed: its kept records' bytes are copied as they are (the
kernel selects them without the GIL) under the same base offset and base timestamp, or re-encoded against the
new base timestamp when the batch gets its delete horizon.

When a pass runs and how far it reaches are decided by ``cleanable_end`` and ``wants_cleaning``, from the
topic's ``min.compaction.lag.ms``, ``max.compaction.lag.ms`` and ``min.cleanable.dirty.ratio``. The newest batch
is never cleaned: it stands for Kafka's active segment.

Everything here is pure: no files, no clock (``now_ms`` is passed in), no threads.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.errors import CorruptBatchError, KernelError
from rockafka.core_pyx.offsetmap import OffsetMap, Selection
from rockafka.core_pyx.recordbatch import (
    ATTRIBUTES_OFFSET,
    COMPRESSION_MASK,
    DELETE_HORIZON_BIT,
    LOG_OVERHEAD,
    RECORD_BATCH_OVERHEAD,
    TRANSACTIONAL_BIT,
    BatchHeader,
    read_batch_header,
)
from rockafka.core_pyx.records import Record, decode_records

from .errors import StoreError

_HEAD = struct.Struct(">qiib")  # baseOffset, batchLength, partitionLeaderEpoch, magic
_CRC = struct.Struct(">I")
_BODY = struct.Struct(">hiqqqhii")  # attributes, lastOffsetDelta, baseTimestamp, maxTimestamp, pid, epoch, seq, count


#: Kafka's default ``log.cleaner.dedupe.buffer.size``: the bytes one pass's offset map may hold.
DEFAULT_DEDUPE_BUFFER_BYTES: Final = 128 << 20

#: How many batches a pass decodes (or decides on) between two calls of its ``pause``.
PAUSE_EVERY: Final = 32


def _no_pause() -> None:
    pass


class CompactionError(StoreError):
    """A batch a pass must read does not decode; the pass is abandoned and the partition stays as it was."""


@dataclass(frozen=True, slots=True)
class CompactionRules:
    """A compacted topic's settings that a pass obeys (Kafka's names; times in ms)."""

    delete_retention_ms: int = 86_400_000  # Kafka's default, as config.DEFAULT_DELETE_RETENTION_MS
    min_compaction_lag_ms: int = 0
    max_compaction_lag_ms: int | None = None
    min_cleanable_dirty_ratio: float = 0.5


@dataclass(frozen=True, slots=True)
class SourceBatch:
    """One stored batch a pass reads: its bytes (a whole RecordBatch v2, CRC valid) and its header."""

    data: bytes | memoryview
    header: BatchHeader

    @classmethod
    def of(cls, data: bytes | memoryview) -> SourceBatch:
        return cls(data, read_batch_header(data))


@dataclass(frozen=True, slots=True)
class PassResult:
    """The batches a pass keeps, in offset order, and what it dropped."""

    batches: tuple[bytes | memoryview, ...]
    records_in: int
    records_kept: int
    #: Where the pass stopped because its offset map was full (the next pass goes on from there); None: at the end.
    stopped_at: int | None = None


def stored_records(data: bytes | memoryview) -> list[Record]:
    """The records of a stored batch, CRC-32C checked. Unlike ``read_records`` (which checks a produced batch),
    a compacted batch may hold fewer records than its offset range, or none."""
    source = SourceBatch.of(data)
    header = source.header
    log_append_time = header.max_timestamp if header.is_log_append_time else None
    payload = checked_payload(source)
    return decode_records(payload, header.record_count, header.base_offset, header.base_timestamp, log_append_time)


def latest_offsets(batches: Iterable[tuple[SourceBatch, list[Record]]], aborted: frozenset[int]) -> dict[bytes, int]:
    """The offset map as a dict: every key's last offset among the records that count (not aborted, not control).
    The model tests' reference; a pass uses the bounded ``OffsetMap`` kernel."""
    latest: dict[bytes, int] = {}
    for source, records in batches:
        if source.header.is_control or source.header.base_offset in aborted:
            continue
        for record in records:
            if record.key is not None:
                latest[record.key] = record.offset
    return latest


def _aborted_batches(sources: Sequence[SourceBatch], aborted_ranges: frozenset[tuple[int, int, int]]) -> frozenset[int]:
    """Base offsets of the transactional data batches whose transaction was aborted: their producer's aborted range
    (first offset to ABORT marker) holds them. (Not the first batch of each transaction: an earlier pass may
    have dropped it, and a pass's range may begin or end inside a transaction.)"""
    ranges: dict[int, list[tuple[int, int]]] = {}
    for producer_id, first, last in aborted_ranges:
        ranges.setdefault(producer_id, []).append((first, last))
    found: set[int] = set()
    for source in sources:
        header = source.header
        if header.is_transactional and not header.is_control:
            held = ranges.get(header.producer_id, ())
            if any(first <= header.base_offset <= last for first, last in held):
                found.add(header.base_offset)
    return frozenset(found)


def checked_payload(source: SourceBatch) -> bytes | memoryview:
    """A stored batch's records' bytes, CRC-32C checked and decompressed."""
    header = source.header
    view = memoryview(source.data)
    if crc32c(view[ATTRIBUTES_OFFSET : header.size]) != header.crc:
        raise CorruptBatchError(f"stored batch at offset {header.base_offset} fails its CRC-32C")
    payload = view[RECORD_BATCH_OVERHEAD : header.size]
    return decompress(header.compression, payload) if header.compression else payload


def _offset_map(
    sources: Sequence[SourceBatch], aborted: frozenset[int], dirty_from: int, budget: int, pause: Callable[[], None]
) -> tuple[OffsetMap, list[bytes | memoryview | None]]:
    """The offset map over the dirty batches (from ``dirty_from``), and the payloads of the batches it covers:
    all of them, or those before the first dirty batch that did not fit ``budget`` (the first always does)."""
    offsets = OffsetMap(budget)
    payloads: list[bytes | memoryview | None] = []
    for source in sources:
        header = source.header
        payload = None if header.is_control else checked_payload(source)
        dirty = header.base_offset >= dirty_from and header.base_offset not in aborted
        if (
            payload is not None
            and dirty
            and not offsets.add(payload, header.record_count, header.base_offset, force=not offsets)
        ):
            break
        payloads.append(payload)
        if len(payloads) % PAUSE_EVERY == 0:
            pause()
    return offsets, payloads


def clean(
    sources: Sequence[SourceBatch],
    *,
    rules: CompactionRules,
    now_ms: int,
    aborted_ranges: frozenset[tuple[int, int, int]] = frozenset(),
    dirty_from: int = 0,
    dedupe_buffer_bytes: int = DEFAULT_DEDUPE_BUFFER_BYTES,
    pause: Callable[[], None] = _no_pause,
) -> PassResult:
    """One pass over a cleanable range (batches in offset order, the cleaned ones before ``dirty_from``): the
    batches to keep (module docstring). ``pause`` is called every ``PAUSE_EVERY`` batches read or decided on, for
    the caller to yield the GIL."""
    aborted = _aborted_batches(sources, aborted_ranges)
    try:
        offsets, payloads = _offset_map(sources, aborted, dirty_from, dedupe_buffer_bytes, pause)
    except KernelError as exc:
        raise CompactionError(f"a batch to compact does not decode: {exc}") from exc
    covered = sources[: len(payloads)]
    stopped_at = sources[len(payloads)].header.base_offset if len(payloads) < len(sources) else None
    last_of_producer = {s.header.producer_id: s.header.base_offset for s in covered if s.header.producer_id >= 0}
    with_data: dict[int, bool] = {}  # producer id -> data of its current transaction kept
    kept: list[bytes | memoryview] = []
    records_in = records_kept = 0
    for number, (source, payload) in enumerate(zip(covered, payloads, strict=True), 1):
        if number % PAUSE_EVERY == 0:
            pause()
        header = source.header
        expired = bool(header.attributes & DELETE_HORIZON_BIT) and now_ms >= header.base_timestamp
        if payload is None:  # a control batch
            keep_marker = with_data.pop(header.producer_id, False) or not expired
            if keep_marker or last_of_producer.get(header.producer_id) == header.base_offset:
                kept.append(_with_horizon(source, now_ms + rules.delete_retention_ms))
            continue
        records_in += header.record_count
        if header.base_offset in aborted:
            selection = Selection(0, 0, 0, b"")
        else:
            selection = offsets.select(payload, header.record_count, header.base_offset, expired)
        if header.is_transactional and selection.kept:
            with_data[header.producer_id] = True
        if not selection.kept and last_of_producer.get(header.producer_id) != header.base_offset:
            continue
        records_kept += selection.kept
        kept.append(_rewritten(source, selection, now_ms + rules.delete_retention_ms))
    return PassResult(tuple(kept), records_in, records_kept, stopped_at)


def _with_horizon(source: SourceBatch, horizon: int) -> bytes | memoryview:
    """A marker batch as it is kept: unchanged once it has a horizon, else rewritten with one."""
    if source.header.attributes & DELETE_HORIZON_BIT:
        return source.data
    return encode_batch(source.header, stored_records(source.data), delete_horizon=horizon)


def _rewritten(source: SourceBatch, selection: Selection, horizon: int) -> bytes | memoryview:
    """The batch holding a selection of its records: itself when all stay and it needs no new delete horizon;
    else rebuilt uncompressed, its kept records' bytes unchanged under the same base timestamp, or re-encoded
    against a new horizon (the first time the batch keeps a tombstone)."""
    header = source.header
    has_horizon = bool(header.attributes & DELETE_HORIZON_BIT)
    if selection.kept == header.record_count and (has_horizon or not selection.tombstones):
        return source.data
    if selection.tombstones and not has_horizon:
        log_append_time = header.max_timestamp if header.is_log_append_time else None
        survivors = decode_records(
            selection.records, selection.kept, header.base_offset, header.base_timestamp, log_append_time
        )
        return encode_batch(header, survivors, delete_horizon=horizon)
    if header.is_log_append_time or not selection.kept:
        max_timestamp = header.max_timestamp
    else:
        max_timestamp = header.base_timestamp + selection.max_timestamp_delta
    attributes = header.attributes & ~COMPRESSION_MASK
    return _batch(header, attributes, header.base_timestamp, max_timestamp, selection.kept, selection.records)


def encode_batch(header: BatchHeader, records: Sequence[Record], *, delete_horizon: int | None) -> bytes:
    """A RecordBatch v2 holding ``records`` (uncompressed) under ``header``'s identity: base offset,
    lastOffsetDelta, leader epoch, producer id, epoch, base sequence, timestamp type and control/transactional
    bits. ``delete_horizon`` sets bit 6 and becomes ``baseTimestamp``; otherwise the first record's timestamp
    (the header's own for an empty batch)."""
    attributes = header.attributes & ~COMPRESSION_MASK & ~DELETE_HORIZON_BIT
    if delete_horizon is not None:
        attributes |= DELETE_HORIZON_BIT
        base_timestamp = delete_horizon
    else:
        base_timestamp = records[0].timestamp if records else header.base_timestamp
    if header.is_log_append_time or not records:
        max_timestamp = header.max_timestamp
    else:
        max_timestamp = max(record.timestamp for record in records)
    payload = b"".join(_encode_record(record, header.base_offset, base_timestamp) for record in records)
    return _batch(header, attributes, base_timestamp, max_timestamp, len(records), payload)


def _batch(
    header: BatchHeader, attributes: int, base_timestamp: int, max_timestamp: int, count: int, payload: bytes
) -> bytes:
    """A RecordBatch v2 of ``count`` encoded records under ``header``'s identity, its CRC-32C computed."""
    fields = (
        attributes, header.last_offset_delta, base_timestamp, max_timestamp, header.producer_id,
        header.producer_epoch, header.base_sequence, count,
    )  # fmt: skip
    return _assemble(header.base_offset, header.partition_leader_epoch, fields, payload)


def keyed_batch(
    entries: Sequence[tuple[bytes, bytes | None]], timestamp: int, producer: tuple[int, int] | None = None
) -> bytes:
    """A new RecordBatch v2 (base offset 0, uncompressed, CreateTime ``timestamp``) of keyed records, a null value
    being a tombstone: what the broker itself writes to a compacted topic (``internaltopics.py``). No producer, or
    ``producer`` (id, epoch): a transaction's batch (the transactional attribute set, no sequence)."""
    records = [Record(delta, timestamp, key, value, ()) for delta, (key, value) in enumerate(entries)]
    payload = b"".join(_encode_record(record, 0, timestamp) for record in records)
    attributes, producer_id, producer_epoch = (0, -1, -1) if producer is None else (TRANSACTIONAL_BIT, *producer)
    fields = (attributes, len(records) - 1, timestamp, timestamp, producer_id, producer_epoch, -1, len(records))
    return _assemble(0, -1, fields, payload)


def _assemble(base_offset: int, leader_epoch: int, fields: tuple[int, ...], payload: bytes) -> bytes:
    """A batch from its ``_BODY`` fields (attributes .. recordCount) and its encoded records, CRC-32C filled in."""
    body = _BODY.pack(*fields) + payload
    length = RECORD_BATCH_OVERHEAD - LOG_OVERHEAD + len(payload)
    return _HEAD.pack(base_offset, length, leader_epoch, 2) + _CRC.pack(crc32c(body)) + body


def _encode_record(record: Record, base_offset: int, base_timestamp: int) -> bytes:
    fields = bytearray(b"\x00")  # attributes
    fields += _varint(record.timestamp - base_timestamp)
    fields += _varint(record.offset - base_offset)
    fields += _nullable(record.key)
    fields += _nullable(record.value)
    fields += _varint(len(record.headers))
    for name, value in record.headers:
        fields += _nullable(name.encode())
        fields += _nullable(value)
    return bytes(_varint(len(fields)) + fields)


def _nullable(value: bytes | None) -> bytes:
    return _varint(-1) if value is None else _varint(len(value)) + value


def _varint(value: int) -> bytes:
    """Zigzag varint (varlong for timestamps: the same bytes for values that fit)."""
    encoded = (value << 1) ^ (value >> 63)
    out = bytearray()
    while encoded >= 0x80:
        out.append((encoded & 0x7F) | 0x80)
        encoded >>= 7
    out.append(encoded)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class UnitSummary:
    """What scheduling needs of one stored batch: its offsets, size and maximum timestamp."""

    base_offset: int
    next_offset: int
    size: int
    max_timestamp: int


def cleanable_end(units: Sequence[UnitSummary], *, last_stable: int, now_ms: int, rules: CompactionRules) -> int:
    """Where a pass stops: before the newest batch (the active segment), at the last stable offset, and before
    the first batch younger than ``min.compaction.lag.ms``. Units in offset order; the start when none."""
    if not units:
        return 0
    end = min(units[-1].base_offset, last_stable)
    for unit in units:
        if unit.base_offset >= end or now_ms - unit.max_timestamp < rules.min_compaction_lag_ms:
            return min(end, unit.base_offset)
    return end


def wants_cleaning(dirty: Sequence[UnitSummary], clean_bytes: int, *, now_ms: int, rules: CompactionRules) -> bool:
    """Whether the dirty part (the batches after the compacted log, up to the cleanable end) is worth a pass:
    its share of the partition's bytes reaches ``min.cleanable.dirty.ratio``, or its oldest batch is older than
    ``max.compaction.lag.ms``."""
    if not dirty:
        return False
    dirty_bytes = sum(unit.size for unit in dirty)
    if dirty_bytes >= rules.min_cleanable_dirty_ratio * (dirty_bytes + clean_bytes):
        return True
    lag = rules.max_compaction_lag_ms
    return lag is not None and now_ms - dirty[0].max_timestamp >= lag


def walk_batches(data: bytes | memoryview) -> Iterator[SourceBatch]:
    """The batches of a buffer of whole RecordBatches laid end to end (a compacted log's bytes)."""
    view = memoryview(data)
    position = 0
    while position < len(view):
        header = read_batch_header(view, position)
        yield SourceBatch(view[position : position + header.size], header)
        position += header.size


__all__ = [
    "CompactionError",
    "CompactionRules",
    "PassResult",
    "SourceBatch",
    "UnitSummary",
    "clean",
    "cleanable_end",
    "encode_batch",
    "keyed_batch",
    "latest_offsets",
    "stored_records",
    "walk_batches",
    "wants_cleaning",
]
