"""RecordBatch v2 header parsing, validation (magic, lengths, CRC-32C, counts) and in-place patching.

The layout and the checks are specified in the pure twin's docstring, :mod:`rockafka.core_pyx._recordbatch_py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._recordbatch_py import (
    ATTRIBUTES_OFFSET,
    COMPRESSION_MASK,
    CONTROL_BIT,
    CRC_OFFSET,
    DELETE_HORIZON_BIT,
    LOG_OVERHEAD,
    MAGIC_OFFSET,
    MAX_CODEC,
    MAX_TIMESTAMP_OFFSET,
    NOGIL_MIN_BYTES,
    PARTITION_LEADER_EPOCH_OFFSET,
    RECORD_BATCH_OVERHEAD,
    RECORD_COUNT_OFFSET,
    TIMESTAMP_TYPE_BIT,
    TRANSACTIONAL_BIT,
)

if TYPE_CHECKING:
    from ._recordbatch_py import (
        BatchHeader,
        patch_base_offset,
        read_batch_header,
        set_log_append_time,
        validate_batch,
        validate_batches,
    )
else:
    _impl = kernel("_recordbatch")
    BatchHeader = _impl.BatchHeader
    read_batch_header = _impl.read_batch_header
    validate_batch = _impl.validate_batch
    validate_batches = _impl.validate_batches
    patch_base_offset = _impl.patch_base_offset
    set_log_append_time = _impl.set_log_append_time

__all__ = [
    "ATTRIBUTES_OFFSET",
    "COMPRESSION_MASK",
    "CONTROL_BIT",
    "CRC_OFFSET",
    "DELETE_HORIZON_BIT",
    "LOG_OVERHEAD",
    "MAGIC_OFFSET",
    "MAX_CODEC",
    "MAX_TIMESTAMP_OFFSET",
    "NOGIL_MIN_BYTES",
    "PARTITION_LEADER_EPOCH_OFFSET",
    "RECORD_BATCH_OVERHEAD",
    "RECORD_COUNT_OFFSET",
    "TIMESTAMP_TYPE_BIT",
    "TRANSACTIONAL_BIT",
    "BatchHeader",
    "patch_base_offset",
    "read_batch_header",
    "set_log_append_time",
    "validate_batch",
    "validate_batches",
]
