# cython: language_level=3
"""Compiled RecordBatch v2 kernel: header parsing, validation, in-place patching (layout: ``_recordbatch_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer

from rockafka.core_pyx._crc32c cimport rk_crc32c
from rockafka.core_pyx._layouts cimport (
    BATCH_ATTRIBUTES_AT,
    BATCH_BASE_SEQUENCE_AT,
    BATCH_BASE_TIMESTAMP_AT,
    BATCH_COMPRESSION_MASK,
    BATCH_CONTROL_BIT,
    BATCH_CRC_AT,
    BATCH_LAST_OFFSET_DELTA_AT,
    BATCH_LENGTH_AT,
    BATCH_LOG_OVERHEAD,
    BATCH_MAGIC_AT,
    BATCH_MAX_CODEC,
    BATCH_MAX_TIMESTAMP_AT,
    BATCH_PARTITION_LEADER_EPOCH_AT,
    BATCH_PRODUCER_EPOCH_AT,
    BATCH_PRODUCER_ID_AT,
    BATCH_RECORD_COUNT_AT,
    BATCH_TIMESTAMP_TYPE_BIT,
    BATCH_TRANSACTIONAL_BIT,
)
from rockafka.core_pyx._layouts cimport BATCH_HEADER_SIZE as _OVERHEAD

from rockafka.core_pyx.errors import CorruptBatchError, InvalidBatchError, UnsupportedMagicError
from rockafka.core_pyx._recordbatch_py import (  # the layout's one definition, re-exported
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
    RECORD_BATCH_OVERHEAD,
    RECORD_COUNT_OFFSET,
    TIMESTAMP_TYPE_BIT,
    TRANSACTIONAL_BIT,
)

# BatchHeader and the rk_* declarations come from _recordbatch.pxd, included automatically.

cdef enum:
    _NOGIL_MIN = 65536

cdef tuple _FIELDS = (
    "position", "base_offset", "batch_length", "partition_leader_epoch", "magic", "crc", "attributes",
    "last_offset_delta", "base_timestamp", "max_timestamp", "producer_id", "producer_epoch", "base_sequence",
    "record_count",
)


cdef class BatchHeader:
    """The 61-byte header of one RecordBatch v2, and where the batch sits in its buffer."""

    def __init__(self, Py_ssize_t position, int64_t base_offset, int32_t batch_length,
                 int32_t partition_leader_epoch, int8_t magic, uint32_t crc, int16_t attributes,
                 int32_t last_offset_delta, int64_t base_timestamp, int64_t max_timestamp, int64_t producer_id,
                 int16_t producer_epoch, int32_t base_sequence, int32_t record_count):
        self.position = position
        self.base_offset = base_offset
        self.batch_length = batch_length
        self.partition_leader_epoch = partition_leader_epoch
        self.magic = magic
        self.crc = crc
        self.attributes = attributes
        self.last_offset_delta = last_offset_delta
        self.base_timestamp = base_timestamp
        self.max_timestamp = max_timestamp
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.base_sequence = base_sequence
        self.record_count = record_count

    @property
    def size(self):
        """Total bytes of the batch, its 12-byte log overhead included."""
        return BATCH_LOG_OVERHEAD + <int64_t>self.batch_length

    @property
    def compression(self):
        """Codec id: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd."""
        return self.attributes & BATCH_COMPRESSION_MASK

    @property
    def is_log_append_time(self):
        return (self.attributes & BATCH_TIMESTAMP_TYPE_BIT) != 0

    @property
    def is_transactional(self):
        return (self.attributes & BATCH_TRANSACTIONAL_BIT) != 0

    @property
    def is_control(self):
        return (self.attributes & BATCH_CONTROL_BIT) != 0

    @property
    def last_offset(self):
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self):
        """The offset that follows this batch: ``last_offset + 1``."""
        return self.base_offset + self.last_offset_delta + 1

    cdef tuple _values(self):
        return (
            self.position, self.base_offset, self.batch_length, self.partition_leader_epoch, self.magic, self.crc,
            self.attributes, self.last_offset_delta, self.base_timestamp, self.max_timestamp, self.producer_id,
            self.producer_epoch, self.base_sequence, self.record_count,
        )

    def __eq__(self, other):
        if type(other) is not BatchHeader:
            return NotImplemented
        return self._values() == (<BatchHeader>other)._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        pairs = ", ".join([f"{name}={value!r}" for name, value in zip(_FIELDS, self._values())])
        return f"BatchHeader({pairs})"


cdef BatchHeader rk_read_header(const unsigned char *data, Py_ssize_t length, Py_ssize_t pos):
    if pos < 0:
        raise CorruptBatchError(f"record batch position {pos} is negative")
    if length - pos < BATCH_MAGIC_AT + 1:
        raise CorruptBatchError(f"record batch at byte {pos} is truncated: {max(length - pos, 0)} bytes")
    cdef const unsigned char *p = data + pos
    if p[BATCH_MAGIC_AT] != 2:
        raise UnsupportedMagicError(<int8_t>p[BATCH_MAGIC_AT])
    if length - pos < _OVERHEAD:
        raise CorruptBatchError(f"record batch at byte {pos} is shorter than its 61-byte header")
    cdef BatchHeader header = BatchHeader.__new__(BatchHeader)
    header.position = pos
    header.base_offset = <int64_t>rk_load_be64(p)
    header.batch_length = <int32_t>rk_load_be32(p + BATCH_LENGTH_AT)
    header.partition_leader_epoch = <int32_t>rk_load_be32(p + BATCH_PARTITION_LEADER_EPOCH_AT)
    header.magic = 2
    header.crc = rk_load_be32(p + BATCH_CRC_AT)
    header.attributes = <int16_t>rk_load_be16(p + BATCH_ATTRIBUTES_AT)
    header.last_offset_delta = <int32_t>rk_load_be32(p + BATCH_LAST_OFFSET_DELTA_AT)
    header.base_timestamp = <int64_t>rk_load_be64(p + BATCH_BASE_TIMESTAMP_AT)
    header.max_timestamp = <int64_t>rk_load_be64(p + BATCH_MAX_TIMESTAMP_AT)
    header.producer_id = <int64_t>rk_load_be64(p + BATCH_PRODUCER_ID_AT)
    header.producer_epoch = <int16_t>rk_load_be16(p + BATCH_PRODUCER_EPOCH_AT)
    header.base_sequence = <int32_t>rk_load_be32(p + BATCH_BASE_SEQUENCE_AT)
    header.record_count = <int32_t>rk_load_be32(p + BATCH_RECORD_COUNT_AT)
    return header


cdef uint32_t rk_batch_crc(const unsigned char *batch, Py_ssize_t n) noexcept:
    cdef uint32_t crc
    if n >= _NOGIL_MIN:
        with nogil:
            crc = rk_crc32c(0, batch + BATCH_ATTRIBUTES_AT, <size_t>(n - BATCH_ATTRIBUTES_AT))
        return crc
    return rk_crc32c(0, batch + BATCH_ATTRIBUTES_AT, <size_t>(n - BATCH_ATTRIBUTES_AT))


cdef int _check_extent(BatchHeader header, Py_ssize_t length) except -1:
    if header.batch_length < _OVERHEAD - BATCH_LOG_OVERHEAD:
        raise CorruptBatchError(f"record batch length {header.batch_length} is below the header size")
    if header.position + BATCH_LOG_OVERHEAD + <int64_t>header.batch_length > length:
        raise CorruptBatchError(
            f"record batch of {header.size} bytes overruns its buffer at byte {header.position}"
        )
    return 0


cdef int _check_produced(BatchHeader header) except -1:
    if header.attributes & BATCH_COMPRESSION_MASK > BATCH_MAX_CODEC:
        raise InvalidBatchError(
            f"record batch compression codec {header.attributes & BATCH_COMPRESSION_MASK} is unknown"
        )
    if header.record_count <= 0:
        raise InvalidBatchError(f"record batch reports {header.record_count} records")
    if header.last_offset_delta != header.record_count - 1:
        raise InvalidBatchError(
            f"record batch offset range 0..{header.last_offset_delta} disagrees with its {header.record_count} records"
        )
    return 0


cdef BatchHeader rk_validate(const unsigned char *data, Py_ssize_t length, Py_ssize_t pos):
    cdef BatchHeader header = rk_read_header(data, length, pos)
    _check_extent(header, length)
    cdef uint32_t actual = rk_batch_crc(data + pos, BATCH_LOG_OVERHEAD + <Py_ssize_t>header.batch_length)
    if actual != header.crc:
        raise CorruptBatchError(
            f"record batch CRC-32C mismatch: stored {header.crc:#010x}, computed {actual:#010x}"
        )
    _check_produced(header)
    return header


def read_batch_header(buf, Py_ssize_t pos=0):
    """Parse the header of the batch at ``pos``; checks magic and that the header fits, not the CRC."""
    cdef Py_buffer view
    PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE)
    try:
        return rk_read_header(<const unsigned char *>view.buf, view.len, pos)
    finally:
        PyBuffer_Release(&view)


def validate_batch(buf, Py_ssize_t pos=0):
    """Parse and fully check the batch at ``pos``: bounds, magic, CRC-32C, codec, counts."""
    cdef Py_buffer view
    PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE)
    try:
        return rk_validate(<const unsigned char *>view.buf, view.len, pos)
    finally:
        PyBuffer_Release(&view)


def validate_batches(buf):
    """Validate every batch of a records blob (as carried by a Produce request); the blob must end on a batch."""
    cdef Py_buffer view
    cdef list headers = []
    cdef Py_ssize_t pos = 0
    cdef BatchHeader header
    PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE)
    try:
        while pos < view.len:
            header = rk_validate(<const unsigned char *>view.buf, view.len, pos)
            headers.append(header)
            pos += BATCH_LOG_OVERHEAD + <Py_ssize_t>header.batch_length
    finally:
        PyBuffer_Release(&view)
    return headers


cdef int _get_writable(object buf, Py_buffer *view, Py_ssize_t pos) except -1:
    PyObject_GetBuffer(buf, view, PyBUF_SIMPLE)
    if pos < 0:
        PyBuffer_Release(view)
        raise CorruptBatchError(f"record batch position {pos} is negative")
    if view.readonly:
        PyBuffer_Release(view)
        raise TypeError("patching a record batch needs a writable buffer")
    if view.len - pos < _OVERHEAD:
        PyBuffer_Release(view)
        raise CorruptBatchError(f"record batch at byte {pos} does not fit in its {view.len}-byte buffer")
    return 0


def patch_base_offset(buf, Py_ssize_t pos, int64_t base_offset):
    """Write ``base_offset`` into bytes 0-7 of the batch at ``pos`` in a writable buffer (the CRC is unchanged)."""
    cdef Py_buffer view
    _get_writable(buf, &view, pos)
    rk_store_be64(<unsigned char *>view.buf + pos, <uint64_t>base_offset)
    PyBuffer_Release(&view)


def set_log_append_time(buf, Py_ssize_t pos, int64_t timestamp):
    """Mark the batch at ``pos`` as LogAppendTime with ``timestamp`` as its maxTimestamp, and recompute its CRC."""
    cdef Py_buffer view
    cdef BatchHeader header
    cdef unsigned char *p
    _get_writable(buf, &view, pos)
    try:
        header = rk_read_header(<const unsigned char *>view.buf, view.len, pos)
        _check_extent(header, view.len)
        p = <unsigned char *>view.buf + pos
        rk_store_be16(p + BATCH_ATTRIBUTES_AT, <uint16_t>(header.attributes | BATCH_TIMESTAMP_TYPE_BIT))
        rk_store_be64(p + BATCH_MAX_TIMESTAMP_AT, <uint64_t>timestamp)
        rk_store_be32(p + BATCH_CRC_AT, rk_batch_crc(p, BATCH_LOG_OVERHEAD + <Py_ssize_t>header.batch_length))
    finally:
        PyBuffer_Release(&view)
