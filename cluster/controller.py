"""The controller: one broker, elected through etcd, that keeps each broker group's leader and leader epoch.

Election: a broker whose snapshot shows no controller creates ``controller`` bound to its own lease, only
if absent. The winner's term is that key's ``create_revision``; it lasts while the lease lives (a killed
controller's key vanishes within the lease TTL and the others campaign again).

Fencing: every controller write compares ``create_revision(controller) == term`` in the same transaction,
so a controller whose term ended (its lease expired while it was paused, and another won) can never
write: its transaction fails and it learns it is deposed (:class:`NotControllerError`). Two controllers
therefore never act at once, whatever the timing.

Duty: for every group whose leader is not a live broker, elect one by the rules of ``election.py`` (a live
member of the in-sync set; none: no leader, or with unclean election enabled the most advanced live member)
and write it with the epoch raised by one and the in-sync set ``[leader]`` (``groups/<group>``, compared at
the ``mod_revision`` read, the decision taken on the value read then). A group that no member can lead gets
leader -1 (epoch raised, in-sync set kept), so Metadata answers LEADER_NOT_AVAILABLE for its partitions
instead of sending clients to a dead broker.

Unclean election is one setting for the cluster, not per topic (a group leads all its partitions, so they
change leader together): ``unclean.leader.election.enable`` in the cluster-wide dynamic broker default
(``broker_default_configs`` in etcd), else the controller's own setting (``unclean`` below; Kafka's default,
false). Topics' own ``unclean.leader.election.enable`` is not read.

``elect_leaders`` is ElectLeaders' (API 43) write: a preferred or unclean election of one group, asked for by
an operator.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence

from .election import Choice, Outcome, elect, elect_preferred, elect_unclean
from .errors import ConcurrentChangeError, NotControllerError
from .etcd import Entry, Etcd
from .layout import GroupState, KeyLayout, decode_controller, decode_group, encode_controller, encode_group
from .snapshot import ClusterSnapshot

log = logging.getLogger(__name__)

UNCLEAN_SETTING = "unclean.leader.election.enable"


class Controller:
    """Campaigns for and, once elected, performs the controller's writes for one broker."""

    def __init__(self, etcd: Etcd, layout: KeyLayout, node_id: int, *, unclean: bool = False) -> None:
        self.etcd = etcd
        self.layout = layout
        self.node_id = node_id
        self.unclean = unclean
        """This broker's ``unclean.leader.election.enable``, used when the cluster-wide default does not say."""
        self.term: int | None = None

    def unclean_enabled(self, snapshot: ClusterSnapshot) -> bool:
        value = snapshot.broker_default_configs.get(UNCLEAN_SETTING)
        return self.unclean if value is None else value.strip().lower() == "true"

    async def campaign(self, lease_id: int) -> bool:
        """Try to become controller (only if none is); True if this broker now holds the term."""
        key = self.layout.controller()
        txn = self.etcd.txn
        won, _ = await self.etcd.transaction(
            [txn.create(key) == 0], [txn.put(key, encode_controller(self.node_id), lease=lease_id)]
        )
        entry = await self.etcd.get(key)
        if entry is not None and decode_controller(entry.value) == self.node_id:
            self.term = entry.create_revision
            if won:
                log.info("node %d is the controller (term %d)", self.node_id, self.term)
            return True
        self.term = None
        return False

    async def reconcile_groups(self, snapshot: ClusterSnapshot) -> list[GroupState]:
        """Elect a leader for every group whose leader is not live; the states written. Raises NotControllerError."""
        written: list[GroupState] = []
        unclean = self.unclean_enabled(snapshot)
        for group in sorted({info.group for info in snapshot.brokers.values()} | set(snapshot.groups)):
            members = snapshot.group_members(group)
            state = snapshot.groups.get(group)
            if state is not None and state.leader in members:
                continue
            decide = functools.partial(_automatic, group, members, snapshot, unclean)
            changed = await self._write_leader(group, decide)
            if changed is not None:
                written.append(changed)
        return written

    async def elect_leaders(self, snapshot: ClusterSnapshot, group: str, *, preferred: bool) -> Outcome:
        """An operator's election of ``group``'s leader (preferred, else unclean), decided on etcd's current
        state. Raises NotControllerError, and ConcurrentChangeError when the group changed while it wrote."""
        members = snapshot.group_members(group)
        outcome = Outcome.NOT_NEEDED

        def asked(current: GroupState | None) -> Choice | None:
            nonlocal outcome
            if current is None:
                outcome = Outcome.NO_ELIGIBLE_MEMBER if not preferred else Outcome.PREFERRED_NOT_AVAILABLE
                return None
            if preferred:
                outcome, choice = elect_preferred(current, members)
            else:
                outcome, choice = elect_unclean(group, current, members, snapshot.log_ends)
            return choice

        if await self._write_leader(group, asked) is None and outcome is Outcome.ELECTED:
            raise ConcurrentChangeError(f"group {group} changed during the election; ask again")
        return outcome

    async def _write_leader(
        self, group: str, decide: Callable[[GroupState | None], Choice | None]
    ) -> GroupState | None:
        """Write ``decide``'s choice on the group's current state with the next epoch, fenced by the term; None
        when it chose nothing or the group changed meanwhile."""
        if self.term is None:
            raise NotControllerError(f"node {self.node_id} is not the controller")
        key = self.layout.group(group)
        entry = await self.etcd.get(key)
        current = None if entry is None else decode_group(group, entry.value)
        choice = decide(current)
        if choice is None:
            return None
        state = GroupState(group, choice.leader, 0 if current is None else current.epoch + 1, choice.in_sync)
        if await self._swap(key, entry, state):
            how = "unclean election: " if choice.unclean else ""
            log.info("group %s: %sleader %d, epoch %d, in sync %s", group, how, state.leader, state.epoch,
                     list(state.in_sync))  # fmt: skip
            return state
        return None

    async def _swap(self, key: bytes, entry: Entry | None, state: GroupState) -> bool:
        txn = self.etcd.txn
        same = txn.create(key) == 0 if entry is None else txn.mod(key) == entry.mod_revision
        fenced = txn.create(self.layout.controller()) == self.term
        done, _ = await self.etcd.transaction([fenced, same], [txn.put(key, encode_group(state))])
        if done:
            return True
        holder = await self.etcd.get(self.layout.controller())
        if holder is None or holder.create_revision != self.term:
            term, self.term = self.term, None
            raise NotControllerError(f"node {self.node_id}'s controller term {term} has ended")
        return False


def _automatic(
    group: str, live: Sequence[int], snapshot: ClusterSnapshot, unclean: bool, current: GroupState | None
) -> Choice | None:
    """The controller's own election of ``group`` on its state ``current`` (None: nothing to write)."""
    if current is not None and current.leader in live:
        return None
    choice = elect(group, current, live, snapshot.log_ends, unclean)
    unchanged = current is not None and (choice.leader, choice.in_sync) == (current.leader, current.in_sync)
    return None if unchanged else choice
