"""The IndexFiles of a store: the index thread that fills them from the CommitLog, queries, and their lifecycle.

The index thread follows the CommitLog from where the newest IndexFile ends up to the published offset,
parses each record with the same code recovery uses (``CommitLog.parse_at``), decodes (and decompresses)
its batch, and puts one entry per distinct record key. Records at or below the newest file's
``end_physical_offset`` are skipped, so following again from an older point is harmless. Control
batches (transaction markers) are not indexed. A full file is fsynced and its end recorded as
``durable_offset`` (the checkpoint's ``index_offset``); then a new file starts.

On open, files that end past ``min(checkpoint index_offset, CommitLog end)`` may hold entries that never
reached the disk whole, or point at records cut by recovery: they are deleted and rebuilt by following.
Retention deletes files whose records are all below the CommitLog's first offset.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import CONTROL_BIT
from rockafka.core_pyx.records import read_records

from .commitlog import CommitLog, CorruptRecord, EndOfData, SegmentEnd, StoredBatch
from .indexfile import NAME_LENGTH, IndexFile, file_name, key_hash

_IDLE_SECONDS = 0.01


class IndexService:
    def __init__(self, directory: Path, slot_count: int, entry_count: int, commitlog: CommitLog) -> None:
        self._directory = directory
        self._slot_count = slot_count
        self._entry_count = entry_count
        self._commitlog = commitlog
        self._files: list[IndexFile] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.durable_offset = 0
        self.failure: BaseException | None = None

    def load(self, durable_offset: int, commitlog_end: int) -> int:
        """Open the files, deleting those not known complete; returns how many were deleted."""
        self._directory.mkdir(parents=True, exist_ok=True)
        limit = min(durable_offset, commitlog_end)
        names = sorted(n for n in os.listdir(self._directory) if len(n) == NAME_LENGTH and n.isdigit())
        removed = 0
        for name in names:
            index_file = IndexFile.open(self._directory / name, self._slot_count, self._entry_count)
            if index_file.end_physical_offset > limit or removed:
                index_file.delete()
                removed += 1
            else:
                self._files.append(index_file)
        self.durable_offset = limit
        return removed

    def load_readonly(self) -> None:
        """Open the files as they are, for the store tools (no thread, nothing deleted)."""
        if self._directory.is_dir():
            for name in sorted(n for n in os.listdir(self._directory) if len(n) == NAME_LENGTH and n.isdigit()):
                path = self._directory / name
                self._files.append(IndexFile.open(path, self._slot_count, self._entry_count, readonly=True))

    @property
    def indexed_offset(self) -> int:
        """The CommitLog offset of the last record indexed (-1 before any)."""
        for index_file in reversed(self._files):
            if index_file.index_count > 1:
                return index_file.end_physical_offset
        return -1

    # --- the index thread ---

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="rockafka-index", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop following, fsync the files; everything indexed is then durable."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            for index_file in self._files:
                index_file.sync()
        self.durable_offset = self._commitlog.published_offset

    def _run(self) -> None:
        position = max(self.indexed_offset, self._commitlog.min_offset)
        try:
            while not self._stop.is_set():
                moved = self._follow(position)
                if moved == position:
                    self._stop.wait(_IDLE_SECONDS)
                position = moved
        except BaseException as exc:  # an I/O failure: indexing stops; reads and appends go on
            self.failure = exc

    def _follow(self, position: int) -> int:
        """Index published records from ``position``; returns where to go on."""
        while position < self._commitlog.published_offset and not self._stop.is_set():
            outcome = self._commitlog.parse_at(position, verify_batch=False)
            if isinstance(outcome, StoredBatch):
                if outcome.physical_offset > self.indexed_offset:
                    self._index(outcome)
                position = outcome.end
            elif isinstance(outcome, SegmentEnd):
                position = outcome.next_offset
            elif isinstance(outcome, EndOfData) and position < self._commitlog.min_offset:
                position = self._commitlog.min_offset  # the segment was deleted under us
            else:
                assert isinstance(outcome, CorruptRecord | EndOfData)
                return position  # not yet readable: try again later
        return position

    def _index(self, record: StoredBatch) -> None:
        if record.attributes & CONTROL_BIT:
            return
        batch = self._commitlog.batch_copy(record.physical_offset, record.size)
        if batch is None:
            return
        try:
            keys = {r.key for r in read_records(batch) if r.key is not None}
        except KernelError:
            return  # a batch that does not decode has no keys to offer
        if not keys:
            return
        with self._lock:
            current = self._files[-1] if self._files else None
            if current is None or current.room() < len(keys):
                current = self._roll(current)
            for key in keys:
                current.put(key_hash(record.topic_id, key), record.physical_offset, record.store_timestamp)

    def _roll(self, full: IndexFile | None) -> IndexFile:
        if full is not None:
            full.sync()
            self.durable_offset = full.end_physical_offset
        created = time.time_ns() // 1_000_000
        while (self._directory / file_name(created)).exists():
            created += 1
        fresh = IndexFile.open(self._directory / file_name(created), self._slot_count, self._entry_count)
        self._files.append(fresh)
        return fresh

    # --- queries and retention (loop thread) ---

    def candidates(self, topic_id: bytes, key: bytes, begin_ms: int, end_ms: int) -> Iterator[int]:
        """Physical offsets of records that may carry ``key``, newest first (hashes collide: re-check them)."""
        hash_value = key_hash(topic_id, key)
        with self._lock:
            files = list(self._files)
        for index_file in reversed(files):
            with self._lock:
                found = index_file.lookup(hash_value, begin_ms, end_ms) if index_file in self._files else []
            yield from found

    def delete_files_below(self, physical_offset: int) -> int:
        """Delete files (never the newest) whose records all lie below ``physical_offset``."""
        deleted = 0
        with self._lock:
            while len(self._files) > 1 and self._files[0].end_physical_offset < physical_offset:
                self._files.pop(0).delete()
                deleted += 1
        return deleted

    def close(self) -> None:
        with self._lock:
            for index_file in self._files:
                index_file.close()
            self._files.clear()
