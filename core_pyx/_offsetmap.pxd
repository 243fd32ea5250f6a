# C-level API of the offset-map kernel (spec: _offsetmap_py.py).
from libc.stdint cimport int32_t, int64_t, uint32_t


# One slot of the open-addressing table (24 bytes, SLOT_BYTES): the key is key_length bytes at key_at in the
# map's key buffer; key_at == EMPTY marks a free slot.
cdef struct Slot:
    int64_t offset
    int64_t key_at
    uint32_t hash
    int32_t key_length


# What a walk reads of one record: where its bytes start and end in the payload, its deltas, its key.
cdef struct RecordFields:
    Py_ssize_t start
    Py_ssize_t end
    int64_t timestamp_delta
    int32_t offset_delta
    const unsigned char *key
    int32_t key_length
    bint is_tombstone


cdef enum:
    EMPTY = -1
    # A record walk's failures (0: none)
    WALK_VARINT = 1
    WALK_LENGTH = 2
    WALK_KEY = 3
    WALK_VALUE = 4
    WALK_TRAILING = 5


cdef class OffsetMap:
    cdef Slot *_slots
    cdef Py_ssize_t _slot_count
    cdef Py_ssize_t _entries
    cdef unsigned char *_keys
    cdef Py_ssize_t _key_bytes
    cdef Py_ssize_t _key_capacity
    cdef Py_ssize_t _budget

    cdef Slot *_find(self, const unsigned char *key, Py_ssize_t length, uint32_t hash) noexcept nogil
    cdef int _reserve(self, Py_ssize_t entries, Py_ssize_t key_bytes) except -1
    cdef int _add(self, const unsigned char *data, Py_ssize_t length, Py_ssize_t count,
                  int64_t base_offset) noexcept nogil
    cdef int _select(self, const unsigned char *data, Py_ssize_t length, Py_ssize_t count, int64_t base_offset,
                     bint drop_tombstones, unsigned char *out, Py_ssize_t *out_length,
                     Py_ssize_t *kept, Py_ssize_t *tombstones, int64_t *max_delta) noexcept nogil
