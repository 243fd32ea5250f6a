# C-level API of the hot-message kernel (wire rules: _hotcodec_py.py; values: _hotmessages.py).
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t

cdef extern from "rk_byteorder.h":
    void rk_store_be16(unsigned char *p, uint16_t v) nogil
    void rk_store_be32(unsigned char *p, uint32_t v) nogil
    void rk_store_be64(unsigned char *p, uint64_t v) nogil


# Output under construction: small fields in a growable C buffer, record buffers spliced in at the end
# (each copied exactly once, into the final bytes object).
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
    cdef int int32s(self, object items) except -1
    cdef int records(self, object records) except -1
    cdef int no_tags(self) except -1
    cdef int tagged(self, uint32_t tag, Out value) except -1
    cdef bytes finish(self)
    # The output as parts: splices of `min_splice` bytes or more uncopied, the rest copied into bytes between.
    cdef list finish_parts(self, Py_ssize_t min_splice)
    cdef bytes _piece(self, Py_ssize_t own_from, Py_ssize_t own_to, Py_ssize_t first, Py_ssize_t stop)
