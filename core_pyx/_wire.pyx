# cython: language_level=3
"""Compiled wire kernel: the writer (:class:`Out`) and the read cursor (``Cursor``) of the hot-message codec.

Wire rules and errors: ``_wire_py``. The per-message code that uses them is generated (``_hotcodec``).
"""

cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_CheckBuffer, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport memcpy

from rockafka.core_pyx.errors import MalformedMessageError, UnsupportedVersionError

# Out, Cursor, the inline readers and the byte-order helpers come from _wire.pxd, included automatically.

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object unicode, Py_ssize_t *size) except NULL

cdef enum:
    _INITIAL_CAPACITY = 256
    _NOGIL_MIN = 65536


cdef tuple rk_fields(object value, Py_ssize_t n, str kind):
    if not isinstance(value, tuple) or len(<tuple>value) < n:
        raise TypeError(f"expected a {kind} tuple of {n} fields, got {type(value).__name__}")
    return <tuple>value


cdef int rk_check_version(str message, int version, int low, int high) except -1:
    if not low <= version <= high:
        raise UnsupportedVersionError(message, version)
    return 0


# --- writing ---------------------------------------------------------------------------------------------------

@cython.final
cdef class Out:
    def __cinit__(self, bint flexible, object correlation_id=None, bint header_flexible=False):
        self.buf = <unsigned char *>PyMem_Malloc(_INITIAL_CAPACITY)
        if self.buf == NULL:
            raise MemoryError()
        self.capacity = _INITIAL_CAPACITY
        self.length = 0
        self.flexible = flexible
        self.framed = correlation_id is not None
        self.splices = []
        self.spliced = 0
        if self.framed:
            self.i32(0)
            self.i32(correlation_id)
            if header_flexible:
                self.i8(0)

    def __dealloc__(self):
        PyMem_Free(self.buf)

    cdef unsigned char *reserve(self, Py_ssize_t n) except NULL:
        cdef Py_ssize_t capacity = self.capacity
        cdef unsigned char *grown
        if self.length + n > capacity:
            while self.length + n > capacity:
                capacity *= 2
            grown = <unsigned char *>PyMem_Realloc(self.buf, capacity)
            if grown == NULL:
                raise MemoryError()
            self.buf = grown
            self.capacity = capacity
        cdef unsigned char *p = self.buf + self.length
        self.length += n
        return p

    cdef int i8(self, int8_t value) except -1:
        self.reserve(1)[0] = <unsigned char>value
        return 0

    cdef int i16(self, int16_t value) except -1:
        rk_store_be16(self.reserve(2), <uint16_t>value)
        return 0

    cdef int i32(self, int32_t value) except -1:
        rk_store_be32(self.reserve(4), <uint32_t>value)
        return 0

    cdef int i64(self, int64_t value) except -1:
        rk_store_be64(self.reserve(8), <uint64_t>value)
        return 0

    cdef int uvarint(self, uint32_t value) except -1:
        while value >= 0x80:
            self.reserve(1)[0] = <unsigned char>((value & 0x7F) | 0x80)
            value >>= 7
        self.reserve(1)[0] = <unsigned char>value
        return 0

    cdef int length_prefix(self, Py_ssize_t n, bint wide) except -1:
        if self.flexible:
            return self.uvarint(<uint32_t>(n + 1))
        if wide:
            return self.i32(<int32_t>n)
        return self.i16(<int16_t>n)

    cdef int raw(self, const unsigned char *data, Py_ssize_t n) except -1:
        if n:
            memcpy(self.reserve(n), data, n)
        return 0

    cdef int string(self, object value, bint nullable) except -1:
        cdef Py_ssize_t n
        cdef const char *data
        if value is None:
            if not nullable:
                raise ValueError("a non-nullable string field is None")
            return self.length_prefix(-1, False)
        data = PyUnicode_AsUTF8AndSize(value, &n)
        self.length_prefix(n, False)
        return self.raw(<const unsigned char *>data, n)

    cdef int uuid(self, object value) except -1:
        cdef bytes data = value.bytes
        if len(data) != 16:
            raise ValueError("a UUID field needs 16 bytes")
        return self.raw(<const unsigned char *>PyBytes_AS_STRING(data), 16)

    cdef int array(self, object items) except -1:
        return self.length_prefix(-1 if items is None else len(items), True)

    cdef int records(self, object records) except -1:
        cdef Py_buffer view
        cdef Py_ssize_t total = 0
        if records is None:
            return self.length_prefix(-1, True)
        cdef list found = []
        for chunk in ((records,) if PyObject_CheckBuffer(records) else records):
            PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE)
            if view.len:
                found.extend((chunk, view.len))
            total += view.len
            PyBuffer_Release(&view)
        self.length_prefix(total, True)
        for i in range(0, len(found), 2):  # all at one position: nothing is written between them
            self.splices.extend((self.length, found[i], found[i + 1]))
        self.spliced += total
        return 0

    cdef int tagged(self, uint32_t tag, Out value) except -1:
        self.uvarint(tag)
        self.uvarint(<uint32_t>value.length)
        return self.raw(value.buf, value.length)

    cdef bytes finish(self):
        cdef bytes out = self._piece(0, self.length, 0, len(self.splices) // 3)
        if self.framed:
            rk_store_be32(<unsigned char *>PyBytes_AS_STRING(out), <uint32_t>(self.length + self.spliced - 4))
        return out

    cdef list finish_parts(self, Py_ssize_t min_splice):
        cdef list parts = []
        cdef Py_ssize_t count = len(self.splices) // 3, own_from = 0, first = 0, i, at
        cdef bytes piece
        for i in range(count + 1):
            if i < count and self.splices[3 * i + 2] < min_splice:
                continue
            at = self.length if i == count else self.splices[3 * i]
            piece = self._piece(own_from, at, first, i)
            if len(piece):
                parts.append(piece)
            if i < count:
                parts.append(self.splices[3 * i + 1])
            own_from, first = at, i + 1
        if self.framed:
            rk_store_be32(<unsigned char *>PyBytes_AS_STRING(parts[0]), <uint32_t>(self.length + self.spliced - 4))
        return parts

    cdef bytes _piece(self, Py_ssize_t own_from, Py_ssize_t own_to, Py_ssize_t first, Py_ssize_t stop):
        cdef Py_ssize_t total = own_to - own_from, taken = own_from, at, size, i
        cdef Py_buffer view
        for i in range(first, stop):
            total += <Py_ssize_t>self.splices[3 * i + 2]
        cdef bytes out = PyBytes_FromStringAndSize(NULL, total)
        cdef unsigned char *dst = <unsigned char *>PyBytes_AS_STRING(out)
        for i in range(first, stop):
            at = self.splices[3 * i]
            size = self.splices[3 * i + 2]
            memcpy(dst, self.buf + taken, at - taken)
            dst += at - taken
            taken = at
            PyObject_GetBuffer(self.splices[3 * i + 1], &view, PyBUF_SIMPLE)
            try:
                if view.len != size:
                    raise ValueError("a records buffer changed size while its response was encoded")
                if size >= _NOGIL_MIN:
                    with nogil:
                        memcpy(dst, view.buf, size)
                else:
                    memcpy(dst, view.buf, size)
            finally:
                PyBuffer_Release(&view)
            dst += size
        memcpy(dst, self.buf + taken, own_to - taken)
        return out


# --- reading ---------------------------------------------------------------------------------------------------

cdef int rk_truncated(Cursor *r, Py_ssize_t n) except -1:
    raise MalformedMessageError(f"request truncated at byte {r.pos}: {n} more bytes needed")


cdef int rk_bad_length(Cursor *r, str what, int64_t n, Py_ssize_t at) except -1:
    raise MalformedMessageError(f"request has an invalid {what} length {n} at byte {at}")


cdef int rk_long_varint(Cursor *r) except -1:
    raise MalformedMessageError(f"request has a varint longer than 5 bytes at byte {r.pos}")


cdef object rk_string(Cursor *r, bint nullable):
    cdef Py_ssize_t at = r.pos
    cdef int64_t n = rk_length(r, False)
    if n < 0:
        if n == -1 and nullable:
            return None
        rk_bad_length(r, "string", n, at)
    cdef Py_ssize_t start = rk_need(r, n)
    return PyUnicode_DecodeUTF8(<const char *>r.data + start, n, "replace")


cdef Py_ssize_t rk_array(Cursor *r, bint nullable) except -2:
    cdef Py_ssize_t at = r.pos
    cdef int64_t n = rk_length(r, True)
    if n == -1 and nullable:
        return -1
    if n < 0 or n > r.end - r.pos:
        rk_bad_length(r, "array", n, at)
    return n


cdef object rk_records(Cursor *r, object view, bint nullable):
    cdef Py_ssize_t at = r.pos
    cdef int64_t n = rk_length(r, True)
    if n < 0:
        if n == -1 and nullable:
            return None
        rk_bad_length(r, "records", n, at)
    cdef Py_ssize_t start = rk_need(r, n)
    return view[start:start + n]


cdef int rk_skip_tags(Cursor *r) except -1:
    cdef int64_t count, _i
    if r.flexible:
        count = rk_uvarint(r)
        for _i in range(count):
            rk_uvarint(r)
            rk_need(r, rk_uvarint(r))
    return 0
