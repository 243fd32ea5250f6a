"""``MessageStore``: the store's front door. It opens and closes the store and routes to its services.

The broker calls the services through it, each the one owner of its state:

- ``records`` (``records.py``): append, read, a partition's bounds (log start, high watermark, last stable
  offset), ListOffsets by time, DeleteRecords, transaction markers;
- ``topics`` (``topicadmin.py``): create, alter and delete topics and partitions;
- ``transactions`` (``transactions.py``): open and aborted transactions, markers' coordinator epochs;
- ``offsets``, ``group_metadata`` and ``group_partitions`` (``coordinatorstate.py``): committed consumer offsets and
  the groups' documents, kept as records in ``__consumer_offsets`` (``internaltopics.py``), and which of its
  partitions are loaded;
- ``transaction_state`` and ``transaction_partitions``: the transactional ids' documents, records in
  ``__transaction_state``;
- ``producer_state`` (``groups.py``): the producer documents (a side log);
- ``retention`` (``retention.py``): per-topic and CommitLog retention;
- ``keys`` (``keyquery.py``): records by key, from the IndexFiles;
- ``cleaner`` (``cleaner.py``): log compaction of ``cleanup.policy=compact`` topics;
- ``epochs`` (``epochs.py``): the leader epochs, stamped into every batch, and OffsetForLeaderEpoch's answers;
- ``replica`` (``replica.py``): a follower's appends, CommitLog bytes copied from its leader;
- ``kept_offsets`` (``keptoffsets.py``): one partition's batches copied from another broker at their own offsets
  (a partition moving between broker groups).

Only this module knows every service; it builds each with what it uses (a config value, the clock, a file
service, ``StoreHealth``), never with itself. The import-linter contracts in ``pyproject.toml`` keep it so.

Threading: every call is made from one thread (the broker's event loop thread). The store runs its own threads
behind it: the flusher (fsync, group commit, checkpoint), the index thread (IndexFiles), the segment
pre-allocator and the cleaner (compaction passes). Futures handed out (``AppendResult.durable``, ``offsets.commit``) are
``concurrent.futures.Future`` completed on the flusher thread; wrap them with ``asyncio.wrap_future``. A thread
that fails reports it through ``StoreHealth.report``, the one channel from the store's threads to the loop.

Errors: every exception raised by a service is a ``StoreError``. An ``OSError`` is wrapped once, by
``health.guarded``, into ``StorageError`` and takes the store offline: every later call raises ``StorageError``
too. A full file system (ENOSPC, EDQUOT, or free space below ``free_space_reserve_bytes``) is
``StorageFullError`` instead: appends are refused until space returns, and everything else goes on
(``space.py``).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable

from .checkpoint import StoreLock, mark_clean
from .cleaner import LogCleaner
from .config import StoreConfig
from .coordinatorstate import (
    CommittedOffsets,
    ConsumerOffsets,
    DocumentMap,
    LoadedPartitions,
    group_state_replay,
    legacy_files,
    migrate_side_files,
    migrate_transactional_ids,
    retire_side_files,
    transaction_state_replay,
)
from .epochs import LeaderEpochs
from .errors import StorageError
from .flusher import FlushService
from .groups import Documents, SyncedLogs
from .health import StoreHealth, guarded
from .indexservice import IndexService
from .internaltopics import OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC, InternalTopic, group_key, transaction_key
from .keptoffsets import KeptOffsets
from .keyquery import KeyQueries
from .layout import StoreLayout
from .opening import OpenFiles, open_files
from .records import Records
from .replica import ReplicaLog
from .results import RecoveryReport, StoreFile, StoreStats
from .retention import Retention, RetentionPolicy
from .space import CHECK_BYTES, FreeSpace
from .topicadmin import Topics
from .transactions import Transactions
from .txnoffsets import TransactionalOffsets
from .writer import Writer

_log = logging.getLogger("rockafka.store")


def _durable_offset(index: IndexService | None) -> Callable[[], int]:
    """What the checkpoint records as indexed: the index thread's durable offset, or 0 without an index."""
    return (lambda: index.durable_offset) if index is not None else (lambda: 0)


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class MessageStore:
    """A CommitLog shared by every partition, a ConsumeQueue per partition, IndexFiles and broker-held offsets."""

    records: Records
    topics: Topics
    transactions: Transactions
    offsets: ConsumerOffsets
    group_metadata: Documents
    group_partitions: LoadedPartitions
    transaction_state: Documents
    transaction_partitions: LoadedPartitions
    producer_state: Documents
    retention: Retention
    keys: KeyQueries
    cleaner: LogCleaner
    epochs: LeaderEpochs
    replica: ReplicaLog

    def __init__(self, config: StoreConfig, clock: Callable[[], int], lock: StoreLock) -> None:
        """Use ``MessageStore.open``."""
        self.config = config
        self._clock = clock
        self._lock = lock
        self._layout = StoreLayout(config.root_dir)
        self._health = StoreHealth(FreeSpace(config.root_dir, config.free_space_reserve_bytes))
        self._files = OpenFiles()
        self._flusher: FlushService | None = None
        self._cleaner: LogCleaner | None = None
        self.recovery_report: RecoveryReport | None = None
        self.open_seconds = 0.0

    @classmethod
    def open(
        cls, config: StoreConfig, *, clock: Callable[[], int] | None = None, truncate_to: int | None = None
    ) -> MessageStore:
        """Lock the directory, recover it (see ``recovery.py``) and start the store's threads. ``truncate_to``: cut
        the store back to that CommitLog offset first (a follower whose log diverged; ``truncation.py``)."""
        try:
            config.root_dir.mkdir(parents=True, exist_ok=True)
            lock = StoreLock(config.root_dir)
            lock.acquire()
        except OSError as exc:
            raise StorageError(f"cannot open {config.root_dir}: {exc}") from exc
        store = cls(config, clock or _wall_clock_ms, lock)
        started = time.monotonic()
        try:
            store._load(truncate_to)
        except BaseException as exc:
            store._release_after_failed_open()
            if isinstance(exc, OSError):
                raise StorageError(f"cannot open {config.root_dir}: {exc}") from exc
            raise
        store.open_seconds = time.monotonic() - started
        return store

    def _load(self, truncate_to: int | None) -> None:
        """Open the files and recover (``opening.py``), build the services on them, start the threads."""
        config, health, files = self.config, self._health, self._files
        open_files(self._layout, config, files, truncate_to)
        self.recovery_report = files.report
        commitlog, index, partitions, tracker = files.commitlog, files.index, files.partitions, files.tracker
        flusher = self._flusher = FlushService(
            sync_mode=config.flush_mode == "sync", interval_ms=config.flush_interval_ms,
            checkpoint_interval_ms=config.checkpoint_interval_ms, commitlog=commitlog,
            consume_queue_files=files.dirty, checkpoint=files.checkpoint, index_offset=_durable_offset(index),
            offsets_log=SyncedLogs(files.producer_log, tracker.log),
            on_error=health.report, cache_bytes=config.commitlog_cache_bytes,
        )  # fmt: skip
        writer = Writer(
            commitlog, files.builder, epochs=files.epochs, space=health.space, durable=flusher.after_write,
            log_start=partitions.log_start, clock=self._clock,
        )  # fmt: skip
        self.records = Records(health, partitions, commitlog, writer, files.builder, tracker)
        offsets_topic = InternalTopic(
            OFFSETS_TOPIC, config.offsets_topic_partitions, table=files.table, queues=partitions,
            records=self.records, clock=self._clock,
        )  # fmt: skip
        committed, group_documents = CommittedOffsets(offsets_topic), DocumentMap(offsets_topic, group_key)
        transactional = TransactionalOffsets(offsets_topic, committed.apply)
        self.group_partitions = LoadedPartitions(
            health, offsets_topic, *group_state_replay(committed, group_documents, transactional)
        )
        transaction_topic = InternalTopic(
            TRANSACTION_STATE_TOPIC, config.offsets_topic_partitions, table=files.table, queues=partitions,
            records=self.records, clock=self._clock,
        )  # fmt: skip
        transaction_documents = DocumentMap(transaction_topic, transaction_key)
        self.transaction_partitions = LoadedPartitions(
            health, transaction_topic, *transaction_state_replay(transaction_documents)
        )
        self.transaction_state = Documents(health, transaction_documents, flusher.after_write, flusher.request)
        self.topics = Topics(health, files.table, partitions, tracker, committed)
        self.transactions = Transactions(health, partitions, tracker)
        self.offsets = ConsumerOffsets(health, committed, self._clock, flusher.after_write, transactional)
        self.group_metadata = Documents(health, group_documents, flusher.after_write, flusher.request)
        self.producer_state = Documents(health, files.producer_log, flusher.after_write, flusher.request)
        self.retention = Retention(
            health=health, policy=RetentionPolicy.of(config), commitlog=commitlog, partitions=partitions,
            topics=files.table, index=index, transactions=tracker, clock=self._clock,
        )  # fmt: skip
        self.keys = KeyQueries(health, files.table, partitions, index, commitlog)
        self.epochs = LeaderEpochs(health, files.epochs, partitions, commitlog)
        self.replica = ReplicaLog(health, commitlog, files.builder, files.epochs, writer, files.table, partitions)
        self.kept_offsets = KeptOffsets(health, partitions, commitlog, files.builder, files.epochs, self._clock)
        self.cleaner = self._cleaner = LogCleaner(
            health=health, layout=self._layout, partitions=partitions, commitlog=commitlog, topics=files.table,
            transactions=tracker, clock=self._clock, io_bytes_per_second=config.cleaner_io_bytes_per_second,
            duty_cycle=config.cleaner_duty_cycle, dedupe_buffer_bytes=config.cleaner_dedupe_buffer_bytes,
            threads=config.cleaner_threads,
        )  # fmt: skip
        geometry = self._layout.geometry(config)
        health.space.headroom = geometry.commitlog_segment_bytes + CHECK_BYTES if config.preallocate else CHECK_BYTES
        health.space.look()
        flusher.start()
        if index is not None:
            index.start()
        self.group_partitions.load_all()
        self.transaction_partitions.load_all()
        self._upgrade_side_files(committed, group_documents)
        self._upgrade_transactional_ids(transaction_documents)

    def _upgrade_transactional_ids(self, documents: DocumentMap) -> None:
        """Move the transactional ids an earlier version kept among the producer documents, once."""
        moved = migrate_transactional_ids(self._files.producer_log.documents(), documents)
        if moved:
            self.flush()
            for key in moved:
                self._files.producer_log.delete(key)
            _log.info("upgraded: %d transactional ids moved into %s", len(moved), TRANSACTION_STATE_TOPIC)

    def _upgrade_side_files(self, committed: CommittedOffsets, group_documents: DocumentMap) -> None:
        """Move the offsets and groups of an earlier version's side files into ``__consumer_offsets``, once."""
        if not legacy_files(self._layout.config):
            return
        offsets, groups = migrate_side_files(self._layout.config, committed, group_documents)
        self.flush()
        retire_side_files(legacy_files(self._layout.config))
        _log.info("upgraded: %d committed offsets and %d groups moved from side files into %s", offsets, groups,
                  OFFSETS_TOPIC)  # fmt: skip

    def _stop_threads(self) -> None:
        if self._cleaner is not None:
            self._cleaner.close()
        if self._files.index is not None:
            self._files.index.stop()
        if self._flusher is not None:
            self._flusher.stop()

    def _release_after_failed_open(self) -> None:
        with contextlib.suppress(Exception):
            self._stop_threads()
        with contextlib.suppress(Exception):
            self._files.close()
        self._lock.release()

    def close(self) -> None:
        """Stop the threads, flush and checkpoint, remove the abort marker, release the lock. Idempotent."""
        if self._health.closed:
            return
        self._health.closed = True
        try:
            self._stop_threads()
            self._files.close()
            if not self._health.failed():
                mark_clean(self._layout.root)
        except OSError as exc:
            raise self._health.go_offline(exc) from exc
        finally:
            self._lock.release()

    def __enter__(self) -> MessageStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def health(self) -> StoreHealth:
        """Whether the store may be used; ``health.report(error)`` takes it offline (the flusher's channel, and a
        test's: ``rockafka.testing`` faults)."""
        return self._health

    def stats(self) -> StoreStats:
        """The loop thread: the store's size, the index thread's progress and health (answers when offline too)."""
        commitlog, index = self._files.commitlog, self._files.index
        published = commitlog.published_offset
        index_lag = 0 if index is None else max(0, published - max(index.reached_offset, commitlog.min_offset))
        index_failure = None if index is None or index.failure is None else str(index.failure) or repr(index.failure)
        failure = self._health.failure if self._health.failed() else None
        flushes = self._flusher.times if self._flusher is not None else None
        return StoreStats(
            commitlog_bytes=published - commitlog.min_offset, commitlog_segments=len(commitlog.segments()),
            index_lag_bytes=index_lag, index_failure=index_failure,
            offline_reason=None if failure is None else str(failure), closed=self._health.closed,
            open_seconds=self.open_seconds, commitlog_min_offset=commitlog.min_offset,
            commitlog_published_offset=published, commitlog_synced_offset=commitlog.synced_offset,
            indexed_offset=published if index is None else index.indexed_offset,
            flush_buckets=() if flushes is None else tuple(flushes.buckets),
            flush_seconds=0.0 if flushes is None else flushes.seconds,
        )  # fmt: skip

    def files(self) -> list[StoreFile]:
        """Every CommitLog segment, ConsumeQueue file, compacted log file and IndexFile, as the directory lists
        them now (any thread: it only lists directories)."""
        return self._layout.list_files()

    @guarded
    def flush(self) -> None:
        """fsync everything appended or committed so far and write a checkpoint; blocks until done."""
        assert self._flusher is not None  # an open store has one
        self._flusher.request(checkpoint=True).result()
