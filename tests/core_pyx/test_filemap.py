"""The file-mapping kernel: both twins map, write, flush and close alike; the compiled one keeps no descriptor."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import ModuleType

import pytest

from rockafka.core_pyx import is_compiled, twins

TWINS = twins("_filemap")


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def open_file(path: Path, size: int) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    os.ftruncate(fd, size)
    return fd


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


def test_view_writes_reach_the_file_after_the_descriptor_is_closed(impl: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "file"
    fd = open_file(path, 8192)
    mapping = impl.FileMap(fd, 8192, writable=True)
    os.close(fd)
    view = mapping.view()
    view[4096:4101] = b"hello"
    mapping.flush()
    assert len(mapping) == mapping.size == 8192
    assert path.read_bytes()[4096:4101] == b"hello"
    view.release()
    mapping.close()
    assert mapping.closed


def test_a_read_only_mapping_refuses_writes(impl: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_bytes(b"abc" * 100)
    fd = os.open(path, os.O_RDONLY)
    mapping = impl.FileMap(fd, 300, writable=False)
    os.close(fd)
    view = mapping.view()
    assert view.readonly and bytes(view[:3]) == b"abc"
    with pytest.raises(TypeError):
        view[0:1] = b"x"
    view.release()
    mapping.close()


def test_a_live_view_outlasts_close_and_no_new_view_is_given(impl: ModuleType, tmp_path: Path) -> None:
    fd = open_file(tmp_path / "file", 4096)
    mapping = impl.FileMap(fd, 4096, writable=True)
    os.close(fd)
    reader = mapping.view()[10:20]
    reader[:] = b"0123456789"
    mapping.close()
    mapping.close()  # twice is harmless
    assert bytes(reader) == b"0123456789"  # still mapped under the reader
    with pytest.raises(ValueError, match="closed"):
        mapping.view()
    mapping.flush()  # a no-op once closed
    reader.release()


def test_a_non_positive_size_is_refused(impl: ModuleType, tmp_path: Path) -> None:
    fd = open_file(tmp_path / "file", 0)
    try:
        with pytest.raises(ValueError, match="positive size"):
            impl.FileMap(fd, 0, writable=True)
    finally:
        os.close(fd)


def test_a_bad_descriptor_raises_oserror(impl: ModuleType) -> None:
    with pytest.raises(OSError):
        impl.FileMap(10_000, 4096, writable=True)


def test_the_compiled_mapping_holds_no_descriptor(tmp_path: Path) -> None:
    compiled = TWINS["compiled"]
    before = open_descriptors()
    mappings = []
    for number in range(50):
        fd = open_file(tmp_path / f"file{number}", 4096)
        mappings.append(compiled.FileMap(fd, 4096, writable=True))
        os.close(fd)
    assert open_descriptors() == before
    for mapping in mappings:
        mapping.close()


def mapped_rss_kib(path: Path) -> int:
    """Resident KiB of this process's mappings of ``path`` (from /proc/self/smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and len(fields) >= 5:
            inside = len(fields) >= 6 and fields[5] == str(path)
        elif inside and fields[0] == "Rss:":
            total += int(fields[1])
    return total


def test_drop_pages_unmaps_whole_pages_and_the_data_reads_back(impl: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "file"
    size = 64 * 4096
    fd = open_file(path, size)
    mapping = impl.FileMap(fd, size, writable=True)
    os.close(fd)
    view = mapping.view()
    view[:] = bytes(range(256)) * (size // 256)
    mapping.flush()
    assert mapped_rss_kib(path) == size // 1024
    # [100, 100 + 40 pages) covers 39 whole pages: the partial first and last pages stay
    assert mapping.drop_pages(100, 40 * 4096) == 39 * 4096
    assert mapped_rss_kib(path) == (64 - 39) * 4
    assert bytes(view[:]) == bytes(range(256)) * (size // 256)  # faulted back in from the file
    assert mapping.drop_pages(5, 10) == 0  # no whole page inside
    with pytest.raises(ValueError, match="outside"):
        mapping.drop_pages(size - 4096, 8192)
    with pytest.raises(ValueError, match="outside"):
        mapping.drop_pages(-1, 10)
    view.release()
    mapping.close()
    assert mapping.drop_pages(0, size) == 0  # a no-op once closed


def dirty_kib() -> int:
    """The machine's dirty page cache, in KiB (/proc/meminfo)."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("Dirty:"):
            return int(line.split()[1])
    raise AssertionError("no Dirty line in /proc/meminfo")


def test_start_writeback_cleans_the_range_without_fsync(impl: ModuleType, tmp_path: Path) -> None:
    fd = os.open(tmp_path / "file", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.write(fd, os.urandom(1 << 20) * 64)
        dirty = dirty_kib()
        assert dirty >= 48 * 1024  # the kernel would keep most of it dirty for dirty_expire_centisecs (30 s)
        impl.start_writeback(fd, 0, 64 << 20)
        deadline = time.monotonic() + 10
        while dirty_kib() > dirty - 48 * 1024 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert dirty_kib() <= dirty - 48 * 1024
        impl.start_writeback(fd, 0, 0)  # an empty range is nothing to do
        with pytest.raises(ValueError, match="not a file range"):
            impl.start_writeback(fd, -1, 10)
    finally:
        os.close(fd)
    with pytest.raises(OSError):
        impl.start_writeback(fd, 0, 4096)  # closed descriptor
