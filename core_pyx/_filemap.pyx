# cython: language_level=3
"""Compiled file-mapping kernel: a shared mapping that keeps no file descriptor (spec: ``_filemap_py``)."""

import os

from cpython.buffer cimport PyBuffer_FillInfo
from libc.errno cimport errno
from posix.mman cimport (
    MADV_DONTNEED, MAP_FAILED, MAP_SHARED, MS_SYNC, PROT_READ, PROT_WRITE, madvise, mmap, msync, munmap,
)
from posix.unistd cimport sysconf, _SC_PAGESIZE

# The FileMap declaration comes from _filemap.pxd, included automatically.

cdef extern from "<fcntl.h>" nogil:
    int sync_file_range(int fd, long long offset, long long nbytes, unsigned int flags)
    enum: SYNC_FILE_RANGE_WRITE


def start_writeback(int fd, long long offset, long long length):
    cdef int result
    if offset < 0 or length < 0:
        raise ValueError(f"range [{offset}, {offset + length}) is not a file range")
    if length == 0:
        return
    with nogil:
        result = sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE)
    if result != 0:
        code = errno
        raise OSError(code, os.strerror(code))


cdef class FileMap:
    def __cinit__(self, int fd, Py_ssize_t size, *, bint writable):
        cdef void *address
        if size <= 0:
            raise ValueError(f"a mapping needs a positive size, not {size}")
        address = mmap(NULL, <size_t>size, PROT_READ | (PROT_WRITE if writable else 0), MAP_SHARED, fd, 0)
        if address == MAP_FAILED:
            code = errno
            raise OSError(code, os.strerror(code))
        self._address = <char *>address
        self._size = size
        self._writable = writable
        self._exports = 0
        self._closed = False

    def __dealloc__(self):
        if self._address != NULL:
            munmap(self._address, <size_t>self._size)
            self._address = NULL

    def __len__(self):
        return self._size

    @property
    def size(self):
        return self._size

    @property
    def closed(self):
        return self._closed

    def view(self):
        if self._closed:
            raise ValueError("the mapping is closed")
        return memoryview(self)

    def flush(self):
        cdef int result
        if self._closed or self._address == NULL:
            return
        with nogil:
            result = msync(self._address, <size_t>self._size, MS_SYNC)
        if result != 0:
            code = errno
            raise OSError(code, os.strerror(code))

    def drop_pages(self, Py_ssize_t offset, Py_ssize_t length):
        cdef Py_ssize_t page = sysconf(_SC_PAGESIZE)
        cdef Py_ssize_t start, end
        cdef int result
        if offset < 0 or length < 0 or offset + length > self._size:
            raise ValueError(f"range [{offset}, {offset + length}) is outside the {self._size}-byte mapping")
        start = (offset + page - 1) // page * page
        end = (offset + length) // page * page
        if self._closed or self._address == NULL or end <= start:
            return 0
        with nogil:
            result = madvise(self._address + start, <size_t>(end - start), MADV_DONTNEED)
        if result != 0:
            code = errno
            raise OSError(code, os.strerror(code))
        return end - start

    def close(self):
        if self._closed:
            return
        self._closed = True
        if self._exports == 0:
            self._unmap()

    cdef int _unmap(self) except -1:
        if self._address != NULL:
            munmap(self._address, <size_t>self._size)
            self._address = NULL
        return 0

    def __getbuffer__(self, Py_buffer *buffer, int flags):
        if self._closed:
            raise BufferError("the mapping is closed")
        PyBuffer_FillInfo(buffer, self, self._address, self._size, not self._writable, flags)
        self._exports += 1

    def __releasebuffer__(self, Py_buffer *buffer):
        self._exports -= 1
        if self._closed and self._exports == 0:
            self._unmap()
