"""Consumer groups with members speaking the classic protocol: the online upgrade and downgrade (KIP-848).

``MixedGroupCoordinator`` is the consumer group coordinator plus what KIP-848 adds for groups in migration
(the conversions and their rules are in ``migration.py``). A classic member of a consumer group keeps its
JoinGroup / SyncGroup / Heartbeat / LeaveGroup flow; the broker's assignor decides its partitions and the
reconciliation rules are the consumer protocol's (revoke before assign):

- **JoinGroup**: a new dynamic member first gets MEMBER_ID_REQUIRED (v4+) with its id. The member's
  subscription (topics, rack) and owned partitions are read from its first protocol's metadata (the protocol
  type must be ``consumer``: INCONSISTENT_GROUP_PROTOCOL otherwise); a changed subscription bumps the group
  epoch. The member reconciles at once, reporting the partitions its subscription says it owns (none for eager
  assignors, which give up everything before rejoining). The answer: generation = its member epoch, protocol =
  its first, no leader (the broker assigns: every classic member is a follower), once the group is saved.
- **SyncGroup**: its assigned partitions (as ConsumerProtocolAssignment at its protocol's version), after
  UNKNOWN_MEMBER_ID / FENCED_INSTANCE_ID, ILLEGAL_GENERATION (not its member epoch), INCONSISTENT_GROUP_PROTOCOL,
  and REBALANCE_IN_PROGRESS when the group epoch moved past it (unless it is revoking).
- **Heartbeat**: ILLEGAL_GENERATION off its member epoch; REBALANCE_IN_PROGRESS when it must rejoin: the
  group epoch moved past it, it must revoke partitions, or the partitions it waits for are free now. A member
  told to rejoin that does not within its rebalance timeout is removed, as is one that joined and does not send
  SyncGroup within it.
- **LeaveGroup**: removes the member (by member id or instance id), bumping the group epoch.
- Sessions are the members' own ``session.timeout.ms`` from JoinGroup. OffsetCommit checks a classic member's
  generation against its member epoch (ILLEGAL_GENERATION, ``ConsumerGroupCoordinator.check_commit``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import uuid
from collections.abc import Callable, Sequence

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.errors import DecodeError
from rockafka.store import MessageStore, TopicInfo

from ...clock import REAL_CLOCK, Clock
from ...replication import write_error
from ..model import UNKNOWN_MEMBER_ID, JoinRequest, JoinResult, LeaveResult, LeavingMember, SyncRequest, SyncResult
from .configs import GroupConfigs
from .coordinator import ClassicGroups, ConsumerGroupCoordinator
from .migration import (
    CONSUMER_PROTOCOL_TYPE,
    MigrationPolicy,
    classic_group_from_consumer,
    consumer_group_from_classic,
    owned_partitions,
    protocol_version,
    read_subscription,
    write_assignment,
)
from .model import (
    Assignment,
    ClassicMembership,
    ConsumerGroup,
    ConsumerMember,
    MemberState,
    assignment_partitions,
    grouped,
)
from .requests import HeartbeatRefused, HeartbeatRequest

log = logging.getLogger(__name__)


class MixedGroupCoordinator(ConsumerGroupCoordinator):
    """Consumer groups, with the online migration of live groups and their classic members."""

    def __init__(
        self,
        store: MessageStore,
        *,
        migration_policy: MigrationPolicy,
        configs: GroupConfigs,
        assignors: tuple[str, ...],
        max_size: int,
        classic: ClassicGroups,
        clock_ms: Callable[[], int],
        timers: Clock = REAL_CLOCK,
    ) -> None:
        super().__init__(
            store, configs=configs, assignors=assignors, max_size=max_size, classic=classic, clock_ms=clock_ms,
            timers=timers,
        )  # fmt: skip
        self.migration_policy = migration_policy

    # --- the upgrade (a consumer-protocol member joins a live classic group) ---

    def _group_for(self, request: HeartbeatRequest) -> ConsumerGroup:
        if request.group_id not in self.groups and request.member_epoch == 0:
            classic = self._classic.get(request.group_id)
            if classic is not None and classic.members:
                self._upgrade(request.group_id)
        return super()._group_for(request)

    def _upgrade(self, group_id: str) -> None:
        classic = self._classic.get(group_id)
        assert classic is not None
        refused = f"Cannot upgrade the classic group {group_id} to a consumer group"
        if not self.migration_policy.allows_upgrade:
            message = f"{refused}: group.consumer.migration.policy is {self.migration_policy.value}."
            raise HeartbeatRefused(ErrorCode.GROUP_ID_NOT_FOUND, message)
        if classic.protocol_type != CONSUMER_PROTOCOL_TYPE:
            message = f"{refused}: its protocol type is {classic.protocol_type!r}, not the consumer protocol."
            raise HeartbeatRefused(ErrorCode.GROUP_ID_NOT_FOUND, message)
        if len(classic.members) > self._max_size:
            raise HeartbeatRefused(ErrorCode.GROUP_ID_NOT_FOUND, f"{refused}: it has more members than allowed.")
        try:
            group = consumer_group_from_classic(classic, self._topics_by_name(), self._clock_ms())
        except DecodeError:
            message = f"{refused}: a member's embedded consumer protocol is malformed."
            raise HeartbeatRefused(ErrorCode.GROUP_ID_NOT_FOUND, message) from None
        self._classic.detach(group_id)
        self.groups[group_id] = group
        for member in group.members.values():
            self._arm_session(group, member)
        log.info("classic group %s (%d members) becomes a consumer group", group_id, len(group.members))

    # --- the downgrade (the last consumer-protocol member leaves) ---

    def _remove(self, group: ConsumerGroup, member: ConsumerMember, *, bump: bool = True) -> None:
        if bump and member.classic is None and self._may_downgrade(group, member):
            self._downgrade(group, member)
        else:
            super()._remove(group, member, bump=bump)

    def _may_downgrade(self, group: ConsumerGroup, leaving: ConsumerMember) -> bool:
        others = [m for m in group.members.values() if m is not leaving]
        if not others or any(m.classic is None for m in others):
            return False
        if not self.migration_policy.allows_downgrade:
            log.info("group %s keeps the consumer protocol: the online downgrade is disabled", group.group_id)
            return False
        return len(others) <= self._classic.max_size

    def _downgrade(self, group: ConsumerGroup, leaving: ConsumerMember) -> None:
        classic = classic_group_from_consumer(group, leaving.member_id, self._clock_ms())
        for member in group.members.values():
            member.cancel_timers()
        del self.groups[group.group_id]
        log.info("consumer group %s becomes a classic group (%d members)", group.group_id, len(classic.members))
        self._classic.adopt(classic)

    # --- sessions: a classic member's own timeout ---

    def _arm_session(self, group: ConsumerGroup, member: ConsumerMember) -> None:
        if member.classic is None:
            super()._arm_session(group, member)
            return
        if member.session_timer is not None:
            member.session_timer.cancel()
        timeout_s = member.classic.session_timeout_ms / 1000
        member.session_timer = self._started_timers.call_later(timeout_s, self._session_expired, group, member)

    # --- JoinGroup ---

    def classic_join(self, request: JoinRequest) -> asyncio.Future[JoinResult] | None:
        """A classic member's JoinGroup for a consumer group; None when the group is empty (it becomes classic)."""
        group = self.groups.get(request.group_id)
        if group is None:
            return None
        if not group.members:
            self.delete(group.group_id)
            log.info("empty consumer group %s becomes a classic group", request.group_id)
            return None
        try:
            result, durable = self._classic_join(group, request)
        except HeartbeatRefused as exc:
            result, durable = JoinResult(exc.error, request.member_id), None
        return _answer_when_durable(result, durable)

    def _classic_join(
        self, group: ConsumerGroup, request: JoinRequest
    ) -> tuple[JoinResult, concurrent.futures.Future[None] | None]:
        member_id = request.member_id or f"{request.client_id}-{uuid.uuid4()}"
        if request.protocol_type != CONSUMER_PROTOCOL_TYPE or not request.protocols:
            raise HeartbeatRefused(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, "not the consumer protocol")
        try:
            subscription = read_subscription(request.protocols[0][1])
        except DecodeError:
            raise HeartbeatRefused(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, "malformed subscription") from None
        if request.member_id == UNKNOWN_MEMBER_ID and request.require_known_member_id:
            return JoinResult(ErrorCode.MEMBER_ID_REQUIRED, member_id), None
        member, changed = self._classic_member_joining(group, member_id, request)
        member.classic = ClassicMembership(request.session_timeout_ms, request.protocols)
        member.rebalance_timeout_ms = request.rebalance_timeout_ms
        member.client_id, member.client_host = request.client_id, request.client_host
        member.rack_id = subscription.rack_id
        topics = tuple(sorted(set(subscription.topics)))
        changed |= topics != member.subscribed_topic_names
        member.subscribed_topic_names = topics
        _stop_rebalance_deadline(member)
        if changed:
            self.subscriptions.refresh(group, self._store.topics.list())
            self._bump(group)
        if group.assignment_epoch < group.group_epoch:
            self.subscriptions.assign(group)
        owned = owned_partitions(subscription, self._topics_by_name())
        _release_unreported(group, member, owned)
        self._reconcile(group, member, owned)
        self._arm_session(group, member)
        self._start_rebalance_deadline(group, member, "did not send SyncGroup within its rebalance timeout")
        protocol = member.classic.protocol_name
        result = JoinResult(ErrorCode.NONE, member_id, member.member_epoch, CONSUMER_PROTOCOL_TYPE, protocol)
        return result, self._save(group)

    def _classic_member_joining(
        self, group: ConsumerGroup, member_id: str, request: JoinRequest
    ) -> tuple[ConsumerMember, bool]:
        """The member a classic JoinGroup is from, and whether it is new to the group."""
        instance_id = request.group_instance_id
        holder = group.static_member(instance_id) if instance_id is not None else None
        if holder is not None and holder.member_id != member_id:
            if request.member_id != UNKNOWN_MEMBER_ID:
                raise HeartbeatRefused(ErrorCode.FENCED_INSTANCE_ID, f"{instance_id} is another member")
            super()._remove(group, holder, bump=False)  # a static member back under a new id replaces itself
        member = group.members.get(member_id)
        if member is not None:
            if member.classic is None:
                raise HeartbeatRefused(ErrorCode.UNKNOWN_MEMBER_ID, f"{member_id} uses the consumer protocol")
            return member, False
        if len(group.members) >= self._max_size:
            raise HeartbeatRefused(ErrorCode.GROUP_MAX_SIZE_REACHED, f"The group {group.group_id} is full.")
        member = ConsumerMember(
            member_id=member_id,
            instance_id=instance_id,
            rack_id=None,
            client_id=request.client_id,
            client_host=request.client_host,
            rebalance_timeout_ms=request.rebalance_timeout_ms,
        )
        group.members[member_id] = member
        return member, True

    # --- SyncGroup, Heartbeat, LeaveGroup ---

    def classic_sync(self, request: SyncRequest) -> SyncResult:
        group = self.groups[request.group_id]
        try:
            member = _classic_member(group, request.member_id, request.group_instance_id)
        except HeartbeatRefused as exc:
            return SyncResult(exc.error)
        assert member.classic is not None
        protocol = member.classic.protocol_name
        if request.generation_id != member.member_epoch:
            return SyncResult(ErrorCode.ILLEGAL_GENERATION)
        if request.protocol_type not in (None, CONSUMER_PROTOCOL_TYPE) or request.protocol_name not in (None, protocol):
            return SyncResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        if group.group_epoch > member.member_epoch and member.state is not MemberState.UNREVOKED_PARTITIONS:
            return SyncResult(ErrorCode.REBALANCE_IN_PROGRESS)
        self._arm_session(group, member)
        _stop_rebalance_deadline(member)
        names = {topic_id: name for name, (topic_id, _) in group.topics.items()}
        version = protocol_version(member.classic.protocols[0][1])
        assignment = write_assignment(member.assigned, names, version)
        return SyncResult(ErrorCode.NONE, assignment, CONSUMER_PROTOCOL_TYPE, protocol)

    def classic_heartbeat(
        self, group_id: str, member_id: str, instance_id: str | None, generation_id: int
    ) -> ErrorCode:
        group = self.groups[group_id]
        try:
            member = _classic_member(group, member_id, instance_id)
        except HeartbeatRefused as exc:
            return exc.error
        if generation_id != member.member_epoch:
            return ErrorCode.ILLEGAL_GENERATION
        self._arm_session(group, member)
        waiting = {p for p in assignment_partitions(group.target.get(member.member_id, {})) if p not in member.owned()}
        must_rejoin = (
            member.member_epoch < group.group_epoch
            or member.state is MemberState.UNREVOKED_PARTITIONS
            or (member.state is MemberState.UNRELEASED_PARTITIONS
                and all(group.is_free_for(member.member_id, p) for p in waiting))
        )  # fmt: skip
        if not must_rejoin:
            return ErrorCode.NONE
        self._start_rebalance_deadline(group, member, "did not rejoin within its rebalance timeout")
        return ErrorCode.REBALANCE_IN_PROGRESS

    def _start_rebalance_deadline(self, group: ConsumerGroup, member: ConsumerMember, why: str) -> None:
        """Remove ``member`` unless it rejoins or syncs (whichever it owes) within its rebalance timeout."""
        if member.rebalance_timer is None:
            timeout_s = member.rebalance_timeout_ms / 1000
            timers = self._started_timers
            member.rebalance_timer = timers.call_later(timeout_s, self._rebalance_expired, group, member, why)

    def _rebalance_expired(self, group: ConsumerGroup, member: ConsumerMember, why: str) -> None:
        member.rebalance_timer = None
        self._expel(group, member, why)

    def classic_leave(self, group_id: str, leaving: Sequence[LeavingMember]) -> LeaveResult:
        group = self.groups[group_id]
        results: list[tuple[str, str | None, ErrorCode]] = []
        for entry in leaving:
            try:
                member = _classic_member(group, entry.member_id, entry.group_instance_id, by_instance=True)
            except HeartbeatRefused as exc:
                results.append((entry.member_id, entry.group_instance_id, exc.error))
                continue
            log.info("group %s: classic member %s leaves (%s)", group_id, member.member_id, entry.reason or "")
            self._remove(group, member)
            results.append((member.member_id, entry.group_instance_id, ErrorCode.NONE))
        if any(error is ErrorCode.NONE for _, _, error in results):
            self._save(group)
        return LeaveResult(ErrorCode.NONE, tuple(results))

    def _topics_by_name(self) -> dict[str, TopicInfo]:
        return {topic.name: topic for topic in self._store.topics.list()}


def _stop_rebalance_deadline(member: ConsumerMember) -> None:
    if member.rebalance_timer is not None:
        member.rebalance_timer.cancel()
        member.rebalance_timer = None


def _release_unreported(group: ConsumerGroup, member: ConsumerMember, owned: Assignment) -> None:
    """A classic member joining owns only what its subscription says (nothing, for eager assignors, which give
    up every partition before they rejoin): what it no longer owns is free for others at once, and what its
    target still holds is handed back by the reconciliation that follows (a Stable member is made to wait for it)."""
    reported = assignment_partitions(owned)
    held = assignment_partitions(member.assigned) | assignment_partitions(member.revoking)
    if held - reported:
        assigned = grouped(assignment_partitions(member.assigned) & reported)
        group.set_owned(member, assigned, grouped(assignment_partitions(member.revoking) & reported))
        if member.state is MemberState.STABLE:
            member.state = MemberState.UNRELEASED_PARTITIONS


def _classic_member(
    group: ConsumerGroup, member_id: str, instance_id: str | None, *, by_instance: bool = False
) -> ConsumerMember:
    """The classic member a request names: UNKNOWN_MEMBER_ID (or one using the consumer protocol), or
    FENCED_INSTANCE_ID (its instance id held under another member id)."""
    if instance_id is None:
        member = group.members.get(member_id)
    else:
        member = group.static_member(instance_id)
        fenced = member is not None and member.member_id != member_id
        if fenced and not (by_instance and member_id == UNKNOWN_MEMBER_ID):
            raise HeartbeatRefused(ErrorCode.FENCED_INSTANCE_ID, f"{instance_id} is another member")
    if member is None or member.classic is None:
        raise HeartbeatRefused(ErrorCode.UNKNOWN_MEMBER_ID, f"{member_id} is not a classic member of the group")
    return member


def _answer_when_durable(
    result: JoinResult, durable: concurrent.futures.Future[None] | None
) -> asyncio.Future[JoinResult]:
    answer: asyncio.Future[JoinResult] = asyncio.get_running_loop().create_future()
    if durable is None:
        answer.set_result(result)
        return answer

    def done(future: asyncio.Future[None]) -> None:
        failure = asyncio.CancelledError() if future.cancelled() else future.exception()
        if not answer.done():
            error = None if failure is None else write_error(failure, ErrorCode.COORDINATOR_NOT_AVAILABLE)
            answer.set_result(result if error is None else JoinResult(error, result.member_id))

    asyncio.wrap_future(durable).add_done_callback(done)
    return answer
