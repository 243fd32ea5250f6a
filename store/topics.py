"""Topic config store (``config/topics.json``) and per-partition log start offsets (``config/logStartOffsets.json``).

Both are small JSON documents written by atomic rename with a ``.bak`` (see ``jsonfile.py``) on every
change, before the change is acknowledged.

``topics.json``::

    {"version": 1,
     "topics": {"<name>": {"id": "<uuid>", "partitions": <int>, "configs": {"<kafka key>": "<value>"}}}}

``logStartOffsets.json`` (only partitions whose log start offset was moved are listed)::

    {"version": 1, "offsets": {"<topic id hex>": {"<partition>": <log start offset>}}}

A document of the wrong shape (not an object of this version, a missing key, a value of the wrong
type, a topic of no partitions) is as unreadable as one that does not parse: the ``.bak`` is tried, and
the :class:`CorruptStoreError` names the file and what is wrong.

A deleted topic's CommitLog records stay until their segments are deleted, but nothing reaches them: they
are filed under the old topic id, which no topic has any more.
"""

from __future__ import annotations

import re
import types
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from .config import TopicSettings
from .errors import (
    CorruptStoreError,
    InvalidPartitionsError,
    InvalidTopicError,
    TopicAlreadyExistsError,
    UnknownTopicIdError,
    UnknownTopicOrPartitionError,
)
from .jsonfile import read_json, write_json
from .results import TopicInfo

FORMAT_VERSION: Final = 1
MAX_TOPIC_NAME: Final = 249
_LEGAL_NAME = re.compile(r"[a-zA-Z0-9._-]+")


def check_topic_name(name: str) -> None:
    if not name or len(name) > MAX_TOPIC_NAME or name in (".", "..") or not _LEGAL_NAME.fullmatch(name):
        raise InvalidTopicError(f"illegal topic name {name!r}")


def _frozen(configs: Mapping[str, str]) -> Mapping[str, str]:
    return types.MappingProxyType(dict(configs))


class TopicTable:
    """Every topic by name and by id, with its parsed settings; persisted on each change."""

    def __init__(self, path: Path, defaults: Mapping[str, str] | None = None) -> None:
        #: Configs a topic takes when it does not set them (the broker's settings for topics).
        self._defaults = dict(defaults or {})
        self._path = path
        self._by_name: dict[str, TopicInfo] = {}
        self._by_id: dict[bytes, TopicInfo] = {}
        self._settings: dict[str, TopicSettings] = {}

    def load(self) -> None:
        for topic in read_json(self._path, _parse_topics) or ():
            self._put(topic)

    def _save(self) -> None:
        topics = {
            t.name: {"id": str(t.topic_id), "partitions": t.partitions, "configs": dict(t.configs)}
            for t in self._by_name.values()
        }
        write_json(self._path, {"version": FORMAT_VERSION, "topics": topics})

    def _put(self, topic: TopicInfo) -> None:
        self._settings[topic.name] = TopicSettings.parse({**self._defaults, **topic.configs})
        self._by_name[topic.name] = topic
        self._by_id[topic.topic_id.bytes] = topic

    def set_defaults(self, defaults: Mapping[str, str]) -> None:
        """Make ``defaults`` the configs topics take when they do not set them (a dynamic broker config changed);
        every topic's settings are parsed again, and none changes unless all parse (``InvalidConfigError``)."""
        defaults = dict(defaults)
        settings = {name: TopicSettings.parse({**defaults, **t.configs}) for name, t in self._by_name.items()}
        self._defaults, self._settings = defaults, settings

    def check_new(self, name: str, partitions: int, configs: Mapping[str, str], topic_id: uuid.UUID | None) -> None:
        """Raise the error ``create`` would raise, before anything is written."""
        check_topic_name(name)
        if name in self._by_name:
            raise TopicAlreadyExistsError(f"topic {name!r} already exists")
        if topic_id is not None and topic_id.bytes in self._by_id:
            raise TopicAlreadyExistsError(f"a topic with id {topic_id} already exists")
        if partitions < 1:
            raise InvalidPartitionsError(f"a topic needs at least one partition, not {partitions}")
        TopicSettings.parse({**self._defaults, **configs})

    def create(self, name: str, partitions: int, configs: Mapping[str, str], topic_id: uuid.UUID) -> TopicInfo:
        topic = TopicInfo(name, topic_id, partitions, _frozen(configs))
        self._put(topic)
        self._save()
        return topic

    def delete(self, name: str) -> TopicInfo:
        topic = self.get(name)
        del self._by_name[name], self._settings[name], self._by_id[topic.topic_id.bytes]
        self._save()
        return topic

    def replace(self, topic: TopicInfo) -> TopicInfo:
        """Store a changed partition count or configs of an existing topic."""
        self._put(topic)
        self._save()
        return topic

    def get(self, name: str) -> TopicInfo:
        topic = self._by_name.get(name)
        if topic is None:
            raise UnknownTopicOrPartitionError(f"unknown topic {name!r}")
        return topic

    def by_id(self, topic_id: bytes) -> TopicInfo | None:
        return self._by_id.get(topic_id)

    def name_of(self, topic_id: uuid.UUID) -> str:
        topic = self._by_id.get(topic_id.bytes)
        if topic is None:
            raise UnknownTopicIdError(f"unknown topic id {topic_id}")
        return topic.name

    def settings(self, name: str) -> TopicSettings:
        return self._settings[name]

    def all(self) -> tuple[TopicInfo, ...]:
        return tuple(sorted(self._by_name.values(), key=lambda t: t.name))


class LogStartOffsets:
    """The persisted floor below which a partition's records are gone (DeleteRecords, per-topic retention)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._offsets: dict[tuple[bytes, int], int] = {}

    def load(self) -> None:
        self._offsets.update(read_json(self._path, _parse_offsets) or {})

    def get(self, topic_id: bytes, partition: int) -> int:
        return self._offsets.get((topic_id, partition), 0)

    def set_many(self, moves: Mapping[tuple[bytes, int], int]) -> None:
        """Persist new log start offsets (one write for all of them)."""
        if moves:
            self._offsets.update(moves)
            self._save()

    def forget_topic(self, topic_id: bytes) -> None:
        if any(key[0] == topic_id for key in self._offsets):
            self._offsets = {key: value for key, value in self._offsets.items() if key[0] != topic_id}
            self._save()

    def _save(self) -> None:
        offsets: dict[str, dict[str, int]] = {}
        for (topic_id, partition), offset in sorted(self._offsets.items()):
            offsets.setdefault(topic_id.hex(), {})[str(partition)] = offset
        write_json(self._path, {"version": FORMAT_VERSION, "offsets": offsets})


def _checked(document: object, key: str) -> dict[str, Any]:
    """``document[key]`` of a document of this module's format version, as a JSON object."""
    if not isinstance(document, dict):
        raise CorruptStoreError(f"a JSON {type(document).__name__} where an object belongs")
    if document.get("version") != FORMAT_VERSION:
        raise CorruptStoreError(f"unknown format version {document.get('version')!r}")
    entries = document[key]
    if not isinstance(entries, dict):
        raise CorruptStoreError(f"{key!r} holds a JSON {type(entries).__name__}, not an object")
    return entries


def _parse_topics(document: object) -> list[TopicInfo]:
    topics = []
    for name, entry in _checked(document, "topics").items():
        configs = {str(k): str(v) for k, v in entry["configs"].items()}
        partitions = int(entry["partitions"])
        if partitions <= 0:
            raise CorruptStoreError(f"topic {name!r} has {partitions} partitions")
        topics.append(TopicInfo(name, uuid.UUID(entry["id"]), partitions, _frozen(configs)))
    return topics


def _parse_offsets(document: object) -> dict[tuple[bytes, int], int]:
    offsets = {}
    for topic_hex, partitions in _checked(document, "offsets").items():
        for partition, offset in partitions.items():
            offsets[(bytes.fromhex(topic_hex), int(partition))] = int(offset)
    return offsets
