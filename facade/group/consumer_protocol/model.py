"""A KIP-848 consumer group and its members, as the coordinator holds them in memory.

A **member** has a member epoch (the assignment epoch it has reconciled to), its previous epoch (a heartbeat
carrying it is still accepted if its answer was lost), its subscription (topic names and/or a regex, the
assignor it asked for), the partitions **assigned** to it, the partitions it must **revoke** before it
moves on, and its reconciliation state:

=========================  ==================================================================================
state                      meaning
=========================  ==================================================================================
stable                     reconciled to the group's target assignment (or waiting for a new target)
unrevoked_partitions       it must give up ``revoking`` first; it keeps its epoch until it reports them gone
unreleased_partitions      at the target epoch, still waiting for partitions other members have not revoked
=========================  ==================================================================================

A member may speak the **classic** protocol (JoinGroup, SyncGroup, Heartbeat) in a group the consumer protocol
owns, after an online upgrade (``classic_members.py``): it then carries its ``classic`` membership (session
timeout, JoinGroup protocols) and its member epoch is its generation.

The **group** has the group epoch (bumped by every change of members, subscriptions, assignors or the
subscribed topics' partitions), the assignment epoch (the group epoch its target assignment was computed
at), the target assignment per member, and which member owns each partition (assigned or being revoked):
a partition is handed to a member only while no other member owns it.

Group states, as Kafka names them in ListGroups and ConsumerGroupDescribe: ``Empty`` (no members),
``Assigning`` (the target is older than the group epoch; never seen here, as the target is computed at
once), ``Reconciling`` (some member is not yet at the target), ``Stable``, ``Dead`` (deleted).
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...clock import Timer

#: topic id -> partition indexes (mutable sets are not used: assignments are replaced whole).
Assignment = dict[uuid.UUID, frozenset[int]]

#: Member epochs a heartbeat sends to leave: -1 for good, -2 a static member that will come back.
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2


@dataclass(frozen=True, slots=True)
class ClassicMembership:
    """What a member speaking the classic protocol told its JoinGroup: its session timeout and its protocols
    (name, ConsumerProtocolSubscription bytes), the first its preferred."""

    session_timeout_ms: int
    protocols: tuple[tuple[str, bytes], ...]

    @property
    def protocol_name(self) -> str:
        return self.protocols[0][0]


class MemberState(enum.Enum):
    STABLE = "stable"
    UNREVOKED_PARTITIONS = "unrevoked_partitions"
    UNRELEASED_PARTITIONS = "unreleased_partitions"


class ConsumerGroupState(enum.Enum):
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    STABLE = "Stable"
    DEAD = "Dead"


@dataclass(slots=True)
class ConsumerMember:
    member_id: str
    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    subscribed_topic_names: tuple[str, ...] = ()
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: MemberState = MemberState.STABLE
    assigned: Assignment = field(default_factory=dict)
    revoking: Assignment = field(default_factory=dict)
    #: Set for a member speaking the classic protocol (an upgraded group's older consumers).
    classic: ClassicMembership | None = None
    session_timer: Timer | None = None
    revocation_timer: Timer | None = None
    #: A classic member told to rejoin (REBALANCE_IN_PROGRESS), or that joined and has not sent SyncGroup, is removed
    #: unless it does within its rebalance timeout.
    rebalance_timer: Timer | None = None

    def owned(self) -> Iterator[tuple[uuid.UUID, int]]:
        """Every partition this member holds: assigned, or still to revoke."""
        for assignment in (self.assigned, self.revoking):
            for topic, indexes in assignment.items():
                for index in indexes:
                    yield topic, index

    def cancel_timers(self) -> None:
        for timer in (self.session_timer, self.revocation_timer, self.rebalance_timer):
            if timer is not None:
                timer.cancel()
        self.session_timer = self.revocation_timer = self.rebalance_timer = None


@dataclass(slots=True)
class ConsumerGroup:
    group_id: str
    state_timestamp_ms: int
    group_epoch: int = 0
    assignment_epoch: int = 0
    assignor: str = "uniform"
    members: dict[str, ConsumerMember] = field(default_factory=dict)
    #: member id -> its target assignment at ``assignment_epoch``.
    target: dict[str, Assignment] = field(default_factory=dict)
    #: The subscribed topics as last seen: name -> (topic id, partition count). A change bumps the group epoch.
    topics: dict[str, tuple[uuid.UUID, int]] = field(default_factory=dict)
    #: partition -> the member owning it (assigned or revoking).
    owners: dict[tuple[uuid.UUID, int], str] = field(default_factory=dict)
    #: When ``topics`` was last compared with the store's topics (event loop time, seconds).
    topics_checked_at: float = float("-inf")
    dead: bool = False

    @property
    def state(self) -> ConsumerGroupState:
        if self.dead:
            return ConsumerGroupState.DEAD
        if not self.members:
            return ConsumerGroupState.EMPTY
        if self.assignment_epoch < self.group_epoch:
            return ConsumerGroupState.ASSIGNING
        reconciled = all(
            m.member_epoch == self.assignment_epoch and m.state is MemberState.STABLE for m in self.active_members()
        )
        return ConsumerGroupState.STABLE if reconciled else ConsumerGroupState.RECONCILING

    def active_members(self) -> Iterator[ConsumerMember]:
        """Members not away (a static member that left with epoch -2 keeps its place until its session ends)."""
        return (m for m in self.members.values() if m.member_epoch != STATIC_LEAVE_EPOCH)

    def static_member(self, instance_id: str) -> ConsumerMember | None:
        return next((m for m in self.members.values() if m.instance_id == instance_id), None)

    def set_owned(self, member: ConsumerMember, assigned: Assignment, revoking: Assignment) -> None:
        """Replace what ``member`` holds, keeping ``owners`` in step."""
        for partition in member.owned():
            if self.owners.get(partition) == member.member_id:
                del self.owners[partition]
        member.assigned, member.revoking = assigned, revoking
        for partition in member.owned():
            self.owners[partition] = member.member_id

    def is_free_for(self, member_id: str, partition: tuple[uuid.UUID, int]) -> bool:
        owner = self.owners.get(partition)
        return owner is None or owner == member_id


def assignment_partitions(assignment: Assignment) -> set[tuple[uuid.UUID, int]]:
    return {(topic, index) for topic, indexes in assignment.items() for index in indexes}


def grouped(partitions: set[tuple[uuid.UUID, int]]) -> Assignment:
    by_topic: dict[uuid.UUID, set[int]] = {}
    for topic, index in partitions:
        by_topic.setdefault(topic, set()).add(index)
    return {topic: frozenset(indexes) for topic, indexes in by_topic.items()}
