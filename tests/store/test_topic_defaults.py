"""Topic configs a topic does not set come from the store's topic defaults (the broker's settings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.store import InvalidConfigError, MessageStore, RecordTooLargeError, UnknownTopicOrPartitionError

from .helpers import append, build_batch, small_config


def test_defaults_apply_until_a_topic_sets_its_own(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, topic_defaults={"max.message.bytes": "200"})) as store:
        store.topics.create("t", 1)
        with pytest.raises(RecordTooLargeError):
            append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        store.topics.alter_configs("t", {"max.message.bytes": "5000"})
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        assert store.records.partition_offsets("t", 0).high_watermark == 1
        assert dict(store.topics.describe("t").configs) == {"max.message.bytes": "5000"}


def test_new_defaults_apply_at_once_to_topics_that_do_not_set_their_own(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        store.topics.create("own", 1, {"max.message.bytes": "5000"})
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))  # caches the partition's route and settings
        store.topics.set_defaults({"max.message.bytes": "200"})
        with pytest.raises(RecordTooLargeError):
            append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        append(store, "own", 0, build_batch([(None, b"v" * 300)]))
        with pytest.raises(InvalidConfigError):
            store.topics.set_defaults({"cleanup.policy": "shred"})
        assert store.topics.settings("t").max_message_bytes == 200  # a refused change leaves the last one
        store.topics.set_defaults({})
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        assert store.records.partition_offsets("t", 0).high_watermark == 2


def test_defaults_are_not_persisted_with_the_topic(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, topic_defaults={"max.message.bytes": "200"})) as store:
        store.topics.create("t", 1)
    with MessageStore.open(small_config(tmp_path)) as store:
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        assert store.records.partition_offsets("t", 0).high_watermark == 1


def test_invalid_defaults_are_refused() -> None:
    with pytest.raises(InvalidConfigError):
        small_config(Path("/nonexistent"), topic_defaults={"message.timestamp.type": "Wall"})


def test_timestamp_bounds_come_from_defaults_and_topics(tmp_path: Path) -> None:
    defaults = {"message.timestamp.before.max.ms": "86400000"}
    with MessageStore.open(small_config(tmp_path, topic_defaults=defaults)) as store:
        store.topics.create("t", 1)
        store.topics.create("open", 1, {"message.timestamp.after.max.ms": str((1 << 63) - 1)})
        settings = store.topics.settings("t")
        assert (settings.timestamp_before_max_ms, settings.timestamp_after_max_ms) == (86_400_000, 3_600_000)
        unbounded = store.topics.settings("open")
        assert (unbounded.timestamp_before_max_ms, unbounded.timestamp_after_max_ms) == (86_400_000, None)
        store.topics.alter_configs("t", {"message.timestamp.after.max.ms": "0"})
        assert store.topics.settings("t").timestamp_after_max_ms == 0
        with pytest.raises(UnknownTopicOrPartitionError):
            store.topics.settings("missing")


@pytest.mark.parametrize("value", ["-1", "soon", str(1 << 63)])
def test_invalid_timestamp_bounds_are_refused(tmp_path: Path, value: str) -> None:
    store = MessageStore.open(small_config(tmp_path))
    try:
        with pytest.raises(InvalidConfigError, match=r"message\.timestamp\.after\.max\.ms"):
            store.topics.create("t", 1, {"message.timestamp.after.max.ms": value})
    finally:
        store.close()
