"""``StoreReader``: read-only access to a store directory, for the store tools and the pipeline's file reader.

It maps every file read-only, takes no lock, runs no recovery and starts no thread: it sees the files as
they are on disk. A store being written meanwhile (or left by a crash) can end in a torn record; ``scan``
reports where the valid log ends, and the other methods only follow ConsumeQueue units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.records import Record, read_records

from . import keyquery
from .commitlog import CommitLog, CorruptRecord, SegmentEnd
from .consumequeue import ConsumeQueue, DirtyFiles
from .errors import StoreError, UnknownTopicOrPartitionError
from .indexservice import IndexService
from .layout import Geometry, StoreLayout
from .results import KeyedRecord, TopicInfo
from .topics import LogStartOffsets, TopicTable

PartitionKey = tuple[bytes, int]


@dataclass(frozen=True, slots=True)
class SegmentInfo:
    path: Path
    start: int
    size: int


@dataclass(frozen=True, slots=True)
class PartitionSummary:
    topic: str
    partition: int
    log_start_offset: int
    high_watermark: int
    #: ConsumeQueue units (stored batches) held, including any below the log start offset.
    batches: int
    size_bytes: int


@dataclass(frozen=True, slots=True)
class ScanReport:
    batches: int
    bytes_scanned: int
    #: Where the valid CommitLog ends.
    end_offset: int
    #: Why it ends there ("offset N: reason") when a record is torn or corrupt; None at a clean end.
    corrupt_record: str | None
    #: Records whose topic is gone (deleted topics' leftovers until their segments go).
    orphan_batches: int


class StoreReader:
    def __init__(self, root: Path) -> None:
        layout = StoreLayout(Path(root))
        if not layout.manifest.is_file():
            raise StoreError(f"{root} is not a Rockafka store directory (no store.json)")
        self.geometry: Geometry = layout.geometry_readonly()
        self._topics = TopicTable(layout.config / "topics.json")
        self._topics.load()
        self._log_starts = LogStartOffsets(layout.config / "logStartOffsets.json")
        self._log_starts.load()
        self._commitlog = CommitLog(layout.commitlog, self.geometry.commitlog_segment_bytes, preallocate=False)
        self._commitlog.load(readonly=True)
        self._queues: dict[PartitionKey, ConsumeQueue] = {}
        for topic in self._topics.all():
            for number in range(topic.partitions):
                queue = ConsumeQueue(
                    layout.consume_queue(topic.topic_id.bytes, number),
                    self.geometry.consume_queue_units_per_file,
                    DirtyFiles(),
                )
                queue.load_readonly()
                self._queues[(topic.topic_id.bytes, number)] = queue
        self._index = IndexService(
            layout.index, self.geometry.index_slot_count, self.geometry.index_entry_count, self._commitlog
        )
        self._index.load_readonly()

    def __enter__(self) -> StoreReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._index.close()
        for queue in self._queues.values():
            queue.close()
        self._commitlog.close()

    def topics(self) -> tuple[TopicInfo, ...]:
        return self._topics.all()

    def segments(self) -> list[SegmentInfo]:
        return [SegmentInfo(s.path, s.start, s.size) for s in self._commitlog.segments()]

    def _log_start(self, key: PartitionKey, queue: ConsumeQueue) -> int:
        return min(max(self._log_starts.get(*key), queue.first_offset), queue.next_offset)

    def _queue(self, topic: str, partition: int) -> tuple[PartitionKey, ConsumeQueue]:
        key = (self._topics.get(topic).topic_id.bytes, partition)
        queue = self._queues.get(key)
        if queue is None:
            raise UnknownTopicOrPartitionError(f"topic {topic!r} has no partition {partition}")
        return key, queue

    def partitions(self) -> list[PartitionSummary]:
        summaries = []
        for topic in self._topics.all():
            for number in range(topic.partitions):
                key, queue = self._queue(topic.name, number)
                start = self._log_start(key, queue)
                first = queue.index_of_offset(start) if start < queue.next_offset else queue.end_index
                size = queue.total_bytes - queue.bytes_before(first)
                batches = queue.end_index - queue.first_index
                summaries.append(PartitionSummary(topic.name, number, start, queue.next_offset, batches, size))
        return summaries

    def scan(self, *, verify: bool = True, progress: Callable[[int, int], None] | None = None) -> ScanReport:
        """Parse the whole CommitLog, checking header checksums and (if ``verify``) every batch CRC-32C."""
        segments = self._commitlog.segments()
        total = sum(s.size for s in segments)
        offset = self._commitlog.min_offset
        base = offset
        batches = orphans = 0
        corrupt: str | None = None
        verify_from = 0 if verify else 1 << 62
        while True:
            records, outcome = self._commitlog.parse_many(offset, verify_from=verify_from, limit=4096)
            for record in records:
                batches += 1
                orphans += self._topics.by_id(record.topic_id) is None
                offset = record.end
            if isinstance(outcome, SegmentEnd):
                offset = outcome.next_offset
                if progress is not None:
                    progress(offset - base, total)
            elif outcome is not None:
                if isinstance(outcome, CorruptRecord):
                    corrupt = f"offset {offset}: {outcome.reason}"
                break
        if progress is not None:
            progress(total, total)
        return ScanReport(batches, offset - base, offset, corrupt, orphans)

    def records(self, topic: str, partition: int, from_offset: int) -> Iterator[Record]:
        """The records of a partition from ``from_offset`` (at least the log start offset) on, in order."""
        key, queue = self._queue(topic, partition)
        offset = max(from_offset, self._log_start(key, queue))
        if offset >= queue.next_offset:
            return
        index = queue.index_of_offset(offset)
        while index < queue.end_index:
            physical, size, _, _ = queue.head(index)
            view = self._commitlog.batch_view(physical, size)
            if view is None:
                return
            try:
                decoded = read_records(view)
            except KernelError as exc:
                raise StoreError(f"the batch at CommitLog offset {physical} does not decode: {exc}") from exc
            yield from (record for record in decoded if record.offset >= offset)
            index += 1

    def query_by_key(
        self, topic: str, key: bytes, begin_ms: int = 0, end_ms: int | None = None, limit: int = 64
    ) -> list[KeyedRecord]:
        window = (begin_ms, end_ms if end_ms is not None else (1 << 63) - 1)
        return keyquery.query_by_key(
            index=self._index, commitlog=self._commitlog, queues=self._queues, log_start=self._log_start,
            topic=self._topics.get(topic), key=key, window=window, limit=limit,
        )  # fmt: skip
