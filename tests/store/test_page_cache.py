"""The CommitLog's page-cache window: fsynced data older than ``commitlog_cache_bytes`` leaves memory, and reads
of it still return every byte (mapped again from the disk)."""

from __future__ import annotations

import ctypes
import mmap
import os
import time
from pathlib import Path

from rockafka.store import MessageStore

from .helpers import append, build_batch, decoded, small_config

MIB = 1 << 20
SEGMENT = 8 * MIB
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]


def resident_fraction(path: Path) -> float:
    """The fraction of ``path``'s pages in the page cache (``mincore`` on a fresh read-only mapping)."""
    size = path.stat().st_size
    fd = os.open(path, os.O_RDONLY)
    try:
        address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        assert address not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
        pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
        vector = ctypes.create_string_buffer(pages)
        try:
            assert libc.mincore(address, size, vector) == 0, os.strerror(ctypes.get_errno())
        finally:
            libc.munmap(address, size)
    finally:
        os.close(fd)
    return sum(byte & 1 for byte in vector.raw) / pages


def fill(store: MessageStore, megabytes: int) -> list[bytes]:
    """Append ``megabytes`` MiB of 256 KiB batches of distinct values; returns the values in order."""
    values = []
    for number in range(megabytes * 4):
        value = number.to_bytes(4, "big") * (64 * 1024 - 16)
        values.append(value)
        append(store, "t", 0, build_batch([(None, value)]))
    return values


def segments(root: Path) -> list[Path]:
    return sorted((root / "commitlog").iterdir())


def wait_until_released(root: Path, count: int, deadline_s: float = 10.0) -> list[float]:
    """The resident fractions of the segments once the first ``count`` are out of memory (or at the deadline)."""
    deadline = time.monotonic() + deadline_s
    while True:
        fractions = [resident_fraction(path) for path in segments(root)]
        if all(fraction < 0.05 for fraction in fractions[:count]) or time.monotonic() > deadline:
            return fractions
        time.sleep(0.05)


def test_fsynced_data_past_the_window_leaves_the_page_cache_and_still_reads_back(tmp_path: Path) -> None:
    store = MessageStore.open(small_config(tmp_path, commitlog_segment_bytes=SEGMENT, commitlog_cache_bytes=8 * MIB))
    try:
        store.topics.create("t", 1)
        values = fill(store, 36)  # 4.5 segments; the window keeps the newest 8 MiB
        store.flush()
        fractions = wait_until_released(tmp_path, 2)
        assert all(fraction < 0.05 for fraction in fractions[:2]), fractions
        assert fractions[-1] > 0.5, fractions  # the newest data stays in memory
        offset, read_back = 0, []
        while offset < len(values):
            result = store.records.read("t", 0, offset, 1 << 20)
            read_back += [value for _, _, _, value in decoded(result.batches)]
            offset = result.next_offset
        assert read_back == values
    finally:
        store.close()


def test_without_a_window_the_page_cache_is_left_to_the_kernel(tmp_path: Path) -> None:
    store = MessageStore.open(small_config(tmp_path, commitlog_segment_bytes=SEGMENT, commitlog_cache_bytes=None))
    try:
        store.topics.create("t", 1)
        fill(store, 36)
        store.flush()
        time.sleep(0.3)  # several flush rounds (50 ms apart) have run
        fractions = [resident_fraction(path) for path in segments(tmp_path)]
        assert all(fraction > 0.5 for fraction in fractions[:4]), fractions
    finally:
        store.close()


def dirty_kib() -> int:
    """The machine's dirty page cache, in KiB (/proc/meminfo)."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("Dirty:"):
            return int(line.split()[1])
    raise AssertionError("no Dirty line in /proc/meminfo")


def test_async_flush_writes_behind_between_its_rounds(tmp_path: Path) -> None:
    # one round a minute: only the write-behind can clean the pages before the test ends
    config = small_config(tmp_path, commitlog_segment_bytes=64 * MIB, flush_interval_ms=60_000)
    store = MessageStore.open(config)
    try:
        store.topics.create("t", 1)
        before = dirty_kib()
        fill(store, 48)  # without write-behind, the kernel would keep it dirty for 30 s (dirty_expire_centisecs)
        deadline = time.monotonic() + 10
        while dirty_kib() > before + 16 * 1024 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert dirty_kib() <= before + 16 * 1024
    finally:
        store.close()
