# cython: language_level=3
"""Compiled Produce request decoder (the hot request every producer sends).

Wire rules and error behaviour are specified in ``_hotrequest_py``; the values are ``_hotmessages``' tuples.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.unicode cimport PyUnicode_DecodeUTF8

from rockafka.core_pyx._hotmessages import (
    ProducePartition,
    ProduceRequest,
    ProduceTopic,
)
from rockafka.core_pyx.errors import MalformedMessageError, UnsupportedVersionError

# BodyCursor and the byte-order helpers come from _hotrequest.pxd, included automatically.

PRODUCE_VERSIONS = (3, 11)

cdef object _tuple_new = tuple.__new__
cdef object _ProducePartition = ProducePartition
cdef object _ProduceTopic = ProduceTopic
cdef object _ProduceRequest = ProduceRequest


cdef Py_ssize_t _need(BodyCursor *r, Py_ssize_t n) except -1:
    cdef Py_ssize_t start = r.pos
    if n > r.end - start:
        raise MalformedMessageError(f"Produce request truncated at byte {start}: {n} more bytes needed")
    r.pos = start + n
    return start


cdef int64_t _uvarint(BodyCursor *r) except -1:
    cdef uint32_t result = 0
    cdef unsigned char byte
    cdef int shift
    for shift in range(0, 35, 7):
        byte = r.data[_need(r, 1)]
        result |= (<uint32_t>(byte & 0x7F)) << shift
        if not byte & 0x80:
            return result
    raise MalformedMessageError(f"Produce request has a varint longer than 5 bytes at byte {r.pos}")


cdef int64_t _length(BodyCursor *r, bint wide) except? -3:
    if r.flexible:
        return _uvarint(r) - 1
    if wide:
        return <int32_t>rk_load_be32(r.data + _need(r, 4))
    return <int16_t>rk_load_be16(r.data + _need(r, 2))


cdef str _text(BodyCursor *r, int64_t n, Py_ssize_t at):
    if n < 0:
        raise MalformedMessageError(f"Produce request has an invalid string length {n} at byte {at}")
    cdef Py_ssize_t start = _need(r, n)
    return PyUnicode_DecodeUTF8(<const char *>r.data + start, n, "replace")


cdef object _records_view(BodyCursor *r, object view):
    cdef Py_ssize_t at = r.pos
    cdef int64_t n = _length(r, True)
    if n == -1:
        return None
    if n < 0:
        raise MalformedMessageError(f"Produce request has an invalid records length {n} at byte {at}")
    cdef Py_ssize_t start = _need(r, n)
    return view[start:start + n]


cdef Py_ssize_t _array(BodyCursor *r) except -1:
    cdef Py_ssize_t at = r.pos
    cdef int64_t n = _length(r, True)
    if n < 0 or n > r.end - r.pos:
        raise MalformedMessageError(f"Produce request has an invalid array length {n} at byte {at}")
    return n


cdef int _skip_tags(BodyCursor *r) except -1:
    cdef int64_t count, _i
    if r.flexible:
        count = _uvarint(r)
        for _i in range(count):
            _uvarint(r)
            _need(r, _uvarint(r))
    return 0


cdef list _produce_topics(BodyCursor *r, object view):
    cdef Py_ssize_t topic_count = _array(r), partition_count, _t, _p
    cdef Py_ssize_t at
    cdef int32_t index
    cdef list topics = [], partitions
    for _t in range(topic_count):
        at = r.pos
        name = _text(r, _length(r, False), at)
        partition_count = _array(r)
        partitions = []
        for _p in range(partition_count):
            index = <int32_t>rk_load_be32(r.data + _need(r, 4))
            partitions.append(_tuple_new(_ProducePartition, (index, _records_view(r, view))))
            _skip_tags(r)
        _skip_tags(r)
        topics.append(_tuple_new(_ProduceTopic, (name, partitions)))
    return topics


def decode_produce_request(body, int version):
    """Decode a Produce request body (v3-11); each partition's records is a zero-copy view of ``body``."""
    if not 3 <= version <= 11:
        raise UnsupportedVersionError("Produce request", version)
    view = memoryview(body)
    if view.ndim != 1 or view.format != "B":
        view = view.cast("B")
    cdef Py_buffer buf
    cdef BodyCursor r
    PyObject_GetBuffer(view, &buf, PyBUF_SIMPLE)
    try:
        r.data = <const unsigned char *>buf.buf
        r.pos = 0
        r.end = buf.len
        r.flexible = version >= 9
        at = r.pos
        n = _length(&r, False)
        transactional_id = None if n == -1 else _text(&r, n, at)
        acks = <int16_t>rk_load_be16(r.data + _need(&r, 2))
        timeout_ms = <int32_t>rk_load_be32(r.data + _need(&r, 4))
        topics = _produce_topics(&r, view)
        _skip_tags(&r)
        if r.pos != r.end:
            raise MalformedMessageError(f"Produce request has {r.end - r.pos} trailing bytes")
    finally:
        PyBuffer_Release(&buf)
    return _tuple_new(_ProduceRequest, (transactional_id, acks, timeout_ms, topics))
