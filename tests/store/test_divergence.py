"""The truncation handshake's decision (``store/divergence.py``) against a model of two CommitLogs.

The model: a log is a list of records, each (epoch, size), laid end to end from physical offset 0. Two logs share
a prefix; then each goes on alone, the two never in the same epoch (one epoch has one leader, so two logs that
both hold bytes of an epoch hold the same bytes). The follower must cut to exactly the end of the shared prefix,
or keep all it has when it is the shorter copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.store.divergence import Divergence, EpochLog, find_divergence
from rockafka.store.epochfile import EpochEntry


@dataclass(frozen=True)
class Log:
    """Records (epoch, size) and epochs begun with no record (epoch -> the record index they began before)."""

    records: tuple[tuple[int, int], ...]
    empty_epochs: tuple[tuple[int, int], ...] = ()

    @property
    def end(self) -> int:
        return sum(size for _, size in self.records)

    def offset_of(self, index: int) -> int:
        return sum(size for _, size in self.records[:index])

    def epoch_log(self) -> EpochLog:
        entries: dict[int, int] = {}
        for index, (epoch, _) in enumerate(self.records):
            entries.setdefault(epoch, self.offset_of(index))
        for epoch, before in self.empty_epochs:
            entries[epoch] = self.offset_of(before)
        ordered = sorted(entries.items())
        return EpochLog(tuple(EpochEntry(epoch, start) for epoch, start in ordered), self.end)


def records(epoch: int, sizes: list[int]) -> tuple[tuple[int, int], ...]:
    return tuple((epoch, size) for size in sizes)


# --- the shapes, one by one ---


def test_equal_logs_cut_nothing() -> None:
    log = Log(records(0, [100, 50]) + records(1, [70]))
    assert find_divergence(log.epoch_log(), log.epoch_log()) == Divergence(220, 1)


def test_a_follower_behind_in_the_leaders_epoch_keeps_everything() -> None:
    leader = Log(records(0, [100, 50]) + records(1, [70, 30]))
    follower = Log(records(0, [100, 50]) + records(1, [70]))
    assert find_divergence(leader.epoch_log(), follower.epoch_log()) == Divergence(220, 1)


def test_a_follower_ahead_in_an_old_epoch_is_cut_where_the_next_epoch_began() -> None:
    """The old leader wrote 60 more bytes in epoch 0 that the new leader never received before epoch 1."""
    leader = Log(records(0, [100]) + records(1, [40, 40]))
    follower = Log(records(0, [100, 60]))
    assert find_divergence(leader.epoch_log(), follower.epoch_log()) == Divergence(100, 0)


def test_an_epoch_the_leader_never_saw_is_skipped() -> None:
    """The follower led epoch 1 and wrote what nobody copied; the leader went from 0 to 2."""
    leader = Log(records(0, [100, 20]) + records(2, [10]))
    follower = Log(records(0, [100, 20]) + records(1, [30, 30]))
    assert find_divergence(leader.epoch_log(), follower.epoch_log()) == Divergence(120, 0)


def test_empty_epochs_on_either_side_change_nothing() -> None:
    leader = Log(records(0, [100]) + records(3, [40]), empty_epochs=((2, 1),))
    follower = Log(records(0, [100, 5]), empty_epochs=((1, 2),))
    assert find_divergence(leader.epoch_log(), follower.epoch_log()) == Divergence(100, 0)


def test_an_empty_follower_keeps_its_empty_log() -> None:
    leader = Log(records(0, [100]))
    assert find_divergence(leader.epoch_log(), EpochLog((), 0)) == Divergence(0, None)


def test_an_empty_leader_has_the_follower_keep_nothing() -> None:
    follower = Log(records(0, [100, 50]))
    assert find_divergence(EpochLog((), 0), follower.epoch_log()) == Divergence(0, None)


def test_no_epoch_in_common_keeps_nothing_the_followers_epochs_cover() -> None:
    follower = EpochLog((EpochEntry(4, 4096), EpochEntry(5, 5000)), 6000)
    leader = EpochLog((EpochEntry(6, 4096),), 9000)
    assert find_divergence(leader, follower) == Divergence(4096, None)


def test_the_same_epoch_at_another_start_is_not_common() -> None:
    """An epoch number reused after an unclean election, at another offset: the older common epoch decides."""
    leader = EpochLog((EpochEntry(0, 0), EpochEntry(1, 200)), 500)
    follower = EpochLog((EpochEntry(0, 0), EpochEntry(1, 300)), 400)
    assert find_divergence(leader, follower) == Divergence(200, 0)


# --- every shape at once, against the model ---


@st.composite
def two_logs(draw: st.DrawFn) -> tuple[Log, Log, int]:
    """A shared prefix, then each log alone in epochs of its own; the shared prefix's length in bytes."""
    sizes = st.lists(st.integers(1, 500), max_size=4)
    epochs = iter(range(1000))
    prefix: tuple[tuple[int, int], ...] = ()
    for _ in range(draw(st.integers(0, 3))):
        prefix += records(next(epochs), draw(sizes))
    last = prefix[-1][0] if prefix else None
    # the epochs after the prefix, dealt out to one side or the other, in increasing order
    later = [next(epochs) for _ in range(draw(st.integers(0, 5)))]
    sides = [draw(st.sampled_from(("leader", "follower", "both-empty"))) for _ in later]
    tails: dict[str, tuple[tuple[int, int], ...]] = {"leader": (), "follower": ()}
    empties: dict[str, list[tuple[int, int]]] = {"leader": [], "follower": []}
    # at most one side goes on writing in the prefix's last epoch (its leader, before the next election)
    if last is not None:
        tails[draw(st.sampled_from(("leader", "follower")))] += records(last, draw(sizes))
    for epoch, side in zip(later, sides, strict=True):
        if side == "both-empty":  # an epoch begun and ended with nothing written, seen by one side
            owner = draw(st.sampled_from(("leader", "follower")))
            empties[owner].append((epoch, len(prefix) + len(tails[owner])))
        else:
            tails[side] += records(epoch, draw(sizes))
    leader = Log(prefix + tails["leader"], tuple(empties["leader"]))
    follower = Log(prefix + tails["follower"], tuple(empties["follower"]))
    shared = sum(size for _, size in prefix)
    return leader, follower, shared


@settings(max_examples=400, deadline=None)
@given(two_logs())
def test_the_follower_cuts_to_the_end_of_what_both_logs_share(logs: tuple[Log, Log, int]) -> None:
    leader, follower, shared = logs
    decision = find_divergence(leader.epoch_log(), follower.epoch_log())
    if decision.common_epoch is not None:
        assert decision.truncate_to == shared
    else:  # nothing in common by epoch: only a log with no shared prefix, cut to its start
        assert shared == 0 and decision.truncate_to == 0
    # what is kept is a prefix of both logs
    assert decision.truncate_to <= min(leader.end, follower.end)
