"""Consumer offsets as earlier versions kept them: an append-only log, compacted into ``consumerOffset.json``.

Committed offsets now live in ``__consumer_offsets`` (``coordinatorstate.py``); a store that still has these files
is upgraded once at open (``migrate_side_files`` reads them with ``OffsetStore.load`` below, then renames them).

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

The frame format and how a damaged log is read are ``framedlog.py``'s: a frame is valid when its CRC-32C
matches and its body decodes to exactly its length.

Load: the snapshot (or its ``.bak``), then every valid frame of the log replayed over it in order. A torn
tail is cut (INFO). Damage (a bad frame that valid frames follow, or a bad tail that is not a torn append)
is kept in the quarantine with one WARNING naming the groups and partitions the damaged frames held, as far
as they still read: a COMMIT lost there means that group reads an older committed offset of that partition
(or none), a lost delete brings the offset back. Every valid frame past the damage is replayed, and the log
is then compacted, so the damage is not met again and appends continue at a valid end. A snapshot that does
not read is damage too (``framedlog.read_snapshot``). Replaying frames already folded into the snapshot is
harmless, since each frame sets or removes absolute values. Compaction (once the log passes
``compact_bytes``): write the snapshot, then truncate the log to zero.

Threads: the broker loop thread changes and reads; the flusher thread calls ``sync_to``.

Owners: ``OffsetStore`` owns the two files and the committed offsets it read; the running broker no longer
writes them (its writing methods remain for the format's tests and for tools that make an old store).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple

from .errors import CorruptStoreError
from .framedlog import FrameRules, Gap, account, append_frames, frame, read_snapshot, scan
from .jsonfile import write_json
from .quarantine import Quarantine
from .results import CommittedOffset, OffsetCommit, TopicPartition

FORMAT_VERSION: Final = 1
COMMIT: Final = 1
DELETE_OFFSET: Final = 2
DELETE_GROUP: Final = 3
DELETE_TOPIC: Final = 4
_COMMIT_TAIL = struct.Struct(">qiq")  # offset, leader_epoch, commit_timestamp
_PARTITION = struct.Struct(">i")
_U16 = struct.Struct(">H")
_U32 = struct.Struct(">I")

Groups = dict[str, dict[TopicPartition, CommittedOffset]]


def _str16(text: str) -> bytes:
    data = text.encode()
    return _U16.pack(len(data)) + data


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
        if self.pos > len(self.data):
            raise ValueError("a string runs past the end of the frame")
        return self.data[start : self.pos].decode()

    def fields(self, layout: struct.Struct) -> tuple[int, ...]:
        values = layout.unpack_from(self.data, self.pos)
        self.pos += layout.size
        return values


class _Change(NamedTuple):
    """One frame's change: ``group`` is empty for DELETE_TOPIC, ``topic`` for DELETE_GROUP."""

    kind: int
    group: str
    topic: str = ""
    partition: int = -1
    committed: CommittedOffset | None = None

    def describe(self) -> str:
        if self.kind == DELETE_TOPIC:
            return f"DELETE_TOPIC {self.topic!r}"
        if self.kind == DELETE_GROUP:
            return f"DELETE_GROUP {self.group!r}"
        where = f"group {self.group!r} {self.topic}-{self.partition}"
        if self.committed is None:
            return f"DELETE_OFFSET {where}"
        return f"COMMIT {where} offset {self.committed.offset}"


def _encode(change: _Change) -> bytes:
    """The frame body of ``change`` (the module docstring's layout)."""
    kind = bytes([change.kind])
    if change.kind == DELETE_TOPIC:
        return kind + _str16(change.topic)
    if change.kind == DELETE_GROUP:
        return kind + _str16(change.group)
    body = kind + _str16(change.group) + _str16(change.topic) + _PARTITION.pack(change.partition)
    c = change.committed
    if c is None:
        return body
    metadata = c.metadata.encode()
    epoch = -1 if c.leader_epoch is None else c.leader_epoch
    return body + _COMMIT_TAIL.pack(c.offset, epoch, c.commit_timestamp) + _U32.pack(len(metadata)) + metadata


def _decode(body: bytes) -> _Change:
    """The change a frame body holds; ValueError (or struct.error) when it does not decode to its length."""
    reader = _Reader(body)
    kind = body[0]
    if kind == DELETE_TOPIC:
        change = _Change(kind, "", reader.text(_U16))
    elif kind == DELETE_GROUP:
        change = _Change(kind, reader.text(_U16))
    elif kind in (COMMIT, DELETE_OFFSET):
        group, topic = reader.text(_U16), reader.text(_U16)
        (partition,) = reader.fields(_PARTITION)
        committed = None
        if kind == COMMIT:
            offset, epoch, timestamp = reader.fields(_COMMIT_TAIL)
            committed = CommittedOffset(offset, None if epoch < 0 else epoch, reader.text(_U32), timestamp)
        change = _Change(kind, group, topic, partition, committed)
    else:
        raise ValueError(f"unknown frame kind {kind}")
    if reader.pos != len(body):
        raise ValueError("the frame holds bytes past its change")
    return change


#: The longest frame body a loader accepts (the broker's offset.metadata.max.bytes, 4096 by default, keeps
#: a commit far below it).
MAX_BODY: Final = 64 << 20
RULES: Final = FrameRules(1, MAX_BODY, frozenset((COMMIT, DELETE_OFFSET, DELETE_GROUP, DELETE_TOPIC)), _decode)


def _describe(_: Gap, changes: list[_Change]) -> str:
    if not changes:
        return "nothing in them still reads; any group may read an older committed offset or none"
    named = ", ".join(change.describe() for change in changes)
    return f"they read (unchecked) as {named}; those groups may read an older committed offset or none"


def _check_snapshot(document: Any) -> None:
    """Refuse (ValueError and kin) a snapshot of the wrong shape; CorruptStoreError for an unknown version."""
    if document.get("version") != FORMAT_VERSION:
        raise CorruptStoreError(f"unknown consumer offsets snapshot version {document.get('version')!r}")
    for topics in document["groups"].values():
        for partitions in topics.values():
            for partition, (offset, epoch, metadata, timestamp) in partitions.items():
                int(partition)
                fields_ok = isinstance(offset, int) and isinstance(timestamp, int) and isinstance(metadata, str)
                if not fields_ok or not (epoch is None or isinstance(epoch, int)):
                    raise ValueError(f"partition {partition}: not [offset, leader_epoch, metadata, timestamp]")


def remove_offsets(groups: Groups, group: str, keys: Iterable[TopicPartition]) -> None:
    """Drop ``keys`` from ``group``'s committed offsets in ``groups``, and the group once it has none left."""
    offsets = groups.get(group)
    if offsets is None:
        return
    for key in keys:
        offsets.pop(key, None)
    if not offsets:
        del groups[group]


class OffsetStore:
    def __init__(self, directory: Path, compact_bytes: int, quarantine: Quarantine | None = None) -> None:
        self._log_path = directory / "consumerOffsets.log"
        self._snapshot_path = directory / "consumerOffset.json"
        self._compact_bytes = compact_bytes
        #: Where damage found on load is kept: the store's ``quarantine/`` beside ``config/`` by default.
        self._quarantine = quarantine or Quarantine(directory.parent / "quarantine")
        self._groups: Groups = {}
        self._fd = -1
        self._log_size = 0
        self.written = 0
        self._synced = 0

    # --- load ---

    def load(self) -> None:
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        snapshot_damaged = self._load_snapshot()
        self._fd = os.open(self._log_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        result = scan(data, RULES)
        for change in result.values:
            self._apply(change)
        account(
            data, result, RULES, quarantine=self._quarantine, source="consumerOffsets", path=self._log_path,
            named=_describe,
        )  # fmt: skip
        self._log_size = result.valid_end
        if result.damage or snapshot_damaged:
            self.compact()
        elif result.valid_end < len(data):
            os.ftruncate(self._fd, result.valid_end)
            os.fsync(self._fd)

    def _load_snapshot(self) -> bool:
        """Load the snapshot; True when a copy of it was damaged (and quarantined)."""
        document, damaged = read_snapshot(self._snapshot_path, self._quarantine, "consumerOffsets", _check_snapshot)
        if document is None:
            return damaged
        for group, topics in document["groups"].items():
            offsets = self._groups.setdefault(group, {})
            for topic, partitions in topics.items():
                for partition, (offset, epoch, metadata, timestamp) in partitions.items():
                    offsets[TopicPartition(topic, int(partition))] = CommittedOffset(offset, epoch, metadata, timestamp)
        return damaged

    def _apply(self, change: _Change) -> None:
        if change.kind == DELETE_TOPIC:
            self._drop_topic(change.topic)
        elif change.kind == DELETE_GROUP:
            self._groups.pop(change.group, None)
        elif change.committed is not None:
            self._groups.setdefault(change.group, {})[TopicPartition(change.topic, change.partition)] = change.committed
        else:
            self._remove(change.group, [TopicPartition(change.topic, change.partition)])

    def _remove(self, group: str, keys: Iterable[TopicPartition]) -> None:
        remove_offsets(self._groups, group, keys)

    def _drop_topic(self, topic: str) -> None:
        for group in list(self._groups):
            self._remove(group, [key for key in self._groups[group] if key.topic == topic])

    # --- changes ---

    def _write(self, changes: Sequence[_Change]) -> None:
        data = b"".join(frame(_encode(change)) for change in changes)
        append_frames(self._fd, data)
        for change in changes:
            self._apply(change)
        self._log_size += len(data)
        self.written += len(data)
        if self._log_size >= self._compact_bytes:
            self.compact()

    def commit(self, group: str, commits: Iterable[OffsetCommit], timestamp: int) -> None:
        changes = []
        for c in commits:
            committed = CommittedOffset(c.offset, c.leader_epoch, c.metadata, timestamp)
            changes.append(_Change(COMMIT, group, c.topic, c.partition, committed))
        self._write(changes)

    def delete_offsets(self, group: str, partitions: Iterable[TopicPartition]) -> None:
        self._write([_Change(DELETE_OFFSET, group, tp.topic, tp.partition) for tp in partitions])

    def delete_group(self, group: str) -> bool:
        if group not in self._groups:
            return False
        self._write([_Change(DELETE_GROUP, group)])
        return True

    def delete_topic(self, topic: str) -> None:
        if any(key.topic == topic for offsets in self._groups.values() for key in offsets):
            self._write([_Change(DELETE_TOPIC, "", topic)])

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
