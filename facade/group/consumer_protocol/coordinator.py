"""The KIP-848 consumer group coordinator: ConsumerGroupHeartbeat over member epochs and server-side assignment.

Every request is a heartbeat (``heartbeat``); its member epoch says what it is:

- **0: join** (or rejoin after being fenced). The member id is the client's (v1, KIP-1082) or, in v0 with an
  empty id, one the broker makes. A dynamic member rejoining under its old id starts afresh (it released its
  partitions when it was fenced). A static member (``InstanceId``) whose previous incarnation left with
  epoch -2 takes its place: its epoch and partitions, without a new assignment; an instance id another
  live member holds is refused with UNRELEASED_INSTANCE_ID.
- **-1: leave**: the member is removed and the group epoch bumped. **-2: a static member leaves for a while**:
  it keeps its partitions (no one else gets them) until it rejoins or its session ends.
- **> 0: heartbeat**: the epoch must be the member's (or its previous one with owned partitions within its
  assignment, when an answer was lost), else FENCED_MEMBER_EPOCH; an unknown member id gets UNKNOWN_MEMBER_ID;
  a static member's id not the instance's current one gets FENCED_INSTANCE_ID. The client rejoins on these.

On a heartbeat, a changed subscription or assignor, or changed subscribed topics (``subscriptions.py``),
bumps the group epoch; a group epoch past the assignment epoch computes a new target assignment at once;
then the member reconciles towards its target (``reconciliation.py``: revoke before assign). The answer
carries the member's partitions when they changed, and in full for a full request (a join, or one with
every field set). A member that must revoke partitions and does not within its rebalance timeout is removed,
as is one that sends no heartbeat within ``group.consumer.session.timeout.ms``;
``group.consumer.heartbeat.interval.ms`` is the interval members are told to keep (a group's own
``consumer.session.timeout.ms`` and ``consumer.heartbeat.interval.ms`` group configs first), except that a member
waiting for partitions others are revoking is told a fiftieth of it (at least 10 ms) until it has them: the
protocol lets the broker set the interval on every answer, and this keeps a moved partition idle for about
one revocation rather than up to a whole interval (Kafka tells every member the configured interval).

A group id held by a classic group with members is refused here with GROUP_ID_NOT_FOUND; ``classic_members.py``
extends this coordinator with the online upgrade of such a group (and the downgrade back) and the classic
members of upgraded groups. An Empty classic group is converted (its offsets stay). The group is
saved (``persistence.py``) whenever a request or a timer changes it; the answer waits for durability under
the sync flush policy. Everything runs on the broker's event loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import uuid
from collections.abc import Callable

from rockafka.facade.config.group import HEARTBEAT_INTERVAL, SESSION_TIMEOUT
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError

from ...clock import REAL_CLOCK, Clock
from ...replication import ConfirmWrite, as_written
from ..group import ClassicGroup
from .configs import GroupConfigs
from .model import (
    LEAVE_EPOCH,
    STATIC_LEAVE_EPOCH,
    Assignment,
    ConsumerGroup,
    ConsumerMember,
    MemberState,
    assignment_partitions,
)
from .persistence import ConsumerGroupDocumentError, group_document, is_consumer_group_document, load_group
from .reconciliation import reconcile
from .requests import HeartbeatRefused, HeartbeatRequest, HeartbeatResult
from .subscriptions import InvalidRegexError, Subscriptions

log = logging.getLogger(__name__)

#: The shortest heartbeat interval a member waiting for released partitions is told.
UNRELEASED_INTERVAL_MIN_MS = 10
#: A member waiting for released partitions is told this fraction of the heartbeat interval (bench.rebalance).
UNRELEASED_INTERVAL_DIVISOR = 50

#: Kafka's code for a subscription regex that does not compile (4.0).
INVALID_REGULAR_EXPRESSION = ErrorCode.INVALID_REGULAR_EXPRESSION


class ClassicGroups:
    """What the consumer coordinator asks of the classic one about a group id both could hold."""

    def __init__(
        self,
        has_members: Callable[[str], bool | None],
        drop_empty: Callable[[str], None],
        *,
        get: Callable[[str], ClassicGroup | None] = lambda group_id: None,
        detach: Callable[[str], None] = lambda group_id: None,
        adopt: Callable[[ClassicGroup], None] = lambda group: None,
        max_size: int = 0,
    ) -> None:
        #: None: no classic group of that id; else whether it has members.
        self.has_members = has_members
        self.drop_empty = drop_empty
        #: The live classic group of an id (an online upgrade reads it, then detaches it: its waiting members are
        #: answered REBALANCE_IN_PROGRESS and its timers stop).
        self.get = get
        self.detach = detach
        #: Serve a group an online downgrade made: its members' sessions start and it rebalances.
        self.adopt = adopt
        #: ``group.max.size``: a downgrade leaving more members than this does not happen.
        self.max_size = max_size


class ConsumerGroupCoordinator:
    def __init__(
        self,
        store: MessageStore,
        *,
        configs: GroupConfigs,
        assignors: tuple[str, ...],
        max_size: int,
        classic: ClassicGroups,
        clock_ms: Callable[[], int],
        timers: Clock = REAL_CLOCK,
    ) -> None:
        self._store = store
        self._timers = timers
        #: Each group's session timeout and heartbeat interval: its group configs, else the broker's settings.
        self.configs = configs
        self.subscriptions = Subscriptions(assignors)
        self._max_size = max_size
        self._classic = classic
        self._clock_ms = clock_ms
        self.groups: dict[str, ConsumerGroup] = {}
        #: A save's durability, also waiting for the in-sync members on a replicated leader (``GroupService``).
        self.confirm_write: ConfirmWrite = as_written
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- lifecycle ---

    @property
    def active(self) -> bool:
        return self._loop is not None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        loaded = self.load(lambda group_id: True)
        if loaded:
            log.info("loaded %d consumer groups", loaded)

    def load(self, wanted: Callable[[str], bool]) -> int:
        loaded = 0
        for group_id, document in sorted(self._store.group_metadata.documents().items()):
            if group_id in self.groups or not wanted(group_id) or not is_consumer_group_document(document):
                continue
            try:
                group = load_group(group_id, document)
            except ConsumerGroupDocumentError as exc:
                log.error("consumer group %r is not loaded: %s", group_id, exc)
                continue
            self.groups[group_id] = group
            for member in group.members.values():
                self._arm_session(group, member)
            loaded += 1
        return loaded

    def unload(self, wanted: Callable[[str], bool]) -> int:
        leaving = [group for group_id, group in self.groups.items() if wanted(group_id)]
        for group in leaving:
            for member in group.members.values():
                member.cancel_timers()
            del self.groups[group.group_id]
        return len(leaving)

    def shutdown(self) -> None:
        self.unload(lambda group_id: True)
        self._loop = None

    # --- ConsumerGroupHeartbeat ---

    def heartbeat(self, request: HeartbeatRequest) -> tuple[HeartbeatResult, concurrent.futures.Future[None] | None]:
        """The answer, and a future done once the group's change is durable (None: nothing to wait for)."""
        if not self.active:
            return HeartbeatResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the coordinator is not started"), None
        try:
            self._check_request(request)
            group = self._group_for(request)
            before = _fingerprint(group, request)
            if request.member_epoch in (LEAVE_EPOCH, STATIC_LEAVE_EPOCH):
                result = self._leave(group, request)
            else:
                result = self._beat(group, request)
        except HeartbeatRefused as exc:
            return HeartbeatResult(exc.error, exc.message), None
        if _fingerprint(group, request) == before:
            return result, None
        try:
            return result, self._save(group)
        except StoreError as exc:
            log.error("consumer group %s could not be saved: %s", group.group_id, exc)
            return HeartbeatResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the group could not be saved"), None

    def _check_request(self, request: HeartbeatRequest) -> None:
        invalid = ErrorCode.INVALID_REQUEST
        if not request.group_id:
            raise HeartbeatRefused(invalid, "GroupId can't be empty.")
        if request.member_epoch < STATIC_LEAVE_EPOCH:
            raise HeartbeatRefused(invalid, f"MemberEpoch {request.member_epoch} is not valid.")
        if not request.member_id and (request.member_epoch != 0 or request.client_makes_member_id):
            raise HeartbeatRefused(invalid, "MemberId can't be empty.")
        if request.member_epoch == 0:
            if request.rebalance_timeout_ms <= 0:
                raise HeartbeatRefused(invalid, "RebalanceTimeoutMs must be provided in first request.")
            if request.owned is None or request.owned:
                raise HeartbeatRefused(invalid, "TopicPartitions must be empty when (re-)joining.")
            if request.subscribed_topic_names is None and request.subscribed_topic_regex is None:
                raise HeartbeatRefused(
                    invalid, "SubscribedTopicNames or SubscribedTopicRegex must be set when joining."
                )
        assignor = request.server_assignor
        if assignor is not None and assignor not in self.subscriptions.assignors:
            supported = ", ".join(self.subscriptions.assignors)
            message = f"ServerAssignor {assignor} is not supported. Supported assignors: {supported}."
            raise HeartbeatRefused(ErrorCode.UNSUPPORTED_ASSIGNOR, message)
        if request.subscribed_topic_regex:
            try:
                self.subscriptions.compile(request.subscribed_topic_regex)
            except InvalidRegexError as exc:
                raise HeartbeatRefused(INVALID_REGULAR_EXPRESSION, str(exc)) from None

    def _group_for(self, request: HeartbeatRequest) -> ConsumerGroup:
        group = self.groups.get(request.group_id)
        if group is not None:
            return group
        if request.member_epoch != 0:
            raise _unknown_member(request.group_id, request.member_id)
        classic_members = self._classic.has_members(request.group_id)
        if classic_members:
            message = f"Group {request.group_id} is a classic group with members: upgrading it is not supported."
            raise HeartbeatRefused(ErrorCode.GROUP_ID_NOT_FOUND, message)
        if classic_members is not None:
            self._classic.drop_empty(request.group_id)
            log.info("empty classic group %s becomes a consumer group", request.group_id)
        group = self.groups[request.group_id] = ConsumerGroup(request.group_id, self._clock_ms())
        return group

    def _beat(self, group: ConsumerGroup, request: HeartbeatRequest) -> HeartbeatResult:
        if request.member_epoch == 0:
            member, changed = self._join(group, request)
        else:
            member, changed = self._known_member(group, request), False
        before = member.assigned
        changed |= self._update_subscription(member, request)
        now = self._started_timers.time()
        if changed or now - group.topics_checked_at >= self.configs.value(group.group_id, HEARTBEAT_INTERVAL) / 1000:
            group.topics_checked_at = now
            changed |= self.subscriptions.refresh(group, self._store.topics.list())
        if changed:
            self._bump(group)  # once, whatever changed
        if group.assignment_epoch < group.group_epoch:
            self.subscriptions.assign(group)
        self._reconcile(group, member, request.owned)
        self._arm_session(group, member)
        every_field = request.subscribed_topic_names is not None and request.owned is not None
        full = request.member_epoch == 0 or (request.rebalance_timeout_ms != -1 and every_field)
        return HeartbeatResult(
            ErrorCode.NONE,
            member_id=member.member_id,
            member_epoch=member.member_epoch,
            heartbeat_interval_ms=self._interval_for(group, member),
            assignment=member.assigned if full or member.assigned != before else None,
        )

    def _interval_for(self, group: ConsumerGroup, member: ConsumerMember) -> int:
        """The heartbeat interval to tell ``member``: a fiftieth (at least 10 ms) while it waits for partitions other
        members are revoking, so it takes them soon after they are released; the configured one otherwise.

        bench.rebalance measured the cost of waiting: with a tenth (50 ms at a 500 ms interval) the new owner took
        30-75 ms from the old owner's revocation to its assignment, with a fiftieth about 10 ms (librdkafka keeps
        the interval it is told; the old owner acknowledges a revocation within a few ms). While it waits, a
        member sends at most fifty heartbeats per interval, for as long as the others take to revoke (at most
        their own next heartbeat)."""
        interval = self.configs.value(group.group_id, HEARTBEAT_INTERVAL)
        if member.state is MemberState.UNRELEASED_PARTITIONS:
            return min(interval, max(UNRELEASED_INTERVAL_MIN_MS, interval // UNRELEASED_INTERVAL_DIVISOR))
        return interval

    def _join(self, group: ConsumerGroup, request: HeartbeatRequest) -> tuple[ConsumerMember, bool]:
        """The member joining, and whether it is new to the group (a static member taking its place is not)."""
        member_id = request.member_id or str(uuid.uuid4())
        if request.instance_id is not None:
            holder = group.static_member(request.instance_id)
            if holder is not None and holder.member_epoch == STATIC_LEAVE_EPOCH:
                return self._replace_static(group, holder, member_id, request), False
            if holder is not None and holder.member_id != member_id:
                message = f"Static member {request.instance_id} is still in use by another member."
                raise HeartbeatRefused(ErrorCode.UNRELEASED_INSTANCE_ID, message)
        old = group.members.get(member_id)
        if old is not None:
            self._remove(group, old, bump=False)  # fenced earlier: it released its partitions and starts afresh
        if len(group.members) >= self._max_size:
            raise HeartbeatRefused(ErrorCode.GROUP_MAX_SIZE_REACHED, f"The group {group.group_id} is full.")
        member = ConsumerMember(
            member_id=member_id,
            instance_id=request.instance_id,
            rack_id=request.rack_id,
            client_id=request.client_id,
            client_host=request.client_host,
            rebalance_timeout_ms=request.rebalance_timeout_ms,
        )
        group.members[member_id] = member
        return member, old is None

    def _replace_static(
        self, group: ConsumerGroup, away: ConsumerMember, member_id: str, request: HeartbeatRequest
    ) -> ConsumerMember:
        """A static member back under a new id takes the place, epoch and partitions of its last incarnation."""
        away.cancel_timers()
        member = ConsumerMember(
            member_id=member_id,
            instance_id=away.instance_id,
            rack_id=request.rack_id,
            client_id=request.client_id,
            client_host=request.client_host,
            rebalance_timeout_ms=request.rebalance_timeout_ms,
            subscribed_topic_names=away.subscribed_topic_names,
            subscribed_topic_regex=away.subscribed_topic_regex,
            server_assignor=away.server_assignor,
            member_epoch=away.previous_member_epoch,
            previous_member_epoch=away.previous_member_epoch,
            state=away.state,
        )
        assigned, revoking = away.assigned, away.revoking
        group.set_owned(away, {}, {})
        del group.members[away.member_id]
        group.members[member_id] = member
        group.target[member_id] = group.target.pop(away.member_id, {})
        group.set_owned(member, assigned, revoking)
        log.info("group %s: static member %s is back as %s", group.group_id, away.instance_id, member_id)
        return member

    def _known_member(self, group: ConsumerGroup, request: HeartbeatRequest) -> ConsumerMember:
        member = group.members.get(request.member_id)
        if member is None:
            raise _unknown_member(group.group_id, request.member_id)
        if request.instance_id is not None and member.instance_id != request.instance_id:
            message = f"Member {request.member_id} is not static member {request.instance_id}."
            raise HeartbeatRefused(ErrorCode.FENCED_INSTANCE_ID, message)
        epoch = request.member_epoch
        lost_answer = (
            epoch == member.previous_member_epoch
            and request.owned is not None
            and assignment_partitions(request.owned) <= assignment_partitions(member.assigned)
        )
        if epoch > member.member_epoch or (epoch < member.member_epoch and not lost_answer):
            message = f"The member epoch {epoch} is not the current one ({member.member_epoch})."
            raise HeartbeatRefused(ErrorCode.FENCED_MEMBER_EPOCH, message)
        return member

    def _update_subscription(self, member: ConsumerMember, request: HeartbeatRequest) -> bool:
        """Take the fields the heartbeat sets; True if the subscription or the assignor changed."""
        before = (member.subscribed_topic_names, member.subscribed_topic_regex, member.server_assignor)
        if request.subscribed_topic_names is not None:
            member.subscribed_topic_names = tuple(sorted(set(request.subscribed_topic_names)))
        if request.subscribed_topic_regex is not None:
            member.subscribed_topic_regex = request.subscribed_topic_regex or None
        if request.server_assignor is not None:
            member.server_assignor = request.server_assignor
        if request.rebalance_timeout_ms > 0:
            member.rebalance_timeout_ms = request.rebalance_timeout_ms
        if request.rack_id is not None:
            member.rack_id = request.rack_id
        return before != (member.subscribed_topic_names, member.subscribed_topic_regex, member.server_assignor)

    def _reconcile(self, group: ConsumerGroup, member: ConsumerMember, reported: Assignment | None) -> None:
        step = reconcile(
            member,
            group.assignment_epoch,
            group.target.get(member.member_id, {}),
            reported,
            lambda partition: group.is_free_for(member.member_id, partition),
        )
        if step.member_epoch != member.member_epoch:
            member.previous_member_epoch, member.member_epoch = member.member_epoch, step.member_epoch
        was_revoking = member.state is MemberState.UNREVOKED_PARTITIONS
        member.state = step.state
        group.set_owned(member, dict(step.assigned), dict(step.revoking))
        if step.state is MemberState.UNREVOKED_PARTITIONS and not was_revoking:
            timeout_s = member.rebalance_timeout_ms / 1000
            timers = self._started_timers
            member.revocation_timer = timers.call_later(timeout_s, self._revocation_expired, group, member)
        elif step.state is not MemberState.UNREVOKED_PARTITIONS and member.revocation_timer is not None:
            member.revocation_timer.cancel()
            member.revocation_timer = None

    def _leave(self, group: ConsumerGroup, request: HeartbeatRequest) -> HeartbeatResult:
        member = group.members.get(request.member_id)
        if member is None and request.instance_id is not None:
            member = group.static_member(request.instance_id)
        if member is None:
            raise _unknown_member(group.group_id, request.member_id)
        if request.member_epoch == STATIC_LEAVE_EPOCH and member.instance_id is not None:
            if member.member_epoch != STATIC_LEAVE_EPOCH:
                member.previous_member_epoch, member.member_epoch = member.member_epoch, STATIC_LEAVE_EPOCH
            log.info("group %s: static member %s left for now", group.group_id, member.instance_id)
        else:
            self._remove(group, member)
            log.info("group %s: member %s left", group.group_id, member.member_id)
        return HeartbeatResult(ErrorCode.NONE, member_id=member.member_id, member_epoch=request.member_epoch)

    # --- membership changes over time ---

    def _bump(self, group: ConsumerGroup) -> None:
        group.group_epoch += 1
        group.state_timestamp_ms = self._clock_ms()

    def _remove(self, group: ConsumerGroup, member: ConsumerMember, *, bump: bool = True) -> None:
        member.cancel_timers()
        group.set_owned(member, {}, {})
        del group.members[member.member_id]
        group.target.pop(member.member_id, None)
        if bump:
            self._bump(group)

    @property
    def _started_timers(self) -> Clock:
        """The broker's timers (its clock: real, or a test's), once the coordinator has started."""
        if self._loop is None:
            raise RuntimeError("the consumer group coordinator is not started")
        return self._timers

    def _arm_session(self, group: ConsumerGroup, member: ConsumerMember) -> None:
        if member.session_timer is not None:
            member.session_timer.cancel()
        timeout_s = self.configs.value(group.group_id, SESSION_TIMEOUT) / 1000
        member.session_timer = self._started_timers.call_later(timeout_s, self._session_expired, group, member)

    def _session_expired(self, group: ConsumerGroup, member: ConsumerMember) -> None:
        self._expel(group, member, "session expired")

    def _revocation_expired(self, group: ConsumerGroup, member: ConsumerMember) -> None:
        self._expel(group, member, "did not revoke its partitions within its rebalance timeout")

    def _expel(self, group: ConsumerGroup, member: ConsumerMember, why: str) -> None:
        if self.groups.get(group.group_id) is not group or group.members.get(member.member_id) is not member:
            return
        log.info("group %s: member %s removed: %s", group.group_id, member.member_id, why)
        self._remove(group, member)
        try:
            self._save(group)
        except StoreError as exc:
            log.error("consumer group %s could not be saved: %s", group.group_id, exc)

    # --- saving ---

    def _save(self, group: ConsumerGroup) -> concurrent.futures.Future[None] | None:
        if self.groups.get(group.group_id) is not group:
            return None  # converted to a classic group (a downgrade), which saved itself
        return self.confirm_write(self._store.group_metadata.save(group.group_id, group_document(group)))

    def delete(self, group_id: str) -> ErrorCode:
        """DeleteGroups of a consumer group: NON_EMPTY_GROUP while it has members."""
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if group.members:
            return ErrorCode.NON_EMPTY_GROUP
        group.dead = True
        del self.groups[group_id]
        self._store.group_metadata.delete(group_id)
        return ErrorCode.NONE

    # --- offsets (KIP-848: commits and fetches carry the member epoch) ---

    def check_commit(
        self, group_id: str, member_id: str, member_epoch: int, api_version_has_epochs: bool
    ) -> ErrorCode | None:
        """OffsetCommit's verdict for a consumer group; None when ``group_id`` is not one.

        A commit without a member (epoch < 0: admin tools, manual assignment) is accepted while the group has
        no members; a consumer-protocol member's commit needs OffsetCommit v9+ (UNSUPPORTED_VERSION) and its
        current epoch (STALE_MEMBER_EPOCH: the client heartbeats, then retries); a classic member's (an upgraded
        group's) generation must be its member epoch (ILLEGAL_GENERATION), at any version."""
        return self._check_member_commit(group_id, member_id, member_epoch, api_version_has_epochs)

    def check_txn_commit(self, group_id: str, member_id: str, member_epoch: int) -> ErrorCode | None:
        """TxnOffsetCommit's verdict for a consumer group (v3+ carry the member id and epoch); None when ``group_id``
        is not one. As Kafka: OffsetCommit's rules at any version, with a wrong epoch answered ILLEGAL_GENERATION
        (transactional producers know no STALE_MEMBER_EPOCH); without a member only while the group is empty."""
        verdict = self._check_member_commit(group_id, member_id, member_epoch, True)
        return ErrorCode.ILLEGAL_GENERATION if verdict is ErrorCode.STALE_MEMBER_EPOCH else verdict

    def _check_member_commit(
        self, group_id: str, member_id: str, member_epoch: int, api_version_has_epochs: bool
    ) -> ErrorCode | None:
        group = self.groups.get(group_id)
        if group is None:
            return None
        if member_epoch < 0 and not member_id and not group.members:
            return ErrorCode.NONE
        member = group.members.get(member_id)
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if member.classic is not None:
            return ErrorCode.NONE if member_epoch == member.member_epoch else ErrorCode.ILLEGAL_GENERATION
        if not api_version_has_epochs:
            return ErrorCode.UNSUPPORTED_VERSION
        if member_epoch != member.member_epoch:
            return ErrorCode.STALE_MEMBER_EPOCH
        return ErrorCode.NONE

    def subscribed_topics(self, group_id: str) -> set[str]:
        """The topics the members of consumer group ``group_id`` subscribe to (none without members or group);
        OffsetDelete keeps their offsets (GROUP_SUBSCRIBED_TO_TOPIC)."""
        group = self.groups.get(group_id)
        return set(group.topics) if group is not None and group.members else set()

    def forget_empty(self, unused: Callable[[str], bool]) -> None:
        """Delete the groups without members that ``unused`` says nothing refers to (offsets retention)."""
        for group_id, group in list(self.groups.items()):
            if not group.members and unused(group_id):
                log.info("consumer group %s is empty and has no offsets left: removed", group_id)
                self.delete(group_id)

    def check_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode:
        """OffsetFetch v9's verdict: a member asking must be in the group at its current epoch."""
        group = self.groups.get(group_id)
        if group is None or not member_id or member_epoch < 0:
            return ErrorCode.NONE
        member = group.members.get(member_id)
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        return ErrorCode.NONE if member_epoch == member.member_epoch else ErrorCode.STALE_MEMBER_EPOCH


def _unknown_member(group_id: str, member_id: str) -> HeartbeatRefused:
    return HeartbeatRefused(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not in group {group_id}.")


def _fingerprint(group: ConsumerGroup, request: HeartbeatRequest) -> tuple[object, ...]:
    """What a heartbeat can change of the group's document: the group's epochs and size, and the member's fields
    (a heartbeat changes no other member). Compared before and after, it tells whether to save the group, which
    costs as much as the member's own partitions rather than the whole group's."""
    member = group.members.get(request.member_id)
    if member is None and request.instance_id is not None:
        member = group.static_member(request.instance_id)
    fields = None
    if member is not None:
        fields = (
            member.member_id, member.instance_id, member.rack_id, member.rebalance_timeout_ms,
            member.subscribed_topic_names, member.subscribed_topic_regex, member.server_assignor,
            member.member_epoch, member.previous_member_epoch, member.state, member.assigned, member.revoking,
        )  # fmt: skip
    return group.group_epoch, group.assignment_epoch, len(group.members), fields
