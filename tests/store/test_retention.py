"""Retention: per-topic retention.ms / retention.bytes move log start offsets; segments go whole."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rockafka.store import MessageStore, OffsetOutOfRangeError

from .helpers import append, build_batch, decoded, small_config

VALUE = b"v" * 600  # about 700 bytes a batch: eleven batches fill an 8 KiB segment


def _segments(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "commitlog").iterdir())


def test_retention_ms_moves_the_log_start_past_expired_batches(tmp_path: Path) -> None:
    now = [100_000]
    with MessageStore.open(small_config(tmp_path), clock=lambda: now[0]) as store:
        store.topics.create("t", 1, {"retention.ms": "10000"})
        store.topics.create("forever", 1, {"retention.ms": "-1"})
        for stamp in (50_000, 95_000, 80_000, 99_000):
            append(store, "t", 0, build_batch([(None, b"x")] * 2, timestamps=[stamp - 1, stamp]))
            append(store, "forever", 0, build_batch([(None, b"x")], timestamps=[stamp]))
        report = store.retention.enforce()
        assert report.log_start_moves == 1
        assert store.records.partition_offsets("t", 0).log_start_offset == 2  # the 95_000 batch is the first kept
        assert store.records.partition_offsets("forever", 0).log_start_offset == 0
        now[0] = 200_000
        store.retention.enforce()
        offsets = store.records.partition_offsets("t", 0)
        assert offsets.log_start_offset == offsets.high_watermark == 8
        with pytest.raises(OffsetOutOfRangeError):
            store.records.read("t", 0, 0, 100)


def test_retention_bytes_keeps_the_newest_batches_within_the_limit(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        batch = build_batch([(None, b"y" * 100)])
        store.topics.create("t", 1, {"retention.bytes": str(3 * len(batch)), "retention.ms": "-1"})
        for _ in range(10):
            append(store, "t", 0, batch)
        store.retention.enforce()
        offsets = store.records.partition_offsets("t", 0)
        assert (offsets.log_start_offset, offsets.size_bytes) == (7, 3 * len(batch))


def test_compacted_topics_are_not_trimmed(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path), clock=lambda: 10**12) as store:
        store.topics.create("c", 1, {"cleanup.policy": "compact", "retention.ms": "1"})
        append(store, "c", 0, build_batch([(b"k", b"v")]))
        store.retention.enforce()
        assert store.records.partition_offsets("c", 0).log_start_offset == 0


def test_segments_whose_batches_are_all_deleted_go_early(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 2, {"retention.ms": "-1"})
        for number in range(40):
            append(store, "t", number % 2, build_batch([(None, VALUE)]))
        before = _segments(tmp_path)
        assert len(before) >= 4
        store.records.delete_records("t", 0, 20)
        assert store.retention.enforce().deleted_segments == 0  # partition 1 still holds every segment
        store.records.delete_records("t", 1, 12)
        report = store.retention.enforce()
        assert report.deleted_segments >= 1 and report.freed_bytes == 8192 * report.deleted_segments
        after = _segments(tmp_path)
        assert after == before[report.deleted_segments :]
        assert [r[0] for r in decoded(store.records.read("t", 1, 12, 1 << 20).batches)] == list(range(12, 20))
    with MessageStore.open(config) as store:
        assert store.records.partition_offsets("t", 1).log_start_offset == 12
        assert len(decoded(store.records.read("t", 0, 20, 1 << 20).batches)) == 0
        append(store, "t", 0, build_batch([(None, b"new")]))
        assert decoded(store.records.read("t", 0, 20, 1 << 20).batches)[0][3] == b"new"


def test_global_size_and_age_limits_delete_the_oldest_segments_and_move_log_starts(tmp_path: Path) -> None:
    config = small_config(tmp_path, commitlog_retention_bytes=3 * 8192)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1, {"retention.ms": "-1"})
        for _ in range(60):
            append(store, "t", 0, build_batch([(None, VALUE)]))
        store.retention.enforce()
        segments = _segments(tmp_path)
        assert len(segments) == 3
        first_kept = int(segments[0])
        offsets = store.records.partition_offsets("t", 0)
        assert 0 < offsets.log_start_offset < offsets.high_watermark == 60
        read = store.records.read("t", 0, offsets.log_start_offset, 1 << 30)
        assert len(decoded(read.batches)) == 60 - offsets.log_start_offset
        assert first_kept > 0
    aged = small_config(tmp_path, file_reserved_ms=60_000)
    for name in _segments(tmp_path)[:-1]:
        os.utime(tmp_path / "commitlog" / name, (1, 1))
    with MessageStore.open(aged) as store:
        store.retention.enforce()
        assert len(_segments(tmp_path)) == 1  # never the segment being written
        start = store.records.partition_offsets("t", 0).log_start_offset
        assert len(decoded(store.records.read("t", 0, start, 1 << 30).batches)) == 60 - start


def test_the_disk_watermark_deletes_whatever_is_oldest(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, disk_usage_force_ratio=0.000001)) as store:
        store.topics.create("t", 1)
        for _ in range(30):
            append(store, "t", 0, build_batch([(None, VALUE)]))
        store.retention.enforce()
        assert len(_segments(tmp_path)) == 1
        append(store, "t", 0, build_batch([(None, b"still writable")]))
