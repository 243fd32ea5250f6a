"""``StoreReader.transactions``: the last stable offset and aborted ranges of a partition, read from a live store's
files without its lock, equal to what the broker's own tracker holds (and to a model computed from the log)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rockafka.store import MessageStore
from rockafka.store.reader import AbortedRange, StoreReader

from .helpers import append, build_batch, small_config
from .txn_helpers import model_of_log, put, txn_batch


def _marker(store: MessageStore, pid: int, partition: int, *, commit: bool) -> int:
    result = store.records.write_transaction_marker(
        "t", partition, producer_id=pid, producer_epoch=0, coordinator_epoch=1, commit=commit
    )
    return result.base_offset


def _transactions(store: MessageStore, rounds: int) -> None:
    """Commits, aborts interleaved with other producers' records, and producer 3 left open on partition 1."""
    for round_number in range(rounds):
        for pid in (1, 2, 3):
            put(store, "t", pid % 2, txn_batch(pid, 2, sequence=2 * round_number))
        append(store, "t", 1, build_batch([(b"plain", b"x")]))
        _marker(store, 1, 1, commit=round_number != 1)
        _marker(store, 2, 0, commit=False)
        if round_number < rounds - 1:
            _marker(store, 3, 1, commit=True)
    append(store, "t", 1, build_batch([(b"after", b"y")]))


def test_a_reader_of_a_live_store_sees_the_brokers_lso_and_aborted_ranges(tmp_path: Path) -> None:
    config = small_config(tmp_path / "s", offsets_compact_bytes=1024)
    log = tmp_path / "s" / "config" / "transactions.log"
    with MessageStore.open(config) as store:
        store.topics.create("t", 2)
        _transactions(store, 12)
        assert log.stat().st_size < 12 * 5 * 50  # compacted on the way (some 5 frames of 50+ bytes a round)
        with StoreReader(tmp_path / "s") as reader:
            for partition in (0, 1):
                model = model_of_log(store, "t", partition)
                seen = reader.transactions("t", partition)
                assert seen.last_stable_offset == store.records.last_stable_offset("t", partition) == model.lso()
                assert [(r.producer_id, r.first_offset, r.last_offset) for r in seen.aborted] == model.aborted
        assert store.transactions.open("t", 1)  # the open one holds partition 1's LSO below its high watermark
        assert seen.last_stable_offset < store.records.partition_offsets("t", 1).high_watermark

    first, last = model.aborted[0][1:]
    assert seen.aborted[0] == AbortedRange(1, first, last)
    assert seen.is_aborted(1, first) and seen.is_aborted(1, last - 1)
    assert not seen.is_aborted(3, first + 2)  # another producer's batch inside the range
    assert not seen.is_aborted(1, last + 1)


def test_a_transactional_unit_whose_frame_is_not_written_yet_holds_the_lso(tmp_path: Path) -> None:
    config = small_config(tmp_path / "s")
    with MessageStore.open(config) as store:
        store.topics.create("t", 2)
        put(store, "t", 0, txn_batch(7, 2))
        _marker(store, 7, 0, commit=True)
        append(store, "t", 0, build_batch([(b"plain", b"x")]))
        begun = put(store, "t", 0, txn_batch(8, 3)).base_offset  # the last record: its BEGIN frame is the log's last
        high_watermark = store.records.partition_offsets("t", 0).high_watermark
    # The moment between the unit's write and its frame's: the same files without the last frame.
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "s", copy)
    log = copy / "config" / "transactions.log"
    data = log.read_bytes()
    begin_frame = 8 + 1 + 16 + 4 + 8 + 2 + 8 + 8
    log.write_bytes(data[:-begin_frame])

    with StoreReader(tmp_path / "s") as reader:
        assert reader.transactions("t", 0).last_stable_offset == begun
    with StoreReader(copy) as reader:
        assert reader.transactions("t", 0).last_stable_offset == begun  # not the high watermark
        assert reader.transactions("t", 1).last_stable_offset == 0
    assert high_watermark == begun + 3
