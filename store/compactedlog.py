"""The compacted log of one partition: the batches a cleaning pass kept, beside the shared CommitLog.

RocketMQ 5 serves compacted topics from a CompactionStore that rewrites their queues into per-queue files beside
the CommitLog; this is the same idea for Kafka's ``cleanup.policy=compact``. The CommitLog is never rewritten in
place: readers (and, later, followers streaming it) only ever see it appended to and deleted whole.

Files, under ``compacted/<topic id hex>/<partition>/``::

    manifest.json               {"version": 1, "generation": g, "start_offset": s, "end_offset": e, "bytes": n}
    <20-digit generation>.log   the kept batches of offsets [s, e), laid end to end

A ``.log`` file is Kafka's own segment layout: whole RecordBatch v2 (each ``8 + 4 + batchLength`` bytes, base
offset in bytes 0-7, CRC-32C over bytes 21 on), in increasing offset order, nothing between them; offsets have
gaps where records were removed. A batch may hold no records (kept for producer state, see ``compaction.py``).
The manifest says which generation is live and which offsets it replaces: a read of an offset in
``[start_offset, end_offset)`` is served from the log, a read at or past ``end_offset`` from the ConsumeQueue and
the CommitLog, as before compaction. ``bytes`` is the log's length.

Publishing a pass (``CompactedLogFiles.publish``), in this order:

1. write generation g+1's ``.log``, fsync it and the directory;
2. replace ``manifest.json`` atomically (``jsonfile.write_json``: temporary file, fsync, rename, fsync);
3. delete the older ``.log`` files.

A kill -9 before step 2 completes leaves the old manifest, which names the old (untouched) generation; the new
file is an orphan. After step 2 the new generation is live. On open (``load``), every ``.log`` the manifest does
not name is deleted, and the live one is cut to ``bytes`` and walked batch by batch; a batch that does not parse
ends it there (``end_offset`` stays: the offsets past the damage read as a gap). Nothing in the CommitLog is
deleted because of a compacted log until its manifest is durable (``retention.py`` asks ``CompactedLogs``).

Threads: ``write_generation`` runs on the cleaner's thread (it touches only its own new file); ``publish``,
``load`` and reads run on the event loop thread. ``load_readonly`` (``reader.py``, the store tools) changes
nothing on disk.
"""

from __future__ import annotations

import bisect
import contextlib
import mmap
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import DELETE_HORIZON_BIT, read_batch_header

from .compaction import stored_records
from .errors import CorruptStoreError
from .jsonfile import fsync_directory, read_json, write_json

FORMAT_VERSION: Final = 1
LONG_MAX: Final = (1 << 63) - 1
MANIFEST: Final = "manifest.json"
_NAME_DIGITS: Final = 20


@dataclass(frozen=True, slots=True)
class Manifest:
    generation: int
    start_offset: int
    end_offset: int
    bytes: int

    def as_json(self) -> dict[str, int]:
        return {
            "version": FORMAT_VERSION, "generation": self.generation, "start_offset": self.start_offset,
            "end_offset": self.end_offset, "bytes": self.bytes,
        }  # fmt: skip


def _parse_manifest(document: Any) -> Manifest:
    if not isinstance(document, dict) or document.get("version") != FORMAT_VERSION:
        raise CorruptStoreError(f"not a version {FORMAT_VERSION} compacted-log manifest")
    values = [document[name] for name in ("generation", "start_offset", "end_offset", "bytes")]
    if any(type(value) is not int or value < 0 for value in values):
        raise CorruptStoreError(f"a manifest value is not a non-negative integer: {values}")
    manifest = Manifest(*values)
    if manifest.start_offset > manifest.end_offset:
        raise CorruptStoreError(f"start_offset {manifest.start_offset} is past end_offset {manifest.end_offset}")
    return manifest


def log_name(generation: int) -> str:
    return f"{generation:0{_NAME_DIGITS}d}.log"


def _write_all(fd: int, batches: list[bytes | memoryview]) -> int:
    size = 0
    for batch in batches:
        view = memoryview(batch)
        while view:
            written = os.write(fd, view)
            size += written
            view = view[written:]
    return size


class CompactedLog:
    """One live generation, mapped read-only: batches found by offset (bisect over their base offsets)."""

    def __init__(self, path: Path | None, manifest: Manifest) -> None:
        self.manifest = manifest
        self._map: mmap.mmap | None = None
        self._view = memoryview(b"")
        self._bases: list[int] = []
        self._nexts: list[int] = []
        self._positions: list[int] = []
        #: The earliest delete horizon of a batch in the log (``compaction.py``): a pass is due then.
        self.earliest_horizon: int | None = None
        if path is not None and manifest.bytes:
            with open(path, "rb") as file:
                self._map = mmap.mmap(file.fileno(), manifest.bytes, prot=mmap.PROT_READ)
            self._view = memoryview(self._map)
            self._index()

    def _index(self) -> None:
        position, view = 0, self._view
        while position < len(view):
            try:
                header = read_batch_header(view, position)
            except KernelError:
                break  # damage: what follows reads as a gap up to end_offset
            if header.size > len(view) - position:
                break
            if header.attributes & DELETE_HORIZON_BIT:
                horizon = header.base_timestamp
                self.earliest_horizon = (
                    horizon if self.earliest_horizon is None else min(self.earliest_horizon, horizon)
                )
            self._bases.append(header.base_offset)
            self._nexts.append(header.next_offset)
            self._positions.append(position)
            position += header.size
        self._positions.append(position)

    @property
    def start_offset(self) -> int:
        return self.manifest.start_offset

    @property
    def end_offset(self) -> int:
        return self.manifest.end_offset

    @property
    def size(self) -> int:
        return self.manifest.bytes

    def batch_count(self) -> int:
        return len(self._bases)

    def batches(self, start: int = 0) -> list[memoryview]:
        """Every batch from index ``start`` on (the cleaner's input)."""
        return [self._batch(index) for index in range(start, len(self._bases))]

    def _batch(self, index: int) -> memoryview:
        return self._view[self._positions[index] : self._positions[index] + self._size_of(index)]

    def _size_of(self, index: int) -> int:
        following = self._positions[index + 1] if index + 1 < len(self._bases) else self._positions[-1]
        return following - self._positions[index]

    def read(self, fetch_offset: int, max_bytes: int, limit: int) -> tuple[list[memoryview], int, int]:
        """Whole batches from the first one ending after ``fetch_offset``, below ``limit``, within ``max_bytes``
        (the first always): (batches, bytes, the offset after the last, or ``fetch_offset`` if none)."""
        index = bisect.bisect_right(self._nexts, fetch_offset)
        batches: list[memoryview] = []
        total, next_offset = 0, fetch_offset
        while index < len(self._bases) and self._bases[index] < limit:
            size = self._size_of(index)
            if batches and total + size > max_bytes:
                break
            batches.append(self._batch(index))
            total += size
            next_offset = self._nexts[index]
            index += 1
        return batches, total, next_offset

    def first_at_or_after(self, timestamp: int, log_start: int) -> tuple[int, int] | None:
        """(offset, timestamp) of the first record at or after ``log_start`` whose timestamp is at least
        ``timestamp``; batches whose maxTimestamp is below it are skipped undecoded."""
        first = bisect.bisect_right(self._nexts, log_start)
        for index in range(first, len(self._bases)):
            batch = self._batch(index)
            header = read_batch_header(batch)
            if header.max_timestamp < timestamp or header.is_control:
                continue
            for record in stored_records(batch):
                if record.offset >= log_start and record.timestamp >= timestamp:
                    return record.offset, record.timestamp
        return None

    def max_timestamp(self, log_start: int) -> tuple[int, int] | None:
        """(offset, timestamp) of the first record at or after ``log_start`` carrying the largest timestamp;
        batches are compared by their maxTimestamp (a pass sets it from the records it keeps), one is decoded."""
        best: tuple[int, int] | None = None  # (maxTimestamp, batch index)
        for index in range(bisect.bisect_right(self._nexts, log_start), len(self._bases)):
            header = read_batch_header(self._batch(index))
            if not header.is_control and header.record_count and (best is None or header.max_timestamp > best[0]):
                best = (header.max_timestamp, index)
        if best is None:
            return None
        for record in stored_records(self._batch(best[1])):
            if record.offset >= log_start and record.timestamp == best[0]:
                return record.offset, record.timestamp
        return None

    def close(self) -> None:
        """Unmap, unless a reader still holds a batch: then the mapping goes with its last view."""
        self._view.release()
        if self._map is not None:
            with contextlib.suppress(BufferError):
                self._map.close()
            self._map = None


class CompactedLogFiles:
    """The files of one partition's compacted log: load the live generation, write and publish a new one."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.manifest_path = directory / MANIFEST

    def load(self) -> CompactedLog | None:
        """The live generation (orphans of an unfinished pass deleted), or None when never compacted."""
        manifest = read_json(self.manifest_path, _parse_manifest)
        if manifest is None:
            if self.directory.is_dir():
                shutil.rmtree(self.directory, ignore_errors=True)  # a first pass that never published
            return None
        live = self.directory / log_name(manifest.generation)
        for path in self.directory.glob("*.log"):
            if path != live:
                path.unlink(missing_ok=True)
        if not live.exists() and manifest.bytes:
            raise CorruptStoreError(f"{self.manifest_path} names {live.name}, which is missing")
        if manifest.bytes:
            if live.stat().st_size < manifest.bytes:
                raise CorruptStoreError(f"{live} is shorter than the {manifest.bytes} bytes its manifest names")
            os.truncate(live, manifest.bytes)
        return CompactedLog(live, manifest)

    def load_readonly(self) -> CompactedLog | None:
        """The live generation as the manifest names it, nothing deleted or cut (the store tools' reader)."""
        manifest = read_json(self.manifest_path, _parse_manifest)
        if manifest is None:
            return None
        live = self.directory / log_name(manifest.generation)
        if manifest.bytes and not live.exists():
            raise CorruptStoreError(f"{self.manifest_path} names {live.name}, which is missing")
        return CompactedLog(live, manifest)

    def write_generation(self, generation: int, batches: list[bytes | memoryview]) -> tuple[Path, int]:
        """Step 1: the new generation's file, fsynced with its directory; (its path, its size)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / log_name(generation)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            size = _write_all(fd, batches)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_directory(self.directory)
        fsync_directory(self.directory.parent)
        return path, size

    def publish(self, manifest: Manifest) -> CompactedLog:
        """Steps 2 and 3: make ``manifest``'s generation live, delete the older ones; the new log, opened."""
        write_json(self.manifest_path, manifest.as_json())
        live = self.directory / log_name(manifest.generation)
        for path in self.directory.glob("*.log"):
            if path != live:
                path.unlink(missing_ok=True)
        return CompactedLog(live, manifest)

    def delete(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def load_compacted_logs(root: Path, live: Iterable[tuple[bytes, int]]) -> dict[tuple[bytes, int], CompactedLog]:
    """Open the compacted logs under ``root`` (``compacted/``) of the ``live`` partitions (an unfinished pass's
    orphans deleted); the directories of partitions that are gone are removed."""
    wanted = set(live)
    logs: dict[tuple[bytes, int], CompactedLog] = {}
    if not root.is_dir():
        return logs
    for topic_dir in root.iterdir():
        for partition_dir in topic_dir.iterdir():
            key = (bytes.fromhex(topic_dir.name), int(partition_dir.name))
            files = CompactedLogFiles(partition_dir)
            if key not in wanted:
                files.delete()
                continue
            log = files.load()
            if log is not None:
                logs[key] = log
    return logs
