"""A follower's store copying its leader's CommitLog (``replica.py``): two real store directories, the leader's
bytes read from its segment files, appended to the follower at the same physical offsets; every partition then
reads back identically, epochs included, and after a restart too."""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path

import pytest

from rockafka.store import MessageStore, ReplicaOnlyError
from rockafka.store.replica import InvalidReplicaDataError

from .helpers import append, build_batch, small_config
from .txn_helpers import put, txn_batch

TOPIC_ID = uuid.UUID(int=0x1234)


def leader_store(root: Path) -> tuple[list[int], bytes]:
    """A leader that wrote across several 8 KiB segments, in two epochs, a transaction included; the record
    boundaries after each append and the CommitLog's bytes up to its end, read from its files."""
    boundaries = [0]
    with MessageStore.open(small_config(root)) as store:
        store.topics.create("t", 2, topic_id=TOPIC_ID)
        for number in range(40):
            if number == 25:
                store.epochs.begin(4)
            batch = build_batch([(b"k%d" % (number % 5), b"value-%d-" % number + b"x" * 300)] * (1 + number % 3))
            append(store, "t", number % 2, batch)
            boundaries.append(store.stats().commitlog_bytes)
        put(store, "t", 0, txn_batch(11, 2))
        boundaries.append(store.stats().commitlog_bytes)
        assert store.stats().commitlog_segments > 3
    files = sorted((root / "commitlog").iterdir())
    data = b"".join(path.read_bytes() for path in files)[: boundaries[-1]]
    return boundaries, data


def contents(store: MessageStore) -> list[list[bytes]]:
    out = []
    for partition in range(2):
        end = store.records.partition_offsets("t", partition).high_watermark
        batches: list[bytes] = []
        while (offset := sum(_count(b) for b in batches)) < end:
            batches += [bytes(b) for b in store.records.read("t", partition, offset, 1 << 20).batches]
        out.append(batches)
    return out


def _count(batch: bytes) -> int:
    return int.from_bytes(batch[23:27], "big", signed=True) + 1


@pytest.mark.parametrize("pieces", [1, 3, 41])
def test_a_follower_reads_back_what_its_leader_holds(tmp_path: Path, pieces: int) -> None:
    boundaries, data = leader_store(tmp_path / "leader")
    cuts = [boundaries[round(i * (len(boundaries) - 1) / pieces)] for i in range(pieces + 1)]
    with MessageStore.open(small_config(tmp_path / "leader")) as leader:
        expected, epochs = contents(leader), leader.epochs.entries()
        open_transactions = leader.transactions.open("t", 0)
    with MessageStore.open(small_config(tmp_path / "follower")) as follower:
        follower.topics.create("t", 2, topic_id=TOPIC_ID)
        for start, end in itertools.pairwise(cuts):
            assert follower.replica.append_copied(start, data[start:end]) == end
        assert contents(follower) == expected
        assert follower.epochs.entries() == epochs
        assert follower.transactions.open("t", 0) == open_transactions
    with MessageStore.open(small_config(tmp_path / "follower")) as follower:
        assert contents(follower) == expected and follower.epochs.entries() == epochs
        assert follower.recovery_report is not None and follower.recovery_report.lost_bytes == 0


def test_data_cut_at_each_segment_end_leaves_the_follower_where_the_next_piece_starts(tmp_path: Path) -> None:
    """A leader sends a segment's BLANK and the rest of it as the end of one piece (it cuts its stream at segment
    ends): the follower's log then ends at the next segment's start, where the next piece begins."""
    boundaries, data = leader_store(tmp_path / "leader")
    segment = 8192
    cuts = [*range(0, boundaries[-1], segment), boundaries[-1]]
    with MessageStore.open(small_config(tmp_path / "leader")) as leader:
        expected = contents(leader)
    with MessageStore.open(small_config(tmp_path / "follower")) as follower:
        follower.topics.create("t", 2, topic_id=TOPIC_ID)
        for start, end in itertools.pairwise(cuts):
            assert follower.replica.append_copied(start, data[start:end]) == end
        assert contents(follower) == expected


def test_copied_data_that_does_not_continue_the_log_is_refused(tmp_path: Path) -> None:
    boundaries, data = leader_store(tmp_path / "leader")
    with MessageStore.open(small_config(tmp_path / "follower")) as follower:
        follower.topics.create("t", 2, topic_id=TOPIC_ID)
        with pytest.raises(InvalidReplicaDataError, match="starts at"):
            follower.replica.append_copied(boundaries[1], data[boundaries[1] : boundaries[2]])
        with pytest.raises(InvalidReplicaDataError, match=r"inside a record|record size"):
            follower.replica.append_copied(0, data[: boundaries[2] - 10])
        assert follower.replica.end == boundaries[1]  # the whole record before the cut one was kept
        damaged = bytearray(data[boundaries[1] : boundaries[3]])
        damaged[boundaries[2] - boundaries[1] + 200] ^= 0xFF  # inside the second record's batch
        with pytest.raises(InvalidReplicaDataError, match="CRC"):
            follower.replica.append_copied(boundaries[1], bytes(damaged))
        assert follower.replica.end == boundaries[2]
        with pytest.raises(InvalidReplicaDataError, match="no room for a record header"):  # 5 bytes of the next one
            follower.replica.append_copied(boundaries[2], data[boundaries[2] : boundaries[3] + 5])
        assert follower.replica.end == boundaries[3]
    with MessageStore.open(small_config(tmp_path / "other", commitlog_segment_bytes=16384)) as other:
        other.topics.create("t", 2, topic_id=TOPIC_ID)
        with pytest.raises(InvalidReplicaDataError, match="segment sizes"):
            other.replica.append_copied(0, data)


@pytest.mark.parametrize("max_bytes", [1, 1000, 5000, 1 << 20])
def test_what_the_leader_reads_for_a_follower_it_takes_whole(tmp_path: Path, max_bytes: int) -> None:
    """``read_copy`` slices of the leader's log, from the follower's end each time, copy the whole log: each slice
    is cut at a record boundary or a segment's end, at most ``max_bytes`` unless one record is larger."""
    boundaries, data = leader_store(tmp_path / "leader")
    with (
        MessageStore.open(small_config(tmp_path / "leader")) as leader,
        MessageStore.open(small_config(tmp_path / "follower")) as follower,
    ):
        follower.topics.create("t", 2, topic_id=TOPIC_ID)
        pieces = 0
        while piece := leader.replica.read_copy(follower.replica.end, max_bytes):
            assert len(piece) <= max(max_bytes, 8192)
            start = follower.replica.end
            assert bytes(piece) == data[start : start + len(piece)]
            follower.replica.append_copied(start, piece)
            pieces += 1
        assert follower.replica.end == leader.replica.published_end == boundaries[-1]
        assert contents(follower) == contents(leader)
        segments = len(range(0, boundaries[-1], 8192))
        assert pieces >= (len(boundaries) - 1 if max_bytes == 1 else segments)
        with pytest.raises(InvalidReplicaDataError, match="no CommitLog segment"):
            leader.replica.read_copy(-8192, max_bytes)


def test_a_confirm_offset_holds_the_high_watermark_and_reads_back(tmp_path: Path) -> None:
    """``records.set_confirmed``: a leader's high watermark is the first batch at or past the confirm offset;
    reads stop there and the last stable offset too; None lifts the limit."""
    boundaries, _ = leader_store(tmp_path / "leader")
    with MessageStore.open(small_config(tmp_path / "leader")) as store:
        ends = [store.records.partition_offsets("t", p).high_watermark for p in range(2)]
        store.records.set_confirmed(boundaries[20])  # the first 20 appends: batches 0-19, 1 + n % 3 records each
        held = [sum(1 + n % 3 for n in range(p, 20, 2)) for p in range(2)]
        assert [store.records.partition_offsets("t", p).high_watermark for p in range(2)] == held
        assert [store.records.partition_bounds("t", p).high_watermark for p in range(2)] == held
        assert [store.records.last_stable_offset("t", p) for p in range(2)] == held
        for partition in range(2):
            read = store.records.read("t", partition, 0, 1 << 20)
            assert read.high_watermark == held[partition]
            assert sum(_count(bytes(b)) for b in read.batches) == held[partition]
            assert store.records.read("t", partition, held[partition], 1 << 20).batches == ()
        store.records.set_confirmed(boundaries[-1])
        assert [store.records.partition_offsets("t", p).high_watermark for p in range(2)] == ends
        store.records.set_confirmed(None)
        assert [store.records.partition_bounds("t", p).high_watermark for p in range(2)] == ends


def test_a_following_store_refuses_its_own_appends_and_takes_the_leaders(tmp_path: Path) -> None:
    boundaries, data = leader_store(tmp_path / "leader")
    with MessageStore.open(small_config(tmp_path / "follower")) as follower:
        follower.topics.create("t", 2, topic_id=TOPIC_ID)
        follower.replica.follow()
        with pytest.raises(ReplicaOnlyError, match="takes no appends"):
            append(follower, "t", 0, build_batch([(b"k", b"mine")]))
        with pytest.raises(ReplicaOnlyError):
            put(follower, "t", 1, txn_batch(5, 1))
        assert follower.replica.end == 0
        assert follower.replica.append_copied(0, data[: boundaries[10]]) == boundaries[10]
