"""Topic configs a topic does not set come from the store's topic defaults (the broker's settings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.store import InvalidConfigError, MessageStore, RecordTooLargeError

from .helpers import append, build_batch, small_config


def test_defaults_apply_until_a_topic_sets_its_own(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, topic_defaults={"max.message.bytes": "200"})) as store:
        store.create_topic("t", 1)
        with pytest.raises(RecordTooLargeError):
            append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        store.alter_topic_configs("t", {"max.message.bytes": "5000"})
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        assert store.partition_offsets("t", 0).high_watermark == 1
        assert dict(store.describe_topic("t").configs) == {"max.message.bytes": "5000"}


def test_defaults_are_not_persisted_with_the_topic(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, topic_defaults={"max.message.bytes": "200"})) as store:
        store.create_topic("t", 1)
    with MessageStore.open(small_config(tmp_path)) as store:
        append(store, "t", 0, build_batch([(None, b"v" * 300)]))
        assert store.partition_offsets("t", 0).high_watermark == 1


def test_invalid_defaults_are_refused() -> None:
    with pytest.raises(InvalidConfigError):
        small_config(Path("/nonexistent"), topic_defaults={"message.timestamp.type": "Wall"})
