"""Small file systems for the full-disk tests: a tmpfs, or an ext4 image on a loop device, mounted by the test
and always unmounted after it. Mounting needs root: these tests fail (never skip) without it, as CI runs
them as root.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

KINDS = ("ext4", "tmpfs")
_CHUNK = 1 << 20


def free_bytes(path: Path) -> int:
    stat = os.statvfs(path)
    return stat.f_bavail * stat.f_frsize


@contextlib.contextmanager
def small_filesystem(kind: str, size_mib: int, workdir: Path) -> Iterator[Path]:
    """Mount a ``kind`` file system of ``size_mib`` MiB under ``workdir``; yields the mount point."""
    if os.geteuid() != 0:
        pytest.fail("the full-disk tests mount file systems: run them as root (CI does)")
    mountpoint = workdir / f"{kind}-mount"
    mountpoint.mkdir(parents=True)
    image = workdir / f"{kind}.img"
    if kind == "tmpfs":
        _run("mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(mountpoint))
    else:
        with image.open("wb") as sparse:
            sparse.truncate(size_mib << 20)
        _run("mkfs.ext4", "-q", "-F", "-m", "0", str(image))
        _run("mount", "-o", "loop", str(image), str(mountpoint))
    try:
        yield mountpoint
    finally:
        _unmount(mountpoint)
        image.unlink(missing_ok=True)


def _run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=60)


def _unmount(mountpoint: Path) -> None:
    for _ in range(50):  # a child that held a file there may take a moment to go
        if subprocess.run(["umount", str(mountpoint)], capture_output=True, timeout=60).returncode == 0:
            return
        time.sleep(0.1)
    subprocess.run(["umount", "-l", str(mountpoint)], check=True, capture_output=True, timeout=60)


def fill(directory: Path, *, leave: int = 0, name: str = "filler") -> Path:
    """Write a file of zeros in ``directory`` until at most ``leave`` bytes are free (0: until ENOSPC)."""
    path = directory / name
    zeros = bytes(_CHUNK)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        while (room := free_bytes(directory) - leave) > 0 or leave == 0:
            try:
                if not os.write(fd, memoryview(zeros)[: max(min(room, _CHUNK), 4096)]):
                    break
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
        os.fsync(fd)
    finally:
        os.close(fd)
    return path
