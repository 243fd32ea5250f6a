"""Transaction markers: the control batches the store writes to end a transaction on a partition.

A marker is one RecordBatch v2 (Kafka's ``EndTransactionMarker`` in a control batch), 78 bytes, big-endian:

======  ====  ======================  ==========================================================================
offset  size  field                   value
======  ====  ======================  ==========================================================================
0       8     baseOffset              0 (the store assigns it on append)
8       4     batchLength             66
12      4     partitionLeaderEpoch    0 (the one broker's epoch; not covered by the CRC)
16      1     magic                   2
17      4     crc                     CRC-32C of bytes 21 to the end
21      2     attributes              0x30: transactional (bit 4) and control (bit 5), no codec, CreateTime
23      4     lastOffsetDelta         0
27      8     baseTimestamp           the broker clock at write time, ms
35      8     maxTimestamp            the same
43      8     producerId              the transaction's producer id
51      2     producerEpoch           the producer epoch the coordinator ends it with
53      4     baseSequence            -1 (markers carry no sequence)
57      4     recordCount             1
61      17    the one record          length 16 (varint 0x20), attributes 0, timestampDelta 0, offsetDelta 0,
                                      keyLength 4, key, valueLength 6, value, headerCount 0
======  ====  ======================  ==========================================================================

Key (4 bytes): version int16 = 0, type int16 = 0 (ABORT) or 1 (COMMIT). Value (6 bytes): version int16 = 0,
coordinatorEpoch int32. Readers (``read_marker``) decode any control batch whose first record has a key of at
least 4 bytes and a value of at least 6 (Kafka's readers accept longer, later versions); anything else is
not a marker and is ignored.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Final

from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import CONTROL_BIT, RECORD_BATCH_OVERHEAD, TRANSACTIONAL_BIT
from rockafka.core_pyx.records import read_records

ABORT: Final = 0
COMMIT: Final = 1
MARKER_ATTRIBUTES: Final = TRANSACTIONAL_BIT | CONTROL_BIT
_HEAD = struct.Struct(">qiib")  # baseOffset, batchLength, partitionLeaderEpoch, magic
_CRC = struct.Struct(">I")
_BODY = struct.Struct(">hiqqqhii")  # attributes .. recordCount
_KEY = struct.Struct(">hh")
_VALUE = struct.Struct(">hi")
# The record: length 16, attributes, timestampDelta, offsetDelta, keyLength 4 (zigzag 8); then the key;
# valueLength 6 (zigzag 12); the value; headerCount 0.
_RECORD_START = bytes([0x20, 0, 0, 0, 0x08])
MARKER_SIZE: Final = RECORD_BATCH_OVERHEAD + len(_RECORD_START) + _KEY.size + 1 + _VALUE.size + 1


@dataclass(frozen=True, slots=True)
class Marker:
    """What a marker says: how the transaction ended, and the coordinator epoch that ended it."""

    commit: bool
    coordinator_epoch: int


def marker_batch(
    *, producer_id: int, producer_epoch: int, coordinator_epoch: int, commit: bool, timestamp: int
) -> bytes:
    """The 78-byte control batch ending ``producer_id``'s transaction (base offset 0, CRC filled in)."""
    record = (
        _RECORD_START
        + _KEY.pack(0, COMMIT if commit else ABORT)
        + bytes([0x0C])
        + _VALUE.pack(0, coordinator_epoch)
        + bytes([0])
    )
    body = _BODY.pack(MARKER_ATTRIBUTES, 0, timestamp, timestamp, producer_id, producer_epoch, -1, 1) + record
    return _HEAD.pack(0, MARKER_SIZE - 12, 0, 2) + _CRC.pack(crc32c(body)) + body


def read_marker(batch: memoryview) -> Marker | None:
    """The marker in a stored control batch; None when the batch does not hold one (see the module docstring)."""
    try:
        records = read_records(batch)
    except KernelError:
        return None
    if not records:
        return None
    key, value = records[0].key, records[0].value
    if key is None or value is None or len(key) < _KEY.size or len(value) < _VALUE.size:
        return None
    _, kind = _KEY.unpack_from(key)
    if kind not in (ABORT, COMMIT):
        return None
    return Marker(kind == COMMIT, _VALUE.unpack_from(value)[1])
