"""One classic consumer group's bookkeeping: members, leader, static members, protocol selection, states.

This module holds no timers' logic and does no I/O: the coordinator (``coordinator.py``) decides when
things happen; the group answers what is true and applies changes consistently. Kafka's rules kept here:

- the first member to join a group without a leader becomes leader; when the leader leaves, the next
  member does; before a generation completes, a leader that has not rejoined is replaced by one that has;
- the protocol type is set by the first member; later members must match it and share at least one
  protocol with every member (INCONSISTENT_GROUP_PROTOCOL otherwise);
- the selected protocol is chosen among those every member supports: each member votes for the first
  of them in its own preference order, and the most votes win (ties: the first member's preference);
- a static member (``group.instance.id``) is known by its instance id; a new join with that id replaces
  the member id, and the old id is fenced.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from rockafka.facade.protocol.error_codes import ErrorCode

from ..clock import Timer
from .model import JoinedMember, JoinResult, Protocols, SyncResult
from .state import CAN_REBALANCE, GroupState, check_transition


@dataclass(slots=True, eq=False)
class Member:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: Protocols
    assignment: bytes = b""
    #: Joined and not yet through a completed rebalance (its session is the long new-member timeout).
    is_new: bool = False
    #: The pending JoinGroup answer while the member waits in a rebalance (Kafka's "awaiting join").
    join_waiter: asyncio.Future[JoinResult] | None = None
    #: The pending SyncGroup answer while the member waits for the leader's assignment.
    sync_waiter: asyncio.Future[SyncResult] | None = None
    #: Event-loop time after which the session has expired unless renewed.
    deadline: float = 0.0
    timer: Timer | None = None

    @property
    def awaiting_join(self) -> bool:
        return self.join_waiter is not None

    def metadata(self, protocol: str) -> bytes:
        return next((data for name, data in self.protocols if name == protocol), b"")

    def protocol_names(self) -> list[str]:
        return [name for name, _ in self.protocols]

    def vote(self, candidates: set[str]) -> str:
        return next(name for name, _ in self.protocols if name in candidates)

    def answer_join(self, result: JoinResult) -> None:
        waiter, self.join_waiter = self.join_waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(result)

    def answer_sync(self, result: SyncResult) -> None:
        waiter, self.sync_waiter = self.sync_waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(result)

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class ClassicGroup:
    """A group's state; every change of state goes through :meth:`transition_to` (Kafka's table)."""

    def __init__(self, group_id: str, now_ms: int) -> None:
        self.group_id = group_id
        self.state = GroupState.EMPTY
        self.state_timestamp_ms = now_ms
        self.generation_id = 0
        self.protocol_type: str | None = None
        self.protocol_name: str | None = None
        self.leader_id: str | None = None
        self.members: dict[str, Member] = {}
        #: Members told MEMBER_ID_REQUIRED that have not joined with their id yet, and their expiry timers.
        self.pending_members: dict[str, Timer | None] = {}
        #: Members of the current generation that have not sent SyncGroup yet.
        self.pending_sync: set[str] = set()
        #: group.instance.id -> member id
        self.static_members: dict[str, str] = {}
        #: A member joined during the initial rebalance delay (which then waits once more).
        self.new_member_added = False
        self.join_timer: Timer | None = None
        #: The join timer is the initial delay, which never completes early.
        self.join_timer_is_initial_delay = False
        self.sync_timer: Timer | None = None

    # --- state ---

    def transition_to(self, target: GroupState, now_ms: int) -> None:
        check_transition(self.state, target)
        self.state = target
        self.state_timestamp_ms = now_ms

    @property
    def can_rebalance(self) -> bool:
        return self.state in CAN_REBALANCE

    @property
    def has_no_members(self) -> bool:
        return not self.members and not self.pending_members

    def init_next_generation(self, now_ms: int) -> None:
        """Start the next generation: CompletingRebalance with a selected protocol, or Empty without members."""
        self.generation_id += 1
        if self.members:
            self.protocol_name = self.select_protocol()
            self.transition_to(GroupState.COMPLETING_REBALANCE, now_ms)
        else:
            self.protocol_name = None
            self.transition_to(GroupState.EMPTY, now_ms)

    def cancel_timers(self) -> None:
        for handle in (self.join_timer, self.sync_timer, *self.pending_members.values()):
            if handle is not None:
                handle.cancel()
        self.join_timer = self.sync_timer = None
        for member in self.members.values():
            member.cancel_timer()

    # --- membership ---

    def add(self, member: Member) -> None:
        if not self.members:
            self.protocol_type = member.protocol_type
        self.members[member.member_id] = member
        if member.group_instance_id is not None:
            self.static_members[member.group_instance_id] = member.member_id
        self.pending_members.pop(member.member_id, None)
        if self.leader_id is None:
            self.leader_id = member.member_id

    def remove(self, member_id: str) -> Member | None:
        member = self.members.pop(member_id, None)
        instance_id = member.group_instance_id if member is not None else None
        if instance_id is not None and self.static_members.get(instance_id) == member_id:
            del self.static_members[instance_id]
        if self.leader_id == member_id:
            self.leader_id = next(iter(self.members), None)
        self.pending_sync.discard(member_id)
        return member

    def replace_member_id(self, old_id: str, new_id: str) -> Member:
        """Give the static member ``old_id`` the id ``new_id`` (keeping its place, assignment and leadership)."""
        member = self.members[old_id]
        self.members = {(new_id if key == old_id else key): value for key, value in self.members.items()}
        member.member_id = new_id
        if member.group_instance_id is not None:
            self.static_members[member.group_instance_id] = new_id
        if self.leader_id == old_id:
            self.leader_id = new_id
        if old_id in self.pending_sync:
            self.pending_sync.discard(old_id)
            self.pending_sync.add(new_id)
        return member

    def validate_member(self, member_id: str, group_instance_id: str | None) -> ErrorCode:
        """UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID when ``member_id`` may not act in this group, else NONE."""
        if group_instance_id is not None:
            known = self.static_members.get(group_instance_id)
            if known is None:
                return ErrorCode.UNKNOWN_MEMBER_ID
            if known != member_id:
                return ErrorCode.FENCED_INSTANCE_ID
            return ErrorCode.NONE
        return ErrorCode.NONE if member_id in self.members else ErrorCode.UNKNOWN_MEMBER_ID

    @property
    def awaiting_join_count(self) -> int:
        return sum(1 for member in self.members.values() if member.awaiting_join)

    def has_all_members_joined(self) -> bool:
        return self.awaiting_join_count == len(self.members) and not self.pending_members

    def not_yet_rejoined(self) -> list[Member]:
        return [member for member in self.members.values() if not member.awaiting_join]

    def maybe_elect_new_joined_leader(self) -> bool:
        """Make a member that rejoined the leader if the leader has not; False if no member rejoined."""
        leader = self.members.get(self.leader_id) if self.leader_id is not None else None
        if leader is None:
            return False
        if leader.awaiting_join:
            return True
        joined = next((m for m in self.members.values() if m.awaiting_join), None)
        if joined is None:
            return False
        self.leader_id = joined.member_id
        return True

    @property
    def rebalance_timeout_ms(self) -> int:
        return max((member.rebalance_timeout_ms for member in self.members.values()), default=0)

    # --- protocols ---

    def candidate_protocols(self) -> set[str]:
        members = list(self.members.values())
        if not members:
            return set()
        common = set(members[0].protocol_names())
        for member in members[1:]:
            common &= set(member.protocol_names())
        return common

    def supports_protocols(self, protocol_type: str, names: Iterable[str]) -> bool:
        wanted = list(names)
        if self.state is GroupState.EMPTY:
            return bool(protocol_type) and bool(wanted)
        if protocol_type != self.protocol_type:
            return False
        counts: dict[str, int] = {}
        for member in self.members.values():
            for name in set(member.protocol_names()):
                counts[name] = counts.get(name, 0) + 1
        return any(counts.get(name, 0) == len(self.members) for name in wanted)

    def select_protocol(self) -> str:
        candidates = self.candidate_protocols()
        votes: dict[str, int] = {}
        for member in self.members.values():
            choice = member.vote(candidates)
            votes[choice] = votes.get(choice, 0) + 1
        first = next(iter(self.members.values()))
        preference = [name for name in first.protocol_names() if name in votes]
        return max(preference, key=lambda name: (votes[name], -preference.index(name)))

    def leader_view(self) -> tuple[JoinedMember, ...]:
        """Every member with its metadata for the selected protocol (the leader's JoinGroup members)."""
        protocol = self.protocol_name or ""
        return tuple(
            JoinedMember(m.member_id, m.group_instance_id, m.metadata(protocol)) for m in self.members.values()
        )

    def join_result(self, member: Member, *, with_members: bool, leader_id: str | None = None) -> JoinResult:
        """The current generation as ``member`` is told it (all members for the leader)."""
        return JoinResult(
            ErrorCode.NONE,
            member.member_id,
            self.generation_id,
            self.protocol_type,
            self.protocol_name,
            (self.leader_id or "") if leader_id is None else leader_id,
            self.leader_view() if with_members else (),
        )
