"""Planning reads of a data directory: what the store has published, and the Spark tasks that read it.

A snapshot is taken through :class:`rockafka.store.reader.StoreReader` (read-only, no lock): the topics,
and per partition its log start offset and high watermark (the end of its published ConsumeQueue units).
Reads are bounded by that snapshot, never by file sizes (the store pre-allocates its files).

**Isolation** (``kafka.isolation.level``, default ``read_committed``): a read_committed snapshot ends each
partition at its last stable offset instead of its high watermark and carries the partition's aborted ranges,
both from :meth:`StoreReader.transactions` (the ConsumeQueues, then ``config/transactions.log`` read-only);
tasks skip the transactional batches of an aborted range's producer inside it, as a read_committed Kafka
consumer does. Every transaction with records below the last stable offset has ended and markers are final,
so a stream's replayed batch reads the same rows. ``read_uncommitted`` reads to the high watermark, aborted
records included.

- ``mode=cq`` (default): one task per (partition, ConsumeQueue file) overlapping the offsets read,
  after ``minPartitions`` splitting: each task walks its file's units and decodes their batches.

**Compacted partitions** (``cleanup.policy=compact``): below the compacted end that the snapshot saw
(``PartitionSummary.compacted_end``), a partition is read from its compacted log by one task of its own (in
both modes), and the ConsumeQueue and CommitLog only from that end on, as the broker's Fetch reads it: the
CommitLog below it may still hold the versions the cleaner dropped.
- ``mode=segments``: one task per CommitLog segment, a sequential scan that verifies every record's
  header and batch CRC-32C (of all topics) up to where the published units end, and yields the
  selected partitions' records. For full dumps and integrity checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rockafka.store.errors import StoreError
from rockafka.store.reader import AbortedRange, StoreReader

from .errors import PipelineError
from .offsets import Bounds, OffsetRange, TopicPartition
from .options import TopicSelection
from .storefiles import COMPACTED_LOG, QueueSlice, SegmentSlice, last_unit_end, queue_files


@dataclass(frozen=True, slots=True)
class StoreSnapshot:
    root: Path
    #: topic name → topic id hex, for the selected topics that exist
    topic_ids: Mapping[str, str]
    #: selected partitions only
    bounds: Bounds
    segment_starts: tuple[int, ...]
    #: read_committed only: each selected partition's aborted ranges
    aborted: Mapping[TopicPartition, tuple[AbortedRange, ...]]
    #: compacted partitions only: the offset below which their compacted log answers
    compacted_ends: Mapping[TopicPartition, int]


def snapshot(root: Path, selection: TopicSelection, committed: bool) -> StoreSnapshot:
    """What the store has published now, for the selected partitions (up to the last stable offsets when
    ``committed``)."""
    try:
        with StoreReader(root) as reader:
            topics = {t.name: t for t in reader.topics()}
            summaries = {TopicPartition(p.topic, p.partition): p for p in reader.partitions()}
            segment_starts = tuple(s.start for s in reader.segments())
            wanted = selection.partitions({name: t.partitions for name, t in topics.items()})
            present = [tp for tp in wanted if tp in summaries]
            transactions = {tp: reader.transactions(*tp) for tp in present} if committed else {}
    except (StoreError, OSError) as exc:
        raise PipelineError(f"cannot read the store at {root}: {exc}") from exc
    latest = {tp: summaries[tp].high_watermark for tp in present}
    latest.update({tp: t.last_stable_offset for tp, t in transactions.items()})
    return StoreSnapshot(
        root=root,
        topic_ids={tp.topic: topics[tp.topic].topic_id.hex for tp in present},
        bounds=Bounds(earliest={tp: summaries[tp].log_start_offset for tp in present}, latest=latest),
        segment_starts=segment_starts,
        aborted={tp: t.aborted for tp, t in transactions.items() if t.aborted},
        compacted_ends={tp: summaries[tp].compacted_end for tp in present if summaries[tp].compacted_end},
    )


def _overlapping(snap: StoreSnapshot, r: OffsetRange, start: int, end: int) -> tuple[AbortedRange, ...]:
    """The partition's aborted ranges that overlap offsets [start, end)."""
    held = snap.aborted.get(TopicPartition(r.topic, r.partition), ())
    return tuple(a for a in held if a.first_offset < end and a.last_offset >= start)


def compacted_slice(snap: StoreSnapshot, r: OffsetRange, flags: tuple[bool, bool]) -> list[QueueSlice]:
    """The task reading the part of ``r`` below its partition's compacted end from the compacted log (none when
    ``r`` starts at or past it)."""
    end = min(r.end, snap.compacted_ends.get(TopicPartition(r.topic, r.partition), 0))
    if r.start >= end:
        return []
    topic_id = snap.topic_ids[r.topic]
    return [QueueSlice(str(snap.root), r.topic, topic_id, r.partition, COMPACTED_LOG, r.start, end, *flags)]


def queue_slices(snap: StoreSnapshot, ranges: list[OffsetRange], flags: tuple[bool, bool]) -> list[QueueSlice]:
    """One task per (range, ConsumeQueue file) overlap, and one for a compacted partition's compacted log below
    its end; ``flags`` = (include_headers, fail_on_data_loss)."""
    tasks = []
    listed: dict[TopicPartition, list[tuple[Path, int]]] = {}
    for r in ranges:
        tp = TopicPartition(r.topic, r.partition)
        topic_id = snap.topic_ids[r.topic]
        tasks += compacted_slice(snap, r, flags)
        if tp not in listed:
            listed[tp] = queue_files(snap.root, topic_id, r.partition)
        files = listed[tp]
        from_offset = max(r.start, snap.compacted_ends.get(tp, 0))
        for at, (path, first) in enumerate(files):
            upto = files[at + 1][1] if at + 1 < len(files) else r.end
            start, end = max(from_offset, first if at else from_offset), min(r.end, upto)
            if start < end:
                aborted = _overlapping(snap, r, start, end)
                tasks.append(
                    QueueSlice(str(snap.root), r.topic, topic_id, r.partition, str(path), start, end, *flags, aborted)
                )
    return tasks


def published_end(root: Path) -> int:
    """Where the records of every partition's published ConsumeQueue units end (all topics)."""
    end = 0
    queues = root / "consumequeue"
    for partition_dir in queues.glob("*/*") if queues.is_dir() else ():
        files = sorted(p for p in partition_dir.iterdir() if p.name.isdigit())
        for path in reversed(files):
            last = last_unit_end(path)
            if last is not None:
                end = max(end, last)
                break
    return end


def segment_slices(
    snap: StoreSnapshot, ranges: list[OffsetRange], include_headers: bool
) -> list[SegmentSlice | QueueSlice]:
    """One task per CommitLog segment, each looking for the records of ``ranges``; a compacted partition's
    records below its compacted end come from its compacted log instead (the CommitLog there may still hold
    versions the cleaner dropped), in a task of their own."""
    wanted: dict[str, tuple[str, dict[int, tuple[int, int]]]] = {}
    aborted: dict[tuple[str, int], tuple[AbortedRange, ...]] = {}
    tasks: list[SegmentSlice | QueueSlice] = []
    for r in ranges:
        topic_id = snap.topic_ids[r.topic]
        tasks += compacted_slice(snap, r, (include_headers, True))
        start = max(r.start, snap.compacted_ends.get(TopicPartition(r.topic, r.partition), 0))
        wanted.setdefault(topic_id, (r.topic, {}))[1][r.partition] = (start, r.end)
        if overlapping := _overlapping(snap, r, r.start, r.end):
            aborted[(topic_id, r.partition)] = overlapping
    end = published_end(snap.root)
    segments = [
        SegmentSlice(str(snap.root), start, wanted, end, include_headers, aborted) for start in snap.segment_starts
    ]
    return tasks + segments
