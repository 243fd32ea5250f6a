"""Query by key: IndexFile candidates, each re-checked against the record it points at.

A candidate is kept only if the CommitLog record at its physical offset belongs to the topic (by id, so
a deleted and re-created topic's old records never match), was stored within the time window, and holds
records whose key really is the key (hashes collide), at offsets between the partition's log start and
its high watermark. Results are newest first: candidates come newest first, and records within one
batch are reversed.

A compacted partition answers as a read of it does: below its compacted log's end only the compacted log counts
(the CommitLog there may still hold versions the cleaner dropped, which a candidate must not return), so
candidates are kept only at or past that end, and the compacted log, which the IndexFiles do not index, is
scanned for the key (one version per key; linear in its size). Its records come after the CommitLog's (they are
older), newest first; the time window applies to their record timestamps, which also stand in for their store
timestamps (the compacted log keeps batches, not CommitLog headers).

``KeyQueries`` is the broker's entry (``store.keys``); ``StoreReader`` calls ``query_by_key`` over its read-only
files. Threads: the caller's (the event loop's, for the broker); the IndexFiles are read while the index thread
appends to them, which ``IndexService.candidates`` makes safe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import read_batch_header
from rockafka.core_pyx.records import read_records

from .commitlog import CommitLog, StoredBatch
from .compactedlog import CompactedLog
from .compaction import stored_records
from .consumequeue import ConsumeQueue
from .health import StoreHealth, guarded
from .indexservice import IndexService
from .partitions import Partitions
from .results import KeyedRecord, TopicInfo
from .topics import TopicTable

PartitionKey = tuple[bytes, int]
LogStart = Callable[[PartitionKey, ConsumeQueue], int]


class KeyQueries:
    def __init__(
        self, health: StoreHealth, topics: TopicTable, partitions: Partitions, index: IndexService | None,
        commitlog: CommitLog,
    ) -> None:  # fmt: skip
        self._health = health
        self._topics = topics
        self._partitions = partitions
        self._index = index
        self._commitlog = commitlog

    @guarded
    def query(
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
        return query_by_key(
            index=self._index, commitlog=self._commitlog, queues=self._partitions.queues,
            log_start=self._partitions.log_start, compacted=self._partitions.compacted, topic=info, key=key,
            window=window, limit=limit,
        )  # fmt: skip


def query_by_key(
    *,
    index: IndexService,
    commitlog: CommitLog,
    queues: Mapping[PartitionKey, ConsumeQueue],
    log_start: LogStart,
    compacted: Mapping[PartitionKey, CompactedLog],
    topic: TopicInfo,
    key: bytes,
    window: tuple[int, int],
    limit: int,
) -> list[KeyedRecord]:
    found: list[KeyedRecord] = []
    seen: set[int] = set()
    for physical in index.candidates(topic.topic_id.bytes, key, *window):
        if physical in seen:
            continue
        seen.add(physical)
        found.extend(_records_with_key(commitlog, queues, log_start, compacted, topic, physical, key, window))
        if len(found) >= limit:
            return found[:limit]
    for partition in range(topic.partitions):
        partition_key = (topic.topic_id.bytes, partition)
        queue, log = queues.get(partition_key), compacted.get(partition_key)
        if queue is not None and log is not None:
            found.extend(_compacted_with_key(log, log_start(partition_key, queue), topic, partition, key, window))
    return found[:limit]


def _compacted_with_key(
    log: CompactedLog, first: int, topic: TopicInfo, partition: int, key: bytes, window: tuple[int, int]
) -> list[KeyedRecord]:
    """The records of a compacted log at or past ``first`` whose key is ``key``, newest first."""
    found: list[KeyedRecord] = []
    batches, _, _ = log.read(first, 1 << 62, log.end_offset)
    for batch in batches:
        try:
            if read_batch_header(batch).is_control:
                continue
            records = stored_records(batch)
        except KernelError:
            continue
        found.extend(
            KeyedRecord(topic.name, partition, r.offset, r.timestamp, r.timestamp, key, r.value, r.headers)
            for r in records
            if r.key == key and first <= r.offset < log.end_offset and window[0] <= r.timestamp <= window[1]
        )
    return found[::-1]


def _records_with_key(
    commitlog: CommitLog,
    queues: Mapping[PartitionKey, ConsumeQueue],
    log_start: LogStart,
    compacted: Mapping[PartitionKey, CompactedLog],
    topic: TopicInfo,
    physical: int,
    key: bytes,
    window: tuple[int, int],
) -> list[KeyedRecord]:
    stored = commitlog.parse_at(physical, verify_batch=False)
    if not isinstance(stored, StoredBatch) or stored.topic_id != topic.topic_id.bytes:
        return []
    partition = (stored.topic_id, stored.partition)
    queue = queues.get(partition)
    view = commitlog.batch_view(physical, stored.size)
    if queue is None or view is None or not window[0] <= stored.store_timestamp <= window[1]:
        return []
    first = log_start(partition, queue)
    log = compacted.get(partition)
    if log is not None:
        first = max(first, log.end_offset)  # below it the compacted log answers
    try:
        records = read_records(view)
    except KernelError:
        return []
    stored_at = stored.store_timestamp
    return [
        KeyedRecord(topic.name, stored.partition, r.offset, r.timestamp, stored_at, key, r.value, r.headers)
        for r in reversed(records)
        if r.key == key and first <= r.offset < queue.next_offset
    ]
