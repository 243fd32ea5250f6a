"""The IndexFiles of a store: the index thread that fills them from the CommitLog, queries, and their lifecycle.

The index thread follows the CommitLog from where the newest IndexFile ends up to the published offset.
Records the dispatcher appended in this run are handed over (``offer``), the others (after a restart, or
when the thread lags by more than it keeps) are parsed with the same code recovery uses
(``CommitLog.parse_at``); each batch is decompressed and one entry is put per distinct key hash. Records
at or below the newest file's ``end_physical_offset`` are skipped, so following again from an older point
is harmless. Control batches (transaction markers) are not indexed. A full file is fsynced and its end recorded as
``durable_offset`` (the checkpoint's ``index_offset``); then a new file starts.

On open, files that end past ``min(checkpoint index_offset, CommitLog end)`` may hold entries that never
reached the disk whole, or point at records cut by recovery: they are deleted and rebuilt by following.

The index thread runs Python between its kernel calls, so it holds the GIL: it works in bursts of at most
``_BURST_SECONDS`` then pauses ``_PAUSE_SECONDS``, so the broker loop (whose appends release the GIL while
the kernel copies) hands the GIL over a few hundred times a second rather than at every append, and never
waits longer than a burst.
Retention deletes files whose records are all below the CommitLog's first offset.
"""

from __future__ import annotations

import os
import struct
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path

from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.indexhash import key_hashes
from rockafka.core_pyx.recordbatch import COMPRESSION_MASK, CONTROL_BIT, RECORD_BATCH_OVERHEAD

from .commitlog import CommitLog, CorruptRecord, EndOfData, SegmentEnd, StoredBatch
from .indexfile import NAME_LENGTH, IndexFile, file_name, key_hash, topic_seed

_PAUSE_SECONDS = 0.005  # between bursts
_BURST_SECONDS = 0.001  # the longest the thread holds the GIL at a stretch
_HANDED_OVER_MAX = 65536  # records handed over by the dispatcher; past it, the thread parses the CommitLog
_RECORD_COUNT = struct.Struct(">i")
_COUNT_AT = 57


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
        self._handed_over: deque[StoredBatch] = deque(maxlen=_HANDED_OVER_MAX)
        self._seeds: dict[bytes, int] = {}

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
                position = self._follow(position, time.monotonic() + _BURST_SECONDS)
                self._stop.wait(_PAUSE_SECONDS)
        except BaseException as exc:  # an I/O failure: indexing stops; reads and appends go on
            self.failure = exc

    def _follow(self, position: int, deadline: float) -> int:
        """Index published records from ``position`` until ``deadline``; returns where to go on."""
        while position < self._commitlog.published_offset and time.monotonic() < deadline:
            outcome = self._handed(position) or self._commitlog.parse_at(position, verify_batch=False)
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

    def offer(self, record: StoredBatch) -> None:
        """Hand over a record just appended (the dispatcher, loop thread), sparing the thread a parse."""
        self._handed_over.append(record)

    def _handed(self, position: int) -> StoredBatch | None:
        pending = self._handed_over
        while pending and pending[0].physical_offset < position:
            pending.popleft()
        return pending.popleft() if pending and pending[0].physical_offset == position else None

    def _index(self, record: StoredBatch) -> None:
        if record.attributes & CONTROL_BIT:
            return
        batch = self._commitlog.batch_slice(record.physical_offset, record.size)
        if batch is None:
            return
        count = _RECORD_COUNT.unpack_from(batch, _COUNT_AT)[0]
        codec = record.attributes & COMPRESSION_MASK
        try:
            payload = batch[RECORD_BATCH_OVERHEAD:]
            seed = self._seeds.get(record.topic_id)
            if seed is None:
                seed = self._seeds[record.topic_id] = topic_seed(record.topic_id)
            hashes = key_hashes(decompress(codec, payload) if codec else payload, count, seed)
        except KernelError:
            return  # a batch that does not decode has no keys to offer
        if not hashes:
            return
        with self._lock:
            current = self._files[-1] if self._files else None
            if current is None or current.room() < len(hashes):
                current = self._roll(current)
            current.put(hashes, record.physical_offset, record.store_timestamp)

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
