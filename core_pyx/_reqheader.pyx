# cython: language_level=3
"""Compiled request-header kernel: the header in front of every Kafka request body (layout: ``_reqheader_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int16_t, int32_t, uint16_t, uint32_t

from rockafka.core_pyx._varint cimport rk_read_uvarint

from rockafka.core_pyx.errors import MalformedHeaderError, MalformedVarintError

CONTROLLED_SHUTDOWN_KEY = 7


cdef inline int16_t _be16(const unsigned char *p) noexcept nogil:
    return <int16_t>((<uint16_t>p[0] << 8) | <uint16_t>p[1])


cdef inline int32_t _be32(const unsigned char *p) noexcept nogil:
    return <int32_t>((<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | <uint32_t>p[3])


cdef class RequestHeader:
    """The request header of one frame, and where its body starts."""

    def __init__(self, int api_key, int api_version, int correlation_id, client_id, Py_ssize_t body_offset):
        self.api_key = api_key
        self.api_version = api_version
        self.correlation_id = correlation_id
        self.client_id = client_id
        self.body_offset = body_offset

    cdef tuple _values(self):
        return (self.api_key, self.api_version, self.correlation_id, self.client_id, self.body_offset)

    def __eq__(self, other):
        if type(other) is not RequestHeader:
            return NotImplemented
        return self._values() == (<RequestHeader>other)._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        return (f"RequestHeader(api_key={self.api_key!r}, api_version={self.api_version!r}, "
                f"correlation_id={self.correlation_id!r}, client_id={self.client_id!r}, "
                f"body_offset={self.body_offset!r})")


cdef RequestHeader _make(int api_key, int api_version, int correlation_id, object client_id, Py_ssize_t offset):
    cdef RequestHeader header = RequestHeader.__new__(RequestHeader)
    header.api_key = api_key
    header.api_version = api_version
    header.correlation_id = correlation_id
    header.client_id = client_id
    header.body_offset = offset
    return header


cdef Py_ssize_t _skip_tagged_fields(const unsigned char *p, Py_ssize_t n, Py_ssize_t pos) except -1:
    cdef uint32_t count, tag, size, i
    try:
        rk_read_uvarint(p, n, &pos, &count)
        i = 0
        while i < count:
            rk_read_uvarint(p, n, &pos, &tag)
            rk_read_uvarint(p, n, &pos, &size)
            if <Py_ssize_t>size > n - pos:
                raise MalformedHeaderError(f"tagged header field of {size} bytes runs past the end of the frame")
            pos += size
            i += 1
    except MalformedVarintError as exc:
        raise MalformedHeaderError(f"bad tagged fields in the request header: {exc}") from None
    return pos


cdef RequestHeader rk_decode_request_header(const unsigned char *p, Py_ssize_t n, object flexible_from):
    cdef int api_key, api_version, correlation_id, length
    cdef Py_ssize_t pos
    cdef object client_id = None
    cdef object first_flexible
    if n < 8:
        raise MalformedHeaderError(f"a request header needs at least 8 bytes, the frame has {n}")
    api_key = _be16(p)
    api_version = _be16(p + 2)
    correlation_id = _be32(p + 4)
    if api_key == CONTROLLED_SHUTDOWN_KEY and api_version == 0:
        return _make(api_key, api_version, correlation_id, None, 8)
    if n < 10:
        raise MalformedHeaderError(f"a request header v1 needs at least 10 bytes, the frame has {n}")
    length = _be16(p + 8)
    pos = 10
    if length >= 0:
        if length > n - pos:
            raise MalformedHeaderError(f"client id of {length} bytes runs past the end of a {n}-byte frame")
        client_id = PyUnicode_DecodeUTF8(<const char *>(p + pos), length, "replace")
        pos += length
    first_flexible = flexible_from.get(api_key)
    if first_flexible is not None and api_version >= first_flexible:
        pos = _skip_tagged_fields(p, n, pos)
    return _make(api_key, api_version, correlation_id, client_id, pos)


def decode_request_header(frame, flexible_from):
    """Read the request header at the start of ``frame`` (a frame payload, without its size prefix)."""
    cdef Py_buffer view
    PyObject_GetBuffer(frame, &view, PyBUF_SIMPLE)
    try:
        return rk_decode_request_header(<const unsigned char *>view.buf, view.len, flexible_from)
    finally:
        PyBuffer_Release(&view)
