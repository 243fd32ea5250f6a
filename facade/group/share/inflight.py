"""One share-partition's in-flight records (KIP-932): which records of a topic-partition a share group has
handed out, to whom, until when, and how often.

Offsets below the **share-partition start offset** (SPSO, ``start``) are done: acknowledged, archived, or
never to be delivered. Offsets from the **share-partition end offset** (SPEO, ``end``) on have never been
acquired. Between them each record has an entry (:class:`InFlight`) in one of Kafka's states:

- ``AVAILABLE``: to be delivered (again): released, or its lock expired; its delivery count is kept;
- ``ACQUIRED``: delivered to one member, locked until its deadline (``group.share.record.lock.duration.ms``);
- ``ACKNOWLEDGED`` (accepted) and ``ARCHIVED`` (rejected, a gap, or delivered ``group.share.delivery.count.limit``
  times): never delivered again.

An offset in the window without an entry holds no record to deliver (a control batch, or a gap left by
compaction) and counts as done. The start moves up over done offsets; the window holds at most
``max_locks`` offsets (``group.share.partition.max.record.locks``), so a partition stops handing out records
while its oldest are unacknowledged.

Expired locks are found lazily: every operation first returns records whose deadline passed to
``AVAILABLE`` (or ``ARCHIVED`` at the delivery limit), so no timer runs per record. Times are seconds on the
broker's timer clock. This is RocketMQ's POP consumption in Kafka's terms: an acquired range is a POP
checkpoint (start offset, count, invisible time), an acknowledgement its ack bit, the lazy expiry pass its
revive service, and ``start`` the revive offset. Not thread-safe: the broker's event loop owns it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


class RecordState(enum.IntEnum):
    """A record's delivery state, numbered as Kafka's share-group state records number them."""

    AVAILABLE = 0
    ACQUIRED = 1
    ACKNOWLEDGED = 2
    ARCHIVED = 4


class AcknowledgeType(enum.IntEnum):
    """ShareFetch's and ShareAcknowledge's acknowledgement types (v1)."""

    GAP = 0
    ACCEPT = 1
    RELEASE = 2
    REJECT = 3


_DONE = (RecordState.ACKNOWLEDGED, RecordState.ARCHIVED)


class InvalidRecordStateError(Exception):
    """An acknowledgement of records the member does not hold (not acquired, acquired by another member, or
    their lock expired): Kafka's INVALID_RECORD_STATE, nothing of the acknowledgement applied."""


@dataclass(slots=True)
class InFlight:
    state: RecordState
    delivery_count: int
    member_id: str | None = None
    deadline: float = 0.0


@dataclass(frozen=True, slots=True)
class AcquiredRange:
    """Consecutive offsets acquired in one fetch, delivered the same number of times (ShareFetch's
    ``AcquiredRecords``)."""

    first_offset: int
    last_offset: int
    delivery_count: int


@dataclass(frozen=True, slots=True)
class StateRun:
    """Consecutive offsets of one state and delivery count: how the window is saved."""

    first_offset: int
    last_offset: int
    state: RecordState
    delivery_count: int


class SharePartition:
    def __init__(self, start: int, end: int | None = None, runs: Iterable[StateRun] = ()) -> None:
        self.start = start
        self.end = start if end is None else max(start, end)
        self.records: dict[int, InFlight] = {}
        for run in runs:
            for offset in range(max(run.first_offset, start), min(run.last_offset + 1, self.end)):
                self.records[offset] = InFlight(run.state, run.delivery_count)
        self._next_deadline = float("inf")
        self._advance()

    # --- acquisition ---

    def first_available(self, now: float, delivery_limit: int) -> int:
        """The offset a fetch reads from: the first AVAILABLE record in the window, else the end."""
        self.expire(now, delivery_limit)
        for offset in range(self.start, self.end):
            entry = self.records.get(offset)
            if entry is not None and entry.state is RecordState.AVAILABLE:
                return offset
        return self.end

    def acquire(
        self,
        member_id: str,
        batches: Sequence[tuple[int, int]],
        *,
        max_records: int,
        max_locks: int,
        deadline: float,
    ) -> list[AcquiredRange]:
        """Acquire for ``member_id`` the deliverable records among ``batches`` (the (first, last) offsets of the
        data batches a read returned, in order), locked until ``deadline``: whole batches until ``max_records``
        are reached (the last batch may take it past them, as Kafka aligns acquisitions with batches: a client
        then parses each batch once), and never past ``max_locks`` records in the window."""
        acquired: list[AcquiredRange] = []
        count = 0
        ceiling = self.start + max_locks
        for first, last in batches:
            if count >= max_records or first >= ceiling:
                break
            for offset in range(max(first, self.start), min(last + 1, ceiling)):
                entry = self._acquirable(offset)
                if entry is None:
                    continue
                entry.state, entry.member_id, entry.deadline = RecordState.ACQUIRED, member_id, deadline
                entry.delivery_count += 1
                count += 1
                _extend(acquired, offset, entry.delivery_count)
        if acquired:
            self._next_deadline = min(self._next_deadline, deadline)
        return acquired

    def _acquirable(self, offset: int) -> InFlight | None:
        if offset >= self.end:
            self.end = offset + 1
            fresh = self.records[offset] = InFlight(RecordState.AVAILABLE, 0)
            return fresh
        entry = self.records.get(offset)
        return entry if entry is not None and entry.state is RecordState.AVAILABLE else None

    def skip_to(self, offset: int) -> None:
        """Nothing below ``offset`` is delivered any more (the log's start moved past it, or the partition was
        first read from there)."""
        if offset <= self.start:
            return
        for old in [o for o in self.records if o < offset]:
            del self.records[old]
        self.start = offset
        self.end = max(self.end, offset)

    # --- acknowledgement and expiry ---

    def acknowledge(
        self, member_id: str, first: int, last: int, types: Sequence[int], now: float, delivery_limit: int
    ) -> bool:
        """Apply one acknowledgement batch: ``types`` holds one type for the whole range or one per offset.
        Raises :class:`InvalidRecordStateError` (nothing applied) unless the member holds every record of the
        range that has one; False when nothing changed."""
        if last < first or len(types) not in (1, last - first + 1) or any(t not in _TYPES for t in types):
            raise InvalidRecordStateError(f"a malformed acknowledgement of offsets {first}-{last}")
        self.expire(now, delivery_limit)
        if first < self.start or last >= self.end:
            raise InvalidRecordStateError(f"offsets {first}-{last} are not all in flight ({self.start}-{self.end - 1})")
        held = []
        for offset in range(first, last + 1):
            entry = self.records.get(offset)
            if entry is None:  # no record there (a control batch, a compacted gap)
                continue
            if entry.state is not RecordState.ACQUIRED or entry.member_id != member_id:
                raise InvalidRecordStateError(f"offset {offset} is not acquired by this member")
            held.append((offset, entry))
        for offset, entry in held:
            kind = AcknowledgeType(types[0] if len(types) == 1 else types[offset - first])
            self._settle(entry, kind, delivery_limit)
        self._advance()
        return bool(held)

    def release_member(self, member_id: str, delivery_limit: int) -> bool:
        """Return every record ``member_id`` holds (it left, or closed its share session); True if any."""
        held = [e for e in self.records.values() if e.state is RecordState.ACQUIRED and e.member_id == member_id]
        for entry in held:
            self._settle(entry, AcknowledgeType.RELEASE, delivery_limit)
        self._advance()
        return bool(held)

    def expire(self, now: float, delivery_limit: int) -> bool:
        """Return the records whose lock passed its deadline; True if any."""
        if now < self._next_deadline:
            return False
        expired = False
        next_deadline = float("inf")
        for entry in self.records.values():
            if entry.state is not RecordState.ACQUIRED:
                continue
            if entry.deadline <= now:
                self._settle(entry, AcknowledgeType.RELEASE, delivery_limit)
                expired = True
            else:
                next_deadline = min(next_deadline, entry.deadline)
        self._next_deadline = next_deadline
        self._advance()
        return expired

    @property
    def next_deadline(self) -> float:
        """The earliest lock deadline (infinity without acquired records)."""
        return self._next_deadline

    @staticmethod
    def _settle(entry: InFlight, kind: AcknowledgeType, delivery_limit: int) -> None:
        if kind is AcknowledgeType.ACCEPT:
            entry.state = RecordState.ACKNOWLEDGED
        elif kind is AcknowledgeType.RELEASE and entry.delivery_count < delivery_limit:
            entry.state = RecordState.AVAILABLE
        else:
            entry.state = RecordState.ARCHIVED
        entry.member_id = None

    def _advance(self) -> None:
        while self.start < self.end:
            entry = self.records.get(self.start)
            if entry is not None and entry.state not in _DONE:
                return
            self.records.pop(self.start, None)
            self.start += 1

    # --- what is saved ---

    def runs(self) -> Iterator[StateRun]:
        """The window as runs of one state and delivery count; an acquired record is saved AVAILABLE (a restart
        drops the locks: such records are delivered again, their delivery counts kept)."""
        run: StateRun | None = None
        for offset in sorted(self.records):
            entry = self.records[offset]
            state = RecordState.AVAILABLE if entry.state is RecordState.ACQUIRED else entry.state
            if (
                run is not None
                and run.last_offset + 1 == offset
                and (run.state, run.delivery_count)
                == (
                    state,
                    entry.delivery_count,
                )
            ):
                run = StateRun(run.first_offset, offset, state, entry.delivery_count)
                continue
            if run is not None:
                yield run
            run = StateRun(offset, offset, state, entry.delivery_count)
        if run is not None:
            yield run

    def acquired_by(self, member_id: str) -> int:
        return sum(1 for e in self.records.values() if e.state is RecordState.ACQUIRED and e.member_id == member_id)


_TYPES = frozenset(int(t) for t in AcknowledgeType)


def _extend(acquired: list[AcquiredRange], offset: int, delivery_count: int) -> None:
    if acquired:
        tail = acquired[-1]
        if tail.last_offset + 1 == offset and tail.delivery_count == delivery_count:
            acquired[-1] = AcquiredRange(tail.first_offset, offset, delivery_count)
            return
    acquired.append(AcquiredRange(offset, offset, delivery_count))
