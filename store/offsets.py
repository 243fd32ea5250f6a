"""Broker-held consumer offsets: an append-only log, compacted into a snapshot ``consumerOffset.json``.

Files in ``<root>/config/``:

``consumerOffsets.log``: frames, big-endian::

    [body length n : u32][CRC-32C of the body : u32][body : n bytes]

    body = kind : u8, then by kind
      1 COMMIT         group str16, topic str16, partition i32, offset i64, leader_epoch i32 (-1: none),
                       commit_timestamp i64, metadata str32
      2 DELETE_OFFSET  group str16, topic str16, partition i32
      3 DELETE_GROUP   group str16
      4 DELETE_TOPIC   topic str16            (every group's offsets of that topic)
    str16 / str32 = u16 / u32 byte length, then UTF-8

``consumerOffset.json`` (+ ``.bak``, atomic rename, see ``jsonfile.py``)::

    {"version": 1, "groups": {"<group>": {"<topic>": {"<partition>": [offset, leader_epoch|null,
                                                                       metadata, commit_timestamp]}}}}

Durability: each change is one ``write`` of whole frames (``O_APPEND``); the flusher thread fsyncs the
log (at once under the sync flush policy, where the caller receives a future; every interval under async).
RocketMQ's five-second JSON flush, which loses commits on a crash, is not copied.

Load: the snapshot, then every valid frame of the log replayed over it; the log is cut at the first
frame that is short or fails its CRC (a torn tail). Replaying frames already folded into the snapshot is
harmless, since each frame sets or removes absolute values. Compaction (once the log passes
``compact_bytes``): write the snapshot, then truncate the log to zero.

Threads: the broker loop thread changes and reads; the flusher thread calls ``sync_to``.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Final

from rockafka.core_pyx.crc32c import crc32c

from .errors import CorruptStoreError
from .jsonfile import read_json, write_json
from .results import CommittedOffset, OffsetCommit, TopicPartition

FORMAT_VERSION: Final = 1
COMMIT: Final = 1
DELETE_OFFSET: Final = 2
DELETE_GROUP: Final = 3
DELETE_TOPIC: Final = 4
_FRAME = struct.Struct(">II")
_COMMIT_TAIL = struct.Struct(">qiq")  # offset, leader_epoch, commit_timestamp
_PARTITION = struct.Struct(">i")
_U16 = struct.Struct(">H")
_U32 = struct.Struct(">I")

Groups = dict[str, dict[TopicPartition, CommittedOffset]]


def _str16(text: str) -> bytes:
    data = text.encode()
    return _U16.pack(len(data)) + data


def _frame(body: bytes) -> bytes:
    return _FRAME.pack(len(body), crc32c(body)) + body


class _Reader:
    """Cursor over one frame body."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 1

    def text(self, width: struct.Struct) -> str:
        (length,) = width.unpack_from(self.data, self.pos)
        start = self.pos + width.size
        self.pos = start + length
        return self.data[start : self.pos].decode()

    def fields(self, layout: struct.Struct) -> tuple[int, ...]:
        values = layout.unpack_from(self.data, self.pos)
        self.pos += layout.size
        return values


class OffsetStore:
    def __init__(self, directory: Path, compact_bytes: int) -> None:
        self._log_path = directory / "consumerOffsets.log"
        self._snapshot_path = directory / "consumerOffset.json"
        self._compact_bytes = compact_bytes
        self._groups: Groups = {}
        self._fd = -1
        self._log_size = 0
        self.written = 0
        self._synced = 0

    # --- load ---

    def load(self) -> None:
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        self._load_snapshot()
        self._fd = os.open(self._log_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        valid = 0
        for body, end in _frames(data):
            self._apply(body)
            valid = end
        if valid < len(data):
            os.ftruncate(self._fd, valid)
            os.fsync(self._fd)
        self._log_size = valid

    def _load_snapshot(self) -> None:
        document = read_json(self._snapshot_path)
        if document is None:
            return
        if document.get("version") != FORMAT_VERSION:
            raise CorruptStoreError(f"{self._snapshot_path}: unknown format version {document.get('version')!r}")
        for group, topics in document["groups"].items():
            offsets = self._groups.setdefault(group, {})
            for topic, partitions in topics.items():
                for partition, (offset, epoch, metadata, timestamp) in partitions.items():
                    offsets[TopicPartition(topic, int(partition))] = CommittedOffset(offset, epoch, metadata, timestamp)

    def _apply(self, body: bytes) -> None:
        reader = _Reader(body)
        kind = body[0]
        if kind == DELETE_TOPIC:
            self._drop_topic(reader.text(_U16))
            return
        group = reader.text(_U16)
        if kind == DELETE_GROUP:
            self._groups.pop(group, None)
            return
        key = TopicPartition(reader.text(_U16), reader.fields(_PARTITION)[0])
        if kind == COMMIT:
            offset, epoch, timestamp = reader.fields(_COMMIT_TAIL)
            metadata = reader.text(_U32)
            self._groups.setdefault(group, {})[key] = CommittedOffset(
                offset, None if epoch < 0 else epoch, metadata, timestamp
            )
        elif kind == DELETE_OFFSET:
            self._remove(group, [key])

    def _remove(self, group: str, keys: Iterable[TopicPartition]) -> None:
        offsets = self._groups.get(group)
        if offsets is None:
            return
        for key in keys:
            offsets.pop(key, None)
        if not offsets:
            del self._groups[group]

    def _drop_topic(self, topic: str) -> None:
        for group in list(self._groups):
            self._remove(group, [key for key in self._groups[group] if key.topic == topic])

    # --- changes ---

    def _write(self, bodies: Sequence[bytes]) -> None:
        data = b"".join(_frame(body) for body in bodies)
        os.write(self._fd, data)
        for body in bodies:
            self._apply(body)
        self._log_size += len(data)
        self.written += len(data)
        if self._log_size >= self._compact_bytes:
            self.compact()

    def commit(self, group: str, commits: Iterable[OffsetCommit], timestamp: int) -> None:
        head = bytes([COMMIT]) + _str16(group)
        bodies = []
        for c in commits:
            epoch = -1 if c.leader_epoch is None else c.leader_epoch
            metadata = c.metadata.encode()
            tail = _COMMIT_TAIL.pack(c.offset, epoch, timestamp) + _U32.pack(len(metadata)) + metadata
            bodies.append(head + _str16(c.topic) + _PARTITION.pack(c.partition) + tail)
        self._write(bodies)

    def delete_offsets(self, group: str, partitions: Iterable[TopicPartition]) -> None:
        head = bytes([DELETE_OFFSET]) + _str16(group)
        self._write([head + _str16(tp.topic) + _PARTITION.pack(tp.partition) for tp in partitions])

    def delete_group(self, group: str) -> bool:
        if group not in self._groups:
            return False
        self._write([bytes([DELETE_GROUP]) + _str16(group)])
        return True

    def delete_topic(self, topic: str) -> None:
        if any(key.topic == topic for offsets in self._groups.values() for key in offsets):
            self._write([bytes([DELETE_TOPIC]) + _str16(topic)])

    def expire(self, before_ms: int, keep_groups: Collection[str]) -> int:
        """Delete offsets committed before ``before_ms`` by groups not in ``keep_groups``; returns how many."""
        expired = [
            (group, key)
            for group, offsets in self._groups.items()
            if group not in keep_groups
            for key, committed in offsets.items()
            if committed.commit_timestamp < before_ms
        ]
        for group in {group for group, _ in expired}:
            self.delete_offsets(group, [key for g, key in expired if g == group])
        return len(expired)

    def compact(self) -> None:
        """Fold the log into the snapshot, then empty the log."""
        groups: dict[str, dict[str, dict[str, list[object]]]] = {}
        for group, offsets in self._groups.items():
            for key, c in offsets.items():
                entry: list[object] = [c.offset, c.leader_epoch, c.metadata, c.commit_timestamp]
                groups.setdefault(group, {}).setdefault(key.topic, {})[str(key.partition)] = entry
        write_json(self._snapshot_path, {"version": FORMAT_VERSION, "groups": groups})
        os.ftruncate(self._fd, 0)
        os.fsync(self._fd)
        self._log_size = 0

    # --- reads ---

    def fetch(self, group: str, partitions: Iterable[TopicPartition] | None) -> dict[TopicPartition, CommittedOffset]:
        offsets = self._groups.get(group, {})
        if partitions is None:
            return dict(offsets)
        return {key: offsets[key] for key in partitions if key in offsets}

    def groups(self) -> list[str]:
        return sorted(self._groups)

    # --- flusher thread ---

    def sync_to(self, position: int) -> None:
        if position > self._synced:
            os.fdatasync(self._fd)
            self._synced = position

    def close(self) -> None:
        if self._fd >= 0:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1


def _frames(data: bytes) -> Iterator[tuple[bytes, int]]:
    """(body, end position) of each valid frame, stopping at the first short or corrupt one."""
    pos = 0
    while pos + _FRAME.size <= len(data):
        length, crc = _FRAME.unpack_from(data, pos)
        end = pos + _FRAME.size + length
        body = data[pos + _FRAME.size : end]
        if length == 0 or end > len(data) or crc32c(body) != crc or body[0] not in (1, 2, 3, 4):
            return
        yield body, end
        pos = end
