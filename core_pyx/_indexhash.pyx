# cython: language_level=3
"""Compiled IndexFile kernel: record keys to IndexFile hashes, and entry writes (layouts: ``_indexhash_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from rockafka.core_pyx._crc32c cimport rk_crc32c
from rockafka.core_pyx._layouts cimport INDEX_ENTRY_SIZE as ENTRY_SIZE
from rockafka.core_pyx._layouts cimport INDEX_HEADER_SIZE as HEADER_SIZE
from rockafka.core_pyx._layouts cimport INDEX_MAX_TIME_DIFF as MAX_TIME_DIFF
from rockafka.core_pyx._layouts cimport INDEX_SLOT_SIZE as SLOT_SIZE
from rockafka.core_pyx._records cimport RecordCursor, rk_read_varint, rk_read_varlong

from rockafka.core_pyx.errors import CorruptBatchError

# rk_put_entries and rk_write_entries come from _indexhash.pxd, included automatically.


cdef inline void _put_u32(unsigned char *p, uint32_t v) noexcept nogil:
    p[0] = (v >> 24) & 0xFF
    p[1] = (v >> 16) & 0xFF
    p[2] = (v >> 8) & 0xFF
    p[3] = v & 0xFF


cdef inline uint32_t _get_u32(const unsigned char *p) noexcept nogil:
    return (<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | <uint32_t>p[3]


cdef list _key_hashes(const unsigned char *data, Py_ssize_t length, Py_ssize_t count, uint32_t seed):
    cdef RecordCursor cur, body
    cdef int32_t record_length, offset_delta, key_length
    cdef int64_t timestamp_delta
    cdef uint32_t value
    cdef Py_ssize_t i
    cdef list hashes = []
    cdef set seen = set()
    cur.data = data
    cur.pos = 0
    cur.end = length
    for i in range(count):
        rk_read_varint(&cur, &record_length)
        if record_length < 0 or record_length > cur.end - cur.pos:
            raise CorruptBatchError(f"record length {record_length} overruns the payload at byte {cur.pos}")
        body.data = data
        body.pos = cur.pos + 1  # attributes
        body.end = cur.pos + record_length
        cur.pos = body.end
        rk_read_varlong(&body, &timestamp_delta)
        rk_read_varint(&body, &offset_delta)
        rk_read_varint(&body, &key_length)
        if key_length > body.end - body.pos:
            raise CorruptBatchError(f"record key of {key_length} bytes overruns its record at byte {body.pos}")
        if key_length >= 0:
            value = rk_crc32c(seed, data + body.pos, key_length) & 0x7FFFFFFF
            if value not in seen:
                seen.add(value)
                hashes.append(value)
    return hashes


def key_hashes(payload, Py_ssize_t count, unsigned long seed):
    """Distinct IndexFile hashes of the non-null record keys of an uncompressed payload, first seen first."""
    cdef Py_buffer view
    PyObject_GetBuffer(payload, &view, PyBUF_SIMPLE)
    try:
        return _key_hashes(<const unsigned char *>view.buf, view.len, count, <uint32_t>seed)
    finally:
        PyBuffer_Release(&view)


cdef extern from *:
    """
    #define RK_RELEASE_FENCE() __atomic_thread_fence(__ATOMIC_RELEASE)
    """
    void RK_RELEASE_FENCE() noexcept nogil


cdef Py_ssize_t rk_put_entries(unsigned char *index, Py_ssize_t length, Py_ssize_t slot_count,
                               Py_ssize_t index_count, Py_ssize_t *hash_slot_count, int64_t begin_timestamp,
                               int64_t physical_offset, int64_t store_timestamp,
                               const uint32_t *hashes, Py_ssize_t n) except -1:
    cdef Py_ssize_t entries_at = HEADER_SIZE + slot_count * SLOT_SIZE
    if slot_count <= 0 or index_count < 1 or entries_at + (index_count + n) * ENTRY_SIZE > length:
        raise ValueError("index entries do not fit the IndexFile")
    return rk_write_entries(index, slot_count, index_count, hash_slot_count, begin_timestamp, physical_offset,
                            store_timestamp, hashes, n)


cdef Py_ssize_t rk_write_entries(unsigned char *index, Py_ssize_t slot_count, Py_ssize_t index_count,
                                 Py_ssize_t *hash_slot_count, int64_t begin_timestamp, int64_t physical_offset,
                                 int64_t store_timestamp, const uint32_t *hashes, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t entries_at = HEADER_SIZE + slot_count * SLOT_SIZE
    cdef int64_t diff = (store_timestamp - begin_timestamp) // 1000
    if diff < 0:
        diff = 0
    elif diff > MAX_TIME_DIFF:
        diff = MAX_TIME_DIFF
    cdef Py_ssize_t i, slot_at
    cdef uint32_t previous, value
    cdef unsigned char *entry
    for i in range(n):
        value = hashes[i]
        slot_at = HEADER_SIZE + (value % slot_count) * SLOT_SIZE
        previous = _get_u32(index + slot_at)
        if previous == 0 or previous >= <uint32_t>index_count:
            previous = 0
            hash_slot_count[0] += 1
        entry = index + entries_at + index_count * ENTRY_SIZE
        _put_u32(entry, value)
        _put_u32(entry + 4, <uint32_t>((<uint64_t>physical_offset) >> 32))
        _put_u32(entry + 8, <uint32_t>(<uint64_t>physical_offset))  # the low 32 bits
        _put_u32(entry + 12, <uint32_t>diff)
        _put_u32(entry + 16, previous)
        RK_RELEASE_FENCE()  # the entry is whole before the slot points to it
        _put_u32(index + slot_at, <uint32_t>index_count)
        index_count += 1
    return index_count


def put_entries(index, Py_ssize_t slot_count, Py_ssize_t index_count, Py_ssize_t hash_slot_count,
                int64_t begin_timestamp, int64_t physical_offset, int64_t store_timestamp, hashes):
    """Append one entry per hash for the record at ``physical_offset``; returns (index_count, hash_slot_count)."""
    cdef Py_ssize_t n = len(hashes)
    cdef Py_buffer view
    cdef uint32_t *values = <uint32_t *>malloc(max(n, 1) * sizeof(uint32_t))
    if values == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            values[i] = <uint32_t>hashes[i]
        PyObject_GetBuffer(index, &view, PyBUF_WRITABLE)
        try:
            index_count = rk_put_entries(<unsigned char *>view.buf, view.len, slot_count, index_count,
                                         &hash_slot_count, begin_timestamp, physical_offset, store_timestamp,
                                         values, n)
        finally:
            PyBuffer_Release(&view)
    finally:
        free(values)
    return index_count, hash_slot_count
