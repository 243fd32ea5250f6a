"""CommitLog records are copied into the mapped segment when its blocks are reserved (pre-allocation on), and
written through the descriptor otherwise; both leave the same bytes, and a crash cut is written over cleanly."""

from __future__ import annotations

from pathlib import Path

from rockafka.store import MessageStore

from .helpers import append, build_batch, decoded, small_config

MIB = 1 << 20
SEGMENT = 4 * MIB


def batches(count: int) -> list[bytes]:
    return [
        build_batch([(b"k%d" % number, bytes([number % 251]) * (number * 997 % 30_000 + 1))], timestamps=[number])
        for number in range(count)
    ]


def mapped_rss_kib(directory: Path) -> int:
    """Resident KiB of this process's mappings of the files in ``directory`` (from /proc/self/smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and len(fields) >= 5:
            inside = len(fields) >= 6 and fields[5].startswith(f"{directory}/")
        elif inside and fields[0] == "Rss:":
            total += int(fields[1])
    return total


def fill(root: Path, *, preallocate: bool, plan: list[bytes]) -> tuple[bytes, int]:
    """Append ``plan`` to partitions 0 and 1 of a fresh store; the first segment's bytes, and the mapped KiB."""
    config = small_config(root, commitlog_segment_bytes=SEGMENT, preallocate=preallocate, index_enabled=False)
    with MessageStore.open(config, clock=lambda: 5_000) as store:
        store.create_topic("t", 2)
        for number, batch in enumerate(plan):
            append(store, "t", number % 2, batch)
        mapped = mapped_rss_kib(root / "commitlog")
    return (root / "commitlog" / f"{0:020d}").read_bytes(), mapped


def records(segment: bytes) -> list[bytes]:
    """The segment's records, each without its header CRC and topic id (bytes 8-27: they name the store's topic)."""
    found, position = [], 0
    while (size := int.from_bytes(segment[position : position + 4], "big")) and position + size < len(segment):
        found.append(segment[position : position + 8] + segment[position + 28 : position + size])
        position += size
    return found


def test_mapped_and_descriptor_writes_leave_the_same_segment(tmp_path: Path) -> None:
    plan = batches(60)
    through_map, mapped = fill(tmp_path / "map", preallocate=True, plan=plan)
    through_fd, unmapped = fill(tmp_path / "fd", preallocate=False, plan=plan)
    assert len(records(through_map)) == len(plan) and records(through_map) == records(through_fd)
    used = sum(len(record) + 20 for record in records(through_map))
    assert through_map[used:] == through_fd[used:] == bytes(SEGMENT - used)
    assert mapped >= used // 1024  # the records went through the mapping ...
    assert unmapped == 0  # ... and here through the descriptor, which maps nothing


def test_appends_after_a_crash_cut_are_copied_over_the_cut(tmp_path: Path) -> None:
    config = small_config(tmp_path, commitlog_segment_bytes=SEGMENT, preallocate=True)
    plan = batches(15)
    with MessageStore.open(config) as store:
        store.create_topic("t", 1)
        for batch in plan[:12]:
            append(store, "t", 0, batch)
        end = store._commitlog.write_offset
    segment = tmp_path / "commitlog" / f"{0:020d}"
    with segment.open("r+b") as file:  # the last record torn: its last 100 bytes never reached the disk
        file.seek(end - 100)
        file.write(bytes(100))
    (tmp_path / "checkpoint").unlink()
    (tmp_path / "abort").write_text("0\n")
    with MessageStore.open(config) as store:
        assert store.partition_offsets("t", 0).high_watermark == 11
        for batch in plan[12:]:
            append(store, "t", 0, batch)
        read = [(key, value) for _, _, key, value in decoded(store.read("t", 0, 0, 1 << 30).batches)]
        end = store._commitlog.write_offset
    expected = [(key, value) for _, _, key, value in decoded(tuple(map(memoryview, plan[:11] + plan[12:])))]
    assert read == expected and len(read) == 14
    assert segment.read_bytes()[end:] == bytes(SEGMENT - end)  # nothing of the cut record is left behind
