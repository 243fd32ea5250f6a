"""Free space: the reserve appends must leave on the data directory's file system, and the full state.

Appends stop while the file system has less free space than ``StoreConfig.free_space_reserve_bytes`` (free as
an unprivileged writer sees it, ``statvfs`` ``f_bavail``), or after a write failed with ENOSPC or EDQUOT. The
bytes held back are for the store's own metadata writes (offsets and group logs, topics, log start offsets,
the checkpoint), which are never refused for space; reads go on as well. Nothing else changes: the store is
*full*, not offline, and the broker answers appends with KAFKA_STORAGE_ERROR.

When the free space is looked at:

- when the store opens;
- healthy, every ``CHECK_BYTES`` appended (one ``statvfs``, not one per append), and whenever a CommitLog
  segment is allocated (``mappedfile.MappedFile.open`` refuses a segment that would eat into the reserve);
- full, on an append attempt at most every ``RECHECK_S``: once the reserve and ``headroom`` fit again (room
  for the next CommitLog segment when segments are pre-allocated: resuming sooner would only fail at the
  next roll), appends resume by themselves, without a restart (retention, a deleted topic or an operator
  freed space).

Each change of state is one WARNING line, never one line per refused append.

On open, a file system with less free space than recovery may need (``room_to_open``) is refused with one
clear error rather than left to fail half way (recovery writes ConsumeQueue units, the checkpoint, the abort
marker). Recovery never reads a never-written range through a mapping (``MappedFile.data_end``): on a full
tmpfs such a read must allocate a page, and a page that cannot be allocated kills the process with SIGBUS.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from .errors import StorageFullError

log = logging.getLogger(__name__)

CHECK_BYTES: Final = 4 << 20
"""Healthy: the free space is looked at again after this many bytes were appended."""
RECHECK_S: Final = 0.25
"""Full: an append attempt looks at the free space again at most this often."""
OPEN_BASE_BYTES: Final = 4 << 20
"""Free space recovery needs to open a store, plus ``OPEN_BYTES_PER_PARTITION`` per partition."""
OPEN_BYTES_PER_PARTITION: Final = 128 << 10
"""About what recovery may allocate for a partition: the ConsumeQueue blocks its re-dispatch reserves ahead."""
FULL_ERRNOS: Final = frozenset({errno.ENOSPC, errno.EDQUOT})


def free_bytes(path: Path | int) -> int:
    """Bytes an unprivileged writer may still use on the file system holding ``path`` (a path or a descriptor)."""
    stat = os.fstatvfs(path) if isinstance(path, int) else os.statvfs(path)
    return stat.f_bavail * stat.f_frsize


def room_to_open(root: Path, reserve_bytes: int, partitions: int) -> None:
    """Raise ``StorageFullError`` when the file system holding ``root`` is too full to recover a store of
    ``partitions`` partitions: less free space than what recovery may need, or than half the reserve if that is
    less (so a store that stopped appending at its reserve always opens again)."""
    needed = min(reserve_bytes // 2, OPEN_BASE_BYTES + OPEN_BYTES_PER_PARTITION * partitions)
    free = free_bytes(root)
    if free < needed:
        raise StorageFullError(
            f"the file system holding {root} has {free} bytes free, less than the {needed} needed to open the "
            "store safely: free some space and start again"
        )


class FreeSpace:
    """Whether appends may go on (loop thread only). The append path subtracts each append's size from
    ``budget`` and calls ``check_append`` only when it goes below zero: at once while full, else every
    ``CHECK_BYTES`` (a subtraction per append, not a call)."""

    def __init__(
        self,
        root: Path,
        reserve_bytes: int,
        *,
        headroom: int = CHECK_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.root = root
        self.reserve_bytes = reserve_bytes
        #: Free space beyond the reserve that appends need to resume.
        self.headroom = headroom
        self._clock = clock
        self.full = False
        #: Bytes that may be appended before ``check_append`` must look; negative while full.
        self.budget = CHECK_BYTES
        self._reason = ""
        self._next_look = 0.0

    def look(self) -> None:
        """Look at the free space now (when the store opens): full if it is below the reserve."""
        free = free_bytes(self.root)
        if free < self.reserve_bytes:
            self.fill(self._below_reserve(free))

    def check_append(self, size: int) -> None:
        """Before an append of ``size`` bytes whose subtraction took ``budget`` below zero: raise
        ``StorageFullError`` while the store is full."""
        if self.full:
            now = self._clock()
            if now < self._next_look:
                raise StorageFullError(self._reason)
            self._next_look = now + RECHECK_S
            free = free_bytes(self.root)
            if free < self.reserve_bytes + max(size, self.headroom):
                raise self.fill(self._below_reserve(free))
            self.full, self.budget = False, CHECK_BYTES
            log.warning("store writable again: %d bytes free on %s; appends resume", free, self.root)
            return
        free = free_bytes(self.root)
        if free < self.reserve_bytes:
            raise self.fill(self._below_reserve(free))
        self.budget = CHECK_BYTES

    def out_of_space(self, exc: OSError) -> bool:
        """Whether ``exc`` means the file system is full: ENOSPC or EDQUOT, or a failure (a short write) while
        less than the reserve is free."""
        if exc.errno in FULL_ERRNOS:
            return True
        try:
            return exc.errno is None and free_bytes(self.root) < max(self.reserve_bytes, 1)
        except OSError:
            return False

    def fill(self, reason: str) -> StorageFullError:
        """Enter the full state (one WARNING the first time); the error to raise."""
        self._reason = f"the store is full, appends are refused until space returns: {reason}"
        self._next_look = self._clock() + RECHECK_S
        self.budget = -1
        if not self.full:
            self.full = True
            log.warning("%s", self._reason)
        return StorageFullError(self._reason)

    def _below_reserve(self, free: int) -> str:
        return f"{free} bytes free on {self.root}, below the {self.reserve_bytes}-byte free-space reserve"
