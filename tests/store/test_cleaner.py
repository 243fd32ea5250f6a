"""The log cleaner on a real store: compacted reads, disk space reclaimed, restarts and interrupted passes."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from kafka.record.default_records import DefaultRecordBatch

from rockafka.store import KeylessRecordError, MessageStore, StoreConfig
from rockafka.store.reader import StoreReader

from .helpers import append, build_batch, small_config

COMPACTED = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "0"}
KEYS = 10
ROUNDS = 40


def read_all(store: MessageStore, topic: str = "t", partition: int = 0) -> list[tuple[int, bytes | None, bytes | None]]:
    """Every record from the log start to the high watermark, decoded by kafka-python (gaps and all)."""
    bounds = store.records.partition_bounds(topic, partition)
    offset, found = bounds.log_start_offset, []
    for _ in range(10_000):
        if offset >= bounds.high_watermark:
            break
        result = store.records.read(topic, partition, offset, 1 << 20)
        assert result.batches, f"no batch at {offset} below the high watermark {bounds.high_watermark}"
        for view in result.batches:
            batch = DefaultRecordBatch(bytearray(view))
            assert batch.validate_crc()
            found.extend((record.offset, record.key, record.value) for record in batch)
        offset = result.next_offset
    return found


def fill(store: MessageStore, rounds: int = ROUNDS, partition: int = 0) -> dict[bytes, tuple[int, bytes]]:
    """``rounds`` updates of every key, one batch each; the latest (offset, value) of each key."""
    latest: dict[bytes, tuple[int, bytes]] = {}
    for round_ in range(rounds):
        for key in range(KEYS):
            name, value = f"k{key}".encode(), f"v{round_}-{key}".encode() * 20
            result = append(store, "t", partition, build_batch([(name, value)]))
            latest[name] = (result.base_offset, value)
    return latest


def open_store(root: Path) -> MessageStore:
    return MessageStore.open(small_config(root, commitlog_segment_bytes=16384))


def test_a_pass_keeps_the_latest_value_of_every_key_at_its_offset(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store)
        before = read_all(store)
        report = store.cleaner.clean("t", 0)
        assert report is not None and report.records_read == KEYS * ROUNDS - 1  # the newest batch stays dirty
        after = read_all(store)
        assert len(after) < len(before) / 10
        assert {key: (offset, value) for offset, key, value in after if key is not None} == latest
        assert [offset for offset, _, _ in after] == sorted({offset for offset, _, _ in after})
        assert set(after) <= set(before)  # offsets never change


def test_dead_commitlog_segments_are_deleted_and_reads_survive_a_restart(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store)
        segments_before = len(list((tmp_path / "commitlog").iterdir()))
        store.cleaner.clean("t", 0)
        report = store.retention.enforce()
        assert report.deleted_segments >= segments_before - 2
        assert store.records.partition_bounds("t", 0).log_start_offset == 0  # the log start did not move
        after = read_all(store)
        # the CommitLog below the compacted log is gone: time lookups and sizes still answer
        found = store.records.offset_for_timestamp("t", 0, 0)
        assert found is not None and found.offset == after[0][0]
        assert store.records.max_timestamp("t", 0) is not None
        assert store.records.partition_offsets("t", 0).log_start_offset == 0
    with StoreReader(tmp_path) as reader:  # the store tools' reader: the compacted log, then the CommitLog
        assert [(r.offset, r.key, r.value) for r in reader.records("t", 0, 0)] == after
        assert [p.log_start_offset for p in reader.partitions()] == [0]
    with open_store(tmp_path) as store:
        assert read_all(store) == after
        assert {key: (offset, value) for offset, key, value in after if key is not None} == latest
        more = fill(store, rounds=3)
        store.cleaner.clean("t", 0)
        store.retention.enforce()
        final = {key: (offset, value) for offset, key, value in read_all(store) if key is not None}
        assert final == more
        high = store.records.partition_bounds("t", 0).high_watermark
        assert store.records.delete_records("t", 0, high - 3) == high - 3  # DeleteRecords inside the gaps
        assert [offset for offset, _, _ in read_all(store)] == [high - 3, high - 2, high - 1]


def test_a_pass_interrupted_before_its_manifest_leaves_the_previous_generation(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        fill(store)
        store.cleaner.clean("t", 0)
        published = read_all(store)
        fill(store, rounds=2)
        plan = store.cleaner._plan_now("t", 0)
        assert plan is not None
        store.cleaner._execute(plan)  # written and fsynced, never published: what a kill -9 there leaves
        unpublished = sorted(p.name for p in plan.files.directory.glob("*.log"))
        assert len(unpublished) == 2
        expected = read_all(store)
    with open_store(tmp_path) as store:
        assert sorted(p.name for p in plan.files.directory.glob("*.log")) == unpublished[:1]
        assert read_all(store) == expected
        assert [r for r in expected if r[0] < published[-1][0]] == [r for r in published if r[0] < published[-1][0]]


def test_tombstones_go_after_delete_retention_and_keyless_records_go(tmp_path: Path) -> None:
    clock = [1_000_000]
    config = small_config(tmp_path, commitlog_segment_bytes=16384)
    with MessageStore.open(config, clock=lambda: clock[0]) as store:
        store.topics.create("t", 1)  # written before the topic became compacted: a keyless record
        append(store, "t", 0, build_batch([(b"a", b"1"), (None, b"legacy"), (b"b", b"2")]))
        store.topics.alter_configs("t", {**COMPACTED, "delete.retention.ms": "1000"})
        append(store, "t", 0, build_batch([(b"a", None)]))
        append(store, "t", 0, build_batch([(b"c", b"3")]))  # the newest batch: never cleaned
        store.cleaner.clean("t", 0)
        assert read_all(store) == [(2, b"b", b"2"), (3, b"a", None), (4, b"c", b"3")]
        clock[0] += 999
        store.cleaner.clean("t", 0)
        assert (3, b"a", None) in read_all(store)
        clock[0] += 1
        append(store, "t", 0, build_batch([(b"d", b"4")]))
        store.cleaner.clean("t", 0)
        assert read_all(store) == [(2, b"b", b"2"), (4, b"c", b"3"), (5, b"d", b"4")]


def test_the_cleaner_thread_runs_passes_and_run_publishes_them(tmp_path: Path) -> None:
    with MessageStore.open(StoreConfig(tmp_path, commitlog_segment_bytes=1 << 20, preallocate=False)) as store:
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store)
        assert store.cleaner.run() == ()  # started in the background
        reports = ()
        for _ in range(2_000):
            store.cleaner.wait_for_passes(60)
            reports = store.cleaner.run()
            if reports:
                break
        assert len(reports) == 1 and reports[0].records_kept == KEYS
        assert {key: (offset, value) for offset, key, value in read_all(store) if key is not None} == latest


def test_a_keyless_record_is_refused_by_a_compacted_topic_only(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        store.topics.create("plain", 1)
        with pytest.raises(KeylessRecordError, match="without a key"):
            append(store, "t", 0, build_batch([(b"k", b"1"), (None, b"2")]))
        assert store.records.partition_bounds("t", 0).high_watermark == 0
        append(store, "plain", 0, build_batch([(None, b"2")]))
        store.topics.alter_configs("plain", {"cleanup.policy": "compact,delete"})  # takes effect at once
        with pytest.raises(KeylessRecordError):
            append(store, "plain", 0, build_batch([(None, b"3")]))


def test_a_pass_asked_for_while_one_runs_in_the_background_publishes_that_one_first(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        fill(store)
        assert store.cleaner.run() == ()  # a pass on the cleaner thread
        fill(store, rounds=2)
        latest = {key: (offset, value) for key, (offset, value) in fill(store, rounds=1).items()}
        report = store.cleaner.clean("t", 0)
        assert report is not None
        assert {key: (offset, value) for offset, key, value in read_all(store) if key is not None} == latest
        logs = sorted(p.name for p in (tmp_path / "compacted").rglob("*.log"))
        assert logs == ["00000000000000000002.log"]  # the background pass was generation 1, published first


def test_crash_recovery_after_retention_deleted_the_commitlog_below_a_compacted_log(tmp_path: Path) -> None:
    """A copy of the open store is what a kill -9 leaves (abort marker, ConsumeQueue units still pointing into
    deleted segments): recovery must not take those offsets for lost and move the log start past them."""
    live, crashed = tmp_path / "live", tmp_path / "crashed"
    config = small_config(live, commitlog_segment_bytes=16384, consume_queue_units_per_file=64)
    with MessageStore.open(config) as store:  # a queue file outlives the segments its first units point into
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store)
        store.cleaner.clean("t", 0)
        assert store.retention.enforce().deleted_segments > 0
        store.flush()
        expected = read_all(store)
        shutil.copytree(live, crashed)
    assert (crashed / "abort").exists()
    with MessageStore.open(replace(config, root_dir=crashed)) as store:
        assert store.recovery_report is not None and store.recovery_report.lost_bytes == 0
        assert store.records.partition_bounds("t", 0).log_start_offset == 0
        assert read_all(store) == expected
        assert {key: (offset, value) for offset, key, value in expected if key is not None} == latest


def test_compact_delete_applies_retention_after_compaction(tmp_path: Path) -> None:
    clock = [10_000_000]
    config = small_config(tmp_path, commitlog_segment_bytes=16384, consume_queue_units_per_file=64)
    with MessageStore.open(config, clock=lambda: clock[0]) as store:
        store.topics.create("t", 1, {**COMPACTED, "cleanup.policy": "compact,delete", "retention.ms": "-1"})
        fill(store)
        store.cleaner.clean("t", 0)
        assert store.retention.enforce().deleted_segments > 0  # the CommitLog below the compacted log
        assert store.records.partition_bounds("t", 0).log_start_offset == 0
        high = store.records.partition_bounds("t", 0).high_watermark
        store.topics.alter_configs("t", {"retention.ms": "1000"})  # every record (timestamp 1000) is older
        assert store.retention.enforce().log_start_moves == 1
        assert store.records.partition_bounds("t", 0).log_start_offset == high
        assert store.cleaner.clean("t", 0) is None


def test_two_cleaner_threads_run_passes_on_two_partitions_at_once(tmp_path: Path) -> None:
    config = StoreConfig(tmp_path, commitlog_segment_bytes=1 << 20, preallocate=False, cleaner_threads=2)
    with MessageStore.open(config) as store:
        store.topics.create("t", 2, COMPACTED)
        latest = {partition: fill(store, partition=partition) for partition in (0, 1)}
        for _ in range(10):  # plan a pass, then (one still running) the other partition's
            if store.cleaner.passes_in_flight == 2:
                break
            store.cleaner.run()
        assert store.cleaner.passes_in_flight == 2
        store.cleaner.wait_for_passes(120)
        reports = store.cleaner.run()
        assert sorted(report.partition for report in reports) == [0, 1]
        assert store.cleaner.passes_in_flight == 0
        for partition in (0, 1):
            kept = read_all(store, partition=partition)
            assert {key: (offset, value) for offset, key, value in kept if key is not None} == latest[partition]


def test_run_plans_a_long_pass_in_steps_and_clean_drops_a_plan_half_made(tmp_path: Path) -> None:
    with MessageStore.open(StoreConfig(tmp_path, commitlog_segment_bytes=1 << 20, preallocate=False)) as store:
        store.topics.create("t", 1, COMPACTED)
        fill(store, rounds=250)  # 2,500 batches: three steps of planning
        assert store.cleaner.run() == () and store.cleaner.planning  # one step made, the loop is free
        append(store, "t", 0, build_batch([(b"k0", b"between steps")]))  # past the plan's range
        assert store.cleaner.run() == () and store.cleaner.planning
        assert store.cleaner.clean("t", 0) is not None and not store.cleaner.planning  # dropped, cleaned at once
        latest = fill(store, rounds=150)
        steps = 0
        while store.cleaner.passes_in_flight == 0 and steps < 10:
            store.cleaner.run()
            steps += 1
        assert steps == 3 and not store.cleaner.planning  # 1,501 batches: units read, slices made, the rest
        store.cleaner.wait_for_passes(120)
        assert len(store.cleaner.run()) == 1
        assert {key: (offset, value) for offset, key, value in read_all(store) if key is not None} == latest
