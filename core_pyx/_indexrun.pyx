# cython: language_level=3
"""Compiled index-run kernel: a run of CommitLog records indexed into one IndexFile with the GIL released
(layouts and behaviour: ``_indexrun_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memset

from rockafka.core_pyx._crc32c cimport rk_crc32c
from rockafka.core_pyx._indexhash cimport rk_write_entries
from rockafka.core_pyx._layouts cimport (
    BATCH_ATTRIBUTES_AT,
    BATCH_COMPRESSION_MASK,
    BATCH_CONTROL_BIT,
    BATCH_HEADER_SIZE,
    BATCH_LENGTH_AT,
    BATCH_LOG_OVERHEAD,
    BATCH_MAGIC_AT,
    BATCH_RECORD_COUNT_AT,
    INDEX_BEGIN_PHYSICAL_AT,
    INDEX_BEGIN_TIMESTAMP_AT,
    INDEX_COUNT_AT,
    INDEX_END_PHYSICAL_AT,
    INDEX_END_TIMESTAMP_AT,
    INDEX_HASH_SLOT_COUNT_AT,
    INDEX_HEADER_SIZE,
    LOG_MAGIC_AT,
    LOG_PHYSICAL_OFFSET_AT,
    LOG_STORE_TIMESTAMP_AT,
    LOG_TOPIC_ID_AT,
)
from rockafka.core_pyx._layouts cimport INDEX_ENTRY_SIZE as ENTRY_SIZE
from rockafka.core_pyx._layouts cimport INDEX_SLOT_SIZE as SLOT_SIZE
from rockafka.core_pyx._layouts cimport LOG_BLANK_MAGIC as BLANK_MAGIC
from rockafka.core_pyx._layouts cimport LOG_BLANK_SIZE as BLANK_SIZE
from rockafka.core_pyx._layouts cimport LOG_HEADER_SIZE as RECORD_HEADER_SIZE
from rockafka.core_pyx._layouts cimport LOG_RECORD_MAGIC as RECORD_MAGIC
from rockafka.core_pyx._recordbatch cimport rk_load_be16, rk_load_be32, rk_load_be64, rk_store_be32, rk_store_be64
from rockafka.core_pyx._records cimport RecordCursor, rk_read_raw_varint

from rockafka.core_pyx._indexrun_py import IndexHeader, IndexRun, IndexStop

# IndexWalk and rk_index_walk come from _indexrun.pxd, included automatically.

cdef extern from *:
    """
    #define RK_RELEASE_FENCE() __atomic_thread_fence(__ATOMIC_RELEASE)
    """
    void RK_RELEASE_FENCE() noexcept nogil

cdef enum:
    MIN_CAPACITY = 16

# Stops, as IndexStop; GO_ON: the record is done, walk on.
cdef enum:
    STOP_END = 0
    STOP_SEGMENT_END = 1
    STOP_COMPRESSED = 2
    STOP_FULL = 3
    STOP_UNPARSED = 4
    STOP_LIMIT = 5
    GO_ON = 6
    NO_MEMORY = -1

cdef uint32_t EMPTY = 0xFFFFFFFF  # never a hash: hashes are masked to 31 bits

cdef object _IndexHeader = IndexHeader
cdef object _IndexRun = IndexRun
cdef object _IndexStop = IndexStop


cdef int _varint32(RecordCursor *cur, int32_t *out) noexcept nogil:
    """A zigzag varint wrapped to 32 bits, as the records kernel reads it."""
    cdef uint64_t raw
    cdef uint32_t value
    if rk_read_raw_varint(cur, &raw, 5) < 0:
        return -1
    value = <uint32_t>raw
    out[0] = <int32_t>((value >> 1) ^ (-(value & 1)))
    return 0


cdef int _reserve(IndexWalk *walk, Py_ssize_t n) noexcept nogil:
    """Scratch room for ``n`` hashes (and a set of twice as many slots); -1 without memory."""
    cdef Py_ssize_t capacity = walk.capacity if walk.capacity else MIN_CAPACITY
    cdef uint32_t *grown
    while capacity < n:
        capacity *= 2
    if capacity == walk.capacity:
        return 0
    grown = <uint32_t *>realloc(walk.hashes, capacity * sizeof(uint32_t))
    if grown == NULL:
        return -1
    walk.hashes = grown
    grown = <uint32_t *>realloc(walk.seen, 2 * capacity * sizeof(uint32_t))
    if grown == NULL:
        return -1
    walk.seen = grown
    walk.capacity = capacity
    return 0


cdef Py_ssize_t _key_hashes(IndexWalk *walk, const unsigned char *data, Py_ssize_t length, int32_t count,
                            uint32_t seed) noexcept nogil:
    """The distinct key hashes of an uncompressed payload into walk.hashes, first seen first (as ``key_hashes``
    of the _indexhash kernel): how many (0 for a payload that does not decode), -1 without memory."""
    cdef RecordCursor cur, body
    cdef int32_t record_length, field, key_length
    cdef uint64_t skipped
    cdef uint32_t value
    cdef Py_ssize_t i, slot, found = 0, most = count if count < length else length
    if most <= 0:
        return 0
    if _reserve(walk, most) < 0:
        return -1
    cdef Py_ssize_t mask = MIN_CAPACITY
    while mask < 2 * most:
        mask *= 2
    memset(walk.seen, 0xFF, mask * sizeof(uint32_t))
    mask -= 1
    cur.data = body.data = data
    cur.pos = 0
    cur.end = length
    for i in range(count):
        if _varint32(&cur, &record_length) < 0 or record_length < 0 or record_length > cur.end - cur.pos:
            return 0
        body.pos = cur.pos + 1  # attributes
        body.end = cur.pos + record_length
        cur.pos = body.end
        if (rk_read_raw_varint(&body, &skipped, 10) < 0 or _varint32(&body, &field) < 0
                or _varint32(&body, &key_length) < 0):
            return 0  # timestampDelta, offsetDelta, keyLength
        if key_length > body.end - body.pos:
            return 0
        if key_length >= 0:
            value = rk_crc32c(seed, data + body.pos, key_length) & 0x7FFFFFFF
            slot = value & mask
            while walk.seen[slot] != EMPTY and walk.seen[slot] != value:
                slot = (slot + 1) & mask
            if walk.seen[slot] == EMPTY:
                walk.seen[slot] = value
                walk.hashes[found] = value
                found += 1
    return found


cdef Py_ssize_t _record_size(IndexWalk *walk, int *stop) noexcept nogil:
    """The size of the record at walk.position if it passes the checks; else 0, with the stop."""
    cdef const unsigned char *p = walk.segment + walk.position
    cdef Py_ssize_t remaining = walk.segment_length - walk.position
    cdef int32_t total
    cdef uint32_t magic
    stop[0] = STOP_UNPARSED
    if remaining < BLANK_SIZE:
        return 0
    total = <int32_t>rk_load_be32(p)
    magic = rk_load_be32(p + LOG_MAGIC_AT)
    if magic == BLANK_MAGIC:
        if total == remaining:
            stop[0] = STOP_SEGMENT_END
        return 0
    if magic != RECORD_MAGIC or not (RECORD_HEADER_SIZE + BATCH_HEADER_SIZE <= total <= remaining - BLANK_SIZE):
        return 0
    if <int64_t>rk_load_be64(p + LOG_PHYSICAL_OFFSET_AT) != walk.segment_start + walk.position:
        return 0
    if p[RECORD_HEADER_SIZE + BATCH_MAGIC_AT] != 2:
        return 0
    if <int32_t>rk_load_be32(p + RECORD_HEADER_SIZE + BATCH_LENGTH_AT) + BATCH_LOG_OVERHEAD != total - RECORD_HEADER_SIZE:
        return 0
    return total


cdef void _write_header(IndexWalk *walk) noexcept nogil:
    cdef unsigned char *h = walk.index
    RK_RELEASE_FENCE()  # entries and slots are whole before the header counts them
    rk_store_be64(h + INDEX_BEGIN_TIMESTAMP_AT, <uint64_t>walk.begin_timestamp)
    rk_store_be64(h + INDEX_END_TIMESTAMP_AT, <uint64_t>walk.end_timestamp)
    rk_store_be64(h + INDEX_BEGIN_PHYSICAL_AT, <uint64_t>walk.begin_physical_offset)
    rk_store_be64(h + INDEX_END_PHYSICAL_AT, <uint64_t>walk.end_physical_offset)
    rk_store_be32(h + INDEX_HASH_SLOT_COUNT_AT, <uint32_t>walk.hash_slot_count)
    rk_store_be32(h + INDEX_COUNT_AT, <uint32_t>walk.index_count)


cdef int _index_record(IndexWalk *walk, Py_ssize_t total) noexcept nogil:
    """Put the entries of the valid record at walk.position: GO_ON, or why the walk stops before it."""
    cdef const unsigned char *p = walk.segment + walk.position
    cdef const unsigned char *batch = p + RECORD_HEADER_SIZE
    cdef int64_t physical = walk.segment_start + walk.position
    cdef uint32_t attributes = rk_load_be16(batch + BATCH_ATTRIBUTES_AT)
    cdef int64_t stamp
    if physical <= walk.indexed_through or attributes & BATCH_CONTROL_BIT:
        return GO_ON
    if attributes & BATCH_COMPRESSION_MASK:
        return STOP_COMPRESSED
    cdef Py_ssize_t n = _key_hashes(walk, batch + BATCH_HEADER_SIZE, total - RECORD_HEADER_SIZE - BATCH_HEADER_SIZE,
                                    <int32_t>rk_load_be32(batch + BATCH_RECORD_COUNT_AT), rk_crc32c(0, p + LOG_TOPIC_ID_AT, 16))
    if n <= 0:
        return NO_MEMORY if n < 0 else GO_ON
    if walk.index_count + n > walk.entry_count:
        return STOP_FULL
    stamp = <int64_t>rk_load_be64(p + LOG_STORE_TIMESTAMP_AT)
    if walk.index_count <= 1:
        walk.begin_timestamp = stamp
        walk.begin_physical_offset = physical
    walk.index_count = rk_write_entries(walk.index, walk.slot_count, walk.index_count, &walk.hash_slot_count,
                                        walk.begin_timestamp, physical, stamp, walk.hashes, n)
    walk.end_timestamp = stamp
    walk.end_physical_offset = physical
    _write_header(walk)
    return GO_ON


cdef int rk_index_walk(IndexWalk *walk) noexcept nogil:
    cdef Py_ssize_t walked = 0, total
    cdef int stop
    while True:
        if walk.position >= walk.end:
            return STOP_END
        if walked > 0 and walked >= walk.budget:
            return STOP_LIMIT
        total = _record_size(walk, &stop)
        if total == 0:
            return stop
        stop = _index_record(walk, total)
        if stop != GO_ON:
            return stop
        walk.position += total
        walked += total


cdef int _start(IndexWalk *walk, Py_buffer *segment, Py_ssize_t position, Py_ssize_t end, Py_buffer *index,
                Py_ssize_t slot_count, object header) except -1:
    cdef Py_ssize_t entries_at = INDEX_HEADER_SIZE + slot_count * SLOT_SIZE
    if slot_count <= 0 or index.len < entries_at + 2 * ENTRY_SIZE or header.index_count < 1:
        raise ValueError("not an IndexFile of that slot count, or a header with index_count < 1")
    if not 0 <= position <= segment.len or end > segment.len:
        raise ValueError(f"position {position} or end {end} outside the {segment.len}-byte segment")
    walk.segment = <const unsigned char *>segment.buf
    walk.segment_length = segment.len
    walk.position = position
    walk.end = end
    walk.index = <unsigned char *>index.buf
    walk.slot_count = slot_count
    walk.entry_count = (index.len - entries_at) // ENTRY_SIZE
    walk.begin_timestamp = header.begin_timestamp
    walk.end_timestamp = header.end_timestamp
    walk.begin_physical_offset = header.begin_physical_offset
    walk.end_physical_offset = header.end_physical_offset
    walk.hash_slot_count = header.hash_slot_count
    walk.index_count = header.index_count
    walk.hashes = NULL
    walk.seen = NULL
    walk.capacity = 0
    return 0


def index_records(segment, Py_ssize_t position, Py_ssize_t end, int64_t segment_start, index,
                  Py_ssize_t slot_count, header, int64_t indexed_through, Py_ssize_t budget):
    """Index the records of ``segment`` from ``position`` until ``end`` or a stop (GIL released): an IndexRun."""
    cdef Py_buffer source, target
    cdef IndexWalk walk
    cdef int stop
    PyObject_GetBuffer(segment, &source, PyBUF_SIMPLE)
    try:
        PyObject_GetBuffer(index, &target, PyBUF_WRITABLE)
        try:
            _start(&walk, &source, position, end, &target, slot_count, header)
            walk.segment_start = segment_start
            walk.indexed_through = indexed_through
            walk.budget = budget
            try:
                with nogil:
                    stop = rk_index_walk(&walk)
            finally:
                free(walk.hashes)
                free(walk.seen)
            if stop == NO_MEMORY:
                raise MemoryError()
            return _IndexRun(walk.position, _IndexStop(stop), _IndexHeader(
                walk.begin_timestamp, walk.end_timestamp, walk.begin_physical_offset, walk.end_physical_offset,
                walk.hash_slot_count, walk.index_count))
        finally:
            PyBuffer_Release(&target)
    finally:
        PyBuffer_Release(&source)
