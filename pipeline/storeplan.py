"""Planning reads of a data directory: what the store has published, and the Spark tasks that read it.

A snapshot is taken through :class:`rockafka.store.reader.StoreReader` (read-only, no lock): the topics,
and per partition its log start offset and high watermark (the end of its published ConsumeQueue units).
Reads are bounded by that snapshot, never by file sizes (the store pre-allocates its files).

- ``mode=cq`` (default): one task per (partition, ConsumeQueue file) overlapping the offsets read,
  after ``minPartitions`` splitting: each task walks its file's units and decodes their batches.
- ``mode=segments``: one task per CommitLog segment, a sequential scan that verifies every record's
  header and batch CRC-32C (of all topics) up to where the published units end, and yields the
  selected partitions' records. For full dumps and integrity checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rockafka.store import StoreError
from rockafka.store.reader import StoreReader

from .errors import PipelineError
from .offsets import Bounds, OffsetRange, TopicPartition
from .options import TopicSelection
from .storefiles import QueueSlice, SegmentSlice, last_unit_end, queue_files


@dataclass(frozen=True, slots=True)
class StoreSnapshot:
    root: Path
    #: topic name → topic id hex, for the selected topics that exist
    topic_ids: Mapping[str, str]
    #: selected partitions only
    bounds: Bounds
    segment_starts: tuple[int, ...]


def snapshot(root: Path, selection: TopicSelection) -> StoreSnapshot:
    """What the store has published now, for the selected partitions."""
    try:
        with StoreReader(root) as reader:
            topics = {t.name: t for t in reader.topics()}
            summaries = {TopicPartition(p.topic, p.partition): p for p in reader.partitions()}
            segment_starts = tuple(s.start for s in reader.segments())
    except (StoreError, OSError) as exc:
        raise PipelineError(f"cannot read the store at {root}: {exc}") from exc
    wanted = selection.partitions({name: t.partitions for name, t in topics.items()})
    present = [tp for tp in wanted if tp in summaries]
    return StoreSnapshot(
        root=root,
        topic_ids={tp.topic: topics[tp.topic].topic_id.hex for tp in present},
        bounds=Bounds(
            earliest={tp: summaries[tp].log_start_offset for tp in present},
            latest={tp: summaries[tp].high_watermark for tp in present},
        ),
        segment_starts=segment_starts,
    )


def queue_slices(snap: StoreSnapshot, ranges: list[OffsetRange], flags: tuple[bool, bool]) -> list[QueueSlice]:
    """One task per (range, ConsumeQueue file) overlap; ``flags`` = (include_headers, fail_on_data_loss)."""
    tasks = []
    listed: dict[TopicPartition, list[tuple[Path, int]]] = {}
    for r in ranges:
        tp = TopicPartition(r.topic, r.partition)
        topic_id = snap.topic_ids[r.topic]
        if tp not in listed:
            listed[tp] = queue_files(snap.root, topic_id, r.partition)
        files = listed[tp]
        for at, (path, first) in enumerate(files):
            upto = files[at + 1][1] if at + 1 < len(files) else r.end
            start, end = max(r.start, first if at else r.start), min(r.end, upto)
            if start < end:
                tasks.append(QueueSlice(str(snap.root), r.topic, topic_id, r.partition, str(path), start, end, *flags))
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


def segment_slices(snap: StoreSnapshot, ranges: list[OffsetRange], include_headers: bool) -> list[SegmentSlice]:
    """One task per CommitLog segment, each looking for the records of ``ranges``."""
    wanted: dict[str, tuple[str, dict[int, tuple[int, int]]]] = {}
    for r in ranges:
        wanted.setdefault(snap.topic_ids[r.topic], (r.topic, {}))[1][r.partition] = (r.start, r.end)
    end = published_end(snap.root)
    return [SegmentSlice(str(snap.root), start, wanted, end, include_headers) for start in snap.segment_starts]
