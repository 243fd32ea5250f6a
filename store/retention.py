"""Retention: per-partition log start offsets moved by topic configs, CommitLog segments deleted whole.

One run (``store.retention.enforce``, called by the broker on a timer, on its loop thread; the only thread that
touches ``Retention``):

1. Per topic with ``cleanup.policy`` including ``delete``, each partition's log start offset moves up to
   - ``retention.ms``: the first batch whose running maximum timestamp is within the retention time
     (every earlier batch only holds older records), or the end of the log;
   - ``retention.bytes``: the first batch from which the partition holds at most that many bytes.
2. CommitLog segments are deleted oldest first, never the one being written, while the oldest is
   - older than ``file_reserved_ms`` (by mtime), or the log is over ``commitlog_retention_bytes``, or the
     disk is fuller than ``disk_usage_force_ratio`` (the global policy, RocketMQ's); or
   - dead: every batch in it lies below its partition's log start offset (or its topic is gone), or, for a
     compacted partition, below its compacted log's end (``cleaner.py``: those offsets are served from there).
   Before a segment goes, every partition's log start offset moves past its batches in it.
3. ConsumeQueue files and IndexFiles that only point below the first remaining segment are deleted.

Log start offset moves are persisted (one write) before any file is deleted. Aborted transactions that end
below a partition's new log start offset are dropped from the transaction tracker.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass

from .commitlog import CommitLog
from .config import StoreConfig, TopicSettings
from .consumequeue import ConsumeQueue
from .health import StoreHealth, guarded
from .indexservice import IndexService
from .mappedfile import MappedFile
from .partitions import Partitions
from .results import RetentionReport
from .topics import TopicTable
from .transactions import TransactionTracker

PartitionKey = tuple[bytes, int]


@dataclass(frozen=True, slots=True)
class RetentionPolicy:
    file_reserved_ms: int | None
    commitlog_retention_bytes: int | None
    disk_usage_force_ratio: float

    @classmethod
    def of(cls, config: StoreConfig) -> RetentionPolicy:
        return cls(config.file_reserved_ms, config.commitlog_retention_bytes, config.disk_usage_force_ratio)


class Retention:
    def __init__(
        self,
        *,
        health: StoreHealth,
        policy: RetentionPolicy,
        commitlog: CommitLog,
        partitions: Partitions,
        topics: TopicTable,
        index: IndexService | None,
        transactions: TransactionTracker,
        clock: Callable[[], int],
    ) -> None:
        self._health = health
        self._policy = policy
        self._commitlog = commitlog
        self._queues = partitions.queues
        self._compacted = partitions.compacted
        self._topics = topics
        self._log_starts = partitions.log_starts
        self._index = index
        self._log_start = partitions.log_start
        self._transactions = transactions
        self._clock = clock

    @guarded
    def enforce(self) -> RetentionReport:
        """Apply per-topic retention and the global CommitLog policy once; aborted transactions that end below
        a partition's new log start offset are dropped."""
        report = self.run()
        for key, queue in self._queues.items():
            self._transactions.prune(key, self._log_start(key, queue))
        return report

    def run(self) -> RetentionReport:
        now = self._clock()
        moves = self._topic_retention(now)
        self._log_starts.set_many(moves)
        deleted, freed = self._delete_segments(now)
        minimum = self._commitlog.min_offset
        for queue in self._queues.values():
            queue.delete_files_below(minimum)
        if self._index is not None:
            self._index.delete_files_below(minimum)
        return RetentionReport(deleted, freed, len(moves))

    def _topic_retention(self, now: int) -> dict[PartitionKey, int]:
        moves: dict[PartitionKey, int] = {}
        for topic in self._topics.all():
            settings = self._topics.settings(topic.name)
            if not settings.cleanup_delete:
                continue
            for partition in range(topic.partitions):
                key = (topic.topic_id.bytes, partition)
                queue = self._queues[key]
                current = self._log_start(key, queue)
                target = _retained_from(queue, settings, current, now)
                if target > current:
                    moves[key] = target
        return moves

    def _delete_segments(self, now: int) -> tuple[int, int]:
        deleted = freed = 0
        segments = self._commitlog.segments()
        total = sum(segment.size for segment in segments)
        for segment in segments[:-1]:
            if not (self._expired(segment, now, total) or self._dead(segment)):
                break
            self._log_starts.set_many(self._moves_past(segment))
            self._commitlog.delete_segment(segment)
            deleted += 1
            freed += segment.size
            total -= segment.size
        return deleted, freed

    def _expired(self, segment: MappedFile, now: int, total: int) -> bool:
        policy = self._policy
        if policy.file_reserved_ms is not None:
            age = now - int(segment.path.stat().st_mtime * 1000)
            if age > policy.file_reserved_ms:
                return True
        if policy.commitlog_retention_bytes is not None and total > policy.commitlog_retention_bytes:
            return True
        usage = shutil.disk_usage(segment.path.parent)
        return usage.used / usage.total > policy.disk_usage_force_ratio

    def _last_unit_in(self, queue: ConsumeQueue, segment: MappedFile) -> int | None:
        """Index of the partition's last unit inside ``segment``, if it has one there."""
        index = queue.index_of_physical(segment.end) - 1
        if index < queue.first_index or queue.head(index)[0] < segment.start:
            return None
        return index

    def _live_from(self, key: PartitionKey, queue: ConsumeQueue) -> int:
        """The first offset the partition still reads from the CommitLog: its log start, or, when it is compacted,
        its compacted log's end if that is higher (the compacted log serves everything below it)."""
        compacted = self._compacted.get(key)
        log_start = self._log_start(key, queue)
        return log_start if compacted is None else max(log_start, compacted.end_offset)

    def _dead(self, segment: MappedFile) -> bool:
        for key, queue in self._queues.items():
            index = self._last_unit_in(queue, segment)
            if index is not None:
                _, _, count, base = queue.head(index)
                if base + count > self._live_from(key, queue):
                    return False
        return True

    def _moves_past(self, segment: MappedFile) -> dict[PartitionKey, int]:
        moves: dict[PartitionKey, int] = {}
        for key, queue in self._queues.items():
            index = self._last_unit_in(queue, segment)
            if index is not None:
                _, _, count, base = queue.head(index)
                if base + count > self._live_from(key, queue):
                    moves[key] = base + count
        return moves


def _retained_from(queue: ConsumeQueue, settings: TopicSettings, current: int, now: int) -> int:
    """The log start offset the topic's retention.ms and retention.bytes allow for this partition."""
    if current >= queue.next_offset:
        return current
    low = max(queue.index_of_offset(current), queue.first_index)  # a compacted log may start below the queue
    target = current
    if settings.retention_ms is not None:
        index = queue.index_of_timestamp(now - settings.retention_ms, low)
        target = max(target, _offset_at(queue, index))
    if settings.retention_bytes is not None:
        index = _bytes_bisect(queue, queue.total_bytes - settings.retention_bytes, low)
        target = max(target, _offset_at(queue, index))
    return target


def _offset_at(queue: ConsumeQueue, index: int) -> int:
    return queue.head(index)[3] if index < queue.end_index else queue.next_offset


def _bytes_bisect(queue: ConsumeQueue, keep_from: int, low: int) -> int:
    """First unit index at or after ``low`` whose bytes_before is at least ``keep_from``."""
    high = queue.end_index
    while low < high:
        middle = (low + high) // 2
        if queue.bytes_before(middle) < keep_from:
            low = middle + 1
        else:
            high = middle
    return low
