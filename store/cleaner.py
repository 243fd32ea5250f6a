"""``LogCleaner``: log compaction of compacted topics' partitions (``store.cleaner``), Kafka's log cleaner.

The one owner of the compacted logs (``compactedlog.py``) once the store is open: it replaces them in
``Partitions.compacted``, which reads use (``opening.py`` loads them there, before recovery, which needs their ends).
A pass over one partition, in three steps so the event loop is never held for long:

1. **plan** (loop thread): the cleanable range, from the compacted log's start (or the log start offset) to
   ``compaction.cleanable_end`` (never the newest batch, never past the last stable offset, never records
   younger than ``min.compaction.lag.ms``); its batches as slices of the live compacted log and of the mapped
   CommitLog (a slice keeps its mapping alive if retention deletes the segment meanwhile), each checked against
   its ConsumeQueue unit; the aborted transactions in it, from the transaction tracker. No copy, no decode.
2. **execute** (the ``rockafka-cleaner`` thread): ``compaction.clean`` decides what stays, and the new
   generation's file is written and fsynced (``CompactedLogFiles.write_generation``); the pass sleeps as needed
   to stay under ``cleaner_io_bytes_per_second`` (bytes read plus written), and to compute at most
   ``cleaner_duty_cycle`` of the time: decoding and rebuilding batches is Python work that holds the GIL, which
   the event loop's appends and fetches need.
3. **publish** (loop thread): the manifest names the new generation (one atomic rename), the older file goes,
   and ``Partitions.compacted`` serves the new log. A pass whose partition was deleted meanwhile is dropped.

``run`` (called by the broker on its retention timer) publishes a finished pass and starts the next one: at most
one pass is in flight, so the cleaner costs the broker one thread and one partition's offset map at a time. A
partition is cleaned when ``compaction.wants_cleaning`` says its dirty part is worth it
(``min.cleanable.dirty.ratio``, ``max.compaction.lag.ms``). ``clean`` runs one whole pass at once (tests, tools).

Crash safety: nothing but the new generation's own file is written before the manifest's rename, and nothing is
deleted before it; the CommitLog is never written. A kill -9 at any step leaves the previous manifest and its
file, or the new ones (``compactedlog.py``); the CommitLog below a compacted log's end is deleted only by
retention (``retention.py``), after the manifest naming that end is durable. An interrupted pass is not resumed:
the next ``run`` plans it again from what is published.

Disk space: the CommitLog is shared, so a segment goes only when every batch in it is dead for its partition:
below its log start, or below its compacted log's end (``Retention``). A compacted topic's old records then
live only in its compacted log, which holds one version per key.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from .commitlog import CommitLog
from .compactedlog import CompactedLogFiles, Manifest
from .compaction import CompactionError, CompactionRules, SourceBatch, UnitSummary, clean, cleanable_end
from .compaction import wants_cleaning as worth_cleaning
from .health import StoreHealth, guarded
from .layout import StoreLayout
from .partitions import PartitionKey, Partitions
from .results import CleanReport
from .topics import TopicTable
from .transactions import TransactionTracker

log = logging.getLogger(__name__)

#: A pass takes at most this many new batches, so planning (on the loop thread) stays short; more go next time.
MAX_BATCHES_PER_PASS: Final = 20_000


class _Pacer:
    """Keeps a pass's thread computing at most ``duty_cycle`` of the time: after each stretch of work it sleeps
    (releasing the GIL) ``(1 - duty) / duty`` times as long, so the event loop keeps the interpreter."""

    def __init__(self, duty_cycle: float) -> None:
        self._rest_per_work = (1.0 - duty_cycle) / duty_cycle
        self._mark = time.monotonic()

    def __call__(self) -> None:
        worked = time.monotonic() - self._mark
        if self._rest_per_work > 0:
            time.sleep(worked * self._rest_per_work)
        self._mark = time.monotonic()


@dataclass(frozen=True, slots=True)
class _Plan:
    key: PartitionKey
    topic: str
    partition: int
    files: CompactedLogFiles
    generation: int
    start_offset: int
    end_offset: int
    sources: list[SourceBatch]
    rules: CompactionRules
    now_ms: int
    aborted_starts: frozenset[tuple[int, int]]

    @property
    def bytes_in(self) -> int:
        return sum(source.header.size for source in self.sources)


@dataclass(frozen=True, slots=True)
class _Written:
    plan: _Plan
    size: int
    records_in: int
    records_kept: int


class LogCleaner:
    def __init__(
        self,
        *,
        health: StoreHealth,
        layout: StoreLayout,
        partitions: Partitions,
        commitlog: CommitLog,
        topics: TopicTable,
        transactions: TransactionTracker,
        clock: Callable[[], int],
        io_bytes_per_second: int | None = None,
        duty_cycle: float = 1.0,
    ) -> None:
        self._health = health
        self._layout = layout
        self._partitions = partitions
        self._commitlog = commitlog
        self._topics = topics
        self._transactions = transactions
        self._clock = clock
        self._io_bytes_per_second = io_bytes_per_second
        self._duty_cycle = duty_cycle
        self._executor: ThreadPoolExecutor | None = None
        self._in_flight: Future[_Written] | None = None
        self._refused: set[PartitionKey] = set()  # partitions whose pass met a batch that does not decode

    def set_io_budget(self, io_bytes_per_second: int | None) -> None:
        """Change the I/O budget (``log.cleaner.io.max.bytes.per.second`` as a dynamic broker config); a pass in
        progress keeps the budget it started with, the next one takes this."""
        self._io_bytes_per_second = io_bytes_per_second

    @guarded
    def run(self) -> tuple[CleanReport, ...]:
        """Publish the pass that finished, if any, and start the next partition that wants cleaning."""
        if self._in_flight is not None and not self._in_flight.done():
            return ()
        reports = self._finish_in_flight()
        plan = self._next_plan()
        if plan is not None:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="rockafka-cleaner")
            self._in_flight = self._executor.submit(self._execute, plan)
        return reports

    def _finish_in_flight(self) -> tuple[CleanReport, ...]:
        """Wait for the pass in flight, if any, and publish it. A pass that failed is dropped, logged once."""
        future, self._in_flight = self._in_flight, None
        if future is None:
            return ()
        try:
            written = future.result()
        except CompactionError as exc:
            log.warning("compaction pass dropped: %s", exc)
            return ()
        report = self._publish(written)
        return () if report is None else (report,)

    @guarded
    def clean(self, topic: str, partition: int) -> CleanReport | None:
        """One whole pass over the partition now, whatever its dirty ratio (after publishing the background pass
        in flight, if any); None when nothing is cleanable."""
        self._finish_in_flight()
        settings = self._topics.settings(topic)
        plan = self._plan(topic, partition, settings.compaction, force=True)
        return None if plan is None else self._publish(self._execute(plan))

    def _next_plan(self) -> _Plan | None:
        for topic in self._topics.all():
            settings = self._topics.settings(topic.name)
            if not settings.cleanup_compact:
                continue
            for partition in range(topic.partitions):
                try:
                    plan = self._plan(topic.name, partition, settings.compaction, force=False)
                except CompactionError as exc:  # a damaged batch: the others' passes go on
                    if (topic.topic_id.bytes, partition) not in self._refused:
                        log.warning("not compacting %s-%d: %s", topic.name, partition, exc)
                    self._refused.add((topic.topic_id.bytes, partition))
                    continue
                if plan is not None:
                    return plan
        return None

    def _plan(self, topic: str, partition: int, rules: CompactionRules, *, force: bool) -> _Plan | None:
        _, key, queue = self._partitions.get(topic, partition)
        compacted = self._partitions.compacted.get(key)
        log_start = self._partitions.log_start(key, queue)
        dirty_from = max(log_start, compacted.end_offset if compacted is not None else 0)
        now = self._clock()
        first = max(queue.index_of_offset(dirty_from), queue.first_index)
        units = [queue.unit(index) for index in range(first, min(queue.end_index, first + MAX_BATCHES_PER_PASS))]
        units = [unit for unit in units if unit.next_offset > dirty_from]
        summaries = [UnitSummary(u.base_offset, u.next_offset, u.size, u.max_timestamp) for u in units]
        first_unstable = self._transactions.first_unstable(key)
        last_stable = queue.next_offset if first_unstable is None else first_unstable
        end = max(cleanable_end(summaries, last_stable=last_stable, now_ms=now, rules=rules), dirty_from)
        dirty = [unit for unit in units if unit.base_offset < end]
        horizon = compacted.earliest_horizon if compacted is not None else None
        horizon_due = horizon is not None and now >= horizon
        clean_bytes = compacted.size if compacted is not None else 0
        if not (dirty or horizon_due):
            return None
        if not (force or horizon_due or worth_cleaning(summaries[: len(dirty)], clean_bytes, now_ms=now, rules=rules)):
            return None
        end = max([end, *(unit.next_offset for unit in dirty)])
        sources = [] if compacted is None else [SourceBatch.of(b) for b in compacted.batches()]
        sources = [source for source in sources if source.header.next_offset > log_start]
        for unit in dirty:
            view = self._commitlog.checked_batch_view(
                unit.physical_offset, unit.size, queue.topic_id, partition, unit.base_offset, unit.record_count
            )
            if view is None:
                raise CompactionError(f"{topic}-{partition}: the batch at offset {unit.base_offset} is unreadable")
            sources.append(SourceBatch.of(view))
        aborted = self._transactions.aborted(key, log_start, end)
        return _Plan(
            key, topic, partition, CompactedLogFiles(self._layout.compacted_log(*key)),
            (compacted.manifest.generation + 1) if compacted is not None else 1, log_start, end, sources, rules, now,
            frozenset((a.producer_id, a.first_offset) for a in aborted),
        )  # fmt: skip

    def _execute(self, plan: _Plan) -> _Written:
        """Decide and write the new generation (any thread: it touches only the plan and its own new file)."""
        started = time.monotonic()
        pacer = _Pacer(self._duty_cycle)
        result = clean(
            plan.sources, rules=plan.rules, now_ms=plan.now_ms, aborted_starts=plan.aborted_starts, pause=pacer
        )
        batches = list(result.batches)
        _, size = plan.files.write_generation(plan.generation, batches)
        budget = self._io_bytes_per_second
        if budget:
            spent = time.monotonic() - started
            wanted = (plan.bytes_in + size) / budget
            if wanted > spent:
                time.sleep(wanted - spent)
        return _Written(plan, size, result.records_in, result.records_kept)

    def _publish(self, written: _Written) -> CleanReport | None:
        plan = written.plan
        if plan.key not in self._partitions.queues:  # deleted meanwhile; its directory went with it
            plan.files.delete()
            return None
        manifest = Manifest(plan.generation, plan.start_offset, plan.end_offset, written.size)
        log = plan.files.publish(manifest)
        previous = self._partitions.compacted.get(plan.key)
        self._partitions.compacted[plan.key] = log
        if previous is not None:
            previous.close()
        return CleanReport(
            plan.topic, plan.partition, plan.start_offset, plan.end_offset, plan.bytes_in, written.size,
            written.records_in, written.records_kept,
        )  # fmt: skip

    def close(self) -> None:
        """Wait for a pass in flight to finish writing (its file is an orphan until a later pass publishes)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self._in_flight = None
