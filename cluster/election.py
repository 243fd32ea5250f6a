"""Who leads a broker group: the controller's rules, pure (no etcd), so they are tested without one.

Automatic election (:func:`elect`), when the group's leader is not a live broker:

1. a live member of the group's in-sync set, the lowest node id: it holds everything the old leader
   confirmed (the leader writes a shrink to etcd before its confirm offset moves on without the member
   dropped, ``group_writes.py``), so nothing acknowledged with acks=all is lost;
2. none live: no leader (``NO_LEADER``), the in-sync set kept as it was, so the first of its members to come
   back leads; unless unclean election is enabled, then the live member whose log is the most advanced
   (newest epoch, then longest log, then lowest node id) among those that published their log end
   (``log_ends/<node id>``: members publish it only while their group has no leader). Records the old
   leader confirmed that this member lacks are lost: that is what "unclean" means.

A group whose state has no in-sync set at all (written before the set existed, and leaderless) lets any live
member lead, the lowest node id, as before.

Elections the operator asks for (ElectLeaders, :func:`elect_preferred` and :func:`elect_unclean`) follow
Kafka's answers per partition, here per group (a group's partitions share one leader):

- preferred: the group's preferred member is the lowest node id among its live members and its in-sync set.
  Already leading: not needed; not live or not in sync: not available; otherwise it leads.
- unclean: a group with a live leader needs no election; otherwise the automatic rules above with unclean
  election enabled, and no eligible member at all: not available.

Every new leader's in-sync set starts as itself; followers join it as they catch up.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from .layout import NO_LEADER, GroupState, LogEnd


class Outcome(enum.Enum):
    """What an election asked for by an operator came to."""

    ELECTED = "elected"
    NOT_NEEDED = "not needed"
    PREFERRED_NOT_AVAILABLE = "preferred member not available"
    NO_ELIGIBLE_MEMBER = "no eligible member"


@dataclass(frozen=True, slots=True)
class Choice:
    """The leader chosen and the in-sync set to write with it; ``unclean`` when it came from outside the set."""

    leader: int
    in_sync: tuple[int, ...]
    unclean: bool = False


def elect(
    group: str, state: GroupState | None, live: Collection[int], log_ends: Mapping[int, LogEnd], unclean: bool
) -> Choice:
    """The automatic rules (see the module docstring). ``live``: the group's registered members."""
    recorded = state.in_sync if state is not None else ()
    eligible = sorted(node for node in recorded if node in live) if recorded else sorted(live)
    if eligible:
        return Choice(eligible[0], (eligible[0],))
    if unclean:
        published = [end for node, end in log_ends.items() if node in live and end.group == group]
        if published:
            best = max(published, key=lambda end: (end.epoch, end.end, -end.node_id))
            return Choice(best.node_id, (best.node_id,), unclean=True)
    return Choice(NO_LEADER, recorded)


def preferred_member(state: GroupState, live: Collection[int]) -> int:
    """The group's preferred leader: the lowest node id among its live members and its in-sync set."""
    return min([*live, *state.in_sync], default=NO_LEADER)


def elect_preferred(state: GroupState, live: Collection[int]) -> tuple[Outcome, Choice | None]:
    preferred = preferred_member(state, live)
    if preferred == NO_LEADER:
        return Outcome.PREFERRED_NOT_AVAILABLE, None
    if preferred == state.leader:
        return Outcome.NOT_NEEDED, None
    if preferred not in live or preferred not in state.in_sync:
        return Outcome.PREFERRED_NOT_AVAILABLE, None
    return Outcome.ELECTED, Choice(preferred, (preferred,))


def elect_unclean(
    group: str, state: GroupState, live: Collection[int], log_ends: Mapping[int, LogEnd]
) -> tuple[Outcome, Choice | None]:
    if state.leader in live:
        return Outcome.NOT_NEEDED, None
    choice = elect(group, state, live, log_ends, unclean=True)
    if choice.leader == NO_LEADER:
        return Outcome.NO_ELIGIBLE_MEMBER, None
    return Outcome.ELECTED, choice
