"""Leader epochs in the store: the epoch file (``epochfile.py``), the stamp on every appended batch, recovery and
the answers of OffsetForLeaderEpoch (``epochs.py``), on real store directories."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from rockafka.store import CorruptStoreError, MessageStore
from rockafka.store.epochfile import FILE_NAME, NO_EPOCH, EpochEntry, EpochFile, EpochOrderError
from rockafka.store.epochs import EpochEndOffset, end_offset_for, epoch_at, from_log_start

from .helpers import append, build_batch, small_config

UNDEFINED = EpochEndOffset(-1, -1)


def epoch_path(root: Path) -> Path:
    return root / "config" / FILE_NAME


def stamped_epoch(store: MessageStore, topic: str, partition: int, offset: int) -> int:
    batch = store.records.read(topic, partition, offset, 1 << 20).batches[0]
    value: int = struct.unpack_from(">i", batch, 12)[0]
    return value


# --- the file ---


def test_a_new_epoch_file_is_written_whole_and_read_back(tmp_path: Path) -> None:
    file = EpochFile(tmp_path / FILE_NAME)
    file.load()
    assert (file.entries, file.current, file.found) == ((), NO_EPOCH, False)
    file.begin(0, 0)
    file.begin(3, 4096)
    again = EpochFile(tmp_path / FILE_NAME)
    again.load()
    assert again.entries == (EpochEntry(0, 0), EpochEntry(3, 4096)) and again.current == 3
    assert json.loads((tmp_path / FILE_NAME).read_text()) == {"version": 1, "epochs": [[0, 0], [3, 4096]]}


@pytest.mark.parametrize(("epoch", "start"), [(3, 5000), (2, 5000), (4, 4000), (-1, 9000)])
def test_an_epoch_out_of_order_is_refused_and_nothing_changes(tmp_path: Path, epoch: int, start: int) -> None:
    file = EpochFile(tmp_path / FILE_NAME)
    file.begin(0, 0)
    file.begin(3, 4096)
    with pytest.raises(EpochOrderError):
        file.begin(epoch, start)
    again = EpochFile(tmp_path / FILE_NAME)
    again.load()
    assert again.entries == file.entries == (EpochEntry(0, 0), EpochEntry(3, 4096))


def test_cut_after_keeps_an_epoch_starting_at_the_end(tmp_path: Path) -> None:
    file = EpochFile(tmp_path / FILE_NAME)
    for epoch, start in [(0, 0), (1, 100), (2, 200), (3, 300)]:
        file.begin(epoch, start)
    file.cut_after(200)
    assert file.entries == (EpochEntry(0, 0), EpochEntry(1, 100), EpochEntry(2, 200)) and file.current == 2


@pytest.mark.parametrize(
    "document",
    [
        [1, 2],
        {"version": 2, "epochs": []},
        {"version": 1},
        {"version": 1, "epochs": [[0]]},
        {"version": 1, "epochs": [["0", 0]]},
        {"version": 1, "epochs": [[1, 0], [1, 10]]},
        {"version": 1, "epochs": [[1, 10], [2, 5]]},
    ],
)
def test_a_bad_document_falls_back_to_the_bak_then_fails_naming_the_file(tmp_path: Path, document: object) -> None:
    path = tmp_path / FILE_NAME
    file = EpochFile(path)
    file.begin(0, 0)
    file.begin(1, 64)  # the first version is now the .bak
    path.write_text(json.dumps(document))
    again = EpochFile(path)
    again.load()
    assert again.entries == (EpochEntry(0, 0),)
    path.with_name(FILE_NAME + ".bak").write_text(json.dumps(document))
    with pytest.raises(CorruptStoreError, match=FILE_NAME):
        EpochFile(path).load()


# --- Kafka's end offset rules, by shape ---


@pytest.mark.parametrize(
    ("history", "requested", "expected"),
    [
        ([], 0, UNDEFINED),  # no epoch at all
        ([(0, 0)], -1, UNDEFINED),  # no epoch asked
        ([(0, 0)], 0, EpochEndOffset(0, 42)),  # the current epoch: the log end
        ([(0, 0), (2, 10), (5, 30)], 5, EpochEndOffset(5, 42)),
        ([(0, 0), (2, 10), (5, 30)], 2, EpochEndOffset(2, 30)),  # an older one: where the next began
        ([(0, 0), (2, 10), (5, 30)], 3, EpochEndOffset(2, 30)),  # one the partition never had: the floor's answer
        ([(0, 0), (2, 10), (5, 30)], 6, UNDEFINED),  # newer than every epoch known
        ([(2, 10), (5, 30)], 1, EpochEndOffset(1, 10)),  # older than every epoch: where the first began
    ],
)
def test_end_offset_for(history: list[tuple[int, int]], requested: int, expected: EpochEndOffset) -> None:
    assert end_offset_for(history, requested, 42) == expected


@pytest.mark.parametrize(
    ("log_start", "expected"),
    [
        (0, [(0, 0), (2, 10), (5, 30)]),
        (5, [(0, 5), (2, 10), (5, 30)]),
        (10, [(2, 10), (5, 30)]),
        (20, [(2, 20), (5, 30)]),
        (40, [(5, 40)]),
    ],
)
def test_epochs_below_the_log_start_give_way_to_the_newest_of_them(
    log_start: int, expected: list[tuple[int, int]]
) -> None:
    assert from_log_start([(0, 0), (2, 10), (5, 30)], log_start) == expected


@pytest.mark.parametrize(
    ("offset", "expected"),
    [(-1, NO_EPOCH), (9, NO_EPOCH), (10, 2), (29, 2), (30, 5), (1000, 5)],
)
def test_the_epoch_of_an_offset_is_the_newest_that_starts_at_or_below_it(offset: int, expected: int) -> None:
    assert epoch_at([(2, 10), (5, 30)], offset) == expected


def test_the_epoch_of_each_offset_in_a_store(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(None, b"a")] * 3))
        store.epochs.begin(2)
        append(store, "t", 0, build_batch([(None, b"b")] * 2))
        assert [store.epochs.epoch_of_offset("t", 0, offset) for offset in range(6)] == [0, 0, 0, 2, 2, 2]
        store.records.delete_records("t", 0, 4)
        assert store.epochs.epoch_of_offset("t", 0, 4) == 2


def test_after_delete_records_an_older_epoch_ends_where_the_log_now_starts(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(None, b"a")] * 3))
        store.epochs.begin(2)
        append(store, "t", 0, build_batch([(None, b"b")] * 3))
        store.epochs.begin(5)
        append(store, "t", 0, build_batch([(None, b"c")]))
        assert store.epochs.end_offset("t", 0, 1) == EpochEndOffset(0, 3)
        store.records.delete_records("t", 0, 4)
        assert store.epochs.history("t", 0) == [(2, 4), (5, 6)]
        assert store.epochs.end_offset("t", 0, 1) == EpochEndOffset(1, 4)  # older than every epoch still known
        assert store.epochs.end_offset("t", 0, 2) == EpochEndOffset(2, 6)


# --- in a store ---


def test_a_new_store_is_at_epoch_0_and_stamps_it_into_every_batch(tmp_path: Path) -> None:
    batch = bytearray(build_batch([(b"k", b"v"), (None, b"w")]))
    struct.pack_into(">i", batch, 12, -1)  # as the Java client and librdkafka send it
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, bytes(batch))
        store.records.write_transaction_marker(
            "t", 0, producer_id=7, producer_epoch=0, coordinator_epoch=0, commit=True
        )
        assert store.epochs.current == 0 and store.epochs.entries() == (EpochEntry(0, 0),)
        assert stamped_epoch(store, "t", 0, 0) == 0
        assert stamped_epoch(store, "t", 0, 2) == 0  # the marker too
    assert json.loads(epoch_path(tmp_path).read_text())["epochs"] == [[0, 0]]


def test_a_new_epoch_is_stamped_from_the_log_end_and_survives_a_restart(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 2)
        first = append(store, "t", 0, build_batch([(None, b"a")] * 3))
        end = store.stats().commitlog_bytes
        store.epochs.begin(4)
        append(store, "t", 0, build_batch([(None, b"b")]))
        append(store, "t", 1, build_batch([(None, b"c")]))
        with pytest.raises(EpochOrderError):
            store.epochs.begin(4)
    with MessageStore.open(config) as store:
        assert store.epochs.entries() == (EpochEntry(0, 0), EpochEntry(4, end))
        assert [stamped_epoch(store, "t", 0, o) for o in (first.base_offset, 3)] == [0, 4]
        assert store.epochs.history("t", 0) == [(0, 0), (4, 3)]
        assert store.epochs.history("t", 1) == [(4, 0)]  # no batch in epoch 0: only the newer epoch
        assert store.epochs.end_offset("t", 0, 0) == EpochEndOffset(0, 3)
        assert store.epochs.end_offset("t", 0, 4) == EpochEndOffset(4, 4)
        assert store.epochs.end_offset("t", 1, 0) == EpochEndOffset(0, 0)
        assert store.epochs.end_offset("t", 1, 5) == UNDEFINED


def test_a_store_from_before_epochs_begins_epoch_0_at_its_first_offset(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(None, b"a")]))
    epoch_path(tmp_path).unlink()
    with MessageStore.open(config) as store:
        assert store.epochs.entries() == (EpochEntry(0, 0),)
        assert store.epochs.end_offset("t", 0, 0) == EpochEndOffset(0, 1)


def test_recovery_drops_epochs_that_start_past_the_recovered_end(tmp_path: Path) -> None:
    """A crash after an epoch was recorded past where the CommitLog now ends (its tail torn off)."""
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(None, b"a")]))
        end = store.stats().commitlog_bytes
        store.epochs.begin(1)
    file = EpochFile(epoch_path(tmp_path))
    file.load()
    file.begin(2, end + 10_000)  # as if the log had reached there before the crash
    with MessageStore.open(config) as store:
        assert store.epochs.entries() == (EpochEntry(0, 0), EpochEntry(1, end))
        assert store.epochs.current == 1
