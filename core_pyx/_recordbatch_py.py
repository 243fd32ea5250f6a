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
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ._crc32c_py import crc32c
from .errors import CorruptBatchError, UnsupportedMagicError

if TYPE_CHECKING:
    from typing_extensions import Buffer

RECORD_BATCH_OVERHEAD: Final = 61
LOG_OVERHEAD: Final = 12
MAGIC_OFFSET: Final = 16
CRC_OFFSET: Final = 17
ATTRIBUTES_OFFSET: Final = 21
MAX_TIMESTAMP_OFFSET: Final = 35

COMPRESSION_MASK: Final = 0x07
TIMESTAMP_TYPE_BIT: Final = 0x08
TRANSACTIONAL_BIT: Final = 0x10
CONTROL_BIT: Final = 0x20
DELETE_HORIZON_BIT: Final = 0x40

_HEADER = struct.Struct(">qiibIhiqqqhii")
_INT64 = struct.Struct(">q")
_UINT32 = struct.Struct(">I")
_INT16 = struct.Struct(">h")


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


def read_batch_header(buf: Buffer, pos: int = 0) -> BatchHeader:
    """Parse the header of the batch at ``pos``; checks magic and that the header fits, not the CRC."""
    view = memoryview(buf)
    if len(view) - pos < MAGIC_OFFSET + 1:
        raise CorruptBatchError(f"record batch at byte {pos} is truncated: {len(view) - pos} bytes")
    magic = view[pos + MAGIC_OFFSET]
    if magic != 2:
        raise UnsupportedMagicError(magic)
    if len(view) - pos < RECORD_BATCH_OVERHEAD:
        raise CorruptBatchError(f"record batch at byte {pos} is shorter than its 61-byte header")
    return BatchHeader(pos, *_HEADER.unpack_from(view, pos))


def validate_batch(buf: Buffer, pos: int = 0) -> BatchHeader:
    """Parse and fully check the batch at ``pos``: bounds, magic, counts and CRC-32C."""
    header = read_batch_header(buf, pos)
    view = memoryview(buf)
    end = pos + header.size
    if header.batch_length < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD:
        raise CorruptBatchError(f"record batch length {header.batch_length} is below the header size")
    if end > len(view):
        raise CorruptBatchError(f"record batch of {header.size} bytes overruns its buffer at byte {pos}")
    if header.record_count < 0 or header.last_offset_delta < 0:
        raise CorruptBatchError("record batch has a negative record count or last offset delta")
    actual = crc32c(view[pos + ATTRIBUTES_OFFSET : end])
    if actual != header.crc:
        raise CorruptBatchError(f"record batch CRC-32C mismatch: stored {header.crc:#010x}, computed {actual:#010x}")
    return header


def validate_batches(buf: Buffer) -> list[BatchHeader]:
    """Validate every batch of a records blob (as carried by a Produce request); the blob must end on a batch."""
    view = memoryview(buf)
    headers: list[BatchHeader] = []
    pos = 0
    while pos < len(view):
        header = validate_batch(view, pos)
        headers.append(header)
        pos += header.size
    return headers


def patch_base_offset(buf: Buffer, pos: int, base_offset: int) -> None:
    """Write ``base_offset`` into bytes 0-7 of the batch at ``pos`` in a writable buffer (the CRC is unchanged)."""
    _INT64.pack_into(memoryview(buf), pos, base_offset)


def set_log_append_time(buf: Buffer, pos: int, timestamp: int) -> None:
    """Mark the batch at ``pos`` as LogAppendTime with ``timestamp`` as its maxTimestamp, and recompute its CRC."""
    view = memoryview(buf)
    header = read_batch_header(view, pos)
    _INT16.pack_into(view, pos + ATTRIBUTES_OFFSET, header.attributes | TIMESTAMP_TYPE_BIT)
    _INT64.pack_into(view, pos + MAX_TIMESTAMP_OFFSET, timestamp)
    crc = crc32c(view[pos + ATTRIBUTES_OFFSET : pos + header.size])
    _UINT32.pack_into(view, pos + CRC_OFFSET, crc)
