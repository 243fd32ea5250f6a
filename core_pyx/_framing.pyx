# cython: language_level=3
"""Compiled frame splitter: Kafka's size-delimited frames out of any chunking (format: ``_framing_py``).

Each input byte is copied once: a frame whole in one input chunk is copied out as its ``bytes``; a frame
that continues past its chunk gets its ``bytes`` object allocated at full size as soon as its size prefix is
known, and every later chunk is copied straight into it (the object is not shared until it is returned).
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdint cimport int32_t, uint32_t
from libc.string cimport memcpy

from rockafka.core_pyx.errors import FrameTooLargeError, NegativeFrameLengthError, TruncatedFrameError

DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024
PREFIX_SIZE = 4


cdef inline int32_t _load_be32(const unsigned char *p) noexcept nogil:
    return <int32_t>((<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | <uint32_t>p[3])


cdef class FrameSplitter:
    """Feed it bytes as they arrive; it returns the payloads of the frames completed so far."""

    def __init__(self, Py_ssize_t max_frame_size=DEFAULT_MAX_FRAME_SIZE):
        if max_frame_size < 0:
            raise ValueError(f"max_frame_size must be >= 0, not {max_frame_size}")
        self._max_frame_size = max_frame_size
        self._prefix = bytearray()
        self._frame = None
        self._filled = 0
        self._failed = None

    @property
    def max_frame_size(self):
        """The largest payload accepted, in bytes."""
        return self._max_frame_size

    @property
    def pending(self):
        """Bytes received but not yet returned: a partial frame (or a partial size prefix)."""
        if self._frame is not None:
            return 4 + self._filled
        return PyByteArray_GET_SIZE(self._prefix)

    def feed(self, data):
        """Add ``data``; return the payloads (without their size prefix) of every frame it completes."""
        cdef Py_buffer view
        cdef Py_ssize_t pos = 0
        cdef const unsigned char *p
        cdef list frames = []
        if self._failed is not None:
            raise self._failed
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            p = <const unsigned char *>view.buf
            while pos < view.len:
                if self._frame is not None:
                    pos += self._fill_frame(p + pos, view.len - pos, frames)
                elif PyByteArray_GET_SIZE(self._prefix):
                    pos += self._fill_prefix(p + pos, view.len - pos, frames)
                else:
                    pos += self._split(p + pos, view.len - pos, frames)
                    if pos < view.len:
                        pos += self._begin_partial(p + pos, view.len - pos)
        finally:
            PyBuffer_Release(&view)
        return frames

    def finish(self):
        """The input has ended: raise :class:`TruncatedFrameError` if a partial frame is pending."""
        if self._failed is not None:
            raise self._failed
        pending = self.pending
        if pending:
            raise TruncatedFrameError(f"input ended inside a frame ({pending} bytes pending)")

    cdef int _check_size(self, Py_ssize_t size) except -1:
        if size < 0:
            self._failed = NegativeFrameLengthError(f"negative frame size {size}")
            raise self._failed
        if size > self._max_frame_size:
            self._failed = FrameTooLargeError(f"frame of {size} bytes exceeds the maximum of {self._max_frame_size}")
            raise self._failed
        return 0

    cdef Py_ssize_t _split(self, const unsigned char *p, Py_ssize_t n, list frames) except -1:
        cdef Py_ssize_t pos = 0
        cdef Py_ssize_t start
        cdef int32_t size
        while n - pos >= 4:
            size = _load_be32(p + pos)
            self._check_size(size)
            start = pos + 4
            if n - start < size:
                break
            frames.append(PyBytes_FromStringAndSize(<const char *>(p + start), size))
            pos = start + size
        return pos

    cdef Py_ssize_t _begin_partial(self, const unsigned char *p, Py_ssize_t n) except -1:
        cdef int32_t size
        if n < 4:
            PyByteArray_Resize(self._prefix, n)
            memcpy(PyByteArray_AS_STRING(self._prefix), p, n)
            return n
        size = _load_be32(p)  # checked by _split
        self._frame = PyBytes_FromStringAndSize(NULL, size)
        self._filled = n - 4
        memcpy(PyBytes_AS_STRING(self._frame), p + 4, self._filled)
        return n

    cdef Py_ssize_t _fill_prefix(self, const unsigned char *p, Py_ssize_t n, list frames) except -1:
        cdef Py_ssize_t have = PyByteArray_GET_SIZE(self._prefix)
        cdef Py_ssize_t take = min(4 - have, n)
        cdef int32_t size
        PyByteArray_Resize(self._prefix, have + take)
        memcpy(PyByteArray_AS_STRING(self._prefix) + have, p, take)
        if have + take < 4:
            return take
        size = _load_be32(<const unsigned char *>PyByteArray_AS_STRING(self._prefix))
        self._check_size(size)
        PyByteArray_Resize(self._prefix, 0)
        if size == 0:
            frames.append(b"")
        else:
            self._frame = PyBytes_FromStringAndSize(NULL, size)
            self._filled = 0
        return take

    cdef Py_ssize_t _fill_frame(self, const unsigned char *p, Py_ssize_t n, list frames) except -1:
        cdef Py_ssize_t size = PyBytes_GET_SIZE(self._frame)
        cdef Py_ssize_t take = min(size - self._filled, n)
        memcpy(PyBytes_AS_STRING(self._frame) + self._filled, p, take)
        self._filled += take
        if self._filled == size:
            frames.append(self._frame)
            self._frame = None
            self._filled = 0
        return take
