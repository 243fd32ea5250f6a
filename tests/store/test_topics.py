"""The topics service (``store.topics``, ``store/topicadmin.py``): create, describe, alter, grow and delete."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from rockafka.store import (
    InvalidConfigError,
    InvalidPartitionsError,
    InvalidTopicError,
    MessageStore,
    OffsetCommit,
    RecordTooLargeError,
    TopicAlreadyExistsError,
    UnknownTopicIdError,
    UnknownTopicOrPartitionError,
)

from .helpers import append, build_batch, decoded, small_config


def test_topics_create_describe_alter_grow_and_delete(store: MessageStore) -> None:
    topic_id = uuid.uuid4()
    info = store.topics.create("orders", 2, {"retention.ms": "1000"}, topic_id=topic_id)
    assert (info.topic_id, info.partitions, dict(info.configs)) == (topic_id, 2, {"retention.ms": "1000"})
    assert store.topics.name_of(topic_id) == "orders" and store.topics.describe("orders") == info
    with pytest.raises(TopicAlreadyExistsError):
        store.topics.create("orders", 1)
    with pytest.raises(TopicAlreadyExistsError):
        store.topics.create("other", 1, topic_id=topic_id)
    with pytest.raises(InvalidTopicError):
        store.topics.create("bad name!", 1)
    with pytest.raises(InvalidPartitionsError):
        store.topics.create("zero", 0)
    with pytest.raises(InvalidConfigError):
        store.topics.create("badcfg", 1, {"message.timestamp.type": "Sometimes"})
    altered = store.topics.alter_configs("orders", {"retention.ms": None, "cleanup.policy": "compact"})
    assert dict(altered.configs) == {"cleanup.policy": "compact"}
    assert dict(store.topics.alter_configs("orders", {"retention.bytes": "5"}, replace=True).configs) == {
        "retention.bytes": "5"
    }
    assert store.topics.create_partitions("orders", 3).partitions == 3
    append(store, "orders", 2, build_batch([(None, b"x")]))
    with pytest.raises(InvalidPartitionsError):
        store.topics.create_partitions("orders", 3)
    assert [t.name for t in store.topics.list()] == ["orders"]
    store.topics.delete("orders")
    assert store.topics.list() == ()
    with pytest.raises(UnknownTopicIdError):
        store.topics.name_of(topic_id)
    with pytest.raises(UnknownTopicOrPartitionError):
        store.records.read("orders", 0, 0, 1)


def test_a_deleted_then_recreated_topic_starts_empty(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(b"k", b"old")]))
        store.topics.delete("t")
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(b"k", b"new")]))
    with MessageStore.open(config) as store:
        assert [r[3] for r in decoded(store.records.read("t", 0, 0, 1 << 20).batches)] == [b"new"]


def test_a_deleted_topic_takes_its_offsets_and_log_start_along(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        store.topics.create("kept", 1)
        append(store, "t", 0, build_batch([(None, b"x")] * 5))
        store.records.delete_records("t", 0, 3)
        store.offsets.commit("g", [OffsetCommit("t", 0, 3), OffsetCommit("kept", 0, 1)])
        store.topics.delete("t")
        store.topics.create("t", 1)
        assert store.records.partition_offsets("t", 0).log_start_offset == 0
    with MessageStore.open(config) as store:
        assert [tp.topic for tp in store.offsets.fetch("g")] == ["kept"]
        assert store.records.partition_bounds("t", 0).high_watermark == 0


def test_a_config_change_reaches_the_next_append(store: MessageStore) -> None:
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(None, b"v" * 300)]))  # the route cached the default max.message.bytes
    store.topics.alter_configs("t", {"max.message.bytes": "200"})
    with pytest.raises(RecordTooLargeError, match=r"max\.message\.bytes"):
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
