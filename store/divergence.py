"""Where a follower's CommitLog parts from its leader's: the truncation handshake's decision, pure.

A broker that becomes a follower (a restarted old leader, or one that missed an election) may hold bytes its new
leader never had: records its old term wrote that were never replicated. Before it copies the leader's stream it
cuts its own log back to the last byte both logs share, as RocketMQ's controller mode does: the leader sends its
epoch entries (``epochfile.py``: epoch, start physical offset) and its log end; walking the follower's entries
from the newest back, the first epoch the leader also has, *starting at the same offset*, is the last epoch both
wrote; the logs agree up to the smaller of the two ends of that epoch (an epoch ends where the next entry starts,
the last one at its log's end). Bytes of one epoch were written by one leader, so up to there the two logs hold
the same records at the same offsets, and past there they may not.

The shapes this covers (``tests/store/test_divergence.py`` checks each against a model of two logs):

- equal logs, or a follower behind in the leader's epoch: nothing is cut;
- a follower ahead in an old epoch (it led that epoch and wrote more than the new leader received): cut to
  where the new leader's next epoch starts;
- epochs one side never saw (a term whose leader wrote nothing that survived, empty epochs): skipped;
- no epoch in common (the follower's entries all unknown to the leader, or either side empty): the follower
  keeps nothing its epochs cover; ``common_epoch`` is None and the caller starts the follower over from the
  leader's log.

No I/O here: the store's ``truncate_to`` applies the answer, and the replication stream (``cluster/``) carries
the entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .epochfile import EpochEntry


@dataclass(frozen=True, slots=True)
class EpochLog:
    """One broker's side of the handshake: its epoch entries (oldest first) and where its CommitLog ends."""

    entries: Sequence[EpochEntry]
    end: int

    def end_of(self, index: int) -> int:
        """Where the epoch of ``entries[index]`` ends in this log."""
        return self.entries[index + 1].start if index + 1 < len(self.entries) else self.end


@dataclass(frozen=True, slots=True)
class Divergence:
    """The follower keeps its CommitLog below ``truncate_to`` and copies the leader's from there. ``common_epoch``:
    the newest epoch both logs share (None: none; ``truncate_to`` is then the start of the follower's first epoch,
    or its end when it has none)."""

    truncate_to: int
    common_epoch: int | None


def find_divergence(leader: EpochLog, follower: EpochLog) -> Divergence:
    """Where ``follower`` must cut its log to continue as a copy of ``leader`` (see the module docstring)."""
    starts = {entry.epoch: (index, entry.start) for index, entry in enumerate(leader.entries)}
    for index in range(len(follower.entries) - 1, -1, -1):
        entry = follower.entries[index]
        found = starts.get(entry.epoch)
        if found is not None and found[1] == entry.start:
            agreed = min(follower.end_of(index), leader.end_of(found[0]))
            return Divergence(agreed, entry.epoch)
    first = follower.entries[0].start if follower.entries else follower.end
    return Divergence(min(first, follower.end), None)
