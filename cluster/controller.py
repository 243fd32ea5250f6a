"""The controller: one broker, elected through etcd, that keeps each broker group's leader and leader epoch.

Election: a broker whose snapshot shows no controller creates ``controller`` bound to its own lease, only
if absent. The winner's term is that key's ``create_revision``; it lasts while the lease lives (a killed
controller's key vanishes within the lease TTL and the others campaign again).

Fencing: every controller write compares ``create_revision(controller) == term`` in the same transaction,
so a controller whose term ended (its lease expired while it was paused, and another won) can never
write: its transaction fails and it learns it is deposed (:class:`NotControllerError`). Two controllers
therefore never act at once, whatever the timing.

Duty (this issue): for every group with live members, if its leader is not a live broker, make the lowest
live member node id the leader and raise the epoch by one (``groups/<group>``, compared at the
``mod_revision`` read). A group whose members are all gone keeps its state, leader -1, epoch raised, so
Metadata answers LEADER_NOT_AVAILABLE for its partitions instead of sending clients to a dead broker.
"""

from __future__ import annotations

import logging

from .errors import NotControllerError
from .etcd import Etcd
from .layout import NO_LEADER, GroupState, KeyLayout, decode_controller, decode_group, encode_controller, encode_group
from .snapshot import ClusterSnapshot

log = logging.getLogger(__name__)


class Controller:
    """Campaigns for and, once elected, performs the controller's writes for one broker."""

    def __init__(self, etcd: Etcd, layout: KeyLayout, node_id: int) -> None:
        self.etcd = etcd
        self.layout = layout
        self.node_id = node_id
        self.term: int | None = None

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
        """Give every group a live leader where it lacks one; the states written. Raises NotControllerError."""
        written: list[GroupState] = []
        for group in sorted({info.group for info in snapshot.brokers.values()} | set(snapshot.groups)):
            members = snapshot.group_members(group)
            wanted = members[0] if members else NO_LEADER
            state = snapshot.groups.get(group)
            if state is not None and (state.leader == wanted or (state.leader in members)):
                continue
            changed = await self._set_leader(group, wanted)
            if changed is not None:
                written.append(changed)
        return written

    async def _set_leader(self, group: str, leader: int) -> GroupState | None:
        """Write ``leader`` with the next epoch, fenced by the term; None if the group changed meanwhile."""
        if self.term is None:
            raise NotControllerError(f"node {self.node_id} is not the controller")
        key = self.layout.group(group)
        entry = await self.etcd.get(key)
        epoch = 0 if entry is None else decode_group(group, entry.value).epoch + 1
        state = GroupState(group, leader, epoch)
        txn = self.etcd.txn
        same = txn.create(key) == 0 if entry is None else txn.mod(key) == entry.mod_revision
        fenced = txn.create(self.layout.controller()) == self.term
        done, _ = await self.etcd.transaction([fenced, same], [txn.put(key, encode_group(state))])
        if done:
            log.info("group %s: leader %d, epoch %d", group, leader, epoch)
            return state
        holder = await self.etcd.get(self.layout.controller())
        if holder is None or holder.create_revision != self.term:
            term, self.term = self.term, None
            raise NotControllerError(f"node {self.node_id}'s controller term {term} has ended")
        return None
