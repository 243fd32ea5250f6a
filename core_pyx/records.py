"""The records of a RecordBatch v2: decompression, then per-record decoding (for indexing and time lookups).

The produce and fetch paths never call this: they move whole batches. The store's index dispatcher and
ListOffsets-by-time do, once per batch, after the batch was validated on append. Layouts: the batch header in
:mod:`rockafka.core_pyx._recordbatch_py`, the records in :mod:`rockafka.core_pyx._records_py`, the codecs in
:mod:`rockafka.core_pyx.compression`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._records_py import Record
from .compression import decompress
from .recordbatch import RECORD_BATCH_OVERHEAD, validate_batch

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from ._records_py import decode_records, walk_records
else:
    _impl = kernel("_records")
    decode_records = _impl.decode_records
    walk_records = _impl.walk_records


def read_records(buf: Buffer, pos: int = 0) -> list[Record]:
    """Validate the batch at ``pos`` (CRC included) and return its records, decompressed, offsets and timestamps
    made absolute; a LogAppendTime batch gives every record its maxTimestamp."""
    header = validate_batch(buf, pos)
    payload = memoryview(buf)[pos + RECORD_BATCH_OVERHEAD : pos + header.size]
    if header.compression:
        payload = memoryview(decompress(header.compression, payload))
    log_append_time = header.max_timestamp if header.is_log_append_time else None
    return decode_records(payload, header.record_count, header.base_offset, header.base_timestamp, log_append_time)


__all__ = ["Record", "decode_records", "read_records", "walk_records"]
