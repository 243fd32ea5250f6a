# cython: language_level=3
"""Compiled varint kernel: Kafka's unsigned varints and zigzag varints/varlongs (encodings: ``_varint_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from rockafka.core_pyx.errors import MalformedVarintError

# The rk_* declarations come from _varint.pxd, included automatically.


cdef Py_ssize_t rk_uvarint_size(uint32_t value) except -1 nogil:
    cdef Py_ssize_t n = 1
    while value > 0x7F:
        value >>= 7
        n += 1
    return n


cdef Py_ssize_t rk_write_uvarint(unsigned char *p, uint32_t value) except -1 nogil:
    return rk_write_uvarlong(p, value)


cdef Py_ssize_t rk_write_uvarlong(unsigned char *p, uint64_t value) except -1 nogil:
    cdef Py_ssize_t n = 0
    while value > 0x7F:
        p[n] = <unsigned char>((value & 0x7F) | 0x80)
        value >>= 7
        n += 1
    p[n] = <unsigned char>value
    return n + 1


cdef int _read(const unsigned char *p, Py_ssize_t end, Py_ssize_t *pos, uint64_t *out, int max_bytes,
               int value_bits) except -1:
    cdef Py_ssize_t start = pos[0]
    cdef Py_ssize_t i = start
    cdef uint64_t value = 0
    cdef unsigned int shift = 0
    cdef unsigned char byte
    if start < 0:
        raise MalformedVarintError(f"negative position {start}")
    while True:
        if i >= end:
            raise MalformedVarintError(f"input ends inside a varint at byte {i}")
        if i - start >= max_bytes:
            raise MalformedVarintError(f"varint at byte {start} is longer than {max_bytes} bytes")
        byte = p[i]
        i += 1
        if shift == 63 and (byte & 0x7F) > 1:
            raise MalformedVarintError(f"varint at byte {start} exceeds {value_bits} bits")
        value |= (<uint64_t>(byte & 0x7F)) << shift
        if byte < 0x80:
            break
        shift += 7
    if value_bits == 32 and value > 0xFFFFFFFFU:
        raise MalformedVarintError(f"varint at byte {start} exceeds 32 bits")
    pos[0] = i
    out[0] = value
    return 0


cdef int rk_read_uvarint(const unsigned char *p, Py_ssize_t end, Py_ssize_t *pos, uint32_t *out) except -1:
    cdef uint64_t value
    _read(p, end, pos, &value, 5, 32)
    out[0] = <uint32_t>value
    return 0


cdef int rk_read_uvarlong(const unsigned char *p, Py_ssize_t end, Py_ssize_t *pos, uint64_t *out) except -1:
    _read(p, end, pos, out, 10, 64)
    return 0


cdef bytes _encode(uint64_t value):
    cdef unsigned char tmp[10]
    cdef Py_ssize_t n = rk_write_uvarlong(tmp, value)
    return PyBytes_FromStringAndSize(<char *>tmp, n)


cdef tuple _decode(object buf, Py_ssize_t pos, int max_bytes, int value_bits):
    cdef Py_buffer view
    cdef uint64_t value
    PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE)
    try:
        _read(<const unsigned char *>view.buf, view.len, &pos, &value, max_bytes, value_bits)
    finally:
        PyBuffer_Release(&view)
    return value, pos


def encode_uvarint(value):
    """The unsigned varint of ``value`` (0 .. 2**32-1)."""
    if not 0 <= value <= 0xFFFFFFFF:
        raise MalformedVarintError(f"unsigned varint out of range: {value}")
    return _encode(<uint64_t>value)


def decode_uvarint(buf, Py_ssize_t pos=0):
    """Read an unsigned varint at ``pos``: ``(value, position after it)``."""
    return _decode(buf, pos, 5, 32)


def encode_varint(value):
    """The zigzag varint of a signed 32-bit ``value``."""
    if not -2147483648 <= value <= 2147483647:
        raise MalformedVarintError(f"varint out of range: {value}")
    cdef int32_t v = value
    return _encode(<uint32_t>((<uint32_t>v << 1) ^ <uint32_t>(v >> 31)))


def decode_varint(buf, Py_ssize_t pos=0):
    """Read a zigzag varint (signed 32-bit) at ``pos``: ``(value, position after it)``."""
    cdef uint64_t raw
    raw, pos = _decode(buf, pos, 5, 32)
    return <int32_t>((raw >> 1) ^ (-(raw & 1))), pos


def encode_varlong(value):
    """The zigzag varlong of a signed 64-bit ``value``."""
    if not -9223372036854775808 <= value <= 9223372036854775807:
        raise MalformedVarintError(f"varlong out of range: {value}")
    cdef int64_t v = value
    return _encode((<uint64_t>v << 1) ^ <uint64_t>(v >> 63))


def decode_varlong(buf, Py_ssize_t pos=0):
    """Read a zigzag varlong (signed 64-bit) at ``pos``: ``(value, position after it)``."""
    cdef uint64_t raw
    raw, pos = _decode(buf, pos, 10, 64)
    return <int64_t>((raw >> 1) ^ (-(raw & 1))), pos
