"""The transaction tracker: per partition, the open transactions, the aborted ranges and the markers' epochs.

It learns everything from the batches the queue builder stores, on the appending thread (and from the same
dispatch during recovery): a transactional batch (attributes bit 4) of a producer with no open transaction on
the partition opens one at its base offset; a control batch (bit 5) holding a marker (``control.py``) ends the
producer's transaction there, and an ABORT of an open transaction adds the aborted range [its first offset, the
marker's offset]. A marker for a producer with no open transaction ends nothing (Kafka writes such markers;
no records are aborted, so no range is added). Each change is one frame of ``txnlog.py``, written before the
record is published; batches below the log's ``applied_below`` were learnt before and are skipped, so
re-dispatching the CommitLog tail after a restart or a crash rebuilds exactly the state of the records that
survived.

Queries (all by partition key (topic id bytes, partition)):

- ``first_unstable``: the first offset of the oldest open transaction (``Records`` clamps it to the log start
  offset and the high watermark to make the last stable offset);
- ``aborted``: the aborted ranges overlapping [start, end), found by a binary search on the ranges' last
  offsets (kept sorted) and a scan bounded by the longest range seen;
- ``open_transactions`` and ``coordinator_epochs`` (each producer's last marker's coordinator epoch).

Retention drops aborted ranges that end below the log start offset (``prune``); a deleted topic's state goes
with ``forget_topic``. Neither writes a frame: a reload prunes again from the recovered partitions' bounds.

``Transactions`` is the broker's view (``store.transactions``): the same queries by topic name and partition.

Threads: the tracker is fed on the appending thread (the event loop), and queried on it; the flusher only
fsyncs its log (``TransactionLog``, through ``SyncedLogs``).
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rockafka.core_pyx.recordbatch import CONTROL_BIT, TRANSACTIONAL_BIT

from .commitlog import CommitLog, SegmentEnd, StoredBatch
from .control import read_marker
from .health import StoreHealth, guarded
from .partitions import Partitions
from .results import AbortedTransaction, OpenTransaction
from .txnlog import Begin, End, Event, TransactionLog

log = logging.getLogger("rockafka.store")

PartitionKey = tuple[bytes, int]


@dataclass(frozen=True, slots=True)
class _Open:
    transaction: OpenTransaction
    physical: int


@dataclass(frozen=True, slots=True)
class _Aborted:
    last_offset: int
    first_offset: int
    producer_id: int
    physical: int


@dataclass(slots=True)
class _PartitionTransactions:
    open: dict[int, _Open] = field(default_factory=dict)
    aborted: list[_Aborted] = field(default_factory=list)  # sorted by last_offset
    lasts: list[int] = field(default_factory=list)  # the aborted ranges' last offsets, for bisect
    longest: int = 0  # the largest last_offset - first_offset among the aborted ranges
    epochs: dict[int, tuple[int, int]] = field(default_factory=dict)  # producer id -> (coordinator epoch, physical)

    def add_aborted(self, entry: _Aborted) -> None:
        at = bisect.bisect_right(self.lasts, entry.last_offset)
        self.lasts.insert(at, entry.last_offset)
        self.aborted.insert(at, entry)
        self.longest = max(self.longest, entry.last_offset - entry.first_offset)

    def prune(self, log_start: int) -> None:
        cut = bisect.bisect_left(self.lasts, log_start)
        if cut:
            del self.lasts[:cut], self.aborted[:cut]


class TransactionTracker:
    def __init__(self, log: TransactionLog, commitlog: CommitLog) -> None:
        self._log = log
        self._commitlog = commitlog
        self._partitions: dict[PartitionKey, _PartitionTransactions] = {}
        self._applied_below = 0

    # --- load and recovery ---

    @property
    def log(self) -> TransactionLog:
        """The frames' file (the flusher fsyncs it)."""
        return self._log

    def load(self) -> None:
        """Read the log (before recovery re-dispatches the CommitLog tail). After damage in the log (``txnlog.py``)
        keep the events before it and learn the rest again from the CommitLog when it still holds them, else keep
        every valid event; then rewrite the log."""
        loaded = self._log.load()
        relearn = loaded.prefix_complete and self._commitlog.min_offset <= loaded.prefix_applied_below
        events, self._applied_below = (
            (loaded.prefix, loaded.prefix_applied_below) if relearn else (loaded.events, loaded.applied_below)
        )
        for event in events:
            self._apply(event)
        if loaded.damaged:
            self._log.rewrite(events, self._applied_below)
        if relearn:
            start, learnt = self._applied_below, self._relearn(self._applied_below)
            log.info(
                "transaction log: learnt %d batches again from the CommitLog from physical offset %d", learnt, start
            )

    def _relearn(self, start: int) -> int:
        """Observe every transactional batch of the CommitLog from ``start`` to the first invalid record."""
        segment = next((s for s in self._commitlog.segments() if s.start <= start < s.end), None)
        offset, learnt = (segment.start if segment is not None else start), 0
        while True:
            records, outcome = self._commitlog.parse_many(offset, verify_from=offset, limit=4096)
            for record in records:
                if record.attributes & TRANSACTIONAL_BIT and record.physical_offset >= start:
                    self.observe(record)
                    learnt += 1
                offset = record.end
            if isinstance(outcome, SegmentEnd):
                offset = outcome.next_offset
            elif outcome is not None:
                return learnt

    def recovered(self, end: int, bounds: Mapping[PartitionKey, tuple[int, int]]) -> None:
        """After recovery cut the CommitLog at ``end``: forget what records past it taught, keep only the
        partitions of ``bounds`` (key -> (log start offset, next offset)) and what lies inside their bounds."""
        if self._applied_below > end:
            events = self._log.load().events
            self._partitions.clear()
            for event in events:
                if event.physical < end:
                    self._apply(event)
            self._applied_below = end
            self._log.rewrite(self._state_events(), end)
        for key in [key for key in self._partitions if key not in bounds]:
            del self._partitions[key]
        for key, state in self._partitions.items():
            log_start, next_offset = bounds[key]
            state.prune(log_start)
            for producer_id in [p for p, o in state.open.items() if o.transaction.first_offset >= next_offset]:
                del state.open[producer_id]
        if self._log.wants_compaction:
            self.compact()

    # --- learning from stored batches (the queue builder, on the appending thread) ---

    def observe(self, batch: StoredBatch) -> None:
        """A transactional batch was stored (its ConsumeQueue unit written)."""
        if batch.physical_offset < self._applied_below:
            return
        key = (batch.topic_id, batch.partition)
        state = self._partitions.get(key)
        if batch.attributes & CONTROL_BIT:
            view = self._commitlog.batch_view(batch.physical_offset, batch.size)
            marker = None if view is None else read_marker(view)
            if marker is None:
                return
            current = state.open.get(batch.producer_id) if state is not None else None
            first = current.transaction.first_offset if current is not None else -1
            self._record(End(
                batch.topic_id, batch.partition, batch.producer_id, batch.producer_epoch, marker.commit,
                marker.coordinator_epoch, first, batch.base_offset, batch.physical_offset,
            ))  # fmt: skip
        elif batch.producer_id >= 0 and (state is None or batch.producer_id not in state.open):
            self._record(Begin(
                batch.topic_id, batch.partition, batch.producer_id, batch.producer_epoch, batch.base_offset,
                batch.physical_offset,
            ))  # fmt: skip

    def _record(self, event: Event) -> None:
        self._apply(event)
        self._log.append(event)
        self._applied_below = event.physical + 1
        if self._log.wants_compaction:
            self.compact()

    def _apply(self, event: Event) -> None:
        state = self._partitions.setdefault((event.topic_id, event.partition), _PartitionTransactions())
        if isinstance(event, Begin):
            transaction = OpenTransaction(event.producer_id, event.producer_epoch, event.first_offset)
            state.open[event.producer_id] = _Open(transaction, event.physical)
            return
        state.open.pop(event.producer_id, None)
        state.epochs[event.producer_id] = (event.coordinator_epoch, event.physical)
        if not event.commit and event.first_offset >= 0:
            state.add_aborted(_Aborted(event.marker_offset, event.first_offset, event.producer_id, event.physical))

    # --- compaction ---

    def compact(self) -> None:
        self._log.rewrite(self._state_events(), self._applied_below)

    def _state_events(self) -> Iterator[Event]:
        """Frames that rebuild the current state: the aborted ranges, the last coordinator epochs, the open ones."""
        for (topic_id, partition), state in self._partitions.items():
            for a in state.aborted:
                yield End(topic_id, partition, a.producer_id, -1, False, -1, a.first_offset, a.last_offset, a.physical)
            for producer_id, (epoch, physical) in state.epochs.items():
                yield End(topic_id, partition, producer_id, -1, True, epoch, -1, -1, physical)
            for o in state.open.values():
                t = o.transaction
                yield Begin(topic_id, partition, t.producer_id, t.producer_epoch, t.first_offset, o.physical)

    # --- queries ---

    def first_unstable(self, key: PartitionKey) -> int | None:
        """The first offset of the partition's oldest open transaction; None when none is open."""
        state = self._partitions.get(key)
        if state is None or not state.open:
            return None
        return min(o.transaction.first_offset for o in state.open.values())

    def open_transactions(self, key: PartitionKey) -> tuple[OpenTransaction, ...]:
        state = self._partitions.get(key)
        if state is None:
            return ()
        return tuple(sorted((o.transaction for o in state.open.values()), key=lambda t: t.first_offset))

    def aborted(self, key: PartitionKey, start: int, end: int) -> tuple[AbortedTransaction, ...]:
        """The aborted ranges overlapping [start, end), in the order of their markers."""
        return tuple(AbortedTransaction(pid, first) for pid, first, _ in self.aborted_ranges(key, start, end))

    def aborted_ranges(self, key: PartitionKey, start: int, end: int) -> tuple[tuple[int, int, int], ...]:
        """(producer id, first offset, ABORT marker offset) of the aborted ranges overlapping [start, end), in the
        order of their markers."""
        state = self._partitions.get(key)
        if state is None or start >= end:
            return ()
        found: list[tuple[int, int, int]] = []
        stop = end + state.longest  # a range ending at or past this starts at or past ``end``
        for index in range(bisect.bisect_left(state.lasts, start), len(state.aborted)):
            entry = state.aborted[index]
            if entry.last_offset >= stop:
                break
            if entry.first_offset < end:
                found.append((entry.producer_id, entry.first_offset, entry.last_offset))
        return tuple(found)

    def coordinator_epochs(self, key: PartitionKey) -> dict[int, int]:
        state = self._partitions.get(key)
        return {} if state is None else {pid: epoch for pid, (epoch, _) in state.epochs.items()}

    # --- retention and topic deletion ---

    def prune(self, key: PartitionKey, log_start: int) -> None:
        """Drop the aborted ranges that end below ``log_start``."""
        state = self._partitions.get(key)
        if state is not None:
            state.prune(log_start)

    def forget_topic(self, topic_id: bytes) -> None:
        for key in [key for key in self._partitions if key[0] == topic_id]:
            del self._partitions[key]

    def close(self) -> None:
        self._log.close()


class Transactions:
    """The partitions' transactions as the broker asks for them (by topic name); the records say what is open."""

    def __init__(self, health: StoreHealth, partitions: Partitions, tracker: TransactionTracker) -> None:
        self._health = health
        self._partitions = partitions
        self._tracker = tracker

    @guarded
    def aborted(self, topic: str, partition: int, start_offset: int, end_offset: int) -> tuple[AbortedTransaction, ...]:
        """The aborted transactions whose records overlap [start_offset, end_offset), in marker order."""
        _, key, _ = self._partitions.get(topic, partition)
        return self._tracker.aborted(key, start_offset, end_offset)

    @guarded
    def open(self, topic: str, partition: int) -> tuple[OpenTransaction, ...]:
        """The partition's open transactions, oldest first."""
        _, key, _ = self._partitions.get(topic, partition)
        return self._tracker.open_transactions(key)

    @guarded
    def coordinator_epochs(self, topic: str, partition: int) -> dict[int, int]:
        """Producer id -> the coordinator epoch of its last marker on the partition (DescribeProducers)."""
        _, key, _ = self._partitions.get(topic, partition)
        return self._tracker.coordinator_epochs(key)
