"""Pure-Python twin of the file-mapping kernel: a shared mapping of a file's first ``size`` bytes.

``FileMap(fd, size, writable=...)`` maps bytes [0, size) of the open file ``fd`` with ``MAP_SHARED``,
read-write or read-only. The caller may close ``fd`` at once: the compiled twin keeps no descriptor,
which is the point of this kernel (a store with ten thousand partitions maps ten thousand ConsumeQueue
files, and Python's ``mmap`` keeps a duplicated descriptor for each). This twin is built on ``mmap``, so
it holds that duplicate until closed.

- ``view()`` returns a ``memoryview`` over the whole mapping (read-only for a read-only map).
- ``flush()`` writes the mapping's dirty pages to the file and waits (``msync(MS_SYNC)``, which on
  Linux syncs the data like ``fdatasync`` of that range); a no-op once closed.
- ``drop_pages(offset, length)`` unmaps the whole pages inside [offset, offset + length) from this process
  (``madvise(MADV_DONTNEED)``; a shared file mapping loses nothing: the next read maps the file's page
  again), so the kernel may evict them from the page cache; returns how many bytes that covered (0 once
  closed). A range outside the mapping is a ``ValueError``.
- ``close()`` ends the mapping. Views still alive keep it mapped until the last one is released (reads
  through them stay valid, nothing is unmapped under a reader); no new view can be taken.
- ``size`` / ``len()`` is the mapped length; ``closed`` tells whether ``close()`` was called.

``start_writeback(fd, offset, length)`` starts writing the dirty pages of bytes [offset, offset + length) of
the open file ``fd`` to the disk and returns without waiting (``sync_file_range(SYNC_FILE_RANGE_WRITE)``):
no durability promise, but a later ``fdatasync`` finds less to write. A negative offset or length is a
``ValueError``, a failure an ``OSError``. (This twin calls the C library through ``ctypes``.)
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os

_SYNC_FILE_RANGE_WRITE = 2
_libc = ctypes.CDLL(None, use_errno=True)
_sync_file_range = _libc.sync_file_range
_sync_file_range.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
_sync_file_range.restype = ctypes.c_int


def start_writeback(fd: int, offset: int, length: int) -> None:
    if offset < 0 or length < 0:
        raise ValueError(f"range [{offset}, {offset + length}) is not a file range")
    if length and _sync_file_range(fd, offset, length, _SYNC_FILE_RANGE_WRITE) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


class FileMap:
    __slots__ = ("_closed", "_mmap", "_size")

    def __init__(self, fd: int, size: int, *, writable: bool) -> None:
        if size <= 0:
            raise ValueError(f"a mapping needs a positive size, not {size}")
        protection = mmap.PROT_READ | (mmap.PROT_WRITE if writable else 0)
        self._mmap = mmap.mmap(fd, size, flags=mmap.MAP_SHARED, prot=protection)
        self._size = size
        self._closed = False

    def __len__(self) -> int:
        return self._size

    @property
    def size(self) -> int:
        return self._size

    @property
    def closed(self) -> bool:
        return self._closed

    def view(self) -> memoryview:
        if self._closed:
            raise ValueError("the mapping is closed")
        return memoryview(self._mmap)

    def flush(self) -> None:
        if not self._closed:
            self._mmap.flush()

    def drop_pages(self, offset: int, length: int) -> int:
        if offset < 0 or length < 0 or offset + length > self._size:
            raise ValueError(f"range [{offset}, {offset + length}) is outside the {self._size}-byte mapping")
        start = -(-offset // mmap.PAGESIZE) * mmap.PAGESIZE
        end = (offset + length) // mmap.PAGESIZE * mmap.PAGESIZE
        if self._closed or end <= start:
            return 0
        self._mmap.madvise(mmap.MADV_DONTNEED, start, end - start)
        return end - start

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(BufferError):  # views still alive: unmapped when the last one goes
            self._mmap.close()
