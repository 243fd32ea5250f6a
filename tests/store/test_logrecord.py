"""The CommitLog write kernel: both twins write the same record, in the CommitLog's format."""

from __future__ import annotations

import os
import struct
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.logrecord import HEADER_SIZE, RECORD_MAGIC
from rockafka.core_pyx.recordbatch import validate_batch

from .helpers import build_batch

TWINS = twins("_logrecord")
TOPIC = bytes(range(100, 116))


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


def _write(impl: ModuleType, path: Path, batch: bytes, log_append_time: int) -> tuple[bytes, tuple[int, ...]]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        result = impl.write_record(fd, 10, batch, TOPIC, 3, 500, 7, 2, 1234, log_append_time, 9_999)
    finally:
        os.close(fd)
    return path.read_bytes()[10:], result


@pytest.mark.parametrize("log_append_time", [-1, 777])
def test_the_record_matches_the_format(impl: ModuleType, tmp_path: Path, log_append_time: int) -> None:
    batch = build_batch([(b"k", b"v"), (None, b"w")], producer_id=42)
    record, (total, attributes, max_timestamp, producer_id, epoch) = _write(
        impl, tmp_path / "log", batch, log_append_time
    )
    assert total == len(record) == HEADER_SIZE + len(batch)
    size, magic, crc, topic, partition, base, physical, stored, count, flags, _ = struct.unpack_from(
        ">iII16siqqqiHH", record
    )
    assert (size, magic, topic, partition, base, physical, stored, count) == (
        total, RECORD_MAGIC, TOPIC, 3, 500, 9_999, 1234, 2,
    )  # fmt: skip
    assert crc == crc32c(record[12:HEADER_SIZE], crc32c(record[:8]))
    header = validate_batch(record[HEADER_SIZE:])  # the stored batch keeps a valid CRC-32C
    assert header.base_offset == 500 and (producer_id, epoch) == (42, 0) and flags == attributes
    assert header.partition_leader_epoch == 7 != struct.unpack_from(">i", batch, 12)[0]  # stamped on the way
    if log_append_time == -1:
        assert record[HEADER_SIZE + 8 : HEADER_SIZE + 12] == batch[8:12]
        assert record[HEADER_SIZE + 16 :] == batch[16:] and max_timestamp == header.max_timestamp == 1001
    else:
        assert header.is_log_append_time and max_timestamp == header.max_timestamp == 777
    assert batch[:8] == bytes(8) and batch[12:16] == bytes(4)  # the caller's buffer is untouched


def test_the_twins_write_the_same_bytes(tmp_path: Path) -> None:
    batch = build_batch([(b"key", b"value" * 50)] * 3)
    results = {name: _write(impl, tmp_path / name, batch, 5) for name, impl in TWINS.items()}
    assert len(set(results.values())) == 1


def test_bad_arguments_are_refused(impl: ModuleType, tmp_path: Path) -> None:
    fd = os.open(tmp_path / "log", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        with pytest.raises(ValueError):
            impl.write_record(fd, 0, b"short", TOPIC, 0, 0, 0, 1, 0, -1, 0)
        with pytest.raises(ValueError):
            impl.write_record(fd, 0, build_batch([(None, b"v")]), b"short id", 0, 0, 0, 1, 0, -1, 0)
    finally:
        os.close(fd)
    with pytest.raises(OSError):
        impl.write_record(fd, 0, build_batch([(None, b"v")]), TOPIC, 0, 0, 0, 1, 0, -1, 0)  # closed descriptor


def _segment(tmp_path: Path, batches: list[bytes], size: int = 4096) -> bytearray:
    """A segment of ``size`` bytes holding one record per batch, written by the pure twin, then a BLANK."""
    path = tmp_path / "segment"
    path.write_bytes(bytes(size))
    fd = os.open(path, os.O_RDWR)
    position = 0
    try:
        for number, batch in enumerate(batches):
            written = TWINS["pure"].write_record(fd, position, batch, TOPIC, 1, number * 10, 0, 1, 77, -1, position)
            position += written[0]
        os.pwrite(fd, struct.pack(">iI", size - position, 0x524B4342), position)
    finally:
        os.close(fd)
    return bytearray(path.read_bytes())


def test_scan_reads_records_up_to_the_blank(impl: ModuleType, tmp_path: Path) -> None:
    segment = _segment(tmp_path, [build_batch([(b"k", b"v" * n)]) for n in (10, 200, 30)])
    records, position, stop, reason = impl.scan_records(segment, 0, 0, 0, 100)
    assert [(r[0], r[4], r[2], r[6]) for r in records] == [(r[0], 10 * i, TOPIC, 77) for i, r in enumerate(records)]
    assert len(records) == 3 and stop == impl.SEGMENT_END and reason == ""
    assert position == sum(r[1] for r in records)
    limited = impl.scan_records(segment, 0, 0, 0, 2)
    assert limited[0] == records[:2] and limited[2] == impl.LIMIT and limited[1] == records[2][0]
    zeros = bytearray(segment)
    zeros[position:] = bytes(len(zeros) - position)
    assert impl.scan_records(zeros, 0, 0, 0, 100)[1:] == (position, impl.END_OF_DATA, "")


def test_tail_room_zero_takes_a_record_that_ends_the_data(impl: ModuleType, tmp_path: Path) -> None:
    segment = _segment(tmp_path, [build_batch([(b"k", b"v" * n)]) for n in (10, 200)])
    records = impl.scan_records(segment, 0, 0, 0, 100)[0]
    copied = bytes(segment[: records[-1][0] + records[-1][1]])  # the records alone, as a leader sends them
    kept = impl.scan_records(copied, 0, 0, 0, 100)  # a segment's room for a BLANK: the last record is refused
    assert kept[0] == records[:1] and kept[2:] == (impl.CORRUPT, f"bad record size {records[1][1]}")
    taken, position, stop, reason = impl.scan_records(copied, 0, 0, 0, 100, 0)
    assert taken == records and position == len(copied) and stop == impl.CORRUPT
    assert reason == "no room for a record header"  # what follows the data is the caller's business
    bad = bytearray(copied)
    bad[-1] ^= 1  # the last byte of the last batch: its CRC-32C is still checked
    assert impl.scan_records(bad, 0, 0, 0, 100, 0)[2:] == (impl.CORRUPT, "batch CRC-32C mismatch")
    assert impl.scan_records(copied[:-1], 0, 0, 0, 100, 0)[2:] == (impl.CORRUPT, f"bad record size {records[1][1]}")


@settings(max_examples=150, deadline=None)
@given(flip=st.integers(0, 700), bit=st.integers(0, 7), verify_from=st.sampled_from([0, 1 << 40]))
def test_the_twins_agree_on_corruption(
    tmp_path_factory: pytest.TempPathFactory, flip: int, bit: int, verify_from: int
) -> None:
    batches = [build_batch([(b"key", b"v" * n)]) for n in (20, 90, 140)]
    segment = _segment(tmp_path_factory.mktemp("scan"), batches, 1024)
    segment[flip] ^= 1 << bit
    results = {name: impl.scan_records(segment, 0, 0, verify_from, 100) for name, impl in TWINS.items()}
    assert results["compiled"] == results["pure"]
    records, position, stop, _ = results["pure"]
    assert stop in (TWINS["pure"].CORRUPT, TWINS["pure"].SEGMENT_END)
    assert all(r[0] < position for r in records)
