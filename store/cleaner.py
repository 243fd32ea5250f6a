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

``run`` (called by the broker every ``log.cleaner.backoff.ms``) publishes a finished pass and plans the next one in
steps of ``PLAN_STEP_BATCHES`` batches, returning between steps (``planning``: the broker calls again at the event
loop's next turn, so requests are served between steps); the plan made, its pass starts. At most one pass is in
flight, so the cleaner costs the broker one thread and one partition's offset map at a time. A
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
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from .commitlog import CommitLog
from .compactedlog import CompactedLogFiles, Manifest
from .compaction import (
    DEFAULT_DEDUPE_BUFFER_BYTES,
    CompactionError,
    CompactionRules,
    SourceBatch,
    UnitSummary,
    clean,
    cleanable_end,
)
from .compaction import wants_cleaning as worth_cleaning
from .health import StoreHealth, guarded
from .layout import StoreLayout
from .partitions import PartitionKey, Partitions
from .results import CleanReport
from .topics import TopicTable
from .transactions import TransactionTracker

log = logging.getLogger(__name__)

#: A pass takes at most this many new batches; more go next time.
MAX_BATCHES_PER_PASS: Final = 20_000
#: Planning (on the loop thread) reads this many batches per step: ``run`` returns between steps.
PLAN_STEP_BATCHES: Final = 1_000


def _made(steps: Generator[None, None, _Plan | None]) -> _Plan | None:
    """A plan made in one go (``clean``): every step at once."""
    while True:
        try:
            next(steps)
        except StopIteration as made:
            plan: _Plan | None = made.value
            return plan


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
    dirty_from: int
    end_offset: int
    sources: list[SourceBatch]
    rules: CompactionRules
    now_ms: int
    aborted_ranges: frozenset[tuple[int, int, int]]

    @property
    def bytes_in(self) -> int:
        return sum(source.header.size for source in self.sources)


@dataclass(frozen=True, slots=True)
class _Written:
    plan: _Plan
    end_offset: int  # the plan's, or where the pass stopped when its offset map filled up
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
        dedupe_buffer_bytes: int = DEFAULT_DEDUPE_BUFFER_BYTES,
        threads: int = 1,
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
        self._dedupe_buffer_bytes = dedupe_buffer_bytes
        self._threads = max(1, threads)
        self._executor: ThreadPoolExecutor | None = None
        self._in_flight: dict[PartitionKey, Future[_Written]] = {}  # at most ``threads`` passes, one per partition
        self._planning: Generator[None, None, _Plan | None] | None = None  # a plan half made, run by ``run``
        self._refused: set[PartitionKey] = set()  # partitions whose pass met a batch that does not decode

    @property
    def planning(self) -> bool:
        """Whether a plan is half made: ``run`` wants to be called again at the event loop's next turn."""
        return self._planning is not None

    @property
    def passes_in_flight(self) -> int:
        """Passes running on the cleaner threads (at most ``log.cleaner.threads``, each on its own partition)."""
        return len(self._in_flight)

    def wait_for_passes(self, timeout_s: float) -> None:
        """Block until every pass in flight has written its generation (``run`` then publishes them)."""
        for future in list(self._in_flight.values()):
            future.exception(timeout=timeout_s)

    def set_io_budget(self, io_bytes_per_second: int | None) -> None:
        """Change the I/O budget (``log.cleaner.io.max.bytes.per.second`` as a dynamic broker config); a pass in
        progress keeps the budget it started with, the next one takes this."""
        self._io_bytes_per_second = io_bytes_per_second

    def set_threads(self, threads: int) -> None:
        """Change how many passes may run at once (``log.cleaner.threads`` as a dynamic broker config): passes in
        progress finish on the threads they run on; the next ones start on a pool of the new size."""
        threads = max(1, threads)
        if threads != self._threads and self._executor is not None:
            self._executor.shutdown(wait=False)  # its running passes finish; their futures stay in ``_in_flight``
            self._executor = None
        self._threads = threads

    @guarded
    def run(self) -> tuple[CleanReport, ...]:
        """Publish the passes that finished, and, while fewer than ``threads`` run, plan the next partition that
        wants cleaning, one step (``PLAN_STEP_BATCHES`` batches) per call: ``planning`` says whether to call
        again; the plan made, its pass starts on a cleaner thread. Each pass gets ``1/threads`` of the I/O budget
        and of the duty cycle, so the broker-wide bounds hold whatever the thread count."""
        reports = self._finish(wait=False)
        if len(self._in_flight) >= self._threads:
            return reports
        if self._planning is None:
            self._planning = self._next_plan()
        try:
            next(self._planning)
            return reports
        except StopIteration as made:
            self._planning = None
            plan: _Plan | None = made.value
        except BaseException:
            self._planning = None
            raise
        if plan is not None:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self._threads, thread_name_prefix="rockafka-cleaner")
            self._in_flight[plan.key] = self._executor.submit(self._execute, plan)
        return reports

    def _finish(self, *, wait: bool) -> tuple[CleanReport, ...]:
        """Publish the passes that finished (all of them, waiting, if ``wait``). A pass that failed is dropped,
        logged once."""
        reports = []
        for key, future in list(self._in_flight.items()):
            if not wait and not future.done():
                continue
            del self._in_flight[key]
            try:
                written = future.result()
            except CompactionError as exc:
                log.warning("compaction pass dropped: %s", exc)
                continue
            report = self._publish(written)
            if report is not None:
                reports.append(report)
        return tuple(reports)

    @guarded
    def clean(self, topic: str, partition: int) -> CleanReport | None:
        """One whole pass over the partition now, whatever its dirty ratio (after publishing the background pass
        in flight, if any, and dropping a plan half made); None when nothing is cleanable."""
        self._drop_planning()
        self._finish(wait=True)
        plan = self._plan_now(topic, partition)
        return None if plan is None else self._publish(self._execute(plan))

    def _plan_now(self, topic: str, partition: int) -> _Plan | None:
        """The partition's pass planned in one go, whatever its dirty ratio."""
        return _made(self._plan(topic, partition, self._topics.settings(topic).compaction, force=True))

    def _drop_planning(self) -> None:
        if self._planning is not None:
            self._planning.close()
            self._planning = None

    def _next_plan(self) -> Generator[None, None, _Plan | None]:
        for topic in self._topics.all():
            settings = self._topics.settings(topic.name)
            if not settings.cleanup_compact:
                continue
            for partition in range(topic.partitions):
                if (topic.topic_id.bytes, partition) in self._in_flight:
                    continue  # its pass runs on another thread
                try:
                    plan = yield from self._plan(topic.name, partition, settings.compaction, force=False)
                except CompactionError as exc:  # a damaged batch: the others' passes go on
                    if (topic.topic_id.bytes, partition) not in self._refused:
                        log.warning("not compacting %s-%d: %s", topic.name, partition, exc)
                    self._refused.add((topic.topic_id.bytes, partition))
                    continue
                if plan is not None:
                    return plan
        return None

    def _plan(
        self, topic: str, partition: int, rules: CompactionRules, *, force: bool
    ) -> Generator[None, None, _Plan | None]:
        """The partition's next pass, or None; it yields every ``PLAN_STEP_BATCHES`` batches it reads, for the
        event loop to serve requests meanwhile (appends past the plan's range change nothing it read; a file that
        retention or a topic deletion took meanwhile ends the plan, which is made again next time)."""
        _, key, queue = self._partitions.get(topic, partition)
        compacted = self._partitions.compacted.get(key)
        log_start = self._partitions.log_start(key, queue)
        dirty_from = max(log_start, compacted.end_offset if compacted is not None else 0)
        now = self._clock()
        first = max(queue.index_of_offset(dirty_from), queue.first_index)
        units = []
        try:
            for index in range(first, min(queue.end_index, first + MAX_BATCHES_PER_PASS)):
                units.append(queue.unit(index))
                if len(units) % PLAN_STEP_BATCHES == 0:
                    yield
        except (IndexError, ValueError) as exc:
            raise CompactionError(f"{topic}-{partition}: a ConsumeQueue file went while planning ({exc})") from exc
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
        sources: list[SourceBatch] = []
        for number, batch in enumerate([] if compacted is None else compacted.batches(), 1):
            source = SourceBatch.of(batch)
            if source.header.next_offset > log_start:
                sources.append(source)
            if number % PLAN_STEP_BATCHES == 0:
                yield
        for number, unit in enumerate(dirty, 1):
            view = self._commitlog.checked_batch_view(
                unit.physical_offset, unit.size, queue.topic_id, partition, unit.base_offset, unit.record_count
            )
            if view is None:
                raise CompactionError(f"{topic}-{partition}: the batch at offset {unit.base_offset} is unreadable")
            sources.append(SourceBatch.of(view))
            if number % PLAN_STEP_BATCHES == 0:
                yield
        return _Plan(
            key, topic, partition, CompactedLogFiles(self._layout.compacted_log(*key)),
            (compacted.manifest.generation + 1) if compacted is not None else 1, log_start, dirty_from, end, sources,
            rules, now, frozenset(self._transactions.aborted_ranges(key, log_start, end)),
        )  # fmt: skip

    def _execute(self, plan: _Plan) -> _Written:
        """Decide and write the new generation (any thread: it touches only the plan and its own new file)."""
        started = time.monotonic()
        pacer = _Pacer(self._duty_cycle / self._threads)
        result = clean(
            plan.sources, rules=plan.rules, now_ms=plan.now_ms, aborted_ranges=plan.aborted_ranges,
            dirty_from=plan.dirty_from, dedupe_buffer_bytes=self._dedupe_buffer_bytes, pause=pacer,
        )  # fmt: skip
        batches = list(result.batches)
        _, size = plan.files.write_generation(plan.generation, batches)
        budget = self._io_bytes_per_second
        if budget:
            spent = time.monotonic() - started
            wanted = (plan.bytes_in + size) * self._threads / budget
            if wanted > spent:
                time.sleep(wanted - spent)
        end = plan.end_offset if result.stopped_at is None else result.stopped_at
        return _Written(plan, end, size, result.records_in, result.records_kept)

    def _publish(self, written: _Written) -> CleanReport | None:
        plan = written.plan
        if plan.key not in self._partitions.queues:  # deleted meanwhile; its directory went with it
            plan.files.delete()
            return None
        manifest = Manifest(plan.generation, plan.start_offset, written.end_offset, written.size)
        log = plan.files.publish(manifest)
        previous = self._partitions.compacted.get(plan.key)
        self._partitions.compacted[plan.key] = log
        if previous is not None:
            previous.close()
        return CleanReport(
            plan.topic, plan.partition, plan.start_offset, written.end_offset, plan.bytes_in, written.size,
            written.records_in, written.records_kept,
        )  # fmt: skip

    def close(self) -> None:
        """Wait for the passes in flight to finish writing (their files are orphans until later passes publish)."""
        self._drop_planning()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self._in_flight = {}
