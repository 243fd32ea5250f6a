"""Recovery on open: the same procedure after a clean shutdown and after a crash.

1. Each ConsumeQueue keeps the units that point below the checkpoint's ``commitlog_offset`` (they were
   fsynced before the checkpoint was written) and drops the others. A queue that is damaged (missing
   directory, gap, truncated file, lost last file, a first unit above the partition's log start offset,
   units past its end that are not zeros, or a last unit that does not point at its own record in the
   CommitLog) is cut where the damage starts, or wiped, and asks for a re-dispatch from its last good record.
   A CommitLog segment found shorter than the segment size is trusted no further than its start.
2. The CommitLog is parsed from the earliest of those points; every record at or past the checkpoint has
   its batch CRC-32C verified as well as its header (by a second thread, on the other core, while the
   first re-dispatches), each segment advised sequential meanwhile (a doubled readahead window: from the
   disk the scan ran at half the speed of a plain read without it). Valid records are re-dispatched (the
   queue builder skips units a queue already holds). Past an invalid record (or zeros where records were
   written: below the checkpoint, below what ConsumeQueue units claim, or before a later segment with data)
   the scan looks for the next valid record (``commitlog.LogWalk``) and goes on from there: the bytes in
   between are quarantined, once, with the partitions and offsets they held where known, and each partition
   keeps every intact record, its lost offsets left as a gap (offsets are never renumbered). When no valid
   record follows, the log ends there: a torn tail (what a crash leaves past the checkpoint) is cut quietly,
   the rest of its file zeroed and later files deleted; the same past the checkpoint is a loss.
3. Units pointing past the new end are dropped, empty partitions resume at their log start offset, and
   IndexFiles that end past ``min(checkpoint index_offset, new end)`` (or that are damaged) are deleted, for
   the index thread to rebuild.

After a clean shutdown the checkpoint equals the end of the log, so step 2 reads one header and stops; step 1
costs one header check per partition. Units in the middle of a queue are checked when read
(``partition.read_batches``), and a unit found pointing anywhere but at its own record has its queue
rebuilt then (``QueueBuilder.repair``). The abort marker only decides what the report says.
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from queue import SimpleQueue

from rockafka.core_pyx.logrecord import HEADER_SIZE

from .checkpoint import CheckpointState
from .commitlog import CommitLog, Damage, LogWalk
from .consumequeue import ConsumeQueue
from .indexservice import IndexService
from .quarantine import Loss, Quarantine
from .queuebuilder import QueueBuilder, keep_damage, note_claims, note_gap
from .results import RecoveryReport, TopicPartition
from .topics import LogStartOffsets, TopicTable

log = logging.getLogger("rockafka.store")
PartitionKey = tuple[bytes, int]


def recover(
    *,
    commitlog: CommitLog,
    queues: Mapping[PartitionKey, ConsumeQueue],
    builder: QueueBuilder,
    checkpoint: CheckpointState | None,
    log_starts: LogStartOffsets,
    index: IndexService | None,
    topics: TopicTable,
    clean: bool,
    quarantine: Quarantine | None = None,
    compacted_ends: Mapping[PartitionKey, int] | None = None,
    cut_at: int | None = None,
) -> RecoveryReport:
    """``compacted_ends``: each compacted partition's compacted log end (``compactedlog.py``); the CommitLog
    below it is served from there, so batches below it are never missing, like those below a log start.
    ``cut_at``: recover as if the CommitLog ended there (``truncation.py``): nothing past it is trusted or
    dispatched, and everything past it is cut."""
    ends = compacted_ends or {}
    limit = 1 << 62 if cut_at is None else cut_at
    if checkpoint is not None and checkpoint.commitlog_offset > limit:
        checkpoint = replace(checkpoint, commitlog_offset=limit, index_offset=min(checkpoint.index_offset, limit))

    def floor(key: PartitionKey) -> int:
        return max(log_starts.get(*key), ends.get(key, 0))

    segments = commitlog.segments()
    safe = commitlog.min_offset if checkpoint is None else max(checkpoint.commitlog_offset, commitlog.min_offset)
    safe = min(safe, segments[-1].end if segments else commitlog.min_offset)
    for start in commitlog.short_segments:
        safe = max(min(safe, start), commitlog.min_offset)
    scan_from = safe
    rebuilt: list[TopicPartition] = []
    for key, queue in queues.items():
        restart = _load_queue(queue, safe, floor(key), commitlog)
        if restart is not None:
            scan_from = min(scan_from, restart)
            rebuilt.append(TopicPartition(_name(topics, key[0]), key[1]))
        elif queue.claims:  # units dropped as past the checkpoint: re-dispatched from the queue's end, in case
            scan_from = min(scan_from, _dropped_from(queue, safe))  # one's position was flipped past it
    expected_end = 0 if checkpoint is None else checkpoint.commitlog_offset
    hint_end = min(max((queue.claimed_end for queue in queues.values()), default=0), limit)
    for segment in segments:
        segment.advise_sequential(True)
    try:
        scan = _scan(
            commitlog, builder, queues, max(scan_from, commitlog.min_offset), safe, (expected_end, hint_end), limit
        )
    finally:
        for segment in segments:
            segment.advise_sequential(False)
    end = scan.end
    commitlog.set_end(end)
    commitlog.unverified_below = safe
    for key, queue in queues.items():
        queue.truncate_from_physical(end)
        if queue.end_index == queue.first_index:
            queue.next_offset = max(queue.next_offset, floor(key))
    lost = _lost_head(commitlog, queues, log_starts, floor, quarantine, topics)
    note_claims(queues, scan.damages)
    lost += keep_damage(commitlog, quarantine, scan.damages, lambda topic_id: _name(topics, topic_id))
    if scan.torn is not None:
        log.info("recovery: the CommitLog ended in a torn record (%s), cut there", scan.torn)
    removed = 0
    if index is not None:
        removed = index.load(0 if checkpoint is None else checkpoint.index_offset, end)
    first_damage = f"offset {scan.damages[0].start}: {scan.damages[0].reason}" if scan.damages else None
    return RecoveryReport(
        clean_shutdown=clean,
        scan_from=scan_from,
        end_offset=end,
        corrupt_record=scan.torn or first_damage,
        redispatched_batches=scan.dispatched,
        rebuilt_partitions=tuple(sorted(rebuilt, key=lambda tp: (tp.topic, tp.partition))),
        removed_index_files=removed,
        damaged_ranges=tuple((d.start, d.end) for d in scan.damages),
        lost_bytes=lost,
    )


def _lost_head(
    commitlog: CommitLog,
    queues: Mapping[PartitionKey, ConsumeQueue],
    log_starts: LogStartOffsets,
    floor: Callable[[PartitionKey], int],
    quarantine: Quarantine | None,
    topics: TopicTable,
) -> int:
    """Partitions whose records from the log start on lie in CommitLog segments that are gone (retention moves
    the log start past a segment before deleting it; a segment deleted otherwise is lost): the log start moves
    to the first record still held, and the loss is recorded. Returns the bytes lost."""
    moves: dict[PartitionKey, int] = {}
    lost = 0
    for key, queue in queues.items():
        gone = _gone_below(queue, floor(key), commitlog.min_offset)
        if gone is None:
            continue
        physical, first, moves[key], size = gone
        lost += size
        loss = Loss(
            "commitlog", f"commitlog/{physical - physical % commitlog.segment_bytes:020d}", physical,
            commitlog.min_offset, "the segment files holding them are missing", _name(topics, key[0]), key[1],
            first, moves[key] - 1,
        )  # fmt: skip
        if quarantine is None:
            log.warning("store damage: %s", loss.describe())
        else:
            quarantine.keep(loss, None)
    if moves:
        log_starts.set_many(moves)
    return lost


def _gone_below(queue: ConsumeQueue, log_start: int, min_offset: int) -> tuple[int, int, int, int] | None:
    """(first physical offset, first offset, new log start, batch bytes) of a partition's records from its log
    start on that lie below the CommitLog's first segment: in units it holds, or in units recovery dropped."""
    claims = [c for c in queue.claims if c[0] < min_offset and c[3] >= log_start and c[3] < queue.first_offset]
    if claims:
        size = sum(c[1] - HEADER_SIZE for c in claims)
        return claims[0][0], claims[0][3], queue.first_offset, size
    if queue.end_index == queue.first_index or log_start >= queue.next_offset:
        return None
    index = max(queue.index_of_offset(log_start), queue.first_index)
    physical, _, _, base = queue.head(index)
    if physical >= min_offset:
        return None
    held = queue.index_of_physical(min_offset)
    start = queue.head(held)[3] if held < queue.end_index else queue.next_offset
    return physical, max(log_start, base), start, queue.bytes_before(held) - queue.bytes_before(index)


def _name(topics: TopicTable, topic_id: bytes) -> str:
    topic = topics.by_id(topic_id)
    return topic.name if topic else topic_id.hex()


def _load_queue(queue: ConsumeQueue, safe: int, log_start: int, commitlog: CommitLog) -> int | None:
    """Load one queue; the CommitLog offset to re-dispatch it from when it is damaged, else None."""
    commitlog_start = commitlog.min_offset
    if safe <= commitlog_start:  # nothing is trusted: every unit will be re-dispatched anyway
        queue.load(trusted_below=0)  # for what its units claim (``claims``, ``claimed_end``)
        if queue.first_index != 0 or queue.claims:  # an empty queue from its start is already what a wipe leaves
            queue.wipe(0)
        return None
    damaged = queue.load(trusted_below=safe)
    if queue.end_index > queue.first_index and queue.first_offset > log_start:
        damaged = True
        queue.wipe(0)
    bad = _first_unit_off_its_record(queue, commitlog)
    if bad is not None:
        damaged = True
        queue.cut_at(bad)
    if not damaged:
        return None
    if queue.end_index == queue.first_index:
        if bad is None:
            queue.wipe(0)
        return commitlog_start
    return queue.next_physical


def _dropped_from(queue: ConsumeQueue, safe: int) -> int:
    """Where to re-dispatch a queue that dropped units from: its last kept unit's end, or (none kept) the first
    dropped unit's position when that lies below ``safe``."""
    if queue.end_index > queue.first_index:
        return queue.next_physical
    return min(safe, max(queue.claims[0][0], 0))


def _first_unit_off_its_record(queue: ConsumeQueue, commitlog: CommitLog) -> int | None:
    """The first unit that does not point at its own record, assuming the units before it all do (a CommitLog cut
    short, or zeroed from some point, leaves such a prefix): the last unit checked, then a binary search. None
    when the last unit is right (units in the middle are checked as they are read)."""

    def right(index: int) -> bool:
        physical, size, count, base = queue.head(index)
        if physical < commitlog.min_offset:
            return True  # below the log's start: expired by retention, never read
        return commitlog.checked_batch_view(physical, size, queue.topic_id, queue.partition, base, count) is not None

    low, high = queue.first_index, queue.end_index
    if high == low or right(high - 1):
        return None
    high -= 1
    while low < high:
        middle = (low + high) // 2
        if right(middle):
            low = middle + 1
        else:
            high = middle
    return low


@dataclass(frozen=True, slots=True)
class _Scanned:
    end: int
    dispatched: int
    damages: list[Damage]
    torn: str | None


def _scan(
    commitlog: CommitLog,
    builder: QueueBuilder,
    queues: Mapping[PartitionKey, ConsumeQueue],
    start: int,
    verify_from: int,
    ends: tuple[int, int],
    limit: int,
) -> _Scanned:
    """Re-dispatch from ``start`` past damage; ``ends`` are where data is known and thought to reach.

    Headers are checked here; batch CRC-32Cs (from ``verify_from``) by a ``_Verifier`` thread on the other
    core at the same time. When a batch fails its CRC, the units dispatched from it on are dropped and the
    walk goes again from it, checking CRCs itself: that batch is then damage like any other.
    """
    dispatched: list[int] = []
    damages: list[Damage] = []
    inline = False
    while True:
        walk = LogWalk(
            commitlog, start, limit=limit, verify_from=start if inline else 1 << 62, expected_end=ends[0],
            hint_end=ends[1],
        )  # fmt: skip
        verifier = None if inline else _Verifier(commitlog)
        try:
            for item in walk:
                if isinstance(item, Damage):
                    damages.append(item)
                    continue
                if verifier is not None and item[-1].physical_offset >= verify_from:
                    first = next(record for record in item if record.physical_offset >= verify_from)
                    verifier.submit(first.physical_offset, item[-1].end)
                if damages:
                    for record in item:
                        note_gap(record, queues, damages)
                        if builder.add(record):
                            dispatched.append(record.physical_offset)
                else:
                    dispatched.extend(record.physical_offset for record in item if builder.add(record))
        finally:
            bad = None if verifier is None else verifier.finish()
        if bad is None or bad >= walk.end:
            return _Scanned(walk.end, bisect.bisect_left(dispatched, walk.end), damages, walk.torn)
        for queue in queues.values():
            queue.truncate_from_physical(bad)
        damages = [damage for damage in damages if damage.start < bad]
        del dispatched[bisect.bisect_left(dispatched, bad) :]
        start, inline = bad, True


class _Verifier:
    """Checks batch CRC-32Cs of ranges the scan has parsed, in its own thread; remembers the first failure."""

    def __init__(self, commitlog: CommitLog) -> None:
        self._commitlog = commitlog
        self._ranges: SimpleQueue[tuple[int, int] | None] = SimpleQueue()
        self._bad: int | None = None
        self._thread = threading.Thread(target=self._run, name="rockafka-recovery-crc", daemon=True)
        self._thread.start()

    def submit(self, start: int, end: int) -> None:
        self._ranges.put((start, end))

    def finish(self) -> int | None:
        """Wait for every submitted range; the offset of the first batch whose CRC fails, or None."""
        self._ranges.put(None)
        self._thread.join()
        return self._bad

    def _run(self) -> None:
        while (item := self._ranges.get()) is not None:
            if self._bad is None:
                self._bad = self._commitlog.verify_range(*item)
