"""Group metadata held by the broker: one JSON document per consumer group, an append-only log compacted
into a snapshot ``groupMetadata.json``. What a document holds is the group coordinator's business (members,
generation, protocol, assignments); the store keeps it whole and gives it back after a restart or a crash.

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

Load: the snapshot, then every valid frame of the log replayed over it; the log is cut at the first frame
that is short or fails its CRC (a torn tail). Replaying frames already folded into the snapshot is
harmless, since each frame sets or removes a whole document. Compaction (once the log passes
``compact_bytes``): write the snapshot, then truncate the log to zero.

Threads: the broker loop thread changes and reads; the flusher thread calls ``sync_to``.

The same format, under the name ``producerState`` (``producerState.log``/``.json``), holds the producer
documents (producer id blocks, transactional ids, per-partition producer state snapshots): the key in
place of the group id, the documents under ``"groups"`` all the same.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

from rockafka.core_pyx.crc32c import crc32c

from .errors import CorruptStoreError
from .jsonfile import read_json, write_json

FORMAT_VERSION: Final = 1
PUT: Final = 1
DELETE: Final = 2
_FRAME = struct.Struct(">II")
_U16 = struct.Struct(">H")

Document = Mapping[str, Any]


class GroupMetadataLog:
    """The durable map group id -> document (a JSON object)."""

    def __init__(self, directory: Path, compact_bytes: int, name: str = "groupMetadata") -> None:
        self._log_path = directory / f"{name}.log"
        self._snapshot_path = directory / f"{name}.json"
        self._compact_bytes = compact_bytes
        self._documents: dict[str, Document] = {}
        self._fd = -1
        self._log_size = 0
        self.written = 0
        self._synced = 0

    def load(self) -> None:
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        snapshot = read_json(self._snapshot_path)
        if snapshot is not None:
            if snapshot.get("version") != FORMAT_VERSION:
                raise CorruptStoreError(f"{self._snapshot_path}: unknown format version {snapshot.get('version')!r}")
            self._documents.update(snapshot["groups"])
        self._fd = os.open(self._log_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        valid = 0
        for kind, group, document, end in _frames(data):
            if kind == PUT:
                self._documents[group] = document
            else:
                self._documents.pop(group, None)
            valid = end
        if valid < len(data):
            os.ftruncate(self._fd, valid)
            os.fsync(self._fd)
        self._log_size = valid

    def put(self, group: str, document: Document) -> None:
        encoded = json.dumps(document, separators=(",", ":"), sort_keys=True).encode()
        self._documents[group] = json.loads(encoded)  # before the append, which may compact
        self._append(_body(PUT, group) + encoded)

    def delete(self, group: str) -> bool:
        """Forget ``group``'s document; False when it had none."""
        if group not in self._documents:
            return False
        del self._documents[group]  # before the append, which may compact
        self._append(_body(DELETE, group))
        return True

    def documents(self) -> dict[str, Document]:
        return dict(self._documents)

    def _append(self, body: bytes) -> None:
        frame = _FRAME.pack(len(body), crc32c(body)) + body
        os.write(self._fd, frame)
        self._log_size += len(frame)
        self.written += len(frame)
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


def _frames(data: bytes) -> Iterator[tuple[int, str, Document, int]]:
    """(kind, group, document, end position) of each valid frame, stopping at the first short or corrupt one."""
    pos = 0
    while pos + _FRAME.size <= len(data):
        length, crc = _FRAME.unpack_from(data, pos)
        end = pos + _FRAME.size + length
        body = data[pos + _FRAME.size : end]
        if length < 1 + _U16.size or end > len(data) or crc32c(body) != crc or body[0] not in (PUT, DELETE):
            return
        (name_length,) = _U16.unpack_from(body, 1)
        start = 1 + _U16.size + name_length
        group = body[1 + _U16.size : start].decode()
        document = json.loads(body[start:]) if body[0] == PUT else {}
        yield body[0], group, document, end
        pos = end
