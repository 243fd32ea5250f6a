"""The epoch file (``config/leaderEpochs.json``): which leader epoch wrote which part of the CommitLog.

A broker group's leader epoch (Kafka's partition leader epoch, RocketMQ's MasterEpoch) names one term of one
leader; the leader stamps it into every batch it appends (the batch's ``partitionLeaderEpoch``, bytes 12-15, not
covered by the batch CRC-32C). The file lists where each epoch began in the CommitLog, as RocketMQ's EpochFile
does: one CommitLog is shared by every partition, so start offsets are *physical* offsets, and a partition's
Kafka offsets for an epoch are found through its ConsumeQueue (``epochs.py``)::

    {"version": 1, "epochs": [[<epoch>, <start physical offset>], ...]}

Rules, checked on every read and every change: epochs strictly increase, start offsets never decrease, each
number is a non-negative integer. Epoch *e* covers ``[start(e), start(next entry))``; the last entry is the
current epoch and covers everything from its start on. An epoch may cover no bytes (a leader that appended
nothing before the next election): its start equals the next one's.

Writes: the whole document, by atomic rename with the previous version kept as ``.bak`` (``jsonfile.py``), before
the change is used: a crash leaves the old list or the new one. A document of the wrong shape counts as
unreadable, and the ``.bak`` is tried; when neither serves, :class:`CorruptStoreError` names the file.

Recovery: once the CommitLog's end is known, entries that start past it are dropped (``cut_after``), the same
cut a truncation makes; an entry starting exactly at the end stays (an epoch that has not appended yet). A store
with no epoch file yet (a new store, or one written before epochs existed) begins epoch 0 at the CommitLog's
first offset: every batch already stored counts as epoch 0 (those written before carry -1, the client's value).

Threads: the broker loop thread only.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .errors import CorruptStoreError, StoreError
from .jsonfile import read_json, write_json

FORMAT_VERSION: Final = 1
FILE_NAME: Final = "leaderEpochs.json"
#: Kafka's UNDEFINED_EPOCH: no epoch (a batch a client wrote; an answer about an unknown epoch).
NO_EPOCH: Final = -1


class EpochOrderError(StoreError):
    """A new epoch that is not above the current one, or that starts before it."""


@dataclass(frozen=True, slots=True)
class EpochEntry:
    """Epoch ``epoch`` began at CommitLog physical offset ``start``."""

    epoch: int
    start: int


def check_order(entries: Sequence[EpochEntry]) -> None:
    """Raise ``EpochOrderError`` unless epochs strictly increase and starts never decrease, all non-negative."""
    for before, after in itertools.pairwise(entries):
        if after.epoch <= before.epoch:
            raise EpochOrderError(f"epoch {after.epoch} follows epoch {before.epoch}: epochs must increase")
        if after.start < before.start:
            raise EpochOrderError(f"epoch {after.epoch} starts at {after.start}, before epoch {before.epoch}")
    for entry in entries:
        if entry.epoch < 0 or entry.start < 0:
            raise EpochOrderError(f"negative epoch or offset in {entry}")


def _parse(document: Any) -> tuple[EpochEntry, ...]:
    if not isinstance(document, dict) or document.get("version") != FORMAT_VERSION:
        raise ValueError(f"not a version {FORMAT_VERSION} epoch document")
    entries = []
    for pair in document["epochs"]:
        epoch, start = pair
        if type(epoch) is not int or type(start) is not int:
            raise TypeError(f"{pair!r} is not a pair of integers")
        entries.append(EpochEntry(epoch, start))
    try:
        check_order(entries)
    except EpochOrderError as exc:
        raise CorruptStoreError(str(exc)) from exc
    return tuple(entries)


class EpochFile:
    """The entries of ``config/leaderEpochs.json``, kept in memory and rewritten whole on every change."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: tuple[EpochEntry, ...] = ()
        #: The newest epoch (``NO_EPOCH`` while there is none): a plain attribute, read on every append.
        self.current = NO_EPOCH
        #: Whether the file existed when loaded (a store from before epochs has none).
        self.found = False

    def load(self) -> None:
        entries = read_json(self.path, _parse)
        self.found = entries is not None
        self.entries = entries or ()
        self.current = self.entries[-1].epoch if self.entries else NO_EPOCH

    def begin(self, epoch: int, start: int) -> None:
        """Epoch ``epoch`` begins at physical offset ``start``: persisted before it returns."""
        self._save((*self.entries, EpochEntry(epoch, start)))

    def cut_after(self, end: int) -> None:
        """Drop the entries that start past ``end`` (the CommitLog now ends there)."""
        kept = tuple(entry for entry in self.entries if entry.start <= end)
        if kept != self.entries:
            self._save(kept)

    def _save(self, entries: tuple[EpochEntry, ...]) -> None:
        check_order(entries)
        write_json(self.path, {"version": FORMAT_VERSION, "epochs": [[e.epoch, e.start] for e in entries]})
        self.entries = entries
        self.current = entries[-1].epoch if entries else NO_EPOCH
        self.found = True
