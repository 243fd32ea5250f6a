"""The MessageStore and its records service: appends, reads, time lookups, DeleteRecords, listeners, flush, locking
(topics: ``test_topics.py``)."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

import pytest

from rockafka.core_pyx.recordbatch import read_batch_header, validate_batch, validate_batches
from rockafka.core_pyx.records import read_records
from rockafka.store import (
    AppendResult,
    InvalidRecordsError,
    MessageStore,
    OffsetOutOfRangeError,
    RecordTooLargeError,
    StoreClosedError,
    StoreLockedError,
    TimestampOffset,
    UnknownTopicOrPartitionError,
)

from .helpers import CODECS, append, build_batch, decoded, small_config, with_base_offset


def test_append_assigns_offsets_and_stores_the_batch_unchanged_but_for_its_base_offset(store: MessageStore) -> None:
    store.topics.create("t", 2)
    first = build_batch([(b"a", b"1"), (b"b", b"2")])
    second = build_batch([(None, b"3")])
    result = append(store, "t", 1, first, second)
    assert (result.base_offset, result.last_offset, result.high_watermark) == (0, 2, 3)
    assert result.log_append_time_ms is None and result.durable is None
    assert result.size_bytes == len(first) + len(second)
    read = store.records.read("t", 1, 0, 1 << 20)
    assert [bytes(b) for b in read.batches] == [with_base_offset(first, 0), with_base_offset(second, 2)]
    assert (read.next_offset, read.high_watermark, read.log_start_offset) == (3, 3, 0)
    validate_batch(read.batches[1])  # the CRC still holds: the base offset is outside it
    assert store.records.read("t", 0, 0, 100).batches == ()


def test_mid_batch_fetch_gets_the_whole_batch_and_the_first_batch_comes_even_if_too_big(store: MessageStore) -> None:
    store.topics.create("t", 1)
    big = build_batch([(None, b"x" * 2000)] * 3)
    append(store, "t", 0, big, build_batch([(None, b"y")]))
    read = store.records.read("t", 0, 1, max_bytes=10)
    assert len(read.batches) == 1 and read_batch_header(read.batches[0]).base_offset == 0
    assert read.next_offset == 3
    assert store.records.read("t", 0, 3, max_bytes=10).next_offset == 4
    assert store.records.read("t", 0, 4, 100).batches == ()


def test_reads_outside_the_log_raise_offset_out_of_range(store: MessageStore) -> None:
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(None, b"1")] * 5))
    with pytest.raises(OffsetOutOfRangeError) as caught:
        store.records.read("t", 0, 6, 100)
    assert (caught.value.log_start_offset, caught.value.high_watermark) == (0, 5)
    store.records.delete_records("t", 0, 3)
    with pytest.raises(OffsetOutOfRangeError):
        store.records.read("t", 0, 2, 100)
    assert read_batch_header(store.records.read("t", 0, 3, 100).batches[0]).base_offset == 0  # mid-batch log start


def test_max_offset_bounds_a_read(store: MessageStore) -> None:
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(None, b"1")] * 2), build_batch([(None, b"2")] * 2))
    assert store.records.read("t", 0, 0, 1 << 20, max_offset=2).next_offset == 2
    assert store.records.read("t", 0, 2, 1 << 20, max_offset=2).batches == ()


def test_sequential_reads_follow_the_cursor_across_queue_files(store: MessageStore) -> None:
    store.topics.create("t", 1)
    for i in range(13):  # four units per ConsumeQueue file: several files
        append(store, "t", 0, build_batch([(None, bytes([i]))] * (i % 3 + 1)))
    offset, values = 0, []
    while offset < store.records.partition_offsets("t", 0).high_watermark:
        read = store.records.read("t", 0, offset, 1)
        values += [record[3] for record in decoded(read.batches)]
        offset = read.next_offset
    assert values == [bytes([i]) for i in range(13) for _ in range(i % 3 + 1)]


def test_the_read_cursor_only_serves_the_offset_it_remembers(store: MessageStore) -> None:
    store.topics.create("t", 1)
    for i in range(5):
        append(store, "t", 0, build_batch([(None, bytes([i]))]))
    assert store.records.read("t", 0, 0, 1).next_offset == 1  # the cursor now remembers offset 1
    for offset in (3, 1, 4, 0, 2):
        assert [r[0] for r in decoded(store.records.read("t", 0, offset, 1).batches)] == [offset]


def test_segments_roll_with_a_blank_and_records_never_span_files(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        batches = [build_batch([(None, bytes([i]) * 700)]) for i in range(30)]
        for batch in batches:
            append(store, "t", 0, batch)
        read = store.records.read("t", 0, 0, 1 << 30)
        assert [bytes(b) for b in read.batches] == [with_base_offset(b, i) for i, b in enumerate(batches)]
    segments = sorted((tmp_path / "commitlog").iterdir())
    assert len(segments) > 2 and all(p.stat().st_size == 8192 for p in segments)
    assert [int(p.name) for p in segments] == [8192 * i for i in range(len(segments))]


def test_log_append_time_rewrites_max_timestamp_and_crc(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path), clock=lambda: 777_000) as store:
        store.topics.create("lat", 1, {"message.timestamp.type": "LogAppendTime"})
        result = append(store, "lat", 0, build_batch([(b"k", b"v")] * 2, timestamps=[5, 6]))
        assert result.log_append_time_ms == 777_000
        header = validate_batch(store.records.read("lat", 0, 0, 100).batches[0])
        assert header.is_log_append_time and header.max_timestamp == 777_000
        assert store.records.offset_for_timestamp("lat", 0, 700_000) == TimestampOffset(0, 777_000)


@pytest.mark.parametrize("codec", sorted(CODECS))
def test_offset_for_timestamp_finds_the_exact_record_inside_a_batch(store: MessageStore, codec: str) -> None:
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(None, b"a")] * 4, timestamps=[10, 30, 20, 40], codec=CODECS[codec]))
    append(store, "t", 0, build_batch([(None, b"b")] * 3, timestamps=[35, 50, 45], codec=CODECS[codec]))
    assert store.records.offset_for_timestamp("t", 0, 25) == TimestampOffset(1, 30)
    assert store.records.offset_for_timestamp("t", 0, 41) == TimestampOffset(5, 50)
    assert store.records.offset_for_timestamp("t", 0, 0) == TimestampOffset(0, 10)
    assert store.records.offset_for_timestamp("t", 0, 51) is None
    assert store.records.max_timestamp("t", 0) == TimestampOffset(5, 50)
    store.records.delete_records("t", 0, 2)
    assert store.records.offset_for_timestamp("t", 0, 25) == TimestampOffset(3, 40)


def test_max_timestamp_below_the_log_start_is_not_reported(store: MessageStore) -> None:
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(None, b"a")] * 2, timestamps=[100, 5]))
    append(store, "t", 0, build_batch([(None, b"b")] * 2, timestamps=[7, 9]))
    assert store.records.max_timestamp("t", 0) == TimestampOffset(0, 100)
    store.records.delete_records("t", 0, 1)
    assert store.records.max_timestamp("t", 0) == TimestampOffset(3, 9)
    assert store.records.max_timestamp("t", 0) is not None
    store.records.delete_records("t", 0, -1)
    assert store.records.max_timestamp("t", 0) is None and store.records.offset_for_timestamp("t", 0, 0) is None


def test_delete_records_moves_the_log_start_and_it_persists(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(None, b"1")] * 10))
        assert store.records.delete_records("t", 0, 4) == 4
        assert store.records.delete_records("t", 0, 2) == 4  # never backwards
        with pytest.raises(OffsetOutOfRangeError):
            store.records.delete_records("t", 0, 11)
    with MessageStore.open(config) as store:
        offsets = store.records.partition_offsets("t", 0)
        assert (offsets.log_start_offset, offsets.high_watermark) == (4, 10)
        assert store.records.delete_records("t", 0, -1) == 10
        assert store.records.read("t", 0, 10, 100).batches == ()


def test_unknown_partitions_and_bad_batches_are_refused(store: MessageStore) -> None:
    store.topics.create("t", 1, {"max.message.bytes": "200"})
    batch = build_batch([(None, b"v")])
    with pytest.raises(UnknownTopicOrPartitionError):
        append(store, "t", 1, batch)
    with pytest.raises(UnknownTopicOrPartitionError):
        append(store, "nope", 0, batch)
    with pytest.raises(InvalidRecordsError):
        store.records.append("t", 0, batch, [])
    with pytest.raises(InvalidRecordsError):
        store.records.append("t", 0, batch[:-1], validate_batches(batch))
    with pytest.raises(RecordTooLargeError):
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
    store.topics.alter_configs("t", {"max.message.bytes": "100000"})
    with pytest.raises(RecordTooLargeError):  # larger than an 8 KiB segment
        append(store, "t", 0, build_batch([(None, b"v" * 9000)]))
    assert store.records.partition_offsets("t", 0).high_watermark == 0


def test_append_listeners_run_on_append(store: MessageStore) -> None:
    store.topics.create("t", 1)
    seen: list[AppendResult] = []
    store.records.add_append_listener(seen.append)
    append(store, "t", 0, build_batch([(None, b"1")] * 3))
    store.records.remove_append_listener(seen.append)
    append(store, "t", 0, build_batch([(None, b"2")]))
    assert [(r.topic, r.partition, r.base_offset, r.last_offset) for r in seen] == [("t", 0, 0, 2)]


def test_sync_flush_hands_back_a_future_completed_after_fsync(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, flush_mode="sync")) as store:
        store.topics.create("t", 1)
        result = append(store, "t", 0, build_batch([(None, b"1")]))
        assert isinstance(result.durable, Future)
        assert result.durable.result(timeout=10) is None
        from rockafka.store import OffsetCommit

        commit = store.offsets.commit("g", [OffsetCommit("t", 0, 1)])
        assert commit is not None and commit.result(timeout=10) is None


def test_a_cancelled_awaiter_leaves_the_shared_durability_future_alone(tmp_path: Path) -> None:
    import asyncio

    with MessageStore.open(small_config(tmp_path, flush_mode="sync", flush_interval_ms=1000)) as store:
        store.topics.create("t", 1)

        async def scenario() -> None:
            first = append(store, "t", 0, build_batch([(None, b"1")])).durable
            second = append(store, "t", 0, build_batch([(None, b"2")])).durable
            impatient, patient = asyncio.wrap_future(first), asyncio.wrap_future(second)
            impatient.cancel()
            await asyncio.wait_for(patient, timeout=10)
            assert not first.cancelled() and first.result() is None

        asyncio.run(scenario())
        assert append(store, "t", 0, build_batch([(None, b"3")])).durable.result(timeout=10) is None


def test_partition_offsets_report_sizes(store: MessageStore) -> None:
    store.topics.create("t", 1)
    batches = [build_batch([(None, b"v" * n)]) for n in (10, 20, 30)]
    append(store, "t", 0, *batches)
    assert store.records.partition_offsets("t", 0).size_bytes == sum(map(len, batches))
    store.records.delete_records("t", 0, 1)
    assert store.records.partition_offsets("t", 0).size_bytes == len(batches[1]) + len(batches[2])


def test_a_second_open_of_the_same_directory_is_refused(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)), pytest.raises(StoreLockedError):
        MessageStore.open(small_config(tmp_path))
    MessageStore.open(small_config(tmp_path)).close()  # released on close


def test_a_closed_store_refuses_calls(tmp_path: Path) -> None:
    store = MessageStore.open(small_config(tmp_path))
    store.close()
    store.close()
    with pytest.raises(StoreClosedError):
        store.topics.list()


def test_geometry_recorded_at_creation_wins(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        for i in range(20):
            append(store, "t", 0, build_batch([(None, bytes([i]) * 500)]))
    with MessageStore.open(small_config(tmp_path, commitlog_segment_bytes=1 << 20)) as store:
        assert len(decoded(store.records.read("t", 0, 0, 1 << 30).batches)) == 20
        append(store, "t", 0, build_batch([(None, b"later")]))
    assert all(p.stat().st_size == 8192 for p in (tmp_path / "commitlog").iterdir())


def test_query_by_key_finds_records_newest_first(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path), clock=iter(range(1000, 10**9, 1000)).__next__) as store:
        store.topics.create("t", 2)
        store.topics.create("u", 1)
        for i in range(12):
            append(store, "t", i % 2, build_batch([(b"k%d" % (i % 3), b"v%d" % i), (b"other", b"o")]))
        append(store, "u", 0, build_batch([(b"k0", b"not t")]))
        store.flush()
        _wait_for_index(store, "u", b"k0")
        found = store.keys.query("t", b"k0")
        assert [r.value for r in found] == [b"v9", b"v6", b"v3", b"v0"]
        assert [(r.partition, r.offset) for r in found] == [(1, 8), (0, 6), (1, 2), (0, 0)]
        assert [r.value for r in store.keys.query("t", b"k0", limit=2)] == [b"v9", b"v6"]
        window = store.keys.query("t", b"k0", begin_ms=4000, end_ms=7000)
        assert [r.value for r in window] == [b"v6", b"v3"]
        assert store.keys.query("t", b"missing") == []
        store.records.delete_records("t", 0, 5)
        assert [r.value for r in store.keys.query("t", b"k0")] == [b"v9", b"v6", b"v3"]


def _wait_for_index(store: MessageStore, topic: str, key: bytes) -> None:
    import time

    deadline = time.monotonic() + 10
    while not store.keys.query(topic, key):
        assert time.monotonic() < deadline, "the index thread did not catch up"
        time.sleep(0.01)


def test_records_decode_after_a_restart(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(b"k", b"v")] * 3, codec=CODECS["zstd"]))
    with MessageStore.open(config) as store:
        records = read_records(store.records.read("t", 0, 0, 1 << 20).batches[0])
        assert [(r.offset, r.key, r.value) for r in records] == [(i, b"k", b"v") for i in range(3)]
        assert store.recovery_report is not None and store.recovery_report.clean_shutdown
