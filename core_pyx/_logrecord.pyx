# cython: language_level=3
"""Compiled CommitLog record kernel: one record encoded in C and written with one pwritev (GIL released), and
records scanned out of a mapped segment (layout and behaviour: ``_logrecord_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.errno cimport errno
from libc.stdint cimport int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from rockafka.core_pyx._crc32c cimport rk_crc32c
from rockafka.core_pyx._layouts cimport (
    BATCH_ATTRIBUTES_AT,
    BATCH_CRC_AT,
    BATCH_HEADER_SIZE,
    BATCH_LAST_OFFSET_DELTA_AT,
    BATCH_LENGTH_AT,
    BATCH_LOG_OVERHEAD,
    BATCH_MAGIC_AT,
    BATCH_MAX_TIMESTAMP_AT,
    BATCH_PARTITION_LEADER_EPOCH_AT,
    BATCH_PRODUCER_EPOCH_AT,
    BATCH_PRODUCER_ID_AT,
    BATCH_TIMESTAMP_TYPE_BIT,
    LOG_BASE_OFFSET_AT,
    LOG_FLAGS_AT,
    LOG_HEADER_CRC_AT,
    LOG_MAGIC_AT,
    LOG_PARTITION_AT,
    LOG_PHYSICAL_OFFSET_AT,
    LOG_RECORD_COUNT_AT,
    LOG_RESERVED_AT,
    LOG_STORE_TIMESTAMP_AT,
    LOG_TOPIC_ID_AT,
)
from rockafka.core_pyx._layouts cimport LOG_BLANK_MAGIC as BLANK_MAGIC
from rockafka.core_pyx._layouts cimport LOG_BLANK_SIZE as BLANK_SIZE
from rockafka.core_pyx._layouts cimport LOG_HEADER_SIZE as HEADER_SIZE
from rockafka.core_pyx._layouts cimport LOG_RECORD_MAGIC as RECORD_MAGIC
from rockafka.core_pyx._recordbatch cimport (
    rk_load_be16,
    rk_load_be32,
    rk_load_be64,
    rk_store_be16,
    rk_store_be32,
    rk_store_be64,
)

import os

# rk_encode_record comes from _logrecord.pxd, included automatically.

cdef extern from "sys/uio.h" nogil:
    struct iovec:
        void *iov_base
        size_t iov_len
    ssize_t pwritev(int fd, const iovec *iov, int iovcnt, long offset)

# Why a scan stopped (module constants, as in the pure twin).
LIMIT = 0
SEGMENT_END = 1
END_OF_DATA = 2
CORRUPT = 3



cdef inline uint32_t _header_crc(const unsigned char *header) noexcept nogil:
    """The header's CRC-32C: bytes before the CRC field, then those after it."""
    return rk_crc32c(rk_crc32c(0, header, LOG_HEADER_CRC_AT), header + LOG_TOPIC_ID_AT,
                     HEADER_SIZE - LOG_TOPIC_ID_AT)


cdef int rk_encode_record(unsigned char *header, unsigned char *head, const unsigned char *batch,
                          Py_ssize_t batch_length, const unsigned char *topic_id, int32_t partition,
                          int64_t base_offset, int32_t leader_epoch, int32_t record_count,
                          int64_t store_timestamp, int64_t log_append_time,
                          int64_t physical_offset) noexcept nogil:
    cdef uint32_t crc
    cdef uint16_t attributes
    memcpy(head, batch, BATCH_HEADER_SIZE)
    rk_store_be64(head, <uint64_t>base_offset)
    rk_store_be32(head + BATCH_PARTITION_LEADER_EPOCH_AT, <uint32_t>leader_epoch)
    attributes = rk_load_be16(head + BATCH_ATTRIBUTES_AT)
    if log_append_time != -1:
        attributes |= BATCH_TIMESTAMP_TYPE_BIT
        rk_store_be16(head + BATCH_ATTRIBUTES_AT, attributes)
        rk_store_be64(head + BATCH_MAX_TIMESTAMP_AT, <uint64_t>log_append_time)
        crc = rk_crc32c(0, head + BATCH_ATTRIBUTES_AT, BATCH_HEADER_SIZE - BATCH_ATTRIBUTES_AT)
        crc = rk_crc32c(crc, batch + BATCH_HEADER_SIZE, batch_length - BATCH_HEADER_SIZE)
        rk_store_be32(head + BATCH_CRC_AT, crc)
    rk_store_be32(header, <uint32_t>(HEADER_SIZE + batch_length))
    rk_store_be32(header + LOG_MAGIC_AT, RECORD_MAGIC)
    memcpy(header + LOG_TOPIC_ID_AT, topic_id, 16)
    rk_store_be32(header + LOG_PARTITION_AT, <uint32_t>partition)
    rk_store_be64(header + LOG_BASE_OFFSET_AT, <uint64_t>base_offset)
    rk_store_be64(header + LOG_PHYSICAL_OFFSET_AT, <uint64_t>physical_offset)
    rk_store_be64(header + LOG_STORE_TIMESTAMP_AT, <uint64_t>store_timestamp)
    rk_store_be32(header + LOG_RECORD_COUNT_AT, <uint32_t>record_count)
    rk_store_be16(header + LOG_FLAGS_AT, attributes)
    rk_store_be16(header + LOG_RESERVED_AT, 0)
    rk_store_be32(header + LOG_HEADER_CRC_AT, _header_crc(header))
    return attributes


def write_record(int fd, int64_t position, batch, bytes topic_id, int32_t partition, int64_t base_offset,
                 int32_t leader_epoch, int32_t record_count, int64_t store_timestamp, int64_t log_append_time,
                 int64_t physical_offset):
    """Write one CommitLog record at ``position`` of ``fd``; (total, attributes, max ts, producer id, epoch)."""
    if len(topic_id) != 16:
        raise ValueError("a record needs a whole batch header and a 16-byte topic id")
    cdef unsigned char header[HEADER_SIZE]
    cdef unsigned char head[BATCH_HEADER_SIZE]
    cdef iovec parts[3]
    cdef Py_buffer view
    cdef ssize_t written
    cdef int attributes, failure = 0
    cdef const unsigned char *topic = topic_id
    PyObject_GetBuffer(batch, &view, PyBUF_SIMPLE)
    try:
        if view.len < BATCH_HEADER_SIZE:
            raise ValueError("a record needs a whole batch header and a 16-byte topic id")
        with nogil:
            attributes = rk_encode_record(header, head, <const unsigned char *>view.buf, view.len, topic,
                                          partition, base_offset, leader_epoch, record_count,
                                          store_timestamp, log_append_time, physical_offset)
            parts[0].iov_base = header
            parts[0].iov_len = HEADER_SIZE
            parts[1].iov_base = head
            parts[1].iov_len = BATCH_HEADER_SIZE
            parts[2].iov_base = <char *>view.buf + BATCH_HEADER_SIZE
            parts[2].iov_len = view.len - BATCH_HEADER_SIZE
            written = pwritev(fd, parts, 3, position)
            if written < 0:
                failure = errno
        if failure:
            raise OSError(failure, os.strerror(failure))
        if written != HEADER_SIZE + view.len:
            raise OSError(f"short write: {written} of {HEADER_SIZE + view.len} bytes")
        return (HEADER_SIZE + view.len, attributes, <int64_t>rk_load_be64(head + BATCH_MAX_TIMESTAMP_AT),
                <int64_t>rk_load_be64(head + BATCH_PRODUCER_ID_AT), <int16_t>rk_load_be16(head + BATCH_PRODUCER_EPOCH_AT))
    finally:
        PyBuffer_Release(&view)


cdef object _parse(const unsigned char *data, Py_ssize_t size, Py_ssize_t pos, int64_t file_start,
                   int64_t verify_from, Py_ssize_t tail_room):
    """A record tuple, or (stop kind, reason)."""
    cdef Py_ssize_t remaining = size - pos
    if remaining < BLANK_SIZE:
        return (CORRUPT, "no room for a record header")
    cdef const unsigned char *p = data + pos
    cdef int32_t total = <int32_t>rk_load_be32(p)
    cdef uint32_t magic = rk_load_be32(p + LOG_MAGIC_AT)
    if total == 0 and magic == 0:
        return (END_OF_DATA, "")
    if magic == BLANK_MAGIC:
        return (SEGMENT_END, "") if total == remaining else (CORRUPT, "BLANK of the wrong size")
    if magic != RECORD_MAGIC:
        return (CORRUPT, f"bad magic {magic:#010x}")
    if not (HEADER_SIZE + BATCH_HEADER_SIZE <= total <= remaining - tail_room):
        return (CORRUPT, f"bad record size {total}")
    cdef uint32_t crc = _header_crc(p)
    if crc != rk_load_be32(p + LOG_HEADER_CRC_AT):
        return (CORRUPT, "header checksum mismatch")
    cdef int64_t physical = <int64_t>rk_load_be64(p + LOG_PHYSICAL_OFFSET_AT)
    if physical != file_start + pos:
        return (CORRUPT, f"record claims physical offset {physical}")
    cdef const unsigned char *batch = p + HEADER_SIZE
    cdef int64_t base = <int64_t>rk_load_be64(p + LOG_BASE_OFFSET_AT)
    cdef int32_t count = <int32_t>rk_load_be32(p + LOG_RECORD_COUNT_AT)
    cdef int32_t batch_length = <int32_t>rk_load_be32(batch + BATCH_LENGTH_AT)
    if batch[BATCH_MAGIC_AT] != 2 or batch_length + BATCH_LOG_OVERHEAD != total - HEADER_SIZE:
        return (CORRUPT, "batch magic or length disagrees with the header")
    if <int64_t>rk_load_be64(batch) != base or <int32_t>rk_load_be32(batch + BATCH_LAST_OFFSET_DELTA_AT) + 1 != count:
        return (CORRUPT, "batch base offset or count disagrees with the header")
    if physical >= verify_from:
        with nogil:
            crc = rk_crc32c(0, batch + BATCH_ATTRIBUTES_AT, total - HEADER_SIZE - BATCH_ATTRIBUTES_AT)
        if crc != rk_load_be32(batch + BATCH_CRC_AT):
            return (CORRUPT, "batch CRC-32C mismatch")
    return (
        physical, total, PyBytes_FromStringAndSize(<const char *>p + LOG_TOPIC_ID_AT, 16),
        <int32_t>rk_load_be32(p + LOG_PARTITION_AT), base, count, <int64_t>rk_load_be64(p + LOG_STORE_TIMESTAMP_AT),
        rk_load_be16(batch + BATCH_ATTRIBUTES_AT), <int64_t>rk_load_be64(batch + BATCH_MAX_TIMESTAMP_AT),
        <int64_t>rk_load_be64(batch + BATCH_PRODUCER_ID_AT), <int16_t>rk_load_be16(batch + BATCH_PRODUCER_EPOCH_AT),
    )


def scan_records(segment, Py_ssize_t position, int64_t file_start, int64_t verify_from, Py_ssize_t limit,
                 Py_ssize_t tail_room=BLANK_SIZE):
    """Up to ``limit`` records of a mapped segment from ``position``: (records, position, stop, reason).
    ``tail_room``: the bytes a record must leave after it (a segment's room for a BLANK; 0 for copied data)."""
    cdef Py_buffer view
    cdef list records = []
    PyObject_GetBuffer(segment, &view, PyBUF_SIMPLE)
    try:
        while len(records) < limit:
            parsed = _parse(<const unsigned char *>view.buf, view.len, position, file_start, verify_from, tail_room)
            if len(parsed) == 2:
                return records, position, parsed[0], parsed[1]
            records.append(parsed)
            position += <Py_ssize_t>parsed[1]
        return records, position, LIMIT, ""
    finally:
        PyBuffer_Release(&view)


def verify_crcs(segment, Py_ssize_t position, Py_ssize_t end):
    """Position of the first record in [position, end) whose batch CRC-32C fails, or -1 (GIL released)."""
    cdef Py_buffer view
    cdef const unsigned char *data
    cdef Py_ssize_t total, bad = -1
    PyObject_GetBuffer(segment, &view, PyBUF_SIMPLE)
    try:
        if position < 0 or end > view.len:
            raise ValueError("range outside the segment")
        data = <const unsigned char *>view.buf
        with nogil:
            while position + HEADER_SIZE + BATCH_HEADER_SIZE <= end:
                total = <int32_t>rk_load_be32(data + position)
                if total < HEADER_SIZE + BATCH_HEADER_SIZE or position + total > end:
                    bad = position
                    break
                if rk_crc32c(0, data + position + HEADER_SIZE + BATCH_ATTRIBUTES_AT, total - HEADER_SIZE - BATCH_ATTRIBUTES_AT) != rk_load_be32(
                        data + position + HEADER_SIZE + BATCH_CRC_AT):
                    bad = position
                    break
                position += total
        return bad
    finally:
        PyBuffer_Release(&view)
