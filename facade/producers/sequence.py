"""Idempotence on one partition: what a producer's next batch may be, given what it wrote before.

Per (partition, producer id) the broker keeps a ``ProducerEntry``: the producer's epoch, the last
``BATCHES_KEPT`` (5) batches it wrote in that epoch as (first sequence, last sequence, base offset, last
offset), and the largest batch timestamp (for expiry after ``producer.id.expiration.ms``). A batch is
checked only when its producer id is >= 0: aiokafka and kafkajs send sequence 0 with producer id -1.

The rules, tried in this order (``RULES``; the first that answers decides, none answering means append),
as Kafka's ``ProducerAppendInfo`` and ``ProducerStateEntry`` apply them to client appends:

=====================  ==================================================  =================================
rule                   when                                                verdict
=====================  ==================================================  =================================
``no_sequence``        the base sequence is negative                       INVALID_RECORD
``duplicate``          same epoch, and a kept batch has the same first     ``Duplicate``: success with the
                       and last sequence                                   original offsets, not written
``stale_epoch``        the epoch is below the producer's                   INVALID_PRODUCER_EPOCH
``new_epoch``          the epoch is above the producer's and the first     OUT_OF_ORDER_SEQUENCE_NUMBER
                       sequence is not 0
``out_of_order``       same epoch, and the first sequence is not the       OUT_OF_ORDER_SEQUENCE_NUMBER
                       last one + 1 (0 after Int32.MAX: sequences wrap)
=====================  ==================================================  =================================

A transaction marker of the producer (``end_transaction``: written, copied or replayed) moves its entry to the
marker's epoch, as Kafka's ``appendEndTxnMarker`` does: an epoch above the entry's (the coordinator fenced the
producer, or aborted its timed-out transaction) starts the entry over with no batch, so the next batch must have
sequence 0 and the old epoch's batches (a zombie's) are refused INVALID_PRODUCER_EPOCH; the same epoch keeps them
(sequences go on across a producer's transactions); a lower one changes nothing.

A producer with no entry on the partition (new there, or its state expired) is accepted at any sequence:
Kafka 2.5+ (KIP-360) does so, and its older UNKNOWN_PRODUCER_ID answer is not given. Kafka answers
INVALID_PRODUCER_EPOCH rather than PRODUCER_FENCED on Produce since 2.7, for transactional producers too.
A batch's last sequence is its first plus its record count minus 1, wrapped past Int32.MAX to 0.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode

INT32_MAX: Final = 2**31 - 1
BATCHES_KEPT: Final = 5


def last_sequence(first_sequence: int, record_count: int) -> int:
    """The sequence of a batch's last record: sequences wrap from Int32.MAX to 0."""
    increment = record_count - 1
    if first_sequence > INT32_MAX - increment:
        return increment - (INT32_MAX - first_sequence) - 1
    return first_sequence + increment


def in_sequence(last: int, following: int) -> bool:
    return following == last + 1 or (following == 0 and last == INT32_MAX)


@dataclass(frozen=True, slots=True)
class IncomingBatch:
    """What a produced (or stored) batch's header says about its producer."""

    producer_id: int
    epoch: int
    first_sequence: int
    record_count: int
    max_timestamp: int

    @property
    def last_sequence(self) -> int:
        return last_sequence(self.first_sequence, self.record_count)


@dataclass(frozen=True, slots=True)
class BatchMetadata:
    first_sequence: int
    last_sequence: int
    base_offset: int
    last_offset: int


@dataclass(slots=True)
class ProducerEntry:
    """One producer on one partition: its epoch and its last batches in that epoch, oldest first."""

    epoch: int
    last_timestamp: int
    batches: deque[BatchMetadata] = field(default_factory=lambda: deque(maxlen=BATCHES_KEPT))

    @property
    def last_sequence(self) -> int:
        """The last sequence written in this epoch; -1 before any (after a marker's new epoch: 0 comes next)."""
        return self.batches[-1].last_sequence if self.batches else -1

    def find(self, first_sequence: int, last_sequence: int) -> BatchMetadata | None:
        for kept in self.batches:
            if kept.first_sequence == first_sequence and kept.last_sequence == last_sequence:
                return kept
        return None


@dataclass(frozen=True, slots=True)
class Accepted:
    """Append the batch."""


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A retry of a batch already written: answer success with its offsets, write nothing."""

    base_offset: int
    last_offset: int


@dataclass(frozen=True, slots=True)
class Refused:
    error: ErrorCode
    message: str


Verdict = Accepted | Duplicate | Refused
Rule = Callable[[ProducerEntry | None, IncomingBatch], Duplicate | Refused | None]


def _no_sequence(entry: ProducerEntry | None, batch: IncomingBatch) -> Refused | None:
    if batch.first_sequence >= 0:
        return None
    return Refused(ErrorCode.INVALID_RECORD, f"producer {batch.producer_id} sent base sequence {batch.first_sequence}")


def _duplicate(entry: ProducerEntry | None, batch: IncomingBatch) -> Duplicate | None:
    if entry is None or entry.epoch != batch.epoch:
        return None
    kept = entry.find(batch.first_sequence, batch.last_sequence)
    return None if kept is None else Duplicate(kept.base_offset, kept.last_offset)


def _stale_epoch(entry: ProducerEntry | None, batch: IncomingBatch) -> Refused | None:
    if entry is None or batch.epoch >= entry.epoch:
        return None
    return Refused(
        ErrorCode.INVALID_PRODUCER_EPOCH,
        f"producer {batch.producer_id} sent epoch {batch.epoch}, below its epoch {entry.epoch}",
    )


def _new_epoch(entry: ProducerEntry | None, batch: IncomingBatch) -> Refused | None:
    if entry is None or batch.epoch == entry.epoch or batch.first_sequence == 0:
        return None
    return Refused(
        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
        f"producer {batch.producer_id} began epoch {batch.epoch} at sequence {batch.first_sequence}, not 0",
    )


def _out_of_order(entry: ProducerEntry | None, batch: IncomingBatch) -> Refused | None:
    if entry is None or batch.epoch != entry.epoch or in_sequence(entry.last_sequence, batch.first_sequence):
        return None
    return Refused(
        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
        f"producer {batch.producer_id} sent sequence {batch.first_sequence} after {entry.last_sequence}",
    )


RULES: Final[tuple[tuple[str, Rule], ...]] = (
    ("no_sequence", _no_sequence),
    ("duplicate", _duplicate),
    ("stale_epoch", _stale_epoch),
    ("new_epoch", _new_epoch),
    ("out_of_order", _out_of_order),
)


def check(entry: ProducerEntry | None, batch: IncomingBatch) -> Verdict:
    """The verdict on ``batch`` from a producer whose entry on the partition is ``entry`` (None: none kept)."""
    for _, rule in RULES:
        verdict = rule(entry, batch)
        if verdict is not None:
            return verdict
    return Accepted()


def end_transaction(entry: ProducerEntry | None, epoch: int, timestamp: int) -> ProducerEntry | None:
    """The entry after a transaction marker of ``epoch``; None when the marker's epoch is below the entry's."""
    if entry is not None and epoch < entry.epoch:
        return None
    if entry is None or epoch > entry.epoch:
        return ProducerEntry(epoch, timestamp)
    entry.last_timestamp = max(entry.last_timestamp, timestamp)
    return entry


def record(entry: ProducerEntry | None, batch: IncomingBatch, base_offset: int) -> ProducerEntry:
    """The entry after ``batch`` was written at ``base_offset`` (a new entry for a new epoch)."""
    if entry is None or batch.epoch != entry.epoch:
        entry = ProducerEntry(batch.epoch, batch.max_timestamp)
    metadata = BatchMetadata(
        batch.first_sequence, batch.last_sequence, base_offset, base_offset + batch.record_count - 1
    )
    entry.batches.append(metadata)
    entry.last_timestamp = max(entry.last_timestamp, batch.max_timestamp)
    return entry
