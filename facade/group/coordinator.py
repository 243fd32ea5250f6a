"""Kafka's classic group coordinator: JoinGroup, SyncGroup, Heartbeat and LeaveGroup over the state machine.

Everything runs on the broker's event loop; timers are ``loop.call_at``/``call_later`` handles:

- **session**: each member's deadline, renewed by heartbeats, joins, syncs and commits; a member whose
  deadline passes is removed (and the group rebalances), except while it waits on the coordinator (in a
  JoinGroup or SyncGroup), as Kafka keeps such members alive. A member that joined but has not been
  through a completed rebalance gets Kafka's 5-minute new-member timeout instead.
- **join**: PreparingRebalance ends when every member has rejoined (and no MEMBER_ID_REQUIRED member is
  outstanding) or when the group's rebalance timeout (the largest of its members') passes; members that
  did not rejoin are then removed (static members stay until their session expires). A group leaving
  Empty first waits ``group.initial.rebalance.delay.ms``, again each time a new member arrives, up to the
  rebalance timeout, and does not end early.
- **sync**: members of a new generation that have not sent SyncGroup within the rebalance timeout are
  removed and the group rebalances.
- **pending members**: an id handed out with MEMBER_ID_REQUIRED is forgotten after the session timeout.

JoinGroup and SyncGroup return futures that the state machine completes (a long poll); the rest answer
at once. The group is saved (``persistence.py``) when a generation's assignment completes, when it turns
Empty, and when a static member takes a new id in a Stable group; the SyncGroup and JoinGroup answers
that depend on a save wait for it to be durable under the sync flush policy, and on a replicated leader for every
in-sync member to hold it (``confirm_write``, ``facade/replication.py``).

Errors are Kafka's, in Kafka's order of checks (see each method). Kafka's messages for the same rules are
in its ``GroupCoordinator``/``GroupMetadataManager``; none of its code is used here.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence

from rockafka.facade.protocol.error_codes import ErrorCode

from .consumer_protocol.persistence import is_consumer_group_document
from .group import ClassicGroup, Member
from .model import (
    UNKNOWN_MEMBER_ID,
    JoinRequest,
    JoinResult,
    LeaveResult,
    LeavingMember,
    SyncRequest,
    SyncResult,
)
from .persistence import GroupDocumentError, load_group
from .rebalance import (
    COMPLETING,
    NEW_MEMBER_JOIN_TIMEOUT_MS,
    PREPARING,
    Rebalancer,
    cancel,
    reset_and_propagate_assignment_error,
)
from .share.persistence import is_share_group_document
from .state import GroupState

log = logging.getLogger(__name__)


class GroupCoordinator(Rebalancer):
    """Every classic group of this broker; the one coordinator for all of them (a single node)."""

    # --- lifecycle ---

    def start(self) -> None:
        """Load the saved groups and start their members' sessions (call on the running event loop)."""
        self._loop = asyncio.get_running_loop()
        self.store.group_partitions.create_topic()
        loaded = self.load(lambda group_id: True)
        if loaded:
            log.info("loaded %d groups", loaded)

    def load(self, wanted: Callable[[str], bool]) -> int:
        """Serve the saved groups whose ids are ``wanted`` (this broker became their coordinator); how many."""
        loaded = 0
        for group_id, document in sorted(self.store.group_metadata.documents().items()):
            if group_id in self.groups or not wanted(group_id) or _other_kind(document):
                continue
            try:
                group = load_group(group_id, document)
            except GroupDocumentError as exc:
                log.error("group %r is not loaded: %s", group_id, exc)
                continue
            self.groups[group_id] = group
            loaded += 1
            for member in group.members.values():
                self._arm_session(group, member, member.session_timeout_ms)
        return loaded

    def unload(self, wanted: Callable[[str], bool]) -> int:
        """Stop serving the groups whose ids are ``wanted`` (another broker coordinates them now): members
        waiting in JoinGroup or SyncGroup are answered NOT_COORDINATOR, timers stop; how many."""
        leaving = [group for group_id, group in self.groups.items() if wanted(group_id)]
        for group in leaving:
            _let_go(group)
            del self.groups[group.group_id]
        return len(leaving)

    def shutdown(self) -> None:
        """Answer every waiting member NOT_COORDINATOR (clients find the coordinator again) and stop all timers."""
        for group in self.groups.values():
            _let_go(group)
        self._loop = None

    def force_rebalance(self, group_id: str) -> bool:
        """Start a rebalance of ``group_id`` as a member's join would (a fault a test injected): its members are
        told REBALANCE_IN_PROGRESS on their next heartbeat and rejoin. False for a group without members or that
        cannot start one now (rebalancing already)."""
        group = self.groups.get(group_id)
        if group is None or group.has_no_members or not group.can_rebalance:
            return False
        self._prepare_rebalance(group)
        return True

    # --- the online migration of a live group (``consumer_protocol/migration.py``) ---

    def detach(self, group_id: str) -> None:
        """Stop serving ``group_id`` as a classic group (it became a consumer group): members waiting in a JoinGroup
        or SyncGroup are answered REBALANCE_IN_PROGRESS and rejoin; its timers stop. Its document is replaced."""
        group = self.groups.pop(group_id, None)
        if group is None:
            return
        for member in group.members.values():
            member.answer_join(JoinResult(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))
            member.answer_sync(SyncResult(ErrorCode.REBALANCE_IN_PROGRESS))
        group.cancel_timers()

    def adopt(self, group: ClassicGroup) -> None:
        """Serve ``group``, a consumer group turned classic (a downgrade): saved, then a rebalance begins; its
        members learn it from REBALANCE_IN_PROGRESS (or ILLEGAL_GENERATION) on their next heartbeat."""
        self.groups[group.group_id] = group
        for member in group.members.values():
            self._arm_session(group, member, member.session_timeout_ms)
        self._save(group, None, lambda error: None)
        self._prepare_rebalance(group)

    # --- JoinGroup ---

    def join(self, request: JoinRequest) -> asyncio.Future[JoinResult]:
        """JoinGroup: a future answered once the member is in a completed generation (or at once on errors)."""
        waiter: asyncio.Future[JoinResult] = asyncio.get_running_loop().create_future()
        error = self._check_join(request)
        if error is not ErrorCode.NONE:
            waiter.set_result(JoinResult(error, request.member_id))
            return waiter
        if request.group_id in self.consumer_group_ids and self.consumer_groups is not None:
            answer = self.consumer_groups.classic_join(request)
            if answer is not None:
                return answer  # else it was an empty consumer group, gone now: the member joins a classic group
        group = self.groups.get(request.group_id)
        created = group is None
        if group is None:
            if request.member_id != UNKNOWN_MEMBER_ID:
                waiter.set_result(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, request.member_id))
                return waiter
            group = self.groups[request.group_id] = ClassicGroup(request.group_id, self.clock_ms())
        if not self._accepts_joining(group, request):
            member = group.members.get(request.member_id)
            if member is not None:
                self._remove_member_and_update_group(group, member)
            waiter.set_result(JoinResult(ErrorCode.GROUP_MAX_SIZE_REACHED, UNKNOWN_MEMBER_ID))
        elif request.member_id == UNKNOWN_MEMBER_ID:
            self._join_new_member(group, request, waiter)
        else:
            self._join_existing_member(group, request, waiter)
        self._try_complete_join(group)
        if created and group.has_no_members and group.state is GroupState.EMPTY:
            del self.groups[request.group_id]
        return waiter

    def _check_join(self, request: JoinRequest) -> ErrorCode:
        if not self.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if not request.group_id:
            return ErrorCode.INVALID_GROUP_ID
        if request.group_id in self.share_group_ids:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL  # a share group: no classic members join it
        if request.group_id in self.consumer_group_ids and self.consumer_groups is None:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL  # a consumer-protocol group: no classic members join it
        if not self.min_session_timeout_ms <= request.session_timeout_ms <= self.max_session_timeout_ms:
            return ErrorCode.INVALID_SESSION_TIMEOUT
        return ErrorCode.NONE

    def _accepts_joining(self, group: ClassicGroup, request: JoinRequest) -> bool:
        """group.max.size: new members are refused once the group (or, rebalancing, its rejoined part) is full.

        A static member coming back under a new id takes its own place and is always accepted.
        """
        if group.state in (GroupState.EMPTY, GroupState.DEAD):
            return True
        instance_id = request.group_instance_id
        if request.member_id == UNKNOWN_MEMBER_ID and instance_id is not None and instance_id in group.static_members:
            return True
        member = group.members.get(request.member_id)
        if group.state is PREPARING:
            return (member is not None and member.awaiting_join) or group.awaiting_join_count < self.max_group_size
        return member is not None or len(group.members) < self.max_group_size

    def _join_new_member(self, group: ClassicGroup, request: JoinRequest, waiter: asyncio.Future[JoinResult]) -> None:
        if group.state is GroupState.DEAD:
            waiter.set_result(JoinResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, UNKNOWN_MEMBER_ID))
            return
        if not group.supports_protocols(request.protocol_type, (name for name, _ in request.protocols)):
            waiter.set_result(JoinResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, UNKNOWN_MEMBER_ID))
            return
        instance_id = request.group_instance_id
        new_id = f"{instance_id if instance_id is not None else request.client_id}-{uuid.uuid4()}"
        if instance_id is not None:
            old_id = group.static_members.get(instance_id)
            if old_id is not None:
                self._replace_static_member(group, old_id, new_id, request, waiter)
            else:
                self._add_member_and_rebalance(group, new_id, request, waiter)
        elif request.require_known_member_id:
            timeout_s = request.session_timeout_ms / 1000
            group.pending_members[new_id] = self.timers.call_later(timeout_s, self._expire_pending, group, new_id)
            waiter.set_result(JoinResult(ErrorCode.MEMBER_ID_REQUIRED, new_id))
        else:
            self._add_member_and_rebalance(group, new_id, request, waiter)

    def _join_existing_member(
        self, group: ClassicGroup, request: JoinRequest, waiter: asyncio.Future[JoinResult]
    ) -> None:
        member_id = request.member_id
        if group.state is GroupState.DEAD:
            waiter.set_result(JoinResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, member_id))
            return
        if not group.supports_protocols(request.protocol_type, (name for name, _ in request.protocols)):
            waiter.set_result(JoinResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id))
            return
        if member_id in group.pending_members:
            self._add_member_and_rebalance(group, member_id, request, waiter)
            return
        error = group.validate_member(member_id, request.group_instance_id)
        if error is not ErrorCode.NONE:
            waiter.set_result(JoinResult(error, member_id))
            return
        member = group.members[member_id]
        same_protocols = member.protocols == request.protocols
        if group.state is PREPARING:
            self._update_member_and_rebalance(group, member, request, waiter)
        elif group.state is COMPLETING and same_protocols:
            # it missed the JoinGroup answer of this generation: give it again
            waiter.set_result(group.join_result(member, with_members=member_id == group.leader_id))
        elif group.state is GroupState.STABLE and same_protocols and member_id != group.leader_id:
            waiter.set_result(group.join_result(member, with_members=False))
        elif group.state in (COMPLETING, GroupState.STABLE):
            self._update_member_and_rebalance(group, member, request, waiter)
        else:
            waiter.set_result(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id))

    def _add_member_and_rebalance(
        self, group: ClassicGroup, member_id: str, request: JoinRequest, waiter: asyncio.Future[JoinResult]
    ) -> None:
        member = Member(
            member_id=member_id,
            group_instance_id=request.group_instance_id,
            client_id=request.client_id,
            client_host=request.client_host,
            rebalance_timeout_ms=request.rebalance_timeout_ms,
            session_timeout_ms=request.session_timeout_ms,
            protocol_type=request.protocol_type,
            protocols=request.protocols,
            is_new=True,
            join_waiter=waiter,
        )
        if group.state is PREPARING and group.generation_id == 0:
            group.new_member_added = True
        pending_timer = group.pending_members.get(member_id)
        if pending_timer is not None:
            pending_timer.cancel()
        group.add(member)
        self._arm_session(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS)
        self._maybe_prepare_rebalance(group)

    def _update_member_and_rebalance(
        self, group: ClassicGroup, member: Member, request: JoinRequest, waiter: asyncio.Future[JoinResult]
    ) -> None:
        _update_member(member, request, waiter)
        self._maybe_prepare_rebalance(group)

    def _replace_static_member(
        self,
        group: ClassicGroup,
        old_id: str,
        new_id: str,
        request: JoinRequest,
        waiter: asyncio.Future[JoinResult],
    ) -> None:
        """A static member joins again under a new id: the old id is fenced; a Stable group keeps its assignment."""
        old = group.members[old_id]
        old.answer_join(JoinResult(ErrorCode.FENCED_INSTANCE_ID, old_id))
        old.answer_sync(SyncResult(ErrorCode.FENCED_INSTANCE_ID))
        old_leader = group.leader_id
        member = group.replace_member_id(old_id, new_id)
        _update_member(member, request, waiter)
        self._arm_session(group, member, member.session_timeout_ms)
        if group.state is GroupState.STABLE:
            if group.protocol_name == group.select_protocol():
                generation = group.generation_id

                def saved(error: ErrorCode) -> None:
                    self._answer_static_rejoin(group, member, generation, old_leader, error, request)

                self._save(group, None, saved)
            else:
                self._prepare_rebalance(group)
        elif group.state is COMPLETING:
            # the leader may be assigning to the old id: assign again
            self._prepare_rebalance(group)

    def _answer_static_rejoin(
        self,
        group: ClassicGroup,
        member: Member,
        generation: int,
        old_leader: str | None,
        error: ErrorCode,
        request: JoinRequest,
    ) -> None:
        if error is not ErrorCode.NONE:
            member.answer_join(JoinResult(error, member.member_id))
            return
        if group.generation_id != generation or group.state is not GroupState.STABLE:
            return  # a rebalance began meanwhile: the member is answered when it completes
        if request.supports_skip_assignment and group.leader_id == member.member_id:
            member.answer_join(_skip(group, member))
        elif request.supports_skip_assignment:
            member.answer_join(group.join_result(member, with_members=False))
        else:
            # the old leader id: a rejoining static leader must not assign again in a Stable group (KIP-345)
            member.answer_join(group.join_result(member, with_members=False, leader_id=old_leader or ""))

    # --- SyncGroup ---

    def sync(self, request: SyncRequest) -> asyncio.Future[SyncResult]:
        """SyncGroup: the member's assignment, once the leader has sent the generation's assignments."""
        waiter: asyncio.Future[SyncResult] = asyncio.get_running_loop().create_future()
        if self.active and request.group_id in self.consumer_group_ids and self.consumer_groups is not None:
            waiter.set_result(self.consumer_groups.classic_sync(request))
            return waiter
        group = self.groups.get(request.group_id)
        error = self._check_sync(group, request)
        if error is not ErrorCode.NONE or group is None:
            waiter.set_result(SyncResult(error))
            return waiter
        member = group.members[request.member_id]
        if group.state is PREPARING:
            waiter.set_result(SyncResult(ErrorCode.REBALANCE_IN_PROGRESS))
        elif group.state is COMPLETING:
            member.answer_sync(SyncResult(ErrorCode.REBALANCE_IN_PROGRESS))  # a repeated SyncGroup replaces one
            member.sync_waiter = waiter
            group.pending_sync.discard(member.member_id)
            if member.member_id == group.leader_id:
                self._complete_sync(group, request.assignments)
        elif group.state is GroupState.STABLE:
            group.pending_sync.discard(member.member_id)
            self._arm_session(group, member, member.session_timeout_ms)
            waiter.set_result(SyncResult(ErrorCode.NONE, member.assignment, group.protocol_type, group.protocol_name))
        else:
            waiter.set_result(SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
        return waiter

    def _check_sync(self, group: ClassicGroup | None, request: SyncRequest) -> ErrorCode:
        if not self.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if not request.group_id:
            return ErrorCode.INVALID_GROUP_ID
        if group is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        error = group.validate_member(request.member_id, request.group_instance_id)
        if error is not ErrorCode.NONE:
            return error
        if request.generation_id != group.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        if request.protocol_type is not None and request.protocol_type != group.protocol_type:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        if request.protocol_name is not None and request.protocol_name != group.protocol_name:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        return ErrorCode.NONE

    def _complete_sync(self, group: ClassicGroup, assignments: Mapping[str, bytes]) -> None:
        """The leader's assignments: save the group, then hand each member its part and turn Stable."""
        generation = group.generation_id
        full = {member_id: assignments.get(member_id, b"") for member_id in group.members}

        def saved(error: ErrorCode) -> None:
            if group.state is not COMPLETING or group.generation_id != generation:
                return  # a rebalance began meanwhile; its members were told
            if error is not ErrorCode.NONE:
                reset_and_propagate_assignment_error(group, error)
                self._maybe_prepare_rebalance(group)
                return
            for member in group.members.values():
                member.assignment = full.get(member.member_id, b"")
                if member.sync_waiter is not None:
                    member.answer_sync(
                        SyncResult(ErrorCode.NONE, member.assignment, group.protocol_type, group.protocol_name)
                    )
                    self._arm_session(group, member, member.session_timeout_ms)
            group.transition_to(GroupState.STABLE, self.clock_ms())

        self._save(group, full, saved)

    # --- Heartbeat and LeaveGroup ---

    def heartbeat(self, group_id: str, member_id: str, group_instance_id: str | None, generation_id: int) -> ErrorCode:
        if not self.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if not group_id:
            return ErrorCode.INVALID_GROUP_ID
        if group_id in self.consumer_group_ids and self.consumer_groups is not None:
            return self.consumer_groups.classic_heartbeat(group_id, member_id, group_instance_id, generation_id)
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        error = group.validate_member(member_id, group_instance_id)
        if error is not ErrorCode.NONE:
            return error
        if generation_id != group.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        if group.state is GroupState.EMPTY:
            return ErrorCode.UNKNOWN_MEMBER_ID
        member = group.members[member_id]
        self._arm_session(group, member, member.session_timeout_ms)
        return ErrorCode.REBALANCE_IN_PROGRESS if group.state is PREPARING else ErrorCode.NONE

    def leave(self, group_id: str, leaving: Sequence[LeavingMember]) -> LeaveResult:
        """LeaveGroup for one member (v0-2) or several (v3+, by member id and/or group instance id)."""
        if not self.active:
            return LeaveResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, ())
        if not group_id:
            return LeaveResult(ErrorCode.INVALID_GROUP_ID, ())
        if group_id in self.consumer_group_ids and self.consumer_groups is not None:
            return self.consumer_groups.classic_leave(group_id, leaving)
        group = self.groups.get(group_id)
        if group is None:
            unknown = ErrorCode.UNKNOWN_MEMBER_ID
            return LeaveResult(ErrorCode.NONE, tuple((m.member_id, m.group_instance_id, unknown) for m in leaving))
        if group.state is GroupState.DEAD:
            return LeaveResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, ())
        results = tuple((m.member_id, m.group_instance_id, self._leave_one(group, m)) for m in leaving)
        self._forget_if_unused(group)
        return LeaveResult(ErrorCode.NONE, results)

    def _leave_one(self, group: ClassicGroup, leaving: LeavingMember) -> ErrorCode:
        member_id = leaving.member_id
        if member_id == UNKNOWN_MEMBER_ID and leaving.group_instance_id is not None:
            found = group.static_members.get(leaving.group_instance_id)
            if found is None:
                return ErrorCode.UNKNOWN_MEMBER_ID
            member_id = found
        if member_id in group.pending_members:
            cancel(group.pending_members.pop(member_id))
            self._try_complete_join(group)
            return ErrorCode.NONE
        error = group.validate_member(member_id, leaving.group_instance_id)
        if error is not ErrorCode.NONE:
            return error
        log.info("group %s: member %s leaves (%s)", group.group_id, member_id, leaving.reason or "no reason given")
        self._remove_member_and_update_group(group, group.members[member_id])
        return ErrorCode.NONE


def _let_go(group: ClassicGroup) -> None:
    """The coordinator stops serving ``group``: waiting members learn NOT_COORDINATOR; its timers stop."""
    for member in group.members.values():
        member.answer_join(JoinResult(ErrorCode.NOT_COORDINATOR, member.member_id))
        member.answer_sync(SyncResult(ErrorCode.NOT_COORDINATOR))
    group.cancel_timers()


def _update_member(member: Member, request: JoinRequest, waiter: asyncio.Future[JoinResult]) -> None:
    member.answer_join(JoinResult(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))  # a repeated JoinGroup
    member.protocols = request.protocols
    member.rebalance_timeout_ms = request.rebalance_timeout_ms
    member.session_timeout_ms = request.session_timeout_ms
    member.client_id = request.client_id
    member.client_host = request.client_host
    member.join_waiter = waiter


def _skip(group: ClassicGroup, member: Member) -> JoinResult:
    """A static leader rejoining a Stable group (JoinGroup v9+): itself as leader, told to skip the assignment."""
    result = group.join_result(member, with_members=True)
    return JoinResult(
        result.error, result.member_id, result.generation_id, result.protocol_type, result.protocol_name,
        result.leader_id, result.members, skip_assignment=True,
    )  # fmt: skip


def _other_kind(document: Mapping[str, object]) -> bool:
    """A consumer or share group's document (the classic groups' have no ``group_type``)."""
    return is_consumer_group_document(document) or is_share_group_document(document)
