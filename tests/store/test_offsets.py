"""Broker-held consumer offsets: commits, fetches, deletions, expiry; their records in ``__consumer_offsets``;
partitions unloaded and loaded; the upgrade from an earlier version's side files (torn tails, compaction)."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from rockafka.store import (
    CommittedOffset,
    MessageStore,
    OffsetCommit,
    StoreConfig,
    TopicAlreadyExistsError,
    TopicPartition,
    UnknownTopicOrPartitionError,
    key_partition,
)
from rockafka.store.compaction import stored_records
from rockafka.store.coordinatorstate import legacy_files
from rockafka.store.groups import GroupMetadataLog
from rockafka.store.internaltopics import OFFSETS_TOPIC
from rockafka.store.offsets import OffsetStore

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


def _legacy(config: StoreConfig) -> OffsetStore:
    """The offsets log of an earlier version (its writer, unchanged), to upgrade from."""
    legacy = OffsetStore(config.root_dir / "config", config.offsets_compact_bytes)
    legacy.load()
    return legacy


def test_a_torn_offsets_log_tail_is_cut_when_upgrading(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    legacy = _legacy(config)
    for offset in range(5):
        legacy.commit("g", [OffsetCommit("t", 0, offset)], 5_000)
    legacy.close()
    log = tmp_path / "config" / "consumerOffsets.log"
    size = log.stat().st_size
    os.truncate(log, size - 3)
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g")[TP0].offset == 3
        store.offsets.commit("g", [OffsetCommit("t", 0, 7)])
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g")[TP0].offset == 7


def test_the_old_log_was_compacted_into_a_snapshot_with_a_backup(tmp_path: Path) -> None:
    config = small_config(tmp_path, offsets_compact_bytes=1024)
    legacy = _legacy(config)
    for offset in range(100):
        legacy.commit("g", [OffsetCommit("t", offset % 3, offset, None, "x" * 20)], 5_000)
    legacy.close()
    directory = tmp_path / "config"
    assert (directory / "consumerOffset.json").exists() and (directory / "consumerOffset.json.bak").exists()
    assert (directory / "consumerOffsets.log").stat().st_size < 1024
    (directory / "consumerOffset.json").write_text("{ not json")
    with MessageStore.open(config) as store:  # falls back to the .bak, then replays the log over it
        assert store.offsets.fetch("g")[TopicPartition("t", 0)].offset == 99


# --- the records in __consumer_offsets ---


def _records(store: MessageStore, partition: int) -> list[tuple[bytes, bytes | None]]:
    """The keyed records of one ``__consumer_offsets`` partition, as the store holds them."""
    read = store.records.read(OFFSETS_TOPIC, partition, 0, 1 << 20)
    return [(r.key, r.value) for batch in read.batches for r in stored_records(batch) if r.key is not None]


def test_a_commit_is_a_kafka_offset_record_in_the_groups_partition(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, offsets_topic_partitions=5), clock=lambda: 5_000) as store:
        store.offsets.commit("group-a", [OffsetCommit("t", 1, 42, 7, "meta")])
        store.offsets.delete("group-a", [TopicPartition("t", 1)])
        partition = key_partition("group-a", 5)
        # Kafka's OffsetCommitKey v1 and OffsetCommitValue v3, written out by hand
        key = struct.pack(">hh7sh1si", 1, 7, b"group-a", 1, b"t", 1)
        value = struct.pack(">hqih4sq", 3, 42, 7, 4, b"meta", 5_000)
        assert _records(store, partition) == [(key, value), (key, None)]
        assert all(not _records(store, p) for p in range(5) if p != partition)


def test_the_internal_topic_is_not_one_of_the_stores_topics(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.offsets.commit("g", [OffsetCommit("t", 0, 1)])
        assert store.topics.list() == ()
        for refused in (store.topics.describe, store.topics.settings, store.topics.delete):
            with pytest.raises(UnknownTopicOrPartitionError):
                refused(OFFSETS_TOPIC)
        with pytest.raises(TopicAlreadyExistsError):
            store.topics.create(OFFSETS_TOPIC, 1)


def test_a_partition_unloaded_forgets_its_groups_and_a_reload_brings_them_back(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, offsets_topic_partitions=4)) as store:
        groups = [f"g{n}" for n in range(12)]
        for number, group in enumerate(groups):
            store.offsets.commit(group, [OffsetCommit("t", 0, number)])
            store.group_metadata.save(group, {"n": number})
        partition = store.group_partitions.partition_of("g0")
        moved = {g for g in groups if store.group_partitions.partition_of(g) == partition}
        store.group_partitions.unload(partition)
        assert set(store.offsets.groups()) == set(groups) - moved
        assert set(store.group_metadata.documents()) == set(groups) - moved
        assert store.group_partitions.load(partition) == 2 * len(moved)
        assert store.offsets.groups() == sorted(groups)
        assert store.group_metadata.documents()["g0"] == {"n": 0}


# --- upgrading a store of an earlier version ---


def test_an_old_store_is_upgraded_once_and_keeps_every_offset_and_group(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:  # a store with a topic, as any earlier store had
        store.topics.create("t", 2)
    legacy = _legacy(config)
    legacy.commit("g", [OffsetCommit("t", 0, 10, 3, "meta"), OffsetCommit("t", 1, 20)], 1_000)
    legacy.compact()  # into consumerOffset.json, then more in the log
    legacy.commit("h", [OffsetCommit("t", 0, 5)], 2_000)
    legacy.delete_offsets("g", [TP1])
    legacy.close()
    documents = GroupMetadataLog(config.root_dir / "config", config.offsets_compact_bytes)
    documents.load()
    documents.put("g", {"version": 1, "generation": 4})
    documents.close()
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g") == {TP0: CommittedOffset(10, 3, "meta", 1_000)}
        assert store.offsets.fetch("h") == {TP0: CommittedOffset(5, None, "", 2_000)}
        assert store.group_metadata.documents() == {"g": {"version": 1, "generation": 4}}
    directory = tmp_path / "config"
    assert not legacy_files(directory)
    assert sorted(path.name for path in directory.glob("*.migrated")) == [
        "consumerOffset.json.migrated", "consumerOffsets.log.migrated", "groupMetadata.log.migrated",
    ]  # fmt: skip
    with MessageStore.open(config) as store:  # read from __consumer_offsets alone now
        assert store.offsets.fetch("g") == {TP0: CommittedOffset(10, 3, "meta", 1_000)}
        assert store.offsets.groups() == ["g", "h"]
        assert store.group_metadata.documents() == {"g": {"version": 1, "generation": 4}}
        assert [topic.name for topic in store.topics.list()] == ["t"]
