"""Pure-Python twin of the RecordBatch v2 kernel.

RecordBatch v2 (magic 2), all integers big-endian; ``RECORD_BATCH_OVERHEAD`` = 61 bytes precede the records:

======  ====  ======================  =====================================================
offset  size  field                   notes
======  ====  ======================  =====================================================
0       8     baseOffset              written by the broker; not covered by the CRC
8       4     batchLength             bytes after this field: total size = 12 + batchLength
12      4     partitionLeaderEpoch    set by the broker; not covered by the CRC
16      1     magic                   2
17      4     crc                     CRC-32C of bytes 21 .. end of batch
21      2     attributes              bits 0-2 codec, 3 LogAppendTime, 4 transactional,
                                      5 control, 6 delete horizon
23      4     lastOffsetDelta
27      8     baseTimestamp
35      8     maxTimestamp
43      8     producerId              -1 when not idempotent
51      2     producerEpoch
53      4     baseSequence
57      4     recordCount             records follow, compressed as one blob when codec != 0
======  ====  ======================  =====================================================

Checks, in Kafka's order (``DefaultRecordBatch.ensureValid``, then ``LogValidator.validateBatch`` for batches
that a client produced):

- the header fits and magic is 2, else :class:`UnsupportedMagicError` (magic 0/1 are never converted);
- ``batchLength`` >= 49 and the batch fits in its buffer, else :class:`CorruptBatchError`;
- the CRC-32C of bytes 21 .. end equals the stored crc, else :class:`CorruptBatchError` (CORRUPT_MESSAGE);
- the codec id is 0-4, ``recordCount`` > 0 and ``lastOffsetDelta`` == ``recordCount`` - 1, else
  :class:`InvalidBatchError` (INVALID_RECORD).

What stays with the caller: Kafka also refuses, for client appends, a non-zero ``baseOffset``, control batches,
and a producer id without a base sequence; and Produce v3+ carries exactly one batch per partition, zstd only
from Produce v7. The header exposes what those checks need.

``patch_base_offset`` changes bytes 0-7, outside the CRC; ``set_log_append_time`` rewrites attributes and
``maxTimestamp``, both inside it, so it recomputes the CRC. The compiled twin releases the GIL for the CRC of
batches of at least ``NOGIL_MIN_BYTES``; below that the release costs more than the checksum, and a thread
that gives up the GIL may wait a whole switch interval (5 ms) to get it back.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ._crc32c_py import crc32c
from .errors import CorruptBatchError, InvalidBatchError, UnsupportedMagicError

if TYPE_CHECKING:
    from typing_extensions import Buffer

RECORD_BATCH_OVERHEAD: Final = 61
LOG_OVERHEAD: Final = 12
LENGTH_OFFSET: Final = 8
PARTITION_LEADER_EPOCH_OFFSET: Final = 12
MAGIC_OFFSET: Final = 16
CRC_OFFSET: Final = 17
ATTRIBUTES_OFFSET: Final = 21
LAST_OFFSET_DELTA_OFFSET: Final = 23
BASE_TIMESTAMP_OFFSET: Final = 27
MAX_TIMESTAMP_OFFSET: Final = 35
PRODUCER_ID_OFFSET: Final = 43
PRODUCER_EPOCH_OFFSET: Final = 51
BASE_SEQUENCE_OFFSET: Final = 53
RECORD_COUNT_OFFSET: Final = 57

COMPRESSION_MASK: Final = 0x07
TIMESTAMP_TYPE_BIT: Final = 0x08
TRANSACTIONAL_BIT: Final = 0x10
CONTROL_BIT: Final = 0x20
DELETE_HORIZON_BIT: Final = 0x40
MAX_CODEC: Final = 4
NOGIL_MIN_BYTES: Final = 65536

_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1

_HEADER = struct.Struct(">qiibIhiqqqhii")
_INT64 = struct.Struct(">q")
_UINT32 = struct.Struct(">I")
_INT16 = struct.Struct(">h")
_INT8 = struct.Struct(">b")


@dataclass(frozen=True, slots=True)
class BatchHeader:
    """The 61-byte header of one RecordBatch v2, and where the batch sits in its buffer."""

    position: int
    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int

    @property
    def size(self) -> int:
        """Total bytes of the batch, its 12-byte log overhead included."""
        return LOG_OVERHEAD + self.batch_length

    @property
    def compression(self) -> int:
        """Codec id: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd."""
        return self.attributes & COMPRESSION_MASK

    @property
    def is_log_append_time(self) -> bool:
        return bool(self.attributes & TIMESTAMP_TYPE_BIT)

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & TRANSACTIONAL_BIT)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_BIT)

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self) -> int:
        """The offset that follows this batch: ``last_offset + 1``."""
        return self.base_offset + self.last_offset_delta + 1


def _header_view(buf: Buffer, pos: int) -> memoryview:
    view = memoryview(buf)
    if view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    if pos < 0:
        raise CorruptBatchError(f"record batch position {pos} is negative")
    return view


def read_batch_header(buf: Buffer, pos: int = 0) -> BatchHeader:
    """Parse the header of the batch at ``pos``; checks magic and that the header fits, not the CRC."""
    view = _header_view(buf, pos)
    if len(view) - pos < MAGIC_OFFSET + 1:
        raise CorruptBatchError(f"record batch at byte {pos} is truncated: {max(len(view) - pos, 0)} bytes")
    magic = _INT8.unpack_from(view, pos + MAGIC_OFFSET)[0]
    if magic != 2:
        raise UnsupportedMagicError(magic)
    if len(view) - pos < RECORD_BATCH_OVERHEAD:
        raise CorruptBatchError(f"record batch at byte {pos} is shorter than its 61-byte header")
    return BatchHeader(pos, *_HEADER.unpack_from(view, pos))


def _check_extent(header: BatchHeader, available: int) -> None:
    if header.batch_length < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD:
        raise CorruptBatchError(f"record batch length {header.batch_length} is below the header size")
    if header.position + header.size > available:
        raise CorruptBatchError(f"record batch of {header.size} bytes overruns its buffer at byte {header.position}")


def _check_produced(header: BatchHeader) -> None:
    if header.attributes & COMPRESSION_MASK > MAX_CODEC:
        raise InvalidBatchError(f"record batch compression codec {header.attributes & COMPRESSION_MASK} is unknown")
    if header.record_count <= 0:
        raise InvalidBatchError(f"record batch reports {header.record_count} records")
    if header.last_offset_delta != header.record_count - 1:
        raise InvalidBatchError(
            f"record batch offset range 0..{header.last_offset_delta} disagrees with its {header.record_count} records"
        )


def validate_batch(buf: Buffer, pos: int = 0) -> BatchHeader:
    """Parse and fully check the batch at ``pos``: bounds, magic, CRC-32C, codec, counts (module docstring)."""
    view = _header_view(buf, pos)
    header = read_batch_header(view, pos)
    _check_extent(header, len(view))
    actual = crc32c(view[pos + ATTRIBUTES_OFFSET : pos + header.size])
    if actual != header.crc:
        raise CorruptBatchError(f"record batch CRC-32C mismatch: stored {header.crc:#010x}, computed {actual:#010x}")
    _check_produced(header)
    return header


def validate_batches(buf: Buffer) -> list[BatchHeader]:
    """Validate every batch of a records blob (as carried by a Produce request); the blob must end on a batch."""
    view = _header_view(buf, 0)
    headers: list[BatchHeader] = []
    pos = 0
    while pos < len(view):
        header = validate_batch(view, pos)
        headers.append(header)
        pos += header.size
    return headers


def _writable(buf: Buffer, pos: int, value: int) -> memoryview:
    """A writable view holding at least a batch header at ``pos``, for writing the int64 ``value`` into it."""
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise OverflowError(f"{value} does not fit in an int64 field")
    view = _header_view(buf, pos)
    if view.readonly:
        raise TypeError("patching a record batch needs a writable buffer")
    if len(view) - pos < RECORD_BATCH_OVERHEAD:
        raise CorruptBatchError(f"record batch at byte {pos} does not fit in its {len(view)}-byte buffer")
    return view


def patch_base_offset(buf: Buffer, pos: int, base_offset: int) -> None:
    """Write ``base_offset`` into bytes 0-7 of the batch at ``pos`` in a writable buffer (the CRC is unchanged)."""
    view = _writable(buf, pos, base_offset)
    _INT64.pack_into(view, pos, base_offset)


def set_log_append_time(buf: Buffer, pos: int, timestamp: int) -> None:
    """Mark the batch at ``pos`` as LogAppendTime with ``timestamp`` as its maxTimestamp, and recompute its CRC."""
    view = _writable(buf, pos, timestamp)
    header = read_batch_header(view, pos)
    _check_extent(header, len(view))
    _INT16.pack_into(view, pos + ATTRIBUTES_OFFSET, header.attributes | TIMESTAMP_TYPE_BIT)
    _INT64.pack_into(view, pos + MAX_TIMESTAMP_OFFSET, timestamp)
    crc = crc32c(view[pos + ATTRIBUTES_OFFSET : pos + header.size])
    _UINT32.pack_into(view, pos + CRC_OFFSET, crc)
