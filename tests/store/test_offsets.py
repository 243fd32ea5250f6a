"""Broker-held consumer offsets: commits, fetches, deletions, expiry, torn log tails and compaction."""

from __future__ import annotations

import os
from pathlib import Path

from rockafka.store import CommittedOffset, MessageStore, OffsetCommit, TopicPartition

from .helpers import small_config

TP0, TP1 = TopicPartition("t", 0), TopicPartition("t", 1)


def test_commits_survive_a_restart_with_metadata_and_leader_epoch(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config, clock=lambda: 5_000) as store:
        store.offsets.commit("g", [OffsetCommit("t", 0, 10, 3, "meta"), OffsetCommit("t", 1, 20)])
        store.offsets.commit("g", [OffsetCommit("t", 0, 11, 4, "later")])
        store.offsets.commit("h", [OffsetCommit("u", 0, 1)])
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g") == {
            TP0: CommittedOffset(11, 4, "later", 5_000),
            TP1: CommittedOffset(20, None, "", 5_000),
        }
        assert store.offsets.fetch("g", [TP1, TopicPartition("t", 9)]) == {TP1: CommittedOffset(20, None, "", 5_000)}
        assert store.offsets.fetch("nobody") == {}
        assert store.offsets.groups() == ["g", "h"]


def test_offset_and_group_deletion(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.offsets.commit("g", [OffsetCommit("t", 0, 1), OffsetCommit("t", 1, 2)])
        store.offsets.commit("h", [OffsetCommit("t", 0, 3)])
        store.offsets.delete("g", [TP0])
        assert store.offsets.delete_group("h") and not store.offsets.delete_group("h")
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g") == {TP1: store.offsets.fetch("g")[TP1]} and store.offsets.groups() == ["g"]
        store.offsets.delete("g", [TP1])
        assert store.offsets.groups() == []


def test_deleting_a_topic_deletes_its_offsets(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 2)
        store.topics.create("u", 1)
        store.offsets.commit("g", [OffsetCommit("t", 0, 1), OffsetCommit("u", 0, 2)])
        store.topics.delete("t")
        assert list(store.offsets.fetch("g")) == [TopicPartition("u", 0)]


def test_expiry_spares_the_groups_kept(tmp_path: Path) -> None:
    now = [1_000]
    with MessageStore.open(small_config(tmp_path), clock=lambda: now[0]) as store:
        store.offsets.commit("old", [OffsetCommit("t", 0, 1)])
        store.offsets.commit("kept", [OffsetCommit("t", 0, 1)])
        now[0] = 9_000
        store.offsets.commit("old", [OffsetCommit("t", 1, 1)])
        assert store.offsets.expire(5_000, keep_groups={"kept"}) == 1
        assert list(store.offsets.fetch("old")) == [TP1] and list(store.offsets.fetch("kept")) == [TP0]


def test_a_torn_offsets_log_tail_is_cut(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        for offset in range(5):
            store.offsets.commit("g", [OffsetCommit("t", 0, offset)])
    log = tmp_path / "config" / "consumerOffsets.log"
    size = log.stat().st_size
    os.truncate(log, size - 3)
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g")[TP0].offset == 3
        store.offsets.commit("g", [OffsetCommit("t", 0, 7)])
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g")[TP0].offset == 7


def test_the_log_is_compacted_into_a_snapshot_with_a_backup(tmp_path: Path) -> None:
    config = small_config(tmp_path, offsets_compact_bytes=1024)
    with MessageStore.open(config) as store:
        for offset in range(100):
            store.offsets.commit("g", [OffsetCommit("t", offset % 3, offset, None, "x" * 20)])
    directory = tmp_path / "config"
    assert (directory / "consumerOffset.json").exists() and (directory / "consumerOffset.json.bak").exists()
    assert (directory / "consumerOffsets.log").stat().st_size < 1024
    with MessageStore.open(config) as store:
        assert {tp.partition: c.offset for tp, c in store.offsets.fetch("g").items()} == {0: 99, 1: 97, 2: 98}
    (directory / "consumerOffset.json").write_text("{ not json")
    with MessageStore.open(config) as store:  # falls back to the .bak, then replays the log over it
        assert store.offsets.fetch("g")[TopicPartition("t", 0)].offset == 99
