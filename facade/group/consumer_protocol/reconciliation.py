"""Reconciliation: how a member moves from what it owns towards its target assignment (KIP-848).

The rule that keeps a partition from being consumed by two members at once: **revoke before assign**. A
member whose target drops partitions it owns is first told to revoke them (its assignment shrinks, its epoch
stays); only when a heartbeat reports them gone does it move on. Partitions its target adds are handed over
only once no other member owns them (assigned or still being revoked); until then the member waits at the
new epoch in ``unreleased_partitions`` and picks them up on a later heartbeat. These are Kafka's rules
(its ``CurrentAssignmentBuilder``), written from KIP-848's description.

``reconcile`` returns the member's next (epoch, state, assigned, revoking); the coordinator applies it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from .model import Assignment, ConsumerMember, MemberState, assignment_partitions, grouped


@dataclass(frozen=True, slots=True)
class Reconciled:
    member_epoch: int
    state: MemberState
    assigned: Assignment
    revoking: Assignment


def reconcile(
    member: ConsumerMember,
    target_epoch: int,
    target: Assignment,
    reported: Assignment | None,
    is_free: Callable[[tuple[uuid.UUID, int]], bool],
) -> Reconciled:
    """The member's next step towards ``target`` (at ``target_epoch``), given the partitions its heartbeat
    reports as owned (None: unchanged since its last heartbeat) and which partitions no one else owns."""
    current = Reconciled(member.member_epoch, member.state, member.assigned, member.revoking)
    if member.state is MemberState.UNREVOKED_PARTITIONS:
        still_owned = reported is None or bool(assignment_partitions(reported) & assignment_partitions(member.revoking))
        if still_owned:
            return current
        return _next(member.member_epoch, member.assigned, target_epoch, target, is_free)
    if member.state is MemberState.STABLE and member.member_epoch == target_epoch:
        return current
    return _next(member.member_epoch, member.assigned, target_epoch, target, is_free)


def _next(
    member_epoch: int,
    assigned: Assignment,
    target_epoch: int,
    target: Assignment,
    is_free: Callable[[tuple[uuid.UUID, int]], bool],
) -> Reconciled:
    owned = assignment_partitions(assigned)
    wanted = assignment_partitions(target)
    kept = owned & wanted
    revoking = owned - wanted
    if revoking:
        return Reconciled(member_epoch, MemberState.UNREVOKED_PARTITIONS, grouped(kept), grouped(revoking))
    adding = wanted - owned
    free = {partition for partition in adding if is_free(partition)}
    state = MemberState.UNRELEASED_PARTITIONS if free != adding else MemberState.STABLE
    return Reconciled(target_epoch, state, grouped(kept | free), {})
