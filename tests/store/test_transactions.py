"""Transactions in the store: markers, open transactions, the last stable offset, the aborted index, restarts."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from kafka.record.default_records import DefaultRecordBatch

from rockafka.core_pyx.recordbatch import validate_batch
from rockafka.store import (
    AbortedTransaction,
    MessageStore,
    OpenTransaction,
    PartitionBounds,
    UnknownTopicOrPartitionError,
)
from rockafka.store.control import MARKER_SIZE, Marker, marker_batch, read_marker

from .helpers import append, build_batch, small_config
from .txn_helpers import assert_tracker_matches, model_of_log, put, txn_batch


@pytest.fixture
def store(tmp_path: Path) -> MessageStore:
    opened = MessageStore.open(small_config(tmp_path / "s"))
    opened.topics.create("t", 2)
    yield opened
    opened.close()


def marker(
    store: MessageStore, pid: int, *, commit: bool, partition: int = 0, epoch: int = 0, coordinator: int = 7
) -> int:
    result = store.records.write_transaction_marker(
        "t", partition, producer_id=pid, producer_epoch=epoch, coordinator_epoch=coordinator, commit=commit
    )
    assert result.base_offset == result.last_offset
    return result.base_offset


@pytest.mark.parametrize("commit", [True, False])
def test_a_marker_is_a_valid_control_batch_that_kafka_python_reads(commit: bool) -> None:
    data = marker_batch(producer_id=42, producer_epoch=3, coordinator_epoch=9, commit=commit, timestamp=123456)
    header = validate_batch(data)  # CRC-32C, lengths, counts
    assert len(data) == MARKER_SIZE == 78 == header.size
    assert (header.attributes, header.producer_id, header.producer_epoch, header.base_sequence) == (0x30, 42, 3, -1)
    assert (header.record_count, header.last_offset_delta, header.max_timestamp) == (1, 0, 123456)
    batch = DefaultRecordBatch(data)
    assert batch.is_control_batch and batch.is_transactional and batch.validate_crc()
    (record,) = list(batch)
    assert (record.version, record.type) == (0, 1 if commit else 0)
    assert struct.unpack(">hi", record.value) == (0, 9)
    assert read_marker(memoryview(data)) == Marker(commit, 9)


def test_a_control_batch_without_a_marker_key_is_not_a_marker() -> None:
    assert read_marker(memoryview(build_batch([(b"x", b"y")]))) is None
    assert read_marker(memoryview(build_batch([(None, b"y")]))) is None


def test_the_first_transactional_batch_opens_a_transaction_and_holds_the_lso(store: MessageStore) -> None:
    append(store, "t", 0, build_batch([(b"a", b"1"), (b"b", b"2")]))
    assert store.records.last_stable_offset("t", 0) == 2
    put(store, "t", 0, txn_batch(5, 3))
    put(store, "t", 0, txn_batch(5, 1, sequence=3))
    append(store, "t", 0, build_batch([(b"c", b"3")]))
    assert store.transactions.open("t", 0) == (OpenTransaction(5, 0, 2),)
    assert store.records.last_stable_offset("t", 0) == 2
    assert store.records.partition_offsets("t", 0).high_watermark == 7
    assert store.records.partition_bounds("t", 0) == PartitionBounds(
        high_watermark=7, last_stable_offset=2, log_start_offset=0
    )
    assert store.records.last_stable_offset("t", 1) == 0 and store.transactions.open("t", 1) == ()
    assert marker(store, 5, commit=True) == 7
    assert store.transactions.open("t", 0) == ()
    assert store.records.last_stable_offset("t", 0) == 8
    store.records.delete_records("t", 0, 3)
    assert store.records.partition_bounds("t", 0) == PartitionBounds(
        high_watermark=8, last_stable_offset=8, log_start_offset=3
    )
    assert store.transactions.aborted("t", 0, 0, 8) == ()


def test_an_abort_adds_a_range_ending_at_its_marker(store: MessageStore) -> None:
    put(store, "t", 0, txn_batch(5, 2))  # 0-1
    put(store, "t", 0, txn_batch(6, 2))  # 2-3
    put(store, "t", 0, txn_batch(5, 1, sequence=2))  # 4
    assert store.records.last_stable_offset("t", 0) == 0
    assert marker(store, 5, commit=False) == 5
    assert store.records.last_stable_offset("t", 0) == 2  # producer 6 still open
    assert marker(store, 6, commit=True) == 6
    assert store.records.last_stable_offset("t", 0) == 7
    assert store.transactions.aborted("t", 0, 0, 7) == (AbortedTransaction(5, 0),)
    assert store.transactions.aborted("t", 0, 5, 7) == (AbortedTransaction(5, 0),)  # the marker is in the range
    assert store.transactions.aborted("t", 0, 6, 7) == ()
    assert store.transactions.aborted("t", 0, 0, 0) == ()
    assert store.transactions.coordinator_epochs("t", 0) == {5: 7, 6: 7}


def test_a_marker_without_an_open_transaction_aborts_nothing(store: MessageStore) -> None:
    append(store, "t", 0, build_batch([(b"a", b"1")]))
    assert marker(store, 9, commit=False) == 1
    assert store.transactions.aborted("t", 0, 0, 2) == ()
    assert store.records.last_stable_offset("t", 0) == 2
    put(store, "t", 0, txn_batch(9, 1, epoch=1))  # the producer's next transaction opens normally
    assert store.transactions.open("t", 0) == (OpenTransaction(9, 1, 2),)


def test_idempotent_non_transactional_batches_open_nothing(store: MessageStore) -> None:
    put(store, "t", 0, txn_batch(5, 2, transactional=False))
    assert store.transactions.open("t", 0) == () and store.records.last_stable_offset("t", 0) == 2


def test_aborted_ranges_are_found_by_overlap_however_long(store: MessageStore) -> None:
    put(store, "t", 0, txn_batch(1, 1))  # 0: a long transaction, aborted last
    for pid in range(2, 12):  # short ones, each aborted at once
        put(store, "t", 0, txn_batch(pid, 2))
        marker(store, pid, commit=pid % 2 == 0)
    marker(store, 1, commit=False)
    model = model_of_log(store, "t", 0)
    assert len(model.aborted) == 6
    assert_tracker_matches(store, "t", 0, model)


def test_partitions_and_the_wakeup_listener_see_markers(store: MessageStore) -> None:
    seen = []
    store.records.add_append_listener(seen.append)
    put(store, "t", 1, txn_batch(5, 1))
    marker(store, 5, commit=True, partition=1)
    assert [(r.partition, r.base_offset) for r in seen] == [(1, 0), (1, 1)]
    assert store.records.last_stable_offset("t", 0) == 0 and store.records.last_stable_offset("t", 1) == 2


def test_unknown_partitions_raise(store: MessageStore) -> None:
    with pytest.raises(UnknownTopicOrPartitionError):
        store.records.write_transaction_marker(
            "t", 5, producer_id=1, producer_epoch=0, coordinator_epoch=0, commit=True
        )
    with pytest.raises(UnknownTopicOrPartitionError):
        store.records.last_stable_offset("nope", 0)
    with pytest.raises(UnknownTopicOrPartitionError):
        store.transactions.aborted("t", 2, 0, 1)
    with pytest.raises(UnknownTopicOrPartitionError):
        store.transactions.open("nope", 0)


def _scenario(store: MessageStore) -> None:
    for round_number in range(4):
        for pid in (1, 2, 3):
            put(store, "t", pid % 2, txn_batch(pid, 2, epoch=round_number))
        append(store, "t", 0, build_batch([(b"plain", b"x")]))
        marker(store, 1, commit=round_number % 2 == 0, partition=1, epoch=round_number)
        marker(store, 2, commit=False, partition=0, epoch=round_number)
    put(store, "t", 1, txn_batch(3, 1, epoch=9))  # already open on partition 1: nothing new


def test_everything_survives_a_clean_restart(tmp_path: Path) -> None:
    config = small_config(tmp_path / "s")
    with MessageStore.open(config) as store:
        store.topics.create("t", 2)
        _scenario(store)
        before = {p: model_of_log(store, "t", p) for p in (0, 1)}
        for p in (0, 1):
            assert_tracker_matches(store, "t", p, before[p])
        epochs = store.transactions.coordinator_epochs("t", 0)
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and report.redispatched_batches == 0
        for p in (0, 1):
            assert_tracker_matches(store, "t", p, before[p])
        assert store.transactions.coordinator_epochs("t", 0) == epochs
        assert store.transactions.open("t", 1) == (OpenTransaction(3, 0, 2),)


def test_the_log_compacts_and_still_rebuilds_the_state(tmp_path: Path) -> None:
    config = small_config(tmp_path / "s", offsets_compact_bytes=1024)
    log = tmp_path / "s" / "config" / "transactions.log"
    with MessageStore.open(config) as store:
        store.topics.create("t", 2)
        sizes = []
        for _ in range(6):
            _scenario(store)
            sizes.append(log.stat().st_size)
        assert sizes != sorted(sizes)  # compacted on the way
        models = {p: model_of_log(store, "t", p) for p in (0, 1)}
        epochs = store.transactions.coordinator_epochs("t", 0)
    with MessageStore.open(config) as store:
        for p in (0, 1):
            assert_tracker_matches(store, "t", p, models[p])
        assert store.transactions.coordinator_epochs("t", 0) == epochs


def test_delete_records_drops_aborted_ranges_wholly_below_the_log_start(tmp_path: Path) -> None:
    config = small_config(tmp_path / "s")
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        put(store, "t", 0, txn_batch(1, 2))  # 0-1
        marker(store, 1, commit=False)  # 2
        put(store, "t", 0, txn_batch(2, 2))  # 3-4
        marker(store, 2, commit=False)  # 5
        assert store.transactions.aborted("t", 0, 0, 6) == (AbortedTransaction(1, 0), AbortedTransaction(2, 3))
        store.records.delete_records("t", 0, 3)
        assert store.transactions.aborted("t", 0, 0, 6) == (AbortedTransaction(2, 3),)
        store.records.delete_records("t", 0, 5)  # the range [3, 5] ends at the log start: kept
        assert store.transactions.aborted("t", 0, 5, 6) == (AbortedTransaction(2, 3),)
    with MessageStore.open(config) as store:
        assert store.transactions.aborted("t", 0, 0, 6) == (AbortedTransaction(2, 3),)


def test_retention_drops_aborted_ranges_and_clamps_the_lso(tmp_path: Path) -> None:
    config = small_config(tmp_path / "s")
    with MessageStore.open(config) as store:
        store.topics.create("t", 1, {"retention.bytes": "1"})
        put(store, "t", 0, txn_batch(1, 2))
        marker(store, 1, commit=False)
        put(store, "t", 0, txn_batch(2, 1))  # open at 3
        append(store, "t", 0, build_batch([(b"x", b"y")]))
        assert store.records.last_stable_offset("t", 0) == 3
        store.retention.enforce()
        assert store.records.partition_offsets("t", 0).log_start_offset == 5  # retention.bytes 1: nothing kept
        assert store.transactions.aborted("t", 0, 0, 5) == ()
        assert store.records.last_stable_offset("t", 0) == 5  # never below the log start
    with MessageStore.open(config) as store:
        assert store.transactions.aborted("t", 0, 0, 5) == ()
        assert store.transactions.open("t", 0) == (OpenTransaction(2, 0, 3),)


def test_a_deleted_topic_takes_its_transactions_along(store: MessageStore) -> None:
    put(store, "t", 0, txn_batch(1, 1))
    store.topics.delete("t")
    store.topics.create("t", 1)
    assert store.transactions.open("t", 0) == () and store.records.last_stable_offset("t", 0) == 0


def test_a_marker_on_a_log_append_time_topic_is_restamped_and_still_read(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path / "s"), clock=lambda: 777_000) as store:
        store.topics.create("lat", 1, {"message.timestamp.type": "LogAppendTime"})
        put(store, "lat", 0, txn_batch(4, 1))
        result = store.records.write_transaction_marker(
            "lat", 0, producer_id=4, producer_epoch=0, coordinator_epoch=2, commit=False
        )
        assert result.log_append_time_ms == 777_000
        (stored,) = store.records.read("lat", 0, 1, 1 << 20).batches
        header = validate_batch(stored)  # the CRC was recomputed
        assert header.max_timestamp == 777_000 and header.attributes == 0x30 | 0x08
        assert read_marker(stored) == Marker(False, 2)
        assert store.transactions.aborted("lat", 0, 0, 2) == (AbortedTransaction(4, 0),)
