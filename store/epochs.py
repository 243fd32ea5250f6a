"""``LeaderEpochs``: the store's leader epochs (``store.epochs``), over the epoch file (``epochfile.py``).

Owns the current epoch, which the writer stamps into every batch it appends (``Writer``: one field of the batch
header it already rewrites), new epochs (``begin``, for a leader elected in a cluster; a single broker stays at
epoch 0), and the answers of OffsetForLeaderEpoch.

A partition's epochs: the epoch file lists where each epoch began in the shared CommitLog; a partition's own
history is Kafka's per-partition leader epoch cache, derived from it through the partition's ConsumeQueue: each
epoch starts at the partition's first batch at or past the epoch's physical start (or at its next offset when
it has none yet), and of epochs that start at the same offset only the newest is kept, as Kafka's cache
replaces an entry when a newer epoch starts at the same offset. So an epoch in which a partition got no batch is
not in its history, except the current one. Below the partition's log start offset (retention, DeleteRecords)
nothing is known: as Kafka's cache is truncated from the start, the epochs that began at or below it give way to
the newest of them, starting at the log start (``from_log_start``).

``end_offset``, what OffsetForLeaderEpoch answers (Kafka's ``LeaderEpochFileCache.endOffsetFor``): for the
current epoch, the partition's log end offset; for an older epoch *e*, the start offset of the first epoch
newer than *e* in the partition's history, with the newest epoch at or below *e* (or *e* itself when none is
that old); for an epoch newer than every known one, or -1, the undefined answer (-1, -1).

``epoch_of_offset``, what ListOffsets answers with an offset (Kafka's ``epochForOffset``): the newest epoch of
the partition's history that starts at or below it.

Threads: the broker loop thread.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .commitlog import CommitLog
from .consumequeue import ConsumeQueue
from .epochfile import NO_EPOCH, EpochEntry, EpochFile, EpochOrderError
from .health import StoreHealth, guarded
from .partitions import Partitions

#: Kafka's UNDEFINED_EPOCH_OFFSET.
NO_OFFSET: Final = -1


@dataclass(frozen=True, slots=True)
class EpochEndOffset:
    """Where epoch ``epoch`` of a partition ends: ``end_offset``, the first offset not written in it."""

    epoch: int
    end_offset: int


UNDEFINED: Final = EpochEndOffset(NO_EPOCH, NO_OFFSET)


def end_offset_for(history: Sequence[tuple[int, int]], requested: int, log_end: int) -> EpochEndOffset:
    """The end of epoch ``requested`` in a partition's ``history`` of (epoch, start offset), oldest first, whose
    log ends at ``log_end`` (see the module docstring)."""
    if requested == NO_EPOCH or not history:
        return UNDEFINED
    if requested == history[-1][0]:
        return EpochEndOffset(requested, log_end)
    higher = bisect.bisect_right([epoch for epoch, _ in history], requested)
    if higher == len(history):
        return UNDEFINED
    if higher == 0:
        return EpochEndOffset(requested, history[0][1])
    return EpochEndOffset(history[higher - 1][0], history[higher][1])


def epoch_at(history: Sequence[tuple[int, int]], offset: int) -> int:
    """The epoch in which ``offset`` was written, from a partition's ``history`` (Kafka's ``epochForOffset``): the
    newest epoch that starts at or below it; -1 before the first or for -1."""
    if offset < 0:
        return NO_EPOCH
    at = bisect.bisect_right([start for _, start in history], offset)
    return history[at - 1][0] if at else NO_EPOCH


def partition_history(entries: Sequence[EpochEntry], queue: ConsumeQueue) -> list[tuple[int, int]]:
    """A partition's (epoch, start offset) pairs from the store's epoch entries (see the module docstring)."""
    history: list[tuple[int, int]] = []
    for entry in entries:
        index = queue.index_of_physical(entry.start)
        start = queue.head(index)[3] if index < queue.end_index else queue.next_offset
        if history and history[-1][1] == start:
            history.pop()
        history.append((entry.epoch, start))
    return history


def from_log_start(history: list[tuple[int, int]], log_start: int) -> list[tuple[int, int]]:
    """``history`` without what lies below ``log_start``: of the epochs that start at or below it, only the newest
    stays, starting at ``log_start`` (Kafka's ``truncateFromStart``)."""
    below = [entry for entry in history if entry[1] <= log_start]
    if not below:
        return history
    return [(below[-1][0], log_start), *history[len(below) :]]


class LeaderEpochs:
    def __init__(self, health: StoreHealth, file: EpochFile, partitions: Partitions, commitlog: CommitLog) -> None:
        self._health = health
        self._file = file
        self._partitions = partitions
        self._commitlog = commitlog

    @property
    def current(self) -> int:
        """The epoch stamped into batches appended now."""
        return self._file.current

    def entries(self) -> tuple[EpochEntry, ...]:
        """Every epoch and its physical start, oldest first."""
        return self._file.entries

    @guarded
    def begin(self, epoch: int) -> None:
        """Epoch ``epoch`` begins at the CommitLog's end (a leader elected); ``EpochOrderError`` unless it is newer
        than the current one. Persisted before it returns; later appends carry it."""
        if epoch <= self._file.current:
            raise EpochOrderError(f"epoch {epoch} is not newer than the current epoch {self._file.current}")
        self._file.begin(epoch, self._commitlog.write_offset)

    @guarded
    def history(self, topic: str, partition: int) -> list[tuple[int, int]]:
        """The partition's (epoch, start offset) pairs from its log start on, oldest first."""
        _, key, queue = self._partitions.get(topic, partition)
        return from_log_start(partition_history(self._file.entries, queue), self._partitions.log_start(key, queue))

    @guarded
    def epoch_of_offset(self, topic: str, partition: int, offset: int) -> int:
        """The epoch in which the partition's ``offset`` was written (ListOffsets' answer for it), -1 if unknown."""
        return epoch_at(self.history(topic, partition), offset)

    @guarded
    def end_offset(self, topic: str, partition: int, epoch: int) -> EpochEndOffset:
        """Where ``epoch`` ends in the partition (OffsetForLeaderEpoch's answer)."""
        queue = self._partitions.get(topic, partition)[2]
        return end_offset_for(self.history(topic, partition), epoch, queue.next_offset)
