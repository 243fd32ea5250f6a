"""CommitLog record kernel: write one store record (header + patched batch) with one pwritev, and scan records
out of a mapped segment (record layout: ``store/commitlog.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._logrecord_py import (
    BLANK_MAGIC,
    BLANK_SIZE,
    CORRUPT,
    END_OF_DATA,
    HEADER,
    HEADER_SIZE,
    LIMIT,
    RECORD_MAGIC,
    SEGMENT_END,
)
from ._recordbatch_py import RECORD_BATCH_OVERHEAD as BATCH_HEADER_SIZE

if TYPE_CHECKING:
    from ._logrecord_py import scan_records, verify_crcs, write_record
else:
    _impl = kernel("_logrecord")
    scan_records = _impl.scan_records
    verify_crcs = _impl.verify_crcs
    write_record = _impl.write_record

__all__ = [
    "BATCH_HEADER_SIZE",
    "BLANK_MAGIC",
    "BLANK_SIZE",
    "CORRUPT",
    "END_OF_DATA",
    "HEADER",
    "HEADER_SIZE",
    "LIMIT",
    "RECORD_MAGIC",
    "SEGMENT_END",
    "scan_records",
    "verify_crcs",
    "write_record",
]
