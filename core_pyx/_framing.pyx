# cython: language_level=3
"""Compiled frame splitter: Kafka's size-delimited frames out of any chunking (format: ``_framing_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize
from cpython.bytes cimport PyBytes_FromStringAndSize
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
        self._buf = bytearray()
        self._failed = None

    @property
    def max_frame_size(self):
        """The largest payload accepted, in bytes."""
        return self._max_frame_size

    @property
    def pending(self):
        """Bytes received but not yet returned: a partial frame (or a partial size prefix)."""
        return PyByteArray_GET_SIZE(self._buf)

    def feed(self, data):
        """Add ``data``; return the payloads (without their size prefix) of every frame it completes."""
        cdef Py_buffer view
        cdef Py_ssize_t used
        cdef list frames = []
        if self._failed is not None:
            raise self._failed
        if PyByteArray_GET_SIZE(self._buf) == 0:
            PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
            try:
                used = self._split(<const unsigned char *>view.buf, view.len, frames)
                self._keep(<const unsigned char *>view.buf + used, view.len - used)
            finally:
                PyBuffer_Release(&view)
            return frames
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            self._keep(<const unsigned char *>view.buf, view.len)
        finally:
            PyBuffer_Release(&view)
        used = self._split(<const unsigned char *>PyByteArray_AS_STRING(self._buf),
                           PyByteArray_GET_SIZE(self._buf), frames)
        if used:
            del self._buf[:used]
        return frames

    def finish(self):
        """The input has ended: raise :class:`TruncatedFrameError` if a partial frame is pending."""
        if self._failed is not None:
            raise self._failed
        cdef Py_ssize_t pending = PyByteArray_GET_SIZE(self._buf)
        if pending:
            raise TruncatedFrameError(f"input ended inside a frame ({pending} bytes pending)")

    cdef Py_ssize_t _split(self, const unsigned char *p, Py_ssize_t n, list frames) except -1:
        cdef Py_ssize_t pos = 0
        cdef Py_ssize_t start
        cdef int32_t size
        while n - pos >= 4:
            size = _load_be32(p + pos)
            if size < 0:
                self._failed = NegativeFrameLengthError(f"negative frame size {size}")
                raise self._failed
            if size > self._max_frame_size:
                self._failed = FrameTooLargeError(
                    f"frame of {size} bytes exceeds the maximum of {self._max_frame_size}")
                raise self._failed
            start = pos + 4
            if n - start < size:
                break
            frames.append(PyBytes_FromStringAndSize(<const char *>(p + start), size))
            pos = start + size
        return pos

    cdef int _keep(self, const unsigned char *p, Py_ssize_t n) except -1:
        cdef Py_ssize_t old = PyByteArray_GET_SIZE(self._buf)
        if n <= 0:
            return 0
        PyByteArray_Resize(self._buf, old + n)
        memcpy(PyByteArray_AS_STRING(self._buf) + old, p, n)
        return 0
