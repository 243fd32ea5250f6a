# C-level API of the wire kernel: the writer and the reader that the generated hot-message codec
# (_hotcodec, made by `make gen-protocol`) is made of. Wire rules: _wire_py.py.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t

cdef extern from "rk_byteorder.h":
    uint16_t rk_load_be16(const unsigned char *p) nogil
    uint32_t rk_load_be32(const unsigned char *p) nogil
    uint64_t rk_load_be64(const unsigned char *p) nogil
    void rk_store_be16(unsigned char *p, uint16_t v) nogil
    void rk_store_be32(unsigned char *p, uint32_t v) nogil
    void rk_store_be64(unsigned char *p, uint64_t v) nogil


# Output under construction: small fields in a growable C buffer, record buffers spliced in at the end
# (each copied exactly once, into the final bytes object, or handed on uncopied as a part of its own).
cdef class Out:
    cdef unsigned char *buf
    cdef Py_ssize_t length
    cdef Py_ssize_t capacity
    cdef bint flexible
    cdef bint framed
    cdef list splices  # flat triples: position in buf, buffer object, its size
    cdef Py_ssize_t spliced

    cdef unsigned char *reserve(self, Py_ssize_t n) except NULL
    cdef int i8(self, int8_t value) except -1
    cdef int i16(self, int16_t value) except -1
    cdef int i32(self, int32_t value) except -1
    cdef int i64(self, int64_t value) except -1
    cdef int uvarint(self, uint32_t value) except -1
    cdef int length_prefix(self, Py_ssize_t n, bint wide) except -1
    cdef int raw(self, const unsigned char *data, Py_ssize_t n) except -1
    cdef int string(self, object value, bint nullable) except -1
    cdef int uuid(self, object value) except -1
    cdef int array(self, object items) except -1
    cdef int records(self, object records) except -1
    cdef int tagged(self, uint32_t tag, Out value) except -1
    cdef bytes finish(self)
    # The output as parts: splices of `min_splice` bytes or more uncopied, the rest copied into bytes between.
    cdef list finish_parts(self, Py_ssize_t min_splice)
    cdef bytes _piece(self, Py_ssize_t own_from, Py_ssize_t own_to, Py_ssize_t first, Py_ssize_t stop)


# A bounds-checked read cursor over a borrowed request body; `view` is a memoryview of it (for zero-copy slices).
cdef struct Cursor:
    const unsigned char *data
    Py_ssize_t pos
    Py_ssize_t end
    bint flexible

# The errors, raised out of line so that the checks below stay small enough to inline.
cdef int rk_truncated(Cursor *r, Py_ssize_t n) except -1
cdef int rk_bad_length(Cursor *r, str what, int64_t n, Py_ssize_t at) except -1
cdef int rk_long_varint(Cursor *r) except -1

cdef inline Py_ssize_t rk_need(Cursor *r, Py_ssize_t n) except -1:
    cdef Py_ssize_t start = r.pos
    if n > r.end - start:
        rk_truncated(r, n)
    r.pos = start + n
    return start

cdef inline int64_t rk_uvarint(Cursor *r) except -1:
    cdef uint32_t result = 0
    cdef unsigned char byte
    cdef int shift
    for shift in range(0, 35, 7):
        byte = r.data[rk_need(r, 1)]
        result |= (<uint32_t>(byte & 0x7F)) << shift
        if not byte & 0x80:
            return result
    return rk_long_varint(r)

cdef inline int64_t rk_length(Cursor *r, bint wide) except? -3:
    if r.flexible:
        return rk_uvarint(r) - 1
    if wide:
        return <int32_t>rk_load_be32(r.data + rk_need(r, 4))
    return <int16_t>rk_load_be16(r.data + rk_need(r, 2))

cdef inline int8_t rk_i8(Cursor *r) except? -1:
    return <int8_t>r.data[rk_need(r, 1)]

cdef inline int16_t rk_i16(Cursor *r) except? -1:
    return <int16_t>rk_load_be16(r.data + rk_need(r, 2))

cdef inline int32_t rk_i32(Cursor *r) except? -1:
    return <int32_t>rk_load_be32(r.data + rk_need(r, 4))

cdef inline int64_t rk_i64(Cursor *r) except? -1:
    return <int64_t>rk_load_be64(r.data + rk_need(r, 8))

# A string (None when null and `nullable`), an array count (-1 when null and `nullable`), a records slice of
# `view` (None when null), unknown tagged fields skipped.
cdef object rk_string(Cursor *r, bint nullable)
cdef Py_ssize_t rk_array(Cursor *r, bint nullable) except -2
cdef object rk_records(Cursor *r, object view, bint nullable)
cdef int rk_skip_tags(Cursor *r) except -1

# The value as a tuple of at least `n` fields (TypeError naming `kind` otherwise).
cdef tuple rk_fields(object value, Py_ssize_t n, str kind)
# UnsupportedVersionError unless low <= version <= high.
cdef int rk_check_version(str message, int version, int low, int high) except -1
