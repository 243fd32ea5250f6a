"""Documents held by the broker in a side log: one JSON document per key, an append-only log compacted into a
snapshot. The producer documents live here (``producerState``); group documents did (``groupMetadata``) until
they moved into ``__consumer_offsets`` (``coordinatorstate.py``), which reads this format once to upgrade a
store. What a document holds is its owner's business; the store keeps it whole and gives it back after a
restart or a crash.

Files in ``<root>/config/``:

``groupMetadata.log``: frames, big-endian::

    [body length n : u32][CRC-32C of the body : u32][body : n bytes]

    body = kind : u8, group length : u16, group : UTF-8, then by kind
      1 PUT     the group's document: UTF-8 JSON, to the end of the body (replaces the previous one)
      2 DELETE  nothing more (the group has no document any more)

``groupMetadata.json`` (+ ``.bak``, atomic rename, see ``jsonfile.py``)::

    {"version": 1, "groups": {"<group>": <document>}}

Durability: each change is one ``write`` of one whole frame (``O_APPEND``); the flusher thread fsyncs the
log together with the offsets log (at once under the sync flush policy, where the caller receives a
future; every interval under async). A kill -9 loses nothing written (the page cache survives it).

The frame format and how a damaged log is read are ``framedlog.py``'s: a frame is valid when its CRC-32C
matches and its body decodes (a known kind, a UTF-8 key, a JSON object for PUT).

Load: the snapshot (or its ``.bak``), then every valid frame of the log replayed over it in order. A torn
tail is cut (INFO). Damage (a bad frame that valid frames follow, or a bad tail that is not a torn append)
is kept in the quarantine with one WARNING naming the keys the damaged frames held, as far as they still
read: a PUT lost there leaves that key's previous document (or none), a lost DELETE brings it back. Every
valid frame past the damage is replayed, and the log is then compacted, so the damage is not met again. A
snapshot that does not read is damage too (``framedlog.read_snapshot``). Replaying frames already folded
into the snapshot is harmless, since each frame sets or removes a whole document. Compaction (once the log
passes ``compact_bytes``): write the snapshot, then truncate the log to zero.

Threads: the broker loop thread changes and reads; the flusher thread calls ``sync_to``.

The same format, under the name ``producerState`` (``producerState.log``/``.json``), holds the producer
documents (producer id blocks, transactional ids, per-partition producer state snapshots): the key in
place of the group id, the documents under ``"groups"`` all the same.

Owners: each ``GroupMetadataLog`` owns its two files and its documents in memory; ``Documents`` is the broker's
entry to one of them (``store.group_metadata``, ``store.producer_state``: guarded calls, the durability future).
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Final, Protocol

from .errors import CorruptStoreError
from .framedlog import FrameRules, Gap, account, append_frames, frame, read_snapshot, scan
from .health import StoreHealth, guarded
from .jsonfile import write_json
from .quarantine import Quarantine

FORMAT_VERSION: Final = 1
PUT: Final = 1
DELETE: Final = 2
_U16 = struct.Struct(">H")

Document = Mapping[str, Any]


class GroupMetadataLog:
    """The durable map group id -> document (a JSON object)."""

    def __init__(
        self, directory: Path, compact_bytes: int, name: str = "groupMetadata", quarantine: Quarantine | None = None
    ) -> None:
        self._name = name
        self._log_path = directory / f"{name}.log"
        self._snapshot_path = directory / f"{name}.json"
        self._compact_bytes = compact_bytes
        #: Where damage found on load is kept: the store's ``quarantine/`` beside ``config/`` by default.
        self._quarantine = quarantine or Quarantine(directory.parent / "quarantine")
        self._documents: dict[str, Document] = {}
        self._fd = -1
        self._log_size = 0
        self.written = 0
        self._synced = 0

    def load(self) -> None:
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        snapshot, snapshot_damaged = read_snapshot(self._snapshot_path, self._quarantine, self._name, _check_snapshot)
        if snapshot is not None:
            self._documents.update(snapshot["groups"])
        self._fd = os.open(self._log_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        result = scan(data, RULES)
        for kind, group, document in result.values:
            if kind == PUT:
                self._documents[group] = document
            else:
                self._documents.pop(group, None)
        account(
            data, result, RULES, quarantine=self._quarantine, source=self._name, path=self._log_path, named=_describe
        )
        self._log_size = result.valid_end
        if result.damage or snapshot_damaged:
            self.compact()
        elif result.valid_end < len(data):
            os.ftruncate(self._fd, result.valid_end)
            os.fsync(self._fd)

    def put(self, group: str, document: Document) -> None:
        encoded = json.dumps(document, separators=(",", ":"), sort_keys=True).encode()
        previous = self._documents.get(group)
        self._documents[group] = json.loads(encoded)  # before the append, which may compact
        try:
            self._append(_body(PUT, group) + encoded)
        except OSError:
            self._restore(group, previous)
            raise

    def delete(self, group: str) -> bool:
        """Forget ``group``'s document; False when it had none."""
        if group not in self._documents:
            return False
        previous = self._documents.pop(group)  # before the append, which may compact
        try:
            self._append(_body(DELETE, group))
        except OSError:
            self._restore(group, previous)
            raise
        return True

    def _restore(self, group: str, document: Document | None) -> None:
        """Undo a change whose frame could not be stored."""
        if document is None:
            self._documents.pop(group, None)
        else:
            self._documents[group] = document

    def documents(self) -> dict[str, Document]:
        return dict(self._documents)

    def _append(self, body: bytes) -> None:
        data = frame(body)
        append_frames(self._fd, data)
        self._log_size += len(data)
        self.written += len(data)
        if self._log_size >= self._compact_bytes:
            self.compact()

    def compact(self) -> None:
        """Fold the log into the snapshot, then empty the log."""
        write_json(self._snapshot_path, {"version": FORMAT_VERSION, "groups": self._documents})
        os.ftruncate(self._fd, 0)
        os.fsync(self._fd)
        self._log_size = 0

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


class _SyncableLog(Protocol):
    @property
    def written(self) -> int: ...

    def sync_to(self, position: int) -> None: ...


class SyncedLogs:
    """Several logs presented to the flusher as one: ``written`` is their sum, ``sync_to`` syncs each.

    Each log's ``written`` only grows, so once the sum has reached a request's position, every byte counted
    in that position has been written, and syncing each log to its own current count covers it.
    """

    def __init__(self, *logs: _SyncableLog) -> None:
        self._logs = logs

    @property
    def written(self) -> int:
        return sum(log.written for log in self._logs)

    def sync_to(self, position: int) -> None:
        for log in self._logs:
            log.sync_to(log.written)


def _body(kind: int, group: str) -> bytes:
    name = group.encode()
    return bytes([kind]) + _U16.pack(len(name)) + name


def _decode(body: bytes) -> tuple[int, str, Document]:
    """(kind, key, document) of a frame body; ValueError (or struct.error) when it does not decode."""
    kind = body[0]
    if kind not in (PUT, DELETE):
        raise ValueError(f"unknown frame kind {kind}")
    (name_length,) = _U16.unpack_from(body, 1)
    start = 1 + _U16.size + name_length
    if start > len(body) or (kind == DELETE and start != len(body)):
        raise ValueError("the key does not fit the frame")
    group = body[1 + _U16.size : start].decode()
    document = json.loads(body[start:]) if kind == PUT else {}
    if not isinstance(document, dict):
        raise ValueError("a document is not a JSON object")
    return kind, group, document


#: The longest frame body a loader accepts.
MAX_BODY: Final = 64 << 20
RULES: Final = FrameRules(1 + _U16.size, MAX_BODY, frozenset((PUT, DELETE)), _decode)


def _describe(_: Gap, frames: list[tuple[int, str, Document]]) -> str:
    if not frames:
        return "nothing in them still reads; any key may have an older document, or one deleted since"
    named = ", ".join(f"{'PUT' if kind == PUT else 'DELETE'} {key!r}" for kind, key, _ in frames)
    return f"they read (unchecked) as {named}; those keys may have an older document, or one deleted since"


def _check_snapshot(document: Any) -> None:
    if document.get("version") != FORMAT_VERSION:
        raise CorruptStoreError(f"unknown snapshot format version {document.get('version')!r}")
    if not all(isinstance(value, dict) for value in document["groups"].values()):
        raise ValueError("a document is not a JSON object")


class DocumentLog(Protocol):
    """Where a ``Documents`` keeps them: a ``GroupMetadataLog`` (producer state), or an internal topic's documents
    (``coordinatorstate.DocumentMap``: the groups')."""

    def put(self, key: str, document: Document) -> None: ...

    def delete(self, key: str) -> bool: ...

    def documents(self) -> dict[str, Document]: ...


class Documents:
    """Documents as the broker asks for them: ``store.group_metadata`` (in ``__consumer_offsets``) and
    ``store.producer_state`` (a ``GroupMetadataLog``).

    Threads: the event loop thread; the flusher fsyncs the CommitLog and the side logs (``SyncedLogs``) and
    completes the futures."""

    def __init__(
        self,
        health: StoreHealth,
        log: DocumentLog,
        after_write: Callable[[], Future[None] | None],
        fsync: Callable[[], Future[None]],
    ) -> None:
        self._health = health
        self._log = log
        self._after_write = after_write
        self._fsync = fsync

    @guarded
    def save(self, key: str, document: Document, *, durable: bool = False) -> Future[None] | None:
        """Replace ``key``'s document (a JSON object); a future completed once fsynced when ``durable`` or
        under sync flush."""
        self._log.put(key, document)
        return self._fsync() if durable else self._after_write()

    @guarded
    def delete(self, key: str) -> bool:
        """Forget ``key``'s document; False when it had none."""
        return self._log.delete(key)

    @guarded
    def documents(self) -> dict[str, Document]:
        """Every document, as last saved."""
        return self._log.documents()
