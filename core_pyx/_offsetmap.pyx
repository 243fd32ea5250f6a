# cython: language_level=3
"""Compiled offset-map kernel: log compaction's bounded key -> latest offset map, and the records a pass keeps
(spec: ``_offsetmap_py``). The record walks run without the GIL."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy

from rockafka.core_pyx._crc32c cimport rk_crc32c
from rockafka.core_pyx._records cimport RecordCursor, rk_read_raw_varint

from rockafka.core_pyx._offsetmap_py import MIN_SLOTS, SLOT_BYTES, Selection, footprint
from rockafka.core_pyx.errors import CorruptBatchError

# Slot and the walk's failure codes come from _offsetmap.pxd, included automatically.

cdef object _tuple_new = tuple.__new__
cdef object _Selection = Selection
cdef Py_ssize_t _MIN_SLOTS = MIN_SLOTS
assert sizeof(Slot) == SLOT_BYTES

cdef dict _FAILURES = {
    WALK_VARINT: "a record varint runs past its end or is too long",
    WALK_LENGTH: "a record length overruns the payload",
    WALK_KEY: "a record key overruns its record",
    WALK_VALUE: "a record value overruns its record",
    WALK_TRAILING: "bytes follow the records of the batch payload",
}


cdef inline int _varint32(RecordCursor *cur, int32_t *out) noexcept nogil:
    cdef uint64_t raw
    if rk_read_raw_varint(cur, &raw, 5) != 0:
        return WALK_VARINT
    cdef uint32_t value = <uint32_t>raw
    out[0] = <int32_t>((value >> 1) ^ (-(value & 1)))
    return 0


cdef inline int _varint64(RecordCursor *cur, int64_t *out) noexcept nogil:
    cdef uint64_t raw
    if rk_read_raw_varint(cur, &raw, 10) != 0:
        return WALK_VARINT
    out[0] = <int64_t>((raw >> 1) ^ (-(raw & 1)))
    return 0


cdef int _next_record(RecordCursor *cur, RecordFields *record) noexcept nogil:
    """Read the record at the cursor into ``record`` and move past it; 0 or a WALK_* failure."""
    cdef int32_t length, value_length
    cdef RecordCursor body
    record.start = cur.pos
    if _varint32(cur, &length):
        return WALK_VARINT
    if length < 1 or length > cur.end - cur.pos:
        return WALK_LENGTH
    body.data = cur.data
    body.pos = cur.pos + 1  # attributes
    body.end = cur.pos + length
    cur.pos = body.end
    record.end = body.end
    if _varint64(&body, &record.timestamp_delta) or _varint32(&body, &record.offset_delta):
        return WALK_VARINT
    if _varint32(&body, &record.key_length):
        return WALK_VARINT
    if record.key_length < -1 or record.key_length > body.end - body.pos:
        return WALK_KEY
    record.key = body.data + body.pos
    if record.key_length > 0:
        body.pos += record.key_length
    if _varint32(&body, &value_length):
        return WALK_VARINT
    if value_length < -1 or value_length > body.end - body.pos:
        return WALK_VALUE
    record.is_tombstone = value_length < 0
    return 0


cdef Slot *_new_table(Py_ssize_t count) except NULL:
    cdef Slot *table = <Slot *>malloc(count * sizeof(Slot))
    cdef Py_ssize_t i
    if table == NULL:
        raise MemoryError()
    for i in range(count):
        table[i].key_at = EMPTY
    return table


cdef class OffsetMap:
    """Record keys to the offsets of their latest records, within ``budget`` bytes (``_offsetmap_py``)."""

    def __cinit__(self, Py_ssize_t budget):
        if budget < footprint(0, 0):
            raise ValueError(f"an offset map needs at least {footprint(0, 0)} bytes, not {budget}")
        self._budget = budget
        self._slots = _new_table(_MIN_SLOTS)
        self._slot_count = _MIN_SLOTS
        self._entries = 0
        self._keys = NULL
        self._key_bytes = 0
        self._key_capacity = 0

    def __dealloc__(self):
        free(self._slots)
        free(self._keys)

    def __len__(self):
        return self._entries

    @property
    def budget(self):
        return self._budget

    @property
    def footprint(self):
        return footprint(self._entries, self._key_bytes)

    cdef Slot *_find(self, const unsigned char *key, Py_ssize_t length, uint32_t hash) noexcept nogil:
        """The slot holding ``key``, or the empty slot where it would go (the table is never full)."""
        cdef size_t mask = <size_t>self._slot_count - 1
        cdef size_t at = hash & mask
        cdef Slot *slot
        while True:
            slot = &self._slots[at]
            if slot.key_at == EMPTY:
                return slot
            if slot.hash == hash and slot.key_length == length and (
                length == 0 or memcmp(self._keys + slot.key_at, key, length) == 0
            ):
                return slot
            at = (at + 1) & mask

    cdef int _reserve(self, Py_ssize_t entries, Py_ssize_t key_bytes) except -1:
        """Grow the table to slots(entries) and the key buffer to ``key_bytes``, so a walk never allocates."""
        cdef Py_ssize_t wanted = self._slot_count
        cdef Py_ssize_t i, capacity, count
        cdef Slot *old
        cdef Slot *slot
        cdef unsigned char *keys
        while wanted < 2 * entries:
            wanted *= 2
        if wanted != self._slot_count:
            old = self._slots
            count = self._slot_count
            self._slots = _new_table(wanted)
            self._slot_count = wanted
            for i in range(count):
                if old[i].key_at != EMPTY:
                    slot = self._find(self._keys + old[i].key_at, old[i].key_length, old[i].hash)
                    slot[0] = old[i]
            free(old)
        if key_bytes > self._key_capacity:
            capacity = max(key_bytes, min(2 * self._key_capacity, self._budget))
            keys = <unsigned char *>realloc(self._keys, capacity)
            if keys == NULL:
                raise MemoryError()
            self._keys = keys
            self._key_capacity = capacity
        return 0

    cdef int _add(self, const unsigned char *data, Py_ssize_t length, Py_ssize_t count,
                  int64_t base_offset) noexcept nogil:
        cdef RecordCursor cur
        cdef RecordFields record
        cdef Slot *slot
        cdef uint32_t hash
        cdef Py_ssize_t i
        cdef int failure
        cur.data = data
        cur.pos = 0
        cur.end = length
        for i in range(count):
            failure = _next_record(&cur, &record)
            if failure:
                return failure
            if record.key_length < 0:
                continue
            hash = rk_crc32c(0, record.key, record.key_length)
            slot = self._find(record.key, record.key_length, hash)
            if slot.key_at == EMPTY:
                memcpy(self._keys + self._key_bytes, record.key, record.key_length)
                slot.key_at = self._key_bytes
                slot.key_length = record.key_length
                slot.hash = hash
                self._key_bytes += record.key_length
                self._entries += 1
            slot.offset = base_offset + record.offset_delta
        return WALK_TRAILING if cur.pos != cur.end else 0

    def add(self, payload, Py_ssize_t count, int64_t base_offset, bint force=False):
        """Add the batch's keyed records, or return False and add nothing when it may not fit (spec)."""
        cdef Py_buffer view
        cdef int failure
        PyObject_GetBuffer(payload, &view, PyBUF_SIMPLE)
        try:
            if not force and footprint(self._entries + count, self._key_bytes + view.len) > self._budget:
                return False
            self._reserve(self._entries + count, self._key_bytes + view.len)
            with nogil:
                failure = self._add(<const unsigned char *>view.buf, view.len, count, base_offset)
        finally:
            PyBuffer_Release(&view)
        if failure:
            raise CorruptBatchError(_FAILURES[failure])
        return True

    def get(self, key):
        """The latest offset added for ``key``, or None."""
        cdef const unsigned char *data = key
        cdef Py_ssize_t length = len(key)
        cdef Slot *slot = self._find(data, length, rk_crc32c(0, data, length))
        return None if slot.key_at == EMPTY else slot.offset

    cdef int _select(self, const unsigned char *data, Py_ssize_t length, Py_ssize_t count, int64_t base_offset,
                     bint drop_tombstones, unsigned char *out, Py_ssize_t *out_length,
                     Py_ssize_t *kept, Py_ssize_t *tombstones, int64_t *max_delta) noexcept nogil:
        cdef RecordCursor cur
        cdef RecordFields record
        cdef Slot *slot
        cdef Py_ssize_t i
        cdef int failure
        cur.data = data
        cur.pos = 0
        cur.end = length
        for i in range(count):
            failure = _next_record(&cur, &record)
            if failure:
                return failure
            if record.key_length < 0 or (record.is_tombstone and drop_tombstones):
                continue
            slot = self._find(record.key, record.key_length, rk_crc32c(0, record.key, record.key_length))
            if slot.key_at != EMPTY and slot.offset > base_offset + record.offset_delta:
                continue
            if kept[0] == 0 or record.timestamp_delta > max_delta[0]:
                max_delta[0] = record.timestamp_delta
            memcpy(out + out_length[0], data + record.start, record.end - record.start)
            out_length[0] += record.end - record.start
            kept[0] += 1
            tombstones[0] += record.is_tombstone
        return WALK_TRAILING if cur.pos != cur.end else 0

    def select(self, payload, Py_ssize_t count, int64_t base_offset, bint drop_tombstones):
        """The records of the batch that a pass keeps, as a Selection (spec)."""
        cdef Py_buffer view
        cdef int failure
        cdef Py_ssize_t out_length = 0
        cdef Py_ssize_t kept = 0
        cdef Py_ssize_t tombstones = 0
        cdef int64_t max_delta = 0
        cdef unsigned char *out
        PyObject_GetBuffer(payload, &view, PyBUF_SIMPLE)
        try:
            out = <unsigned char *>malloc(view.len if view.len > 0 else 1)
            if out == NULL:
                raise MemoryError()
            try:
                with nogil:
                    failure = self._select(<const unsigned char *>view.buf, view.len, count, base_offset,
                                           drop_tombstones, out, &out_length, &kept, &tombstones, &max_delta)
                if failure:
                    raise CorruptBatchError(_FAILURES[failure])
                records = PyBytes_FromStringAndSize(<const char *>out, out_length)
            finally:
                free(out)
        finally:
            PyBuffer_Release(&view)
        return _tuple_new(_Selection, (kept, tombstones, max_delta, records))
