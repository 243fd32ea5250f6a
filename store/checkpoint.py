"""The checkpoint file, the abort marker and the lock file of a store directory.

``checkpoint`` (36 bytes, big-endian, rewritten in place and fdatasynced; it fits one disk sector):

======  ====  ================  ===========================================================================
offset  size  field             notes
======  ====  ================  ===========================================================================
0       4     magic             0x524B4350 ("RKCP")
4       4     version           1
8       8     commitlog_offset  every CommitLog record below it is fsynced, and so is its ConsumeQueue unit
16      8     index_offset      IndexFiles whose end offset is at or below it are complete and fsynced
24      8     written_at        wall clock, ms
32      4     crc               CRC-32C of bytes 0-31
======  ====  ================  ===========================================================================

A missing or unreadable checkpoint means "nothing is known to be safe": recovery scans the whole CommitLog.

``abort`` holds the PID of the process that has the store open; it is created on open and removed by a
clean close, so finding it on open means the last run crashed. ``lock`` is held with ``flock`` for as
long as the store is open; a second process (or a second open in the same process) is refused.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rockafka.core_pyx.crc32c import crc32c

from .errors import StoreLockedError

MAGIC: Final = 0x524B4350
VERSION: Final = 1
_BODY = struct.Struct(">IIqqq")
_CRC = struct.Struct(">I")
SIZE: Final = _BODY.size + _CRC.size


@dataclass(frozen=True, slots=True)
class CheckpointState:
    commitlog_offset: int
    index_offset: int
    written_at: int


class Checkpoint:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._fd: int | None = None

    def read(self) -> CheckpointState | None:
        try:
            data = self._path.read_bytes()
        except FileNotFoundError:
            return None
        if len(data) < SIZE or crc32c(data[: _BODY.size]) != _CRC.unpack_from(data, _BODY.size)[0]:
            return None
        magic, version, commitlog_offset, index_offset, written_at = _BODY.unpack_from(data)
        if magic != MAGIC or version != VERSION:
            return None
        return CheckpointState(commitlog_offset, index_offset, written_at)

    def write(self, state: CheckpointState) -> None:
        """Rewrite and fdatasync (the flusher thread, or the loop thread once the flusher has stopped)."""
        if self._fd is None:
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        body = _BODY.pack(MAGIC, VERSION, state.commitlog_offset, state.index_offset, state.written_at)
        os.pwrite(self._fd, body + _CRC.pack(crc32c(body)), 0)
        os.fdatasync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class StoreLock:
    """``flock`` on ``<root>/lock`` for the life of the open store."""

    def __init__(self, root: Path) -> None:
        self._path = root / "lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreLockedError(f"{self._path.parent} is open in another process (or another store)") from None
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def mark_running(root: Path) -> bool:
    """Create the abort marker; True when one was already there (the previous run did not close cleanly)."""
    marker = root / "abort"
    crashed = marker.exists()
    marker.write_text(f"{os.getpid()}\n")
    return crashed


def mark_clean(root: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        (root / "abort").unlink()
