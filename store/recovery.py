"""Recovery on open: the same procedure after a clean shutdown and after a crash.

1. Each ConsumeQueue keeps the units that point below the checkpoint's ``commitlog_offset`` (they were
   fsynced before the checkpoint was written) and drops the others. A queue that is damaged (missing
   directory, gap, truncated file, lost last file, or a first unit above the partition's log start
   offset) is cut where the damage starts, or wiped, and asks for a re-dispatch from its last good record.
2. The CommitLog is parsed from the earliest of those points; every record at or past the checkpoint has
   its batch CRC-32C verified as well as its header (by a second thread, on the other core, while the
   first re-dispatches), each segment advised sequential meanwhile (a doubled readahead window: from the
   disk the scan ran at half the speed of a plain read without it). Valid records are re-dispatched (the
   dispatcher skips units a queue already holds). The first invalid record ends the log: it and everything after it are
   cut (the rest of its file zeroed, later files deleted).
3. Units pointing past the new end are dropped, empty partitions resume at their log start offset, and
   IndexFiles that end past ``min(checkpoint index_offset, new end)`` are deleted, for the index thread to
   rebuild.

After a clean shutdown the checkpoint equals the end of the log, so step 2 reads one header and stops.
The abort marker only decides what the report says.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Mapping
from queue import SimpleQueue

from .checkpoint import CheckpointState
from .commitlog import CommitLog, CorruptRecord, EndOfData, SegmentEnd
from .consumequeue import ConsumeQueue
from .dispatcher import Dispatcher
from .indexservice import IndexService
from .results import RecoveryReport, TopicPartition
from .topics import LogStartOffsets, TopicTable

PartitionKey = tuple[bytes, int]
_SCAN_CHUNK = 4096  # records parsed per kernel call


def recover(
    *,
    commitlog: CommitLog,
    queues: Mapping[PartitionKey, ConsumeQueue],
    dispatcher: Dispatcher,
    checkpoint: CheckpointState | None,
    log_starts: LogStartOffsets,
    index: IndexService | None,
    topics: TopicTable,
    clean: bool,
) -> RecoveryReport:
    segments = commitlog.segments()
    data_limit = segments[-1].end if segments else commitlog.min_offset
    safe = commitlog.min_offset if checkpoint is None else max(checkpoint.commitlog_offset, commitlog.min_offset)
    safe = min(safe, data_limit)
    scan_from = safe
    rebuilt: list[TopicPartition] = []
    for key, queue in queues.items():
        restart = _load_queue(queue, safe, log_starts.get(*key), commitlog.min_offset)
        if restart is not None:
            scan_from = min(scan_from, restart)
            topic = topics.by_id(key[0])
            rebuilt.append(TopicPartition(topic.name if topic else key[0].hex(), key[1]))
    for segment in segments:
        segment.advise_sequential(True)
    try:
        end, redispatched, corrupt = _scan(commitlog, dispatcher, max(scan_from, commitlog.min_offset), safe)
    finally:
        for segment in segments:
            segment.advise_sequential(False)
    commitlog.set_end(end)
    for key, queue in queues.items():
        queue.truncate_from_physical(end)
        if queue.end_index == queue.first_index:
            queue.next_offset = max(queue.next_offset, log_starts.get(*key))
    removed = 0
    if index is not None:
        removed = index.load(0 if checkpoint is None else checkpoint.index_offset, end)
    return RecoveryReport(
        clean_shutdown=clean,
        scan_from=scan_from,
        end_offset=end,
        corrupt_record=corrupt,
        redispatched_batches=redispatched,
        rebuilt_partitions=tuple(sorted(rebuilt, key=lambda tp: (tp.topic, tp.partition))),
        removed_index_files=removed,
    )


def _load_queue(queue: ConsumeQueue, safe: int, log_start: int, commitlog_start: int) -> int | None:
    """Load one queue; the CommitLog offset to re-dispatch it from when it is damaged, else None."""
    if safe <= commitlog_start:  # nothing is trusted: every unit will be re-dispatched anyway
        queue.wipe(0)
        return None
    damaged = queue.load(trusted_below=safe)
    if queue.end_index > queue.first_index and queue.first_offset > log_start:
        damaged = True
        queue.wipe(0)
    if not damaged:
        return None
    if queue.end_index == queue.first_index:
        queue.wipe(0)
        return commitlog_start
    return queue.next_physical


def _scan(commitlog: CommitLog, dispatcher: Dispatcher, start: int, verify_from: int) -> tuple[int, int, str | None]:
    """Re-dispatch from ``start``; (end of the valid log, batches dispatched, why it ended if corrupt).

    Headers are checked here; batch CRC-32Cs (from ``verify_from``) by a ``_Verifier`` thread on the other
    core at the same time. Units dispatched past a batch that fails its CRC are dropped by the caller,
    which truncates every queue at the returned end.
    """
    verifier = _Verifier(commitlog)
    offset = start
    dispatched: list[int] = []
    reason: str | None = None
    try:
        while True:
            records, outcome = commitlog.parse_many(offset, verify_from=1 << 62, limit=_SCAN_CHUNK)
            checked = [r for r in records if r.physical_offset >= verify_from]
            if checked:
                verifier.submit(checked[0].physical_offset, checked[-1].end)
            for record in records:
                if dispatcher.dispatch(record):
                    dispatched.append(record.physical_offset)
                offset = record.end
            if isinstance(outcome, SegmentEnd):
                offset = outcome.next_offset
            elif isinstance(outcome, CorruptRecord):
                reason = f"offset {offset}: {outcome.reason}"
                break
            elif isinstance(outcome, EndOfData):
                break
    finally:
        bad = verifier.finish()
    if bad is not None and bad < offset:
        offset, reason = bad, f"offset {bad}: batch CRC-32C mismatch"
    return offset, bisect.bisect_left(dispatched, offset), reason


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
