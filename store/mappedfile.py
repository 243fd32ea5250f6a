"""Fixed-size files mapped whole into memory, and ordered queues of them named by their first byte's offset.

A ``MappedFile`` is created at its full size (``posix_fallocate`` when blocks should be reserved up front,
else a sparse ``ftruncate``), so unwritten bytes read as zero and a reader can tell the end of the data
by a zero length field. Files are named by the 20-digit zero-padded offset of their first byte, so ``ls``
sorts them numerically.

A file whose blocks cannot be reserved is not made: ``open`` raises the ``OSError`` (ENOSPC; also when the
allocation would leave less than ``keep_free`` bytes free) and removes what it created. No file is left
sparse where its writer counts on allocated blocks: a write into a sparse range of a full disk fails half
way, and through a mapping it kills the process with SIGBUS.

Threads: a file is written and closed only by the owner's thread (the broker loop). The flusher thread
calls ``sync`` on files it may race with ``close``; ``sync`` on a file closed meanwhile is a no-op, so a
flush never fails because retention or recovery dropped a file. ``memoryview`` slices handed to readers
keep a closed file's mapping alive until they are released (``close`` never waits for them).
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Final

from rockafka.core_pyx.filemap import FileMap, start_writeback

from .jsonfile import fsync_directory

if TYPE_CHECKING:
    from typing_extensions import Buffer

NAME_WIDTH: Final = 20
_ZEROS = memoryview(bytes(1 << 16))


def offset_to_name(offset: int) -> str:
    return f"{offset:0{NAME_WIDTH}d}"


def name_to_offset(name: str) -> int | None:
    """The start offset a file name encodes, or None for files that are not ours."""
    return int(name) if len(name) == NAME_WIDTH and name.isdigit() else None


class MappedFile:
    """One file of ``size`` bytes starting at global offset ``start``, mapped read-write.

    Only files written through ``pwritev`` (CommitLog segments) keep their descriptor open (``keep_fd``);
    the others (ConsumeQueue, IndexFile) hold none once mapped, so ten thousand partitions do not use ten
    thousand descriptors: they sync with ``msync`` and open the file briefly for the rare ``reserve``."""

    __slots__ = ("_fd", "_map", "closed", "path", "size", "start", "view")

    def __init__(self, path: Path, start: int, size: int, fd: int | None, mapping: FileMap) -> None:
        self.path = path
        self.start = start
        self.size = size
        self._fd = fd
        self._map = mapping
        self.view = mapping.view()
        self.closed = False

    @classmethod
    def open(
        cls, path: Path, start: int, size: int, *, reserve: bool = False, keep_fd: bool = False, keep_free: int = 0
    ) -> MappedFile:
        """Open (creating, or extending a short file with zeros) and map ``path`` at exactly ``size`` bytes. A
        file created here has its directory fsynced, so its name survives a power loss with its data. With
        ``reserve``, the blocks are allocated, leaving at least ``keep_free`` bytes free, or ``open`` fails and
        the file is as it was (a file it created is removed)."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        current = -1
        try:
            current = os.fstat(fd).st_size
            if current > size:
                os.ftruncate(fd, size)
            elif current < size:
                _grow(fd, size, reserve, keep_free)
                if current == 0:
                    fsync_directory(path.parent)
            mapping = FileMap(fd, size, writable=True)
        except BaseException:
            _undo_growth(path, fd, current)
            os.close(fd)
            raise
        if not keep_fd:
            os.close(fd)
        return cls(path, start, size, fd if keep_fd else None, mapping)

    @classmethod
    def open_readonly(cls, path: Path, start: int) -> MappedFile:
        """Map an existing file read-only at its current size (store tools; nothing is ever written)."""
        fd = os.open(path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            if not size:
                raise OSError(f"{path} is empty")
            mapping = FileMap(fd, size, writable=False)
        finally:
            os.close(fd)
        return cls(path, start, size, None, mapping)

    @property
    def end(self) -> int:
        return self.start + self.size

    @property
    def fd(self) -> int:
        """The file descriptor (for kernels that write through it; the owner's thread only)."""
        if self._fd is None:
            raise ValueError(f"{self.path} was opened without keeping its descriptor")
        return self._fd

    @contextlib.contextmanager
    def _descriptor(self) -> Iterator[int]:
        if self._fd is not None:
            yield self._fd
            return
        fd = os.open(self.path, os.O_RDWR)
        try:
            yield fd
        finally:
            os.close(fd)

    def write(self, position: int, size: int, *parts: Buffer) -> None:
        """Write ``parts`` (``size`` bytes in all) back to back at ``position`` through the file descriptor:
        one ``pwritev``, which the mapping sees at once. The kernel copies without the GIL, fresh pages of a
        pre-allocated file cost no page fault, and a full disk raises ENOSPC instead of SIGBUS in a mapping."""
        with self._descriptor() as fd:
            written = os.pwritev(fd, parts, position)
        if written != size:
            raise OSError(f"short write to {self.path}: {written} of {size} bytes")

    def reserve(self, position: int, length: int) -> None:
        """Write zeros over [position, position + length) so the blocks exist before writes go through the
        mapping: a full disk raises ENOSPC here, not SIGBUS there. (Zeros, not ``posix_fallocate``: a page
        fault on an unwritten extent costs about a hundred times more on ext4.)"""
        end = min(position + length, self.size)
        if end > position:
            with self._descriptor() as fd:
                while position < end:
                    position += os.pwrite(fd, _ZEROS[: min(end - position, len(_ZEROS))], position)

    def sync(self) -> None:
        """Make the file's written bytes durable (``fdatasync``, or ``msync`` of the mapping for a file
        without a descriptor); a no-op once the file is closed."""
        if self.closed:
            return
        fd = self._fd
        try:
            if fd is None:
                self._map.flush()
            else:
                os.fdatasync(fd)
        except (OSError, ValueError):
            if not self.closed:
                raise

    def data_end(self) -> int:
        """Where the file's last written range ends (file-relative): every byte past it is a hole and reads as
        zero (``SEEK_DATA``/``SEEK_HOLE``; a file system without them reports the whole file). Read through the
        mapping only below it: on a tmpfs a read fault in a hole allocates a page, and on a full one it kills the
        process with SIGBUS."""
        fd = self._fd if self._fd is not None else os.open(self.path, os.O_RDONLY)
        try:
            end = position = 0
            while position < self.size:
                try:
                    position = os.lseek(fd, position, os.SEEK_DATA)
                except OSError as exc:
                    if exc.errno == errno.ENXIO:  # no data past position
                        break
                    raise
                position = end = os.lseek(fd, position, os.SEEK_HOLE)
            return min(end, self.size)
        finally:
            if fd != self._fd:
                os.close(fd)

    def start_writeback(self, position: int, length: int) -> None:
        """Start writing the dirty pages of [position, position + length) to the disk; returns at once (no
        durability promise: ``sync`` gives that). A no-op once closed."""
        if not self.closed:
            with self._descriptor() as fd:
                start_writeback(fd, position, length)

    def advise_sequential(self, sequential: bool) -> None:
        """Tell the kernel the file will be read front to back (``posix_fadvise(SEQUENTIAL)``: a readahead window
        twice the device's, for ``read`` and for faults in the mapping alike), or that it will not (``NORMAL``).
        Only a kept descriptor carries the advice; a no-op without one or once closed."""
        if self._fd is not None and not self.closed:
            os.posix_fadvise(self._fd, 0, 0, os.POSIX_FADV_SEQUENTIAL if sequential else os.POSIX_FADV_NORMAL)

    def release_cache(self, position: int, length: int) -> None:
        """Let the kernel evict the file's pages in [position, position + length) from the page cache: they are
        unmapped from this process, then dropped if clean (``posix_fadvise(DONTNEED)``; dirty pages stay until
        written back). Nothing is lost: a later read maps the pages from the disk again. A no-op once closed."""
        if self.closed:
            return
        self._map.drop_pages(position, length)
        with self._descriptor() as fd:
            os.posix_fadvise(fd, position, length, os.POSIX_FADV_DONTNEED)

    def zero_from(self, position: int, *, reserve: bool = False) -> None:
        """Discard every byte from ``position`` (file-relative) to the end: they read as zero afterwards. With
        ``reserve``, their blocks are allocated again (those just freed: it fails only if another writer took
        them meanwhile), so a pre-allocated file stays pre-allocated."""
        with self._descriptor() as fd:
            os.ftruncate(fd, position)
            os.ftruncate(fd, self.size)
            if reserve and position < self.size:
                os.posix_fallocate(fd, position, self.size - position)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(BufferError):
            self.view.release()
        self._map.close()  # readers' slices still alive keep the pages mapped until they go
        if self._fd is not None:
            os.close(self._fd)

    def delete(self) -> None:
        self.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _grow(fd: int, size: int, reserve: bool, keep_free: int) -> None:
    """Extend the file to ``size`` bytes: sparse, or with its blocks allocated (``reserve``: glibc's
    ``posix_fallocate`` writes zeros itself where the file system cannot allocate), leaving ``keep_free``."""
    if not reserve:
        os.ftruncate(fd, size)
        return
    if keep_free:
        stat = os.fstatvfs(fd)
        left = stat.f_bavail * stat.f_frsize - max(size - os.fstat(fd).st_blocks * 512, 0)
        if left < keep_free:
            raise OSError(
                errno.ENOSPC,
                f"allocating a {size}-byte file would leave {left} bytes free, below the {keep_free}-byte reserve",
            )
    os.posix_fallocate(fd, 0, size)


def _undo_growth(path: Path, fd: int, size: int) -> None:
    """After a failed ``open``: give back what it allocated (best effort, the original error is the one to see)."""
    with contextlib.suppress(OSError):
        if size == 0:
            path.unlink()
        elif size > 0:
            os.ftruncate(fd, size)


class Preallocator:
    """Creates the next file of a queue in a background thread, so a roll rarely waits for the disk."""

    def __init__(self, keep_free: int = 0) -> None:
        self.keep_free = keep_free
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rockafka-prealloc")
        self._pending: dict[Path, Future[MappedFile]] = {}

    def request(self, path: Path, start: int, size: int, *, keep_fd: bool) -> None:
        if path not in self._pending:
            self._pending[path] = self._executor.submit(
                MappedFile.open, path, start, size, reserve=True, keep_fd=keep_fd, keep_free=self.keep_free
            )

    def take(self, path: Path) -> MappedFile | None:
        """The file made for ``path`` (waiting for it if still under way), or None if none was requested; the
        ``OSError`` that stopped it, if one did (the disk was full)."""
        future = self._pending.pop(path, None)
        return None if future is None else future.result()

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        for future in self._pending.values():
            if future.exception() is None:
                future.result().close()
        self._pending.clear()


class MappedFileQueue:
    """Files of one size in one directory, ordered by start offset; not necessarily contiguous."""

    def __init__(
        self, directory: Path, file_size: int, *, preallocator: Preallocator | None = None, keep_fd: bool = False
    ) -> None:
        self.directory = directory
        self.file_size = file_size
        self.keep_fd = keep_fd
        self.files: list[MappedFile] = []
        self._starts: list[int] = []
        self._preallocator = preallocator

    def load(self, *, readonly: bool = False) -> None:
        """Map every file of the directory (a file shorter than ``file_size`` is extended with zeros, unless
        ``readonly``: then files are mapped as they are and nothing is created)."""
        if readonly and not self.directory.is_dir():
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        found = sorted(
            (start, entry.name)
            for entry in os.scandir(self.directory)
            if entry.is_file() and (start := name_to_offset(entry.name)) is not None
        )
        for start, name in found:
            path = self.directory / name
            if readonly:
                if path.stat().st_size:
                    self._insert(MappedFile.open_readonly(path, start))
            else:
                self._insert(MappedFile.open(path, start, self.file_size, keep_fd=self.keep_fd))

    def _insert(self, file: MappedFile) -> None:
        index = bisect.bisect_left(self._starts, file.start)
        self._starts.insert(index, file.start)
        self.files.insert(index, file)

    @property
    def first(self) -> MappedFile | None:
        return self.files[0] if self.files else None

    @property
    def last(self) -> MappedFile | None:
        return self.files[-1] if self.files else None

    def find(self, offset: int) -> MappedFile | None:
        """The file holding global ``offset``, or None."""
        index = bisect.bisect_right(self._starts, offset) - 1
        if index < 0:
            return None
        file = self.files[index]
        return file if offset < file.end else None

    def create(self, start: int) -> MappedFile:
        """Add the file starting at ``start`` (taking a pre-allocated one when ready) and pre-allocate the next."""
        path = self.directory / offset_to_name(start)
        preallocator = self._preallocator
        file = None
        if preallocator is not None:
            with contextlib.suppress(OSError):  # it could not be allocated ahead; space may have returned since
                file = preallocator.take(path)
        if file is None:
            file = MappedFile.open(
                path, start, self.file_size, keep_fd=self.keep_fd, reserve=preallocator is not None,
                keep_free=preallocator.keep_free if preallocator is not None else 0,
            )  # fmt: skip
        self._insert(file)
        if self._preallocator is not None:
            following = start + self.file_size
            self._preallocator.request(
                self.directory / offset_to_name(following), following, self.file_size, keep_fd=self.keep_fd
            )
        return file

    def remove(self, file: MappedFile) -> None:
        """Drop ``file`` from the queue and delete it from disk."""
        index = self.files.index(file)
        del self.files[index]
        del self._starts[index]
        file.delete()

    def truncate_from(self, offset: int) -> None:
        """Discard everything at and after global ``offset``: later files are deleted, the holding file zeroed."""
        for file in [f for f in self.files if f.start >= offset]:
            self.remove(file)
        holder = self.find(offset)
        if holder is not None:
            holder.zero_from(offset - holder.start, reserve=self._preallocator is not None)

    def sync_range(self, start: int, end: int) -> None:
        """fdatasync every file overlapping [start, end); safe to call from the flusher thread."""
        for file in list(self.files):
            if file.end > start and file.start < end:
                file.sync()

    def release_cache(self, start: int, end: int) -> None:
        """``release_cache`` of the part of every file inside the global range [start, end)."""
        for file, position, length in self._parts(start, end):
            file.release_cache(position, length)

    def start_writeback(self, start: int, end: int) -> None:
        """``start_writeback`` of the part of every file inside the global range [start, end)."""
        for file, position, length in self._parts(start, end):
            file.start_writeback(position, length)

    def _parts(self, start: int, end: int) -> Iterator[tuple[MappedFile, int, int]]:
        """(file, file-relative position, length) of each file's part of the global range [start, end)."""
        for file in list(self.files):
            if file.end > start and file.start < end:
                first = max(start, file.start)
                yield file, first - file.start, min(end, file.end) - first

    def close(self) -> None:
        for file in self.files:
            file.close()
        self.files.clear()
        self._starts.clear()
