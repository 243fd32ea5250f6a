"""The rebalance machinery under the group coordinator: timers, generations, sessions, saving groups.

``Rebalancer`` holds the groups and runs what happens *to* them over time (see ``coordinator.py`` for
the timers' rules, which are Kafka's); ``GroupCoordinator`` adds the requests members send.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Protocol

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError

from ..clock import REAL_CLOCK, Clock, Timer
from ..replication import ConfirmWrite, as_written, write_error
from .group import ClassicGroup, Member
from .model import JoinRequest, JoinResult, LeaveResult, LeavingMember, SyncRequest, SyncResult
from .persistence import group_document
from .state import GroupState

log = logging.getLogger(__name__)

#: How long a member that joined may wait for its first rebalance to complete (Kafka's constant).
NEW_MEMBER_JOIN_TIMEOUT_MS = 300_000

PREPARING = GroupState.PREPARING_REBALANCE
COMPLETING = GroupState.COMPLETING_REBALANCE


class ClassicMembersOfConsumerGroups(Protocol):
    """The classic requests of members of a consumer group (``consumer_protocol/classic_members.py``)."""

    def classic_join(self, request: JoinRequest) -> asyncio.Future[JoinResult] | None: ...

    def classic_sync(self, request: SyncRequest) -> SyncResult: ...

    def classic_heartbeat(
        self, group_id: str, member_id: str, instance_id: str | None, generation_id: int
    ) -> ErrorCode: ...

    def classic_leave(self, group_id: str, leaving: Sequence[LeavingMember]) -> LeaveResult: ...


class Rebalancer:
    """The groups of this broker and the timers that move them through rebalances."""

    def __init__(
        self,
        store: MessageStore,
        *,
        min_session_timeout_ms: int,
        max_session_timeout_ms: int,
        initial_rebalance_delay_ms: int,
        max_group_size: int,
        timers: Clock = REAL_CLOCK,
    ) -> None:
        self.store = store
        self.min_session_timeout_ms = min_session_timeout_ms
        self.max_session_timeout_ms = max_session_timeout_ms
        self.initial_rebalance_delay_ms = initial_rebalance_delay_ms
        self.max_group_size = max_group_size
        self.timers = timers
        self.clock_ms = timers.now_ms
        self.groups: dict[str, ClassicGroup] = {}
        #: Group ids held by KIP-848 consumer groups (``consumer_protocol``): classic requests for one go to
        #: ``consumer_groups``, which has classic members in them.
        self.consumer_group_ids: Container[str] = frozenset()
        #: share groups' ids: a classic JoinGroup for one is INCONSISTENT_GROUP_PROTOCOL
        self.share_group_ids: Container[str] = frozenset()
        self.consumer_groups: ClassicMembersOfConsumerGroups | None = None
        #: A save's durability, also waiting for the in-sync members on a replicated leader (``GroupService``).
        self.confirm_write: ConfirmWrite = as_written
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def active(self) -> bool:
        return self._loop is not None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("the group coordinator is not started")
        return self._loop

    # --- the rebalance ---

    def _maybe_prepare_rebalance(self, group: ClassicGroup) -> None:
        if group.can_rebalance:
            self._prepare_rebalance(group)

    def _prepare_rebalance(self, group: ClassicGroup) -> None:
        if group.state is COMPLETING:
            reset_and_propagate_assignment_error(group, ErrorCode.REBALANCE_IN_PROGRESS)
        cancel(group.sync_timer)
        group.sync_timer = None
        group.pending_sync.clear()
        initial = group.state is GroupState.EMPTY
        group.transition_to(PREPARING, self.clock_ms())
        cancel(group.join_timer)
        if initial:
            delay = self.initial_rebalance_delay_ms
            self._schedule_initial_delay(group, delay, max(group.rebalance_timeout_ms - delay, 0))
        else:
            group.join_timer_is_initial_delay = False
            group.join_timer = self.timers.call_later(group.rebalance_timeout_ms / 1000, self._complete_join, group)
        self._try_complete_join(group)

    def _schedule_initial_delay(self, group: ClassicGroup, delay_ms: int, remaining_ms: int) -> None:
        group.join_timer_is_initial_delay = True
        group.join_timer = self.timers.call_later(
            delay_ms / 1000, self._initial_delay_passed, group, delay_ms, remaining_ms
        )

    def _initial_delay_passed(self, group: ClassicGroup, delay_ms: int, remaining_ms: int) -> None:
        group.join_timer = None
        if group.state is not PREPARING:
            return
        if group.new_member_added and remaining_ms > 0:
            group.new_member_added = False
            next_delay = min(self.initial_rebalance_delay_ms, remaining_ms)
            self._schedule_initial_delay(group, next_delay, max(remaining_ms - delay_ms, 0))
        else:
            self._complete_join(group)

    def _try_complete_join(self, group: ClassicGroup) -> None:
        if group.state is PREPARING and not group.join_timer_is_initial_delay and group.has_all_members_joined():
            self._complete_join(group)

    def _complete_join(self, group: ClassicGroup) -> None:
        """End PreparingRebalance: drop members that did not rejoin, start the next generation, answer the joins."""
        cancel(group.join_timer)
        group.join_timer = None
        group.join_timer_is_initial_delay = False
        if group.state is not PREPARING:
            return
        for member in group.not_yet_rejoined():
            if member.group_instance_id is None:
                member.cancel_timer()
                group.remove(member.member_id)
        if not group.maybe_elect_new_joined_leader() and group.members:
            # only static members that have not rejoined remain: wait for them (or their session expiry)
            group.join_timer = self.timers.call_later(group.rebalance_timeout_ms / 1000, self._complete_join, group)
            return
        group.init_next_generation(self.clock_ms())
        log.info(
            "group %s rebalanced: generation %d, protocol %s, %d members (leader %s)", group.group_id,
            group.generation_id, group.protocol_name, len(group.members), group.leader_id,
        )  # fmt: skip
        if group.state is GroupState.EMPTY:
            self._save(group, None, lambda error: None)
            return
        for member in group.members.values():
            if member.awaiting_join:
                member.answer_join(group.join_result(member, with_members=member.member_id == group.leader_id))
                member.is_new = False
                group.pending_sync.add(member.member_id)
                self._arm_session(group, member, member.session_timeout_ms)
        generation = group.generation_id
        group.sync_timer = self.timers.call_later(
            group.rebalance_timeout_ms / 1000, self._sync_expired, group, generation
        )

    def _sync_expired(self, group: ClassicGroup, generation: int) -> None:
        group.sync_timer = None
        if group.generation_id != generation or group.state not in (COMPLETING, GroupState.STABLE):
            return
        if not group.pending_sync:
            return
        for member_id in sorted(group.pending_sync):
            member = group.members.get(member_id)
            if member is not None:
                log.info("group %s: member %s did not sync within the rebalance timeout", group.group_id, member_id)
                member.cancel_timer()
                member.answer_sync(SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
                group.remove(member_id)
        group.pending_sync.clear()
        self._prepare_rebalance(group)

    def _expire_pending(self, group: ClassicGroup, member_id: str) -> None:
        group.pending_members.pop(member_id, None)
        self._try_complete_join(group)
        self._forget_if_unused(group)

    def _remove_member_and_update_group(self, group: ClassicGroup, member: Member) -> None:
        member.answer_join(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member.member_id))
        member.answer_sync(SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
        member.cancel_timer()
        group.remove(member.member_id)
        if group.state in (GroupState.STABLE, COMPLETING):
            self._maybe_prepare_rebalance(group)
        else:
            self._try_complete_join(group)

    # --- sessions ---

    def touch(self, group: ClassicGroup, member: Member) -> None:
        """Renew ``member``'s session (a heartbeat, or an offset commit from a member of the generation)."""
        self._arm_session(group, member, member.session_timeout_ms)

    def _arm_session(self, group: ClassicGroup, member: Member, timeout_ms: int) -> None:
        if self._loop is None:
            return  # shut down: no more timers
        member.deadline = self.timers.time() + timeout_ms / 1000
        if member.timer is not None and member.timer.when() <= member.deadline:
            return  # the timer fires first and then waits for the rest
        member.cancel_timer()
        member.timer = self.timers.call_at(member.deadline, self._session_check, group, member)

    def _session_check(self, group: ClassicGroup, member: Member) -> None:
        member.timer = None
        if group.members.get(member.member_id) is not member:
            return
        if self.timers.time() < member.deadline:
            member.timer = self.timers.call_at(member.deadline, self._session_check, group, member)
        elif (member.awaiting_join and not member.is_new) or member.sync_waiter is not None:
            self._arm_session(group, member, member.session_timeout_ms)  # it waits on us: it cannot heartbeat
        else:
            log.info("group %s: member %s session expired", group.group_id, member.member_id)
            self._remove_member_and_update_group(group, member)
            self._forget_if_unused(group)

    # --- saving and forgetting groups ---

    def _save(
        self, group: ClassicGroup, assignments: Mapping[str, bytes] | None, then: Callable[[ErrorCode], None]
    ) -> None:
        """Save ``group`` (with ``assignments`` if given); call ``then`` with NONE once durable (and held by every
        in-sync member on a replicated leader), or an error: COORDINATOR_NOT_AVAILABLE, or NOT_COORDINATOR once
        this broker no longer leads (Kafka's GroupMetadataManager maps its append errors so)."""
        try:
            durable = self.confirm_write(
                self.store.group_metadata.save(group.group_id, group_document(group, assignments))
            )
        except StoreError as exc:
            log.error("group %s could not be saved: %s", group.group_id, exc)
            then(ErrorCode.COORDINATOR_NOT_AVAILABLE)
            return
        if durable is None:
            then(ErrorCode.NONE)
            return

        def done(future: asyncio.Future[None]) -> None:
            if future.cancelled():
                then(ErrorCode.COORDINATOR_NOT_AVAILABLE)
                return
            failure = future.exception()
            then(ErrorCode.NONE if failure is None else write_error(failure, ErrorCode.COORDINATOR_NOT_AVAILABLE))

        asyncio.wrap_future(durable, loop=self.loop).add_done_callback(done)

    def _forget_if_unused(self, group: ClassicGroup) -> None:
        """Drop an Empty group that nothing refers to (no members, no saved generation, no offsets)."""
        unused = group.state is GroupState.EMPTY and group.has_no_members and group.generation_id == 0
        if unused and self.groups.get(group.group_id) is group:
            group.cancel_timers()
            del self.groups[group.group_id]

    def remove_group(self, group: ClassicGroup) -> None:
        """Make ``group`` Dead and forget it (DeleteGroups, or expiry with no offsets left)."""
        group.transition_to(GroupState.DEAD, self.clock_ms())
        group.cancel_timers()
        self.groups.pop(group.group_id, None)
        self.store.group_metadata.delete(group.group_id)


def reset_and_propagate_assignment_error(group: ClassicGroup, error: ErrorCode) -> None:
    for member in group.members.values():
        member.assignment = b""
        member.answer_sync(SyncResult(error))


def cancel(handle: Timer | None) -> None:
    if handle is not None:
        handle.cancel()
