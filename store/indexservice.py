"""The IndexFiles of a store: the index thread that fills them from the CommitLog, queries, and their lifecycle.

The index thread follows the CommitLog from where the newest IndexFile ends up to the published offset. It
hands the published part of the current segment (a slice of its mapping, ``CommitLog.segment_at``) to the
``core_pyx.indexrun`` kernel, which walks the records, hashes the keys of each batch and puts one entry per
distinct key hash with the GIL released, so the broker loop appends meanwhile; a call walks at most
``_RUN_BYTES`` of records, then the thread looks at its stop flag. What the kernel leaves to Python is one
record at a time, parsed with the code recovery uses (``CommitLog.parse_at``): a compressed batch (decompressed,
then indexed the same way), and anything the kernel's checks refuse. Records at or below the newest file's
``end_physical_offset`` are skipped, so following again from an older point is harmless. Control batches
(transaction markers) are not indexed. A full file is fsynced and its end recorded as ``durable_offset`` (the
checkpoint's ``index_offset``); then a new file starts. A record with more distinct keys than a whole file
holds has only the first ones indexed. When the thread has caught up it looks again ``_PAUSE_SECONDS`` later.

On open, files that end past ``min(checkpoint index_offset, CommitLog end)`` may hold entries that never
reached the disk whole, or point at records cut by recovery: they are deleted and rebuilt by following. So is
a damaged file (not its geometry's size, or a header whose counts or offsets cannot be: ``IndexFile.damage``)
and every file after it, with one WARNING: an IndexFile is derived data, nothing is lost. Entries in the
middle of a file are not checked; a query re-checks every candidate against the CommitLog (``keyquery.py``)
and an entry's chain only ever goes to older entries, so a damaged entry costs a missed or a wrong candidate,
never a crash or a loop. Damaged CommitLog bytes met while following (a record that fails its checks, zeros
below the published offset) are skipped to the next valid record (``CommitLog.next_valid``).

A full disk (ENOSPC, EDQUOT while allocating entries ahead) pauses the thread a second and it tries again from
where it was; entries are written through the mapping only into blocks allocated first. Any other I/O error
stops indexing (queries then miss what came later) while reads and appends go on; the error is kept as
``failure``, which the broker reports (its metrics and ``/readyz``).

Retention deletes files whose records are all below the CommitLog's first offset.
"""

from __future__ import annotations

import errno
import logging
import os
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.indexhash import key_hashes
from rockafka.core_pyx.indexrun import IndexStop
from rockafka.core_pyx.recordbatch import COMPRESSION_MASK, CONTROL_BIT, RECORD_BATCH_OVERHEAD, RECORD_COUNT_OFFSET

from .commitlog import CommitLog, CorruptRecord, EndOfData, SegmentEnd, StoredBatch
from .indexfile import NAME_LENGTH, IndexFile, file_name, key_hash, topic_seed

log = logging.getLogger("rockafka.store")
_PAUSE_SECONDS = 0.005  # once caught up, before looking again
_FULL_PAUSE_SECONDS = 1.0  # after the disk was full, before trying again
_RUN_BYTES = 4 << 20  # records walked per kernel call, between looks at the stop flag
_RECORD_COUNT = struct.Struct(">i")


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
        self._reached = 0
        """Where the index thread has got to: every record published before it is indexed."""
        self._seeds: dict[bytes, int] = {}
        self.failure: BaseException | None = None
        """What stopped the index thread (set once, by that thread); None while it runs."""

    def load(self, durable_offset: int, commitlog_end: int) -> int:
        """Open the files, deleting those not known complete; returns how many were deleted."""
        self._directory.mkdir(parents=True, exist_ok=True)
        limit = min(durable_offset, commitlog_end)
        names = sorted(n for n in os.listdir(self._directory) if len(n) == NAME_LENGTH and n.isdigit())
        removed = 0
        for number, name in enumerate(names):
            path = self._directory / name
            try:
                index_file = IndexFile.open(path, self._slot_count, self._entry_count, check_size=True)
            except OSError as exc:
                log.warning("store damage: IndexFile %s: %s; deleted, rebuilt from the CommitLog", name, exc)
                path.unlink(missing_ok=True)
                removed += 1
                continue
            damage = index_file.damage()
            if damage is None and index_file.index_count <= 1 and number < len(names) - 1:
                damage = "empty, although a later file exists"
            if damage is not None:
                log.warning("store damage: IndexFile %s: %s; deleted, rebuilt from the CommitLog", name, damage)
            if index_file.end_physical_offset > limit or removed or damage is not None:
                index_file.delete()
                removed += 1
            else:
                self._files.append(index_file)
        if removed:  # what the deleted files held is complete again only once it is rebuilt and synced
            limit = min(limit, max((f.end_physical_offset for f in self._files), default=0))
        self.durable_offset = limit
        return removed

    def load_readonly(self) -> None:
        """Open the files as they are, for the store tools (no thread, nothing deleted)."""
        if self._directory.is_dir():
            for name in sorted(n for n in os.listdir(self._directory) if len(n) == NAME_LENGTH and n.isdigit()):
                path = self._directory / name
                try:
                    index_file = IndexFile.open(
                        path, self._slot_count, self._entry_count, readonly=True, check_size=True
                    )
                except OSError:
                    continue  # damaged: the broker rebuilds it; the tools do without
                if index_file.damage() is None:
                    self._files.append(index_file)
                else:
                    index_file.close()

    @property
    def indexed_offset(self) -> int:
        """The CommitLog offset of the last record indexed (-1 before any)."""
        for index_file in reversed(self._files):
            if index_file.index_count > 1:
                return index_file.end_physical_offset
        return -1

    @property
    def reached_offset(self) -> int:
        """The CommitLog offset the index thread has got to: every record published before it is indexed."""
        return self._reached

    # --- the index thread ---

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="rockafka-index", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop following once everything published by now is indexed, fsync the files; the index is then
        durable up to where the thread got (the published end, unless a failure or a full disk stopped it)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            for index_file in self._files:
                index_file.sync()
        if self._thread is not None:
            self.durable_offset = self._reached

    def _run(self) -> None:
        position = max(self.indexed_offset, self._commitlog.min_offset)
        self._reached = position
        try:
            while not self._stop.is_set():
                try:
                    position, caught_up = self._follow(position)
                    self._reached = position
                except OSError as exc:  # a full disk: nothing was written past the reserve; try again later
                    if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                        raise
                    self._stop.wait(_FULL_PAUSE_SECONDS)
                    continue
                if caught_up:
                    self._stop.wait(_PAUSE_SECONDS)
            self._reached = self._catch_up(position)
        except BaseException as exc:  # an I/O failure: indexing stops; reads and appends go on
            self.failure = exc
            log.error(
                "the index thread stopped: %s; key queries miss records appended from now on, until a restart"
                " rebuilds the index from the CommitLog",
                exc,
            )

    def _catch_up(self, position: int) -> int:
        """Index what was published before the stop (appends have ended by then); a full disk ends it early."""
        target = self._commitlog.published_offset
        caught_up = position >= target
        while not caught_up:
            try:
                position, caught_up = self._follow(position)
            except OSError as exc:
                if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                    raise
                return position
            self._reached = position
            caught_up = caught_up or position >= target
        return position

    def _follow(self, position: int) -> tuple[int, bool]:
        """Index published records from ``position``: one kernel run over its segment, or the one record the
        kernel leaves to Python. Returns where to go on, and whether the thread has caught up for now."""
        published = self._commitlog.published_offset
        if position >= published:
            return position, True
        segment = self._commitlog.segment_at(position)
        if segment is None:
            first = self._commitlog.min_offset
            return (first, False) if position < first else (position, True)  # deleted under us / not there yet
        view, start = segment
        with self._lock:
            current = self._files[-1] if self._files else self._roll(None)
            end = min(published - start, len(view))
            run = current.index_run(view, position - start, end, start, self.indexed_offset, _RUN_BYTES)
            if run.stop == IndexStop.FULL and current.index_count > 1:
                if run.position > position - start:  # the reserved entries ran out, not the file: reserve more
                    return start + run.position, False
                self._roll(current)
                return start + run.position, False
        if run.stop == IndexStop.SEGMENT_END:
            return start + len(view), False
        if run.stop in (IndexStop.COMPRESSED, IndexStop.UNPARSED, IndexStop.FULL):
            return self._follow_one(start + run.position)
        if run.stop == IndexStop.END and start + run.position < published:
            return self._past_damage(start + run.position, published)
        return start + run.position, run.stop == IndexStop.END

    def _follow_one(self, position: int) -> tuple[int, bool]:
        """Index the one record at ``position`` in Python; a record not yet readable is tried again later."""
        outcome = self._commitlog.parse_at(position, verify_batch=False)
        if isinstance(outcome, StoredBatch):
            if outcome.physical_offset > self.indexed_offset:
                self._index(outcome)
            return outcome.end, False
        if isinstance(outcome, SegmentEnd):
            return outcome.next_offset, False
        if isinstance(outcome, EndOfData) and position < self._commitlog.min_offset:
            return self._commitlog.min_offset, False  # the segment was deleted under us
        assert isinstance(outcome, CorruptRecord | EndOfData)
        published = self._commitlog.published_offset
        if position < published:
            return self._past_damage(position, published)
        return position, True

    def _past_damage(self, position: int, published: int) -> tuple[int, bool]:
        """Published bytes at ``position`` that hold no valid record (recovery quarantined them): go on at the
        next valid record."""
        resume = self._commitlog.next_valid(position, published)
        return (published, True) if resume is None else (resume, False)

    def _index(self, record: StoredBatch) -> None:
        if record.attributes & CONTROL_BIT:
            return
        batch = self._commitlog.batch_slice(record.physical_offset, record.size)
        if batch is None:
            return
        count = _RECORD_COUNT.unpack_from(batch, RECORD_COUNT_OFFSET)[0]
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
            current = self._files[-1] if self._files else self._roll(None)
            if current.room() < len(hashes) and current.index_count > 1:
                current = self._roll(current)
            current.put(hashes[: current.room()], record.physical_offset, record.store_timestamp)

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
