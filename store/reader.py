"""``StoreReader``: read-only access to a store directory, for the store tools and the pipeline's file reader.

It maps every file read-only, takes no lock, runs no recovery and starts no thread: it sees the files as
they are on disk. A store being written meanwhile (or left by a crash) can end in a torn record; ``scan``
reports where the valid log ends, and the other methods only follow ConsumeQueue units, and, for a compacted
partition, its compacted log below its end (``compactedlog.py``: the manifest's generation, read as it is).

**Transactions** (``transactions``): the ConsumeQueues are read when the reader opens, then
``config/transactions.log`` (read-only: nothing is cut or rewritten; a compaction replaces the file by an atomic
rename, so either whole version is read). Its frames are replayed as the broker's tracker replays them: a BEGIN
opens the producer's transaction, an END closes it, and an ABORT END of an open transaction is an aborted range
[first offset, marker offset] of that producer. The broker writes a record's frame right after its ConsumeQueue
unit, on its one appending thread, so the only transactional record the log can lack is the one being appended
when the log was read: the last unit of its partition, at a CommitLog offset at or past the log's
``applied_below``. The last stable offset is therefore the smallest of the high watermark, the first offset of
every open transaction, and the base offset of a partition's last unit when it is transactional and past
``applied_below`` (a transaction that may have begun unseen); never below the log start offset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import TRANSACTIONAL_BIT, read_batch_header
from rockafka.core_pyx.records import Record, read_records

from . import keyquery
from .commitlog import CommitLog, Damage, LogWalk
from .compactedlog import CompactedLog, CompactedLogFiles
from .compaction import stored_records
from .consumequeue import UNIT, ConsumeQueue, DirtyFiles
from .errors import CorruptStoreError, StoreError, UnknownTopicOrPartitionError
from .indexservice import IndexService
from .layout import Geometry, StoreLayout
from .quarantine import Loss, read_losses
from .results import KeyedRecord, TopicInfo
from .topics import LogStartOffsets, TopicTable
from .txnlog import Begin, parse

PartitionKey = tuple[bytes, int]

# The ConsumeQueue unit (its layout is store/consumequeue.py's), for readers of the files in place: the pipeline.
CONSUME_QUEUE_UNIT: Final = UNIT


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
    #: A compacted partition's compacted log answers below this offset, its ConsumeQueue from it on (0: none).
    compacted_end: int = 0


@dataclass(frozen=True, slots=True)
class AbortedRange:
    """An aborted transaction on a partition: ``producer_id``'s transactional batches from ``first_offset`` up to
    its ABORT marker at ``last_offset`` (other producers' batches in between are not aborted)."""

    producer_id: int
    first_offset: int
    last_offset: int


@dataclass(frozen=True, slots=True)
class PartitionTransactions:
    """What a read_committed reader of a partition needs: where to stop, and which batches to skip."""

    last_stable_offset: int
    #: Ranges ending at or past the log start offset, in the order of their markers.
    aborted: tuple[AbortedRange, ...]

    def is_aborted(self, producer_id: int, offset: int) -> bool:
        """Whether a transactional batch of ``producer_id`` at ``offset`` belongs to an aborted transaction."""
        return any(r.producer_id == producer_id and r.first_offset <= offset <= r.last_offset for r in self.aborted)


@dataclass(slots=True)
class _TransactionState:
    """One partition's transactions replayed from the log: open ones (producer id -> first offset), aborts."""

    open: dict[int, int]
    aborted: list[AbortedRange]


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
    #: Damaged ranges [start, end) the scan skipped to reach valid records again, and why.
    damaged: tuple[tuple[int, int, str], ...] = ()

    @property
    def damaged_bytes(self) -> int:
        return sum(end - start for start, end, _ in self.damaged)


class StoreReader:
    def __init__(self, root: Path) -> None:
        layout = StoreLayout(Path(root))
        self._quarantine = layout.quarantine
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
        self._transactions, self._applied_below = _replay(layout.config / "transactions.log")
        self._compacted: dict[PartitionKey, CompactedLog] = {}
        for key in self._queues:
            compacted = CompactedLogFiles(layout.compacted_log(*key)).load_readonly()
            if compacted is not None:
                self._compacted[key] = compacted

    def __enter__(self) -> StoreReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        for compacted in self._compacted.values():
            compacted.close()
        self._index.close()
        for queue in self._queues.values():
            queue.close()
        self._commitlog.close()

    def topics(self) -> tuple[TopicInfo, ...]:
        return self._topics.all()

    def segments(self) -> list[SegmentInfo]:
        return [SegmentInfo(s.path, s.start, s.size) for s in self._commitlog.segments()]

    def _log_start(self, key: PartitionKey, queue: ConsumeQueue) -> int:
        compacted = self._compacted.get(key)
        first = queue.first_offset if compacted is None else min(compacted.start_offset, queue.first_offset)
        return min(max(self._log_starts.get(*key), first), queue.next_offset)

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
                in_queue = max(start, queue.first_offset)  # below it: the compacted log, if any
                first = queue.index_of_offset(in_queue) if in_queue < queue.next_offset else queue.end_index
                compacted = self._compacted.get(key)
                size = queue.total_bytes - queue.bytes_before(first) + (compacted.size if compacted else 0)
                batches = queue.end_index - queue.first_index
                summaries.append(
                    PartitionSummary(
                        topic.name, number, start, queue.next_offset, batches, size,
                        compacted.end_offset if compacted else 0,
                    )
                )  # fmt: skip
        return summaries

    def transactions(self, topic: str, partition: int) -> PartitionTransactions:
        """The partition's last stable offset and aborted ranges, as the store stood when the reader opened."""
        key, queue = self._queue(topic, partition)
        log_start = self._log_start(key, queue)
        state = self._transactions.get(key, _TransactionState({}, []))
        stable = min(state.open.values(), default=queue.next_offset)
        if queue.end_index > queue.first_index:
            last = queue.unit(queue.end_index - 1)
            if last.physical_offset >= self._applied_below and last.flags & TRANSACTIONAL_BIT:
                stable = min(stable, last.base_offset)
        aborted = tuple(r for r in state.aborted if r.last_offset >= log_start)
        return PartitionTransactions(max(min(stable, queue.next_offset), log_start), aborted)

    def scan(self, *, verify: bool = True, progress: Callable[[int, int], None] | None = None) -> ScanReport:
        """Parse the whole CommitLog, checking header checksums and (if ``verify``) every batch CRC-32C; past a
        damaged range, the scan goes on at the next valid record (as recovery does) and reports the range."""
        segments = self._commitlog.segments()
        total = sum(s.size for s in segments)
        base = self._commitlog.min_offset
        batches = orphans = 0
        damaged: list[tuple[int, int, str]] = []
        walk = LogWalk(
            self._commitlog, base, limit=1 << 62, verify_from=0 if verify else 1 << 62, expected_end=0,
            hint_end=self._commitlog.data_limit(),
        )  # fmt: skip
        for item in walk:
            if isinstance(item, Damage):
                damaged.append((item.start, item.end, item.reason))
                continue
            batches += len(item)
            orphans += sum(self._topics.by_id(record.topic_id) is None for record in item)
            if progress is not None:
                progress(item[-1].end - base, total)
        if progress is not None:
            progress(total, total)
        corrupt = walk.torn or (f"offset {damaged[0][0]}: {damaged[0][2]}" if damaged else None)
        return ScanReport(batches, walk.end - base, walk.end, corrupt, orphans, tuple(damaged))

    def losses(self) -> list[Loss]:
        """The losses recorded in the store's quarantine ledger, oldest first."""
        return read_losses(self._quarantine)

    def records(self, topic: str, partition: int, from_offset: int) -> Iterator[Record]:
        """The records of a partition from ``from_offset`` (at least the log start offset) on, in order."""
        key, queue = self._queue(topic, partition)
        offset = max(from_offset, self._log_start(key, queue))
        compacted = self._compacted.get(key)
        if compacted is not None and offset < compacted.end_offset:
            yield from _compacted_records(compacted, offset)
            offset = compacted.end_offset
        offset = max(offset, queue.first_offset)
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
            compacted=self._compacted, topic=self._topics.get(topic), key=key, window=window, limit=limit,
        )  # fmt: skip


def compacted_records(
    root: Path, topic_id: bytes, partition: int, start: int, end: int
) -> Iterator[tuple[Record, int]]:
    """``(record, its batch's attributes)`` of a partition's compacted log at offsets [start, end), control
    batches left out: the generation its manifest names now, mapped read-only (for the pipeline's store source,
    which finds the log's end in ``PartitionSummary.compacted_end``). A later generation serves the same offsets
    with at most as many records (each key's latest), so a read planned against an older one stays right."""
    files = CompactedLogFiles(StoreLayout(Path(root)).compacted_log(topic_id, partition))
    log: CompactedLog | None = None
    for attempt in range(3):  # a pass published meanwhile deletes the generation its old manifest named
        try:
            log = files.load_readonly()
            break
        except (CorruptStoreError, FileNotFoundError):
            if attempt == 2:
                raise
    if log is None:
        return
    try:
        batches, _, _ = log.read(start, 1 << 62, min(end, log.end_offset))
        for batch in batches:
            header = read_batch_header(batch)
            if header.is_control:
                continue
            try:
                decoded = stored_records(batch)
            except KernelError as exc:
                raise StoreError(f"a compacted batch does not decode: {exc}") from exc
            yield from ((record, header.attributes) for record in decoded if start <= record.offset < end)
    finally:
        log.close()


def _compacted_records(compacted: CompactedLog, offset: int) -> Iterator[Record]:
    """The records a compacted log keeps from ``offset`` up to its end."""
    batches, _, _ = compacted.read(offset, 1 << 62, compacted.end_offset)
    for batch in batches:
        try:
            decoded = stored_records(batch)
        except KernelError as exc:
            raise StoreError(f"a compacted batch does not decode: {exc}") from exc
        yield from (record for record in decoded if offset <= record.offset < compacted.end_offset)


def _replay(path: Path) -> tuple[dict[PartitionKey, _TransactionState], int]:
    """Every partition's transactions from the transaction log (read-only), and the log's ``applied_below``."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = b""
    events, applied_below, _ = parse(data)
    states: dict[PartitionKey, _TransactionState] = {}
    for event in events:
        state = states.setdefault((event.topic_id, event.partition), _TransactionState({}, []))
        if isinstance(event, Begin):
            state.open[event.producer_id] = event.first_offset
            continue
        state.open.pop(event.producer_id, None)
        if not event.commit and event.first_offset >= 0:
            state.aborted.append(AbortedRange(event.producer_id, event.first_offset, event.marker_offset))
    return states, applied_below
