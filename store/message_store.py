"""``MessageStore``: the one facade in front of the store's services.

Threading: every method is called from one thread (the broker's event loop thread). The store runs its
own threads behind it: the flusher (fsync, group commit, checkpoint), the index thread (IndexFiles)
and the segment pre-allocator. Futures handed out (``AppendResult.durable``, ``commit_offsets``) are
``concurrent.futures.Future`` completed on the flusher thread; wrap them with ``asyncio.wrap_future``.

Errors: every exception raised here is a ``StoreError``. An ``OSError`` is wrapped once, here, into
``StorageError`` and takes the store offline: every later call raises ``StorageError`` too. A full file
system (ENOSPC, EDQUOT, or free space below ``free_space_reserve_bytes``) is ``StorageFullError`` instead:
appends are refused until space returns, and everything else goes on (``space.py``).

Services never hold a reference to this facade; it hands each one only what it uses.
"""

from __future__ import annotations

import contextlib
import functools
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from rockafka.core_pyx.errors import KernelError

from . import keyquery
from . import partition as partition_reads
from .checkpoint import Checkpoint, StoreLock, mark_clean, mark_running
from .commitlog import CommitLog
from .config import StoreConfig, TopicSettings
from .consumequeue import ConsumeQueue, DirtyFiles
from .errors import (
    InvalidPartitionsError,
    OffsetOutOfRangeError,
    StorageError,
    StoreClosedError,
    StoreError,
    UnknownTopicOrPartitionError,
)
from .flusher import FlushService
from .groups import Document, GroupMetadataLog, SyncedLogs
from .indexservice import IndexService
from .layout import StoreLayout
from .offsets import OffsetStore
from .quarantine import Quarantine
from .queuebuilder import QueueBuilder
from .recovery import recover
from .results import (
    AbortedTransaction,
    AppendResult,
    CommittedOffset,
    KeyedRecord,
    OffsetCommit,
    OpenTransaction,
    PartitionBounds,
    PartitionOffsets,
    ReadResult,
    RecoveryReport,
    RetentionReport,
    TimestampOffset,
    TopicInfo,
    TopicPartition,
)
from .retention import Retention, RetentionPolicy
from .space import CHECK_BYTES, FreeSpace, room_to_open
from .topics import LogStartOffsets, TopicTable
from .transactions import TransactionTracker
from .txnlog import TransactionLog
from .writer import AppendListener, Route, Writer

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from rockafka.core_pyx.recordbatch import BatchHeader

P = ParamSpec("P")
R = TypeVar("R")
PartitionKey = tuple[bytes, int]


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def _guarded(method: Callable[Concatenate[MessageStore, P], R]) -> Callable[Concatenate[MessageStore, P], R]:
    """Refuse calls on a closed or offline store; turn an ``OSError`` into ``StorageError`` (once), or into
    ``StorageFullError`` when the file system is full (the store stays online)."""

    @functools.wraps(method)
    def guarded(self: MessageStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        self._check_usable()
        try:
            return method(self, *args, **kwargs)
        except OSError as exc:
            if self._space.out_of_space(exc):
                raise self._space.fill(str(exc)) from exc
            raise self._go_offline(exc) from exc

    return guarded


class MessageStore:
    """A CommitLog shared by every partition, a ConsumeQueue per partition, IndexFiles and broker-held offsets."""

    def __init__(self, config: StoreConfig, clock: Callable[[], int], lock: StoreLock) -> None:
        """Use ``MessageStore.open``."""
        self.config = config
        self._clock = clock
        self._lock = lock
        self._layout = StoreLayout(config.root_dir)
        self._closed = False
        self._failure: BaseException | None = None
        self._queues: dict[PartitionKey, ConsumeQueue] = {}
        self._routes: dict[tuple[str, int], Route] = {}
        self._dirty = DirtyFiles()
        self._space = FreeSpace(config.root_dir, config.free_space_reserve_bytes)
        self.recovery_report: RecoveryReport | None = None

    # --- lifecycle ---

    @classmethod
    def open(cls, config: StoreConfig, *, clock: Callable[[], int] | None = None) -> MessageStore:
        """Lock the directory, recover it (see ``recovery.py``) and start the store's threads."""
        try:
            config.root_dir.mkdir(parents=True, exist_ok=True)
            lock = StoreLock(config.root_dir)
            lock.acquire()
        except OSError as exc:
            raise StorageError(f"cannot open {config.root_dir}: {exc}") from exc
        store = cls(config, clock or _wall_clock_ms, lock)
        try:
            store._load()
        except BaseException as exc:
            store._release_after_failed_open()
            if isinstance(exc, OSError):
                raise StorageError(f"cannot open {config.root_dir}: {exc}") from exc
            raise
        return store

    def _load(self) -> None:
        layout, config = self._layout, self.config
        geometry = layout.geometry(config)
        self._topics = TopicTable(layout.config / "topics.json", config.topic_defaults)
        self._topics.load()
        room_to_open(layout.root, config.free_space_reserve_bytes, sum(t.partitions for t in self._topics.all()))
        crashed = mark_running(layout.root)
        self._log_starts = LogStartOffsets(layout.config / "logStartOffsets.json")
        self._log_starts.load()
        self._commitlog = CommitLog(
            layout.commitlog, geometry.commitlog_segment_bytes, preallocate=config.preallocate,
            keep_free=config.free_space_reserve_bytes,
        )  # fmt: skip
        self._commitlog.load()
        self._units_per_file = geometry.consume_queue_units_per_file
        for topic in self._topics.all():
            for number in range(topic.partitions):
                self._queues[(topic.topic_id.bytes, number)] = self._new_queue(topic.topic_id.bytes, number)
        layout.remove_orphan_queues(self._queues)
        self._index: IndexService | None = None
        if config.index_enabled:
            slots, entries = geometry.index_slot_count, geometry.index_entry_count
            self._index = IndexService(layout.index, slots, entries, self._commitlog)
        self._txn_log = TransactionLog(layout.config, config.offsets_compact_bytes)
        self._transactions = TransactionTracker(self._txn_log, self._commitlog)
        self._transactions.load()
        quarantine = Quarantine(layout.quarantine)
        self._queue_builder = QueueBuilder(
            self._queues, self._transactions, commitlog=self._commitlog, quarantine=quarantine,
            topic_name=lambda topic_id: topic.name if (topic := self._topics.by_id(topic_id)) else topic_id.hex(),
        )  # fmt: skip
        self._checkpoint = Checkpoint(layout.checkpoint)
        self.recovery_report = recover(
            commitlog=self._commitlog, queues=self._queues, builder=self._queue_builder,
            checkpoint=self._checkpoint.read(), log_starts=self._log_starts, index=self._index,
            topics=self._topics, clean=not crashed, quarantine=quarantine,
        )  # fmt: skip
        bounds = {key: (self._log_start(key, queue), queue.next_offset) for key, queue in self._queues.items()}
        self._transactions.recovered(self.recovery_report.end_offset, bounds)
        self._offsets = OffsetStore(layout.config, config.offsets_compact_bytes)
        self._offsets.load()
        self._group_metadata = GroupMetadataLog(layout.config, config.offsets_compact_bytes)
        self._group_metadata.load()
        self._producer_state = GroupMetadataLog(layout.config, config.offsets_compact_bytes, name="producerState")
        self._producer_state.load()
        self._flusher = FlushService(
            sync_mode=config.flush_mode == "sync", interval_ms=config.flush_interval_ms,
            checkpoint_interval_ms=config.checkpoint_interval_ms, commitlog=self._commitlog,
            consume_queue_files=self._dirty, checkpoint=self._checkpoint,
            offsets_log=SyncedLogs(self._offsets, self._group_metadata, self._producer_state, self._txn_log),
            index_offset=self._index_durable_offset, on_error=self._record_failure,
            cache_bytes=config.commitlog_cache_bytes,
        )  # fmt: skip
        self._retention = Retention(
            policy=RetentionPolicy.of(config), commitlog=self._commitlog, queues=self._queues, topics=self._topics,
            log_starts=self._log_starts, index=self._index, log_start=self._log_start, clock=self._clock,
        )  # fmt: skip
        self._writer = Writer(
            self._commitlog, self._queue_builder, space=self._space, durable=self._durable, log_start=self._log_start,
            clock=self._clock,
        )  # fmt: skip
        self._space.headroom = geometry.commitlog_segment_bytes + CHECK_BYTES if config.preallocate else CHECK_BYTES
        self._space.look()
        self._flusher.start()
        if self._index is not None:
            self._index.start()

    def _new_queue(self, topic_id: bytes, number: int) -> ConsumeQueue:
        return ConsumeQueue(self._layout.consume_queue(topic_id, number), self._units_per_file, self._dirty)

    def _durable(self) -> Future[None] | None:
        if self.config.flush_mode == "sync":
            return self._flusher.request()
        self._flusher.appended()
        return None

    def _index_durable_offset(self) -> int:
        return self._index.durable_offset if self._index is not None else 0

    def _record_failure(self, exc: BaseException) -> None:
        if self._failure is None:
            self._failure = exc

    def _release_after_failed_open(self) -> None:
        with contextlib.suppress(Exception):
            index = getattr(self, "_index", None)
            if index is not None:
                index.stop()
        with contextlib.suppress(Exception):
            if hasattr(self, "_flusher"):
                self._flusher.stop()
        with contextlib.suppress(Exception):
            self._close_files()
        self._lock.release()

    def close(self) -> None:
        """Stop the threads, flush and checkpoint, remove the abort marker, release the lock. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._index is not None:
                self._index.stop()
            self._flusher.stop()
            self._close_files()
            if self._failure is None:
                mark_clean(self._layout.root)
        except OSError as exc:
            raise self._go_offline(exc) from exc
        finally:
            self._lock.release()

    def _close_files(self) -> None:
        services = ("_offsets", "_group_metadata", "_producer_state", "_txn_log", "_index", "_commitlog", "_checkpoint")
        for attribute in services:
            service = getattr(self, attribute, None)
            if service is not None:
                service.close()
        for queue in self._queues.values():
            queue.close()

    def __enter__(self) -> MessageStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _check_usable(self) -> None:
        if self._closed:
            raise StoreClosedError("the store is closed")
        if self._failure is not None:
            raise StorageError(f"the store is offline after an I/O error: {self._failure}")

    def _go_offline(self, exc: OSError) -> StorageError:
        self._record_failure(exc)
        return StorageError(f"I/O error, the store is offline: {exc}")

    # --- topics ---

    @_guarded
    def create_topic(
        self, name: str, partitions: int, configs: Mapping[str, str] | None = None, topic_id: uuid.UUID | None = None
    ) -> TopicInfo:
        configs = dict(configs or {})
        self._topics.check_new(name, partitions, configs, topic_id)
        topic_id = topic_id or uuid.uuid4()
        self._add_queues(topic_id.bytes, range(partitions))
        self._routes.clear()
        return self._topics.create(name, partitions, configs, topic_id)

    def _add_queues(self, topic_id: bytes, numbers: Iterable[int]) -> None:
        for number in numbers:
            queue = self._new_queue(topic_id, number)
            queue.create()
            self._queues[(topic_id, number)] = queue

    @_guarded
    def delete_topic(self, name: str) -> TopicInfo:
        """Delete a topic: its queues and offsets go; its CommitLog records become unreachable."""
        self._routes.clear()
        topic = self._topics.delete(name)
        for number in range(topic.partitions):
            self._queues.pop((topic.topic_id.bytes, number)).delete()
        self._log_starts.forget_topic(topic.topic_id.bytes)
        self._transactions.forget_topic(topic.topic_id.bytes)
        self._offsets.delete_topic(name)
        return topic

    @_guarded
    def create_partitions(self, name: str, total_count: int) -> TopicInfo:
        topic = self._topics.get(name)
        if total_count <= topic.partitions:
            raise InvalidPartitionsError(f"topic {name!r} has {topic.partitions} partitions; {total_count} is no more")
        self._add_queues(topic.topic_id.bytes, range(topic.partitions, total_count))
        self._routes.clear()
        return self._topics.replace(TopicInfo(name, topic.topic_id, total_count, topic.configs))

    @_guarded
    def alter_topic_configs(self, name: str, configs: Mapping[str, str | None], *, replace: bool = False) -> TopicInfo:
        """Set configs (None removes a key, back to its default); ``replace`` drops every key not given."""
        topic = self._topics.get(name)
        merged = {} if replace else dict(topic.configs)
        for key, value in configs.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        TopicSettings.parse(merged)
        self._routes.clear()
        return self._topics.replace(TopicInfo(name, topic.topic_id, topic.partitions, merged))

    @_guarded
    def list_topics(self) -> tuple[TopicInfo, ...]:
        return self._topics.all()

    @_guarded
    def describe_topic(self, name: str) -> TopicInfo:
        return self._topics.get(name)

    @_guarded
    def topic_settings(self, name: str) -> TopicSettings:
        """The topic's configs the broker acts on, parsed (defaults filled in)."""
        try:
            return self._topics.settings(name)
        except KeyError:
            raise UnknownTopicOrPartitionError(f"topic {name!r} does not exist") from None

    @_guarded
    def topic_name(self, topic_id: uuid.UUID) -> str:
        """The name of the topic with this id (Fetch v13+ addresses topics by id)."""
        return self._topics.name_of(topic_id)

    def _partition(self, topic: str, number: int) -> tuple[TopicInfo, PartitionKey, ConsumeQueue]:
        info = self._topics.get(topic)
        key = (info.topic_id.bytes, number)
        queue = self._queues.get(key)
        if queue is None:
            raise UnknownTopicOrPartitionError(f"topic {topic!r} has no partition {number}")
        return info, key, queue

    def _route(self, topic: str, number: int) -> Route:
        """What an append or a read needs of a partition, cached until the next topic change."""
        route = self._routes.get((topic, number))
        if route is None:
            _, key, queue = self._partition(topic, number)
            route = self._routes[(topic, number)] = (key, queue, self._topics.settings(topic))
        return route

    def _log_start(self, key: PartitionKey, queue: ConsumeQueue) -> int:
        return min(max(self._log_starts.get(*key), queue.first_offset), queue.next_offset)

    # --- records ---

    @_guarded
    def append(self, topic: str, partition: int, records: Buffer, batches: Sequence[BatchHeader]) -> AppendResult:
        """Store already-validated batches (``validate_batches`` headers of ``records``), assigning offsets.

        Each batch's base offset is written in place in the mapped CommitLog; LogAppendTime topics get the
        broker time as maxTimestamp (CRC recomputed). Append listeners run before this returns.
        """
        return self._writer.append(topic, partition, self._route(topic, partition), records, batches)

    def add_append_listener(self, listener: AppendListener) -> None:
        """Call ``listener(result)`` on the appending thread after every append (to wake parked fetches)."""
        self._writer.listeners = (*self._writer.listeners, listener)

    def remove_append_listener(self, listener: AppendListener) -> None:
        listeners = list(self._writer.listeners)
        listeners.remove(listener)
        self._writer.listeners = tuple(listeners)

    @_guarded
    def read(
        self, topic: str, partition: int, fetch_offset: int, max_bytes: int, *, max_offset: int | None = None
    ) -> ReadResult:
        """Whole batches from the one holding ``fetch_offset``, below ``max_offset`` (e.g. the LSO) if given.

        ``fetch_offset`` equal to the high watermark gives no batches; outside [log start, high watermark]
        raises ``OffsetOutOfRangeError``.
        """
        key, queue, _ = self._route(topic, partition)
        log_start, high_watermark = self._log_start(key, queue), queue.next_offset
        if not log_start <= fetch_offset <= high_watermark:
            raise OffsetOutOfRangeError(fetch_offset, log_start, high_watermark)
        limit = high_watermark if max_offset is None else min(max_offset, high_watermark)
        batches, size, next_offset = partition_reads.read_batches(
            queue, self._commitlog, fetch_offset, max_bytes, limit, repair=self._queue_builder.repair
        )
        return ReadResult(tuple(batches), size, next_offset, high_watermark, log_start)

    @_guarded
    def partition_offsets(self, topic: str, partition: int) -> PartitionOffsets:
        key, queue, _ = self._route(topic, partition)
        log_start = self._log_start(key, queue)
        if log_start >= queue.next_offset:
            first = queue.end_index
        elif log_start == queue.first_offset:  # the usual case: no search
            first = queue.first_index
        else:
            first = queue.index_of_offset(log_start)
        return PartitionOffsets(log_start, queue.next_offset, queue.total_bytes - queue.bytes_before(first))

    @_guarded
    def offset_for_timestamp(self, topic: str, partition: int, timestamp: int) -> TimestampOffset | None:
        """The first record whose timestamp is at least ``timestamp`` (exact, inside its batch), or None."""
        _, key, queue = self._partition(topic, partition)
        try:
            return partition_reads.offset_for_timestamp(queue, self._commitlog, timestamp, self._log_start(key, queue))
        except KernelError as exc:
            raise StoreError(f"a stored batch of {topic}-{partition} does not decode: {exc}") from exc

    @_guarded
    def max_timestamp(self, topic: str, partition: int) -> TimestampOffset | None:
        """The first record carrying the partition's largest timestamp (ListOffsets MAX_TIMESTAMP), or None."""
        _, key, queue = self._partition(topic, partition)
        try:
            return partition_reads.max_timestamp(queue, self._commitlog, self._log_start(key, queue))
        except KernelError as exc:
            raise StoreError(f"a stored batch of {topic}-{partition} does not decode: {exc}") from exc

    @_guarded
    def delete_records(self, topic: str, partition: int, before_offset: int) -> int:
        """DeleteRecords: move the log start offset up to ``before_offset`` (-1: the high watermark); returns it."""
        _, key, queue = self._partition(topic, partition)
        log_start, high_watermark = self._log_start(key, queue), queue.next_offset
        target = high_watermark if before_offset == -1 else before_offset
        if not 0 <= target <= high_watermark:
            raise OffsetOutOfRangeError(before_offset, log_start, high_watermark)
        if target > log_start:
            self._log_starts.set_many({key: target})
            self._transactions.prune(key, target)
        return max(target, log_start)

    @_guarded
    def query_by_key(
        self, topic: str, key: bytes, begin_ms: int = 0, end_ms: int | None = None, limit: int = 64
    ) -> list[KeyedRecord]:
        """Records of ``topic`` with record key ``key`` stored within [begin_ms, end_ms], newest first.

        Served from the IndexFiles, which the index thread fills shortly after each append: a record
        appended a moment ago may not be found yet. Empty when the index is disabled.
        """
        info = self._topics.get(topic)
        if self._index is None or limit <= 0:
            return []
        window = (begin_ms, end_ms if end_ms is not None else (1 << 63) - 1)
        return keyquery.query_by_key(
            index=self._index, commitlog=self._commitlog, queues=self._queues, log_start=self._log_start,
            topic=info, key=key, window=window, limit=limit,
        )  # fmt: skip

    # --- transactions (see ``transactions.py``; the batches tell the store what is open) ---

    @_guarded
    def write_transaction_marker(
        self, topic: str, partition: int, *, producer_id: int, producer_epoch: int, coordinator_epoch: int,
        commit: bool,
    ) -> AppendResult:  # fmt: skip
        """Append a COMMIT or ABORT marker (``control.py``), ending ``producer_id``'s transaction on the partition."""
        return self._writer.append_marker(
            topic, partition, self._route(topic, partition), producer_id=producer_id, producer_epoch=producer_epoch,
            coordinator_epoch=coordinator_epoch, commit=commit,
        )  # fmt: skip

    @_guarded
    def last_stable_offset(self, topic: str, partition: int) -> int:
        """The first offset of the oldest open transaction (never below the log start), else the high watermark."""
        key, queue, _ = self._route(topic, partition)
        return self._last_stable(key, queue, self._log_start(key, queue))

    @_guarded
    def partition_bounds(self, topic: str, partition: int) -> PartitionBounds:
        """High watermark, last stable offset and log start offset at once (what a fetch answers)."""
        key, queue, _ = self._route(topic, partition)
        log_start = self._log_start(key, queue)
        return PartitionBounds(queue.next_offset, self._last_stable(key, queue, log_start), log_start)

    def _last_stable(self, key: PartitionKey, queue: ConsumeQueue, log_start: int) -> int:
        first = self._transactions.first_unstable(key)
        if first is None:
            return queue.next_offset
        return max(min(first, queue.next_offset), log_start)

    @_guarded
    def aborted_transactions(
        self, topic: str, partition: int, start_offset: int, end_offset: int
    ) -> tuple[AbortedTransaction, ...]:
        """The aborted transactions whose records overlap [start_offset, end_offset), in marker order."""
        _, key, _ = self._partition(topic, partition)
        return self._transactions.aborted(key, start_offset, end_offset)

    @_guarded
    def open_transactions(self, topic: str, partition: int) -> tuple[OpenTransaction, ...]:
        """The partition's open transactions, oldest first."""
        _, key, _ = self._partition(topic, partition)
        return self._transactions.open_transactions(key)

    @_guarded
    def coordinator_epochs(self, topic: str, partition: int) -> dict[int, int]:
        """Producer id -> the coordinator epoch of its last marker on the partition (DescribeProducers)."""
        _, key, _ = self._partition(topic, partition)
        return self._transactions.coordinator_epochs(key)

    # --- durability and retention ---

    @_guarded
    def flush(self) -> None:
        """fsync everything appended or committed so far and write a checkpoint; blocks until done."""
        self._flusher.request(checkpoint=True).result()

    @_guarded
    def enforce_retention(self) -> RetentionReport:
        """Apply per-topic retention and the global CommitLog policy once (see ``retention.py``); aborted
        transactions that end below a partition's new log start offset are dropped."""
        report = self._retention.run()
        for key, queue in self._queues.items():
            self._transactions.prune(key, self._log_start(key, queue))
        return report

    # --- consumer offsets ---

    @_guarded
    def commit_offsets(self, group: str, commits: Iterable[OffsetCommit]) -> Future[None] | None:
        """Record committed offsets; under sync flush, a future completed once they are fsynced."""
        self._offsets.commit(group, commits, self._clock())
        return self._durable()

    @_guarded
    def fetch_offsets(
        self, group: str, partitions: Iterable[TopicPartition] | None = None
    ) -> dict[TopicPartition, CommittedOffset]:
        """The group's committed offsets (all of them, or those of ``partitions`` that exist)."""
        return self._offsets.fetch(group, partitions)

    @_guarded
    def delete_offsets(self, group: str, partitions: Iterable[TopicPartition]) -> None:
        self._offsets.delete_offsets(group, partitions)

    @_guarded
    def delete_group(self, group: str) -> bool:
        """Forget every offset of ``group``; False when it had none."""
        return self._offsets.delete_group(group)

    @_guarded
    def list_groups(self) -> list[str]:
        """Groups that have committed offsets."""
        return self._offsets.groups()

    @_guarded
    def expire_offsets(self, before_ms: int, keep_groups: Collection[str] = ()) -> int:
        """Offsets retention: drop offsets committed before ``before_ms`` by groups not in ``keep_groups``."""
        return self._offsets.expire(before_ms, keep_groups)

    # --- group metadata (see ``groups.py``) ---

    @_guarded
    def save_group_metadata(self, group: str, document: Document) -> Future[None] | None:
        """Replace ``group``'s metadata document (a JSON object); under sync flush, a future completed once fsynced."""
        self._group_metadata.put(group, document)
        return self._durable()

    @_guarded
    def delete_group_metadata(self, group: str) -> bool:
        """Forget ``group``'s metadata document; False when it had none."""
        return self._group_metadata.delete(group)

    @_guarded
    def group_metadata(self) -> dict[str, Document]:
        """Every group's metadata document, as last saved."""
        return self._group_metadata.documents()

    # --- producer documents (idempotence and transactional ids; same format as group metadata) ---

    @_guarded
    def save_producer_document(self, key: str, document: Document, *, durable: bool = False) -> Future[None] | None:
        """Replace the producer document ``key``; a future completed once fsynced when ``durable`` or under sync."""
        self._producer_state.put(key, document)
        return self._flusher.request() if durable or self.config.flush_mode == "sync" else None

    @_guarded
    def delete_producer_document(self, key: str) -> bool:
        """Forget the producer document ``key``; False when there was none."""
        return self._producer_state.delete(key)

    @_guarded
    def producer_documents(self) -> dict[str, Document]:
        """Every producer document, as last saved."""
        return self._producer_state.documents()
