"""The store's JSON documents (``store.json``, ``topics.json``, ``logStartOffsets.json``) with bad bytes or
the wrong shape: the ``.bak`` is used when it reads, else one :class:`CorruptStoreError` naming the file
and what is wrong, never a ``KeyError``/``TypeError``/"too many values to unpack" from inside a loader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rockafka.store import CorruptStoreError, MessageStore
from rockafka.store.jsonfile import read_json, write_json
from rockafka.store.layout import StoreLayout

from .helpers import small_config

SHAPES = {
    "a list": [1, 2],
    "a string": "topics",
    "no version": {"topics": {}},
    "a future version": {"version": 99, "topics": {}},
}
BAD_TOPICS = {
    **SHAPES,
    "topics as a list": {"version": 1, "topics": [1, 2, 3]},
    "a topic as a number": {"version": 1, "topics": {"a": 5}},
    "a bad topic id": {"version": 1, "topics": {"a": {"id": "zz", "partitions": 1, "configs": {}}}},
    "no partitions": {"version": 1, "topics": {"a": {"id": "0" * 32, "partitions": 0, "configs": {}}}},
    "partitions as text": {"version": 1, "topics": {"a": {"id": "0" * 32, "partitions": "x", "configs": {}}}},
}
BAD_MANIFESTS = {
    **SHAPES,
    "a missing size": {"version": 1, "commitlog_segment_bytes": 8192},
    "a zero size": {
        "version": 1,
        "commitlog_segment_bytes": 0,
        "consume_queue_units_per_file": 4,
        "index_slot_count": 16,
        "index_entry_count": 64,
    },
    "a size as text": {
        "version": 1,
        "commitlog_segment_bytes": "8192",
        "consume_queue_units_per_file": 4,
        "index_slot_count": 16,
        "index_entry_count": 64,
    },
}


def made_store(root: Path) -> Path:
    """A store with one topic, closed: every JSON document of it has been written."""
    with MessageStore.open(small_config(root)) as store:
        store.topics.create("orders", 2)
        store.topics.create("audit", 1)
    return root


def open_fails(root: Path, file: Path) -> str:
    with pytest.raises(CorruptStoreError) as failed:
        MessageStore.open(small_config(root)).close()
    message = str(failed.value)
    assert str(file) in message and "\n" not in message
    return message


@pytest.mark.parametrize("shape", list(BAD_TOPICS))
def test_topics_json_of_the_wrong_shape_names_the_file(tmp_path: Path, shape: str) -> None:
    root = made_store(tmp_path / "store")
    topics = StoreLayout(root).config / "topics.json"
    topics.with_name("topics.json.bak").unlink(missing_ok=True)
    topics.write_text(json.dumps(BAD_TOPICS[shape]))
    open_fails(root, topics)


@pytest.mark.parametrize("shape", list(BAD_MANIFESTS))
def test_store_json_of_the_wrong_shape_names_the_file(tmp_path: Path, shape: str) -> None:
    root = made_store(tmp_path / "store")
    manifest = StoreLayout(root).manifest
    manifest.write_text(json.dumps(BAD_MANIFESTS[shape]))
    message = open_fails(root, manifest)
    assert "unpack" not in message and "Error" not in message


def test_log_start_offsets_of_the_wrong_shape_names_the_file(tmp_path: Path) -> None:
    root = made_store(tmp_path / "store")
    offsets = StoreLayout(root).config / "logStartOffsets.json"
    offsets.write_text(json.dumps({"version": 1, "offsets": {"not hex": {"0": 5}}}))
    open_fails(root, offsets)


@pytest.mark.parametrize("content", [b"\xff\xfe{}", b'{"version": 1, "topics": {"\xff": 1}}', b"{"])
def test_bad_bytes_are_unreadable_and_named(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(content)
    with pytest.raises(CorruptStoreError, match=r"doc\.json is unreadable \(not (UTF-8|JSON)"):
        read_json(path)


def test_a_wrong_shape_falls_back_to_the_bak(tmp_path: Path) -> None:
    """The shape check is part of reading: a current file of the wrong shape is passed over for its .bak."""
    root = made_store(tmp_path / "store")
    topics = StoreLayout(root).config / "topics.json"
    good = json.loads(topics.read_text())
    write_json(topics, good)  # the good document is now the .bak too
    topics.write_text(json.dumps({"version": 1, "topics": {"orders": [1]}}))
    with MessageStore.open(small_config(root)) as store:
        assert sorted(topic.name for topic in store.topics.list()) == ["audit", "orders"]


def test_both_unreadable_says_why(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text("[1]")
    path.with_name("doc.json.bak").write_text("{")
    with pytest.raises(CorruptStoreError, match=r"doc\.json and its \.bak are both unreadable \(wrong\)"):
        read_json(path, lambda document: (_ for _ in ()).throw(CorruptStoreError("wrong")))
