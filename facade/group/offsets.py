"""Committed offsets through the coordinator: OffsetCommit, OffsetFetch, OffsetDelete, and offsets retention.

Offsets live in the store's offset store (``store/offsets.py``); this module adds Kafka's group rules (for a
KIP-848 consumer group, its coordinator judges commits by member epoch, ``ConsumerGroupCoordinator.check_commit``;
OffsetDelete keeps the topics its members subscribe to; retention keeps the offsets of one with members):

- **OffsetCommit**: a topic the broker does not have gets UNKNOWN_TOPIC_OR_PARTITION (before any group
  check, as Kafka's request handler does). Then the group: an unknown group accepts a *simple* commit
  (generation -1: admin tools, consumers without group management) and otherwise answers
  ILLEGAL_GENERATION (GROUP_ID_NOT_FOUND from v9); an Empty group accepts simple commits; otherwise the
  member must be of the group (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID) and of its generation
  (ILLEGAL_GENERATION), and a group in CompletingRebalance answers REBALANCE_IN_PROGRESS. Commits are
  accepted during PreparingRebalance (consumers commit before revoking partitions). Metadata longer than
  ``offset.metadata.max.bytes`` (4096 by default) gets OFFSET_METADATA_TOO_LARGE. A null metadata string is
  stored as "" (Kafka's "no metadata"). The answer waits until the commit is durable under sync flush.
- **OffsetFetch**: partitions without a committed offset answer offset -1, leader epoch -1, metadata "";
  "all topics" lists only committed partitions. With ``require_stable``, a partition whose commit is still
  being made durable, or for which a transaction holds an offset not yet committed (TxnOffsetCommit,
  ``pending_transactional``), answers UNSTABLE_OFFSET_COMMIT (retriable); without it, the newest committed
  value is returned.
- **TxnOffsetCommit** (``check_txn_commit``; the offsets are held by the transaction coordinator until the
  transaction commits): as Kafka's group coordinator, lenient where OffsetCommit is strict: a group that does
  not exist is accepted, a member id of "" and a generation of -1 are not checked; otherwise a static member
  must be itself (FENCED_INSTANCE_ID), a named member must be in the group (UNKNOWN_MEMBER_ID), a generation
  given must be the group's (ILLEGAL_GENERATION). For a KIP-848 consumer group the generation is the member
  epoch and Kafka's rules are OffsetCommit's: a member must be in the group (UNKNOWN_MEMBER_ID; a request
  without one only while the group is empty) at its current epoch (ILLEGAL_GENERATION).
- **OffsetDelete**: GROUP_ID_NOT_FOUND for a group that has neither members nor offsets; a group with
  members keeps the offsets of topics it subscribes to (GROUP_SUBSCRIBED_TO_TOPIC), and a group with
  members whose protocol type is not ``consumer`` refuses (NON_EMPTY_GROUP), as its subscription is unknown.
- **Retention** (every ``offsets.retention.check.interval.ms``): groups with members keep every offset;
  a group without members for ``offsets.retention.minutes`` loses the offsets committed before that
  window; an Empty group with no offsets left is forgotten (Kafka's cleanup).

Not implemented: per-request retention (OffsetCommit v2-4 ``retention_time_ms``) and the v1 commit
timestamp; the broker's retention and clock apply, as for every later version.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.errors import DecodeError
from rockafka.facade.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from rockafka.facade.protocol.primitives import Reader
from rockafka.store import (
    CommittedOffset,
    MessageStore,
    OffsetCommit,
    StoreError,
    TopicPartition,
    UnknownTopicOrPartitionError,
)

from ..replication import ConfirmWrite, UnconfirmedWrite, as_written, write_error
from .consumer_protocol import ConsumerGroupCoordinator
from .coordinator import GroupCoordinator
from .group import ClassicGroup
from .model import NO_GENERATION, UNKNOWN_MEMBER_ID, CommitRequest, FetchedOffset
from .state import GroupState

log = logging.getLogger(__name__)

#: Kafka's ``offset.metadata.max.bytes`` default.
DEFAULT_OFFSET_METADATA_MAX_BYTES = 4096
CONSUMER_PROTOCOL_TYPE = "consumer"

CommitErrors = dict[TopicPartition, ErrorCode]
#: A group's partitions with offsets a transaction holds, not yet committed (the transaction coordinator's).
PendingTransactional = Callable[[str], Collection[TopicPartition]]


def no_pending_transactional(group_id: str) -> Collection[TopicPartition]:
    """No transaction holds offsets (a broker without a transaction coordinator, and tests)."""
    return ()


class OffsetManager:
    def __init__(
        self,
        coordinator: GroupCoordinator,
        store: MessageStore,
        *,
        internal_topics: frozenset[str],
        metadata_max_bytes: int = DEFAULT_OFFSET_METADATA_MAX_BYTES,
        pending_transactional: PendingTransactional = no_pending_transactional,
        consumer_groups: ConsumerGroupCoordinator | None = None,
    ) -> None:
        self._coordinator = coordinator
        self._metadata_max_bytes = metadata_max_bytes
        self._store = store
        self._internal_topics = internal_topics
        #: Commits accepted but not yet durable, per group (require_stable answers UNSTABLE_OFFSET_COMMIT).
        self._in_flight: dict[str, Counter[TopicPartition]] = {}
        #: What OffsetFetch answers meanwhile without require_stable: the offset committed before the first commit
        #: in flight (None: none), as Kafka's cache holds a commit back until its append is replicated.
        self._before: dict[str, dict[TopicPartition, CommittedOffset | None]] = {}
        self._pending_transactional = pending_transactional
        self._consumer_groups = consumer_groups
        #: A commit's durability, also waiting for the in-sync members on a replicated leader (``GroupService``).
        self.confirm_write: ConfirmWrite = as_written

    # --- OffsetCommit ---

    def commit(self, request: CommitRequest, commits: Sequence[OffsetCommit]) -> Awaitable[CommitErrors]:
        """Each partition's error (NONE once stored, and durable under sync flush)."""
        errors: CommitErrors = {}
        accepted: list[OffsetCommit] = []
        group_error: ErrorCode | None = None
        for commit in commits:
            key = TopicPartition(commit.topic, commit.partition)
            if not self._topic_exists(commit.topic):
                errors[key] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                continue
            if group_error is None:
                group_error = self._check_commit(request)
            if group_error is not ErrorCode.NONE:
                errors[key] = group_error
            elif len(commit.metadata.encode()) > self._metadata_max_bytes:
                errors[key] = ErrorCode.OFFSET_METADATA_TOO_LARGE
            else:
                accepted.append(commit)
        if not accepted:
            return _ready(errors)
        keys = _keys(accepted)
        before = self._store.offsets.fetch(request.group_id, keys)
        try:
            durable = self.confirm_write(self._store.offsets.commit(request.group_id, accepted))
        except StoreError as exc:
            log.error("offset commit for group %s failed: %s", request.group_id, exc)
            return _ready(errors | dict.fromkeys(keys, ErrorCode.COORDINATOR_NOT_AVAILABLE))
        if durable is None:
            return _ready(errors | dict.fromkeys(keys, ErrorCode.NONE))
        return self._await_durable(request.group_id, keys, before, errors, asyncio.wrap_future(durable))

    def _await_durable(
        self, group_id: str, keys: list[TopicPartition], before: Mapping[TopicPartition, CommittedOffset],
        errors: CommitErrors, durable: asyncio.Future[None],
    ) -> Awaitable[CommitErrors]:  # fmt: skip
        in_flight = self._in_flight.setdefault(group_id, Counter())
        shown = self._before.setdefault(group_id, {})
        for key in keys:
            if in_flight[key] == 0:
                shown[key] = before.get(key)
        in_flight.update(keys)

        settled = False

        def settle() -> None:  # once: when the answer is made, or from the callback if the request is abandoned
            nonlocal settled
            if settled:
                return
            settled = True
            in_flight.subtract(keys)
            for key in keys:
                if in_flight[key] <= 0:
                    shown.pop(key, None)
            if not +in_flight and self._in_flight.get(group_id) is in_flight:
                del self._in_flight[group_id]
                self._before.pop(group_id, None)

        durable.add_done_callback(lambda _: settle())
        return _answer_when_durable(group_id, keys, errors, durable, settle)

    def _topic_exists(self, topic: str) -> bool:
        if topic in self._internal_topics:
            return True
        try:
            self._store.topics.describe(topic)
        except UnknownTopicOrPartitionError:
            return False
        return True

    def _check_commit(self, request: CommitRequest) -> ErrorCode:
        coordinator = self._coordinator
        if not coordinator.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if self._consumer_groups is not None:
            verdict = self._consumer_groups.check_commit(
                request.group_id, request.member_id, request.generation_id, request.group_not_found_error
            )
            if verdict is not None:
                return verdict
        group = coordinator.groups.get(request.group_id)
        simple = request.generation_id < 0
        if group is None:
            if simple:
                return ErrorCode.NONE
            return ErrorCode.GROUP_ID_NOT_FOUND if request.group_not_found_error else ErrorCode.ILLEGAL_GENERATION
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if simple and group.state is GroupState.EMPTY:
            return ErrorCode.NONE
        if not simple or request.member_id != UNKNOWN_MEMBER_ID or request.group_instance_id is not None:
            error = group.validate_member(request.member_id, request.group_instance_id)
            if error is not ErrorCode.NONE:
                return error
            if request.generation_id != group.generation_id:
                return ErrorCode.ILLEGAL_GENERATION
        elif group.state is not GroupState.EMPTY:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if group.state is GroupState.COMPLETING_REBALANCE:
            return ErrorCode.REBALANCE_IN_PROGRESS
        member = group.members.get(request.member_id)
        if member is not None:
            coordinator.touch(group, member)
        return ErrorCode.NONE

    # --- OffsetFetch ---

    def fetch(
        self, group_id: str, partitions: Sequence[TopicPartition] | None, require_stable: bool
    ) -> tuple[ErrorCode, list[FetchedOffset]]:
        """The group's committed offsets: those of ``partitions`` (-1 where none), or all committed ones."""
        if not self._coordinator.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, []
        try:
            stored = self._store.offsets.fetch(group_id, partitions)
        except StoreError as exc:
            log.error("offset fetch for group %s failed: %s", group_id, exc)
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, []
        keys = list(partitions) if partitions is not None else sorted(stored, key=lambda k: (k.topic, k.partition))
        in_flight = self._in_flight.get(group_id, Counter()) if require_stable else Counter()
        held = self._pending_transactional(group_id) if require_stable else ()
        shown = {} if require_stable else self._before.get(group_id, {})
        if partitions is None:  # every committed one: not those whose first commit is still in flight
            keys = [key for key in keys if key not in shown or shown[key] is not None]
        fetched = []
        for key in keys:
            committed = shown[key] if key in shown else stored.get(key)
            if in_flight[key] > 0 or key in held:
                fetched.append(FetchedOffset(key.topic, key.partition, -1, -1, "", ErrorCode.UNSTABLE_OFFSET_COMMIT))
            elif committed is None:
                fetched.append(FetchedOffset(key.topic, key.partition, -1, -1, ""))
            else:
                epoch = -1 if committed.leader_epoch is None else committed.leader_epoch
                fetched.append(FetchedOffset(key.topic, key.partition, committed.offset, epoch, committed.metadata))
        return ErrorCode.NONE, fetched

    # --- TxnOffsetCommit ---

    def check_txn_commit(
        self, group_id: str, member_id: str, group_instance_id: str | None, generation_id: int
    ) -> ErrorCode:
        """The group's verdict on a TxnOffsetCommit (see the module docstring)."""
        if not self._coordinator.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if self._consumer_groups is not None:
            verdict = self._consumer_groups.check_txn_commit(group_id, member_id, generation_id)
            if verdict is not None:
                return verdict
        group = self._coordinator.groups.get(group_id)
        if group is None:
            return ErrorCode.NONE
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if group_instance_id is not None:
            error = group.validate_member(member_id, group_instance_id)
            if error is ErrorCode.FENCED_INSTANCE_ID:
                return error
        if member_id != UNKNOWN_MEMBER_ID and member_id not in group.members:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if generation_id >= 0 and generation_id != group.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        return ErrorCode.NONE

    def topic_exists(self, topic: str) -> bool:
        return self._topic_exists(topic)

    def metadata_too_large(self, metadata: str) -> bool:
        return len(metadata.encode()) > self._metadata_max_bytes

    # --- OffsetDelete ---

    def delete(
        self, group_id: str, partitions: Sequence[TopicPartition]
    ) -> tuple[ErrorCode, dict[TopicPartition, ErrorCode]]:
        """OffsetDelete: a group-level error, or each partition's."""
        coordinator = self._coordinator
        if not coordinator.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, {}
        if not group_id:
            return ErrorCode.INVALID_GROUP_ID, {}
        group = coordinator.groups.get(group_id)
        has_offsets = bool(self._store.offsets.fetch(group_id))
        if (group is None and not has_offsets) or (group is not None and group.state is GroupState.DEAD):
            return ErrorCode.GROUP_ID_NOT_FOUND, {}
        subscribed: set[str] | None = set()
        if group is not None and group.members:
            if group.protocol_type != CONSUMER_PROTOCOL_TYPE:
                return ErrorCode.NON_EMPTY_GROUP, {}
            subscribed = subscribed_topics(group)
        elif self._consumer_groups is not None:
            subscribed = self._consumer_groups.subscribed_topics(group_id)
        errors: dict[TopicPartition, ErrorCode] = {}
        for key in partitions:
            if not self._topic_exists(key.topic):
                errors[key] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            elif subscribed is None or key.topic in subscribed:
                errors[key] = ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC
            else:
                errors[key] = ErrorCode.NONE
        deletable = [key for key, error in errors.items() if error is ErrorCode.NONE]
        if deletable:
            self._store.offsets.delete(group_id, deletable)
        return ErrorCode.NONE, errors

    # --- retention ---

    def expire(self, retention_ms: int) -> int:
        """One retention pass: expire offsets of groups without members for ``retention_ms``; forget dead groups."""
        now = self._coordinator.clock_ms()
        keep = {
            group_id
            for group_id, group in self._coordinator.groups.items()
            if group.members or now - group.state_timestamp_ms < retention_ms
        }
        if self._consumer_groups is not None:
            keep.update(group_id for group_id, group in self._consumer_groups.groups.items() if group.members)
        expired = self._store.offsets.expire(now - retention_ms, keep)
        with_offsets = set(self._store.offsets.groups())
        for group in list(self._coordinator.groups.values()):
            if group.state is GroupState.EMPTY and group.has_no_members and group.group_id not in with_offsets:
                log.info("group %s is empty and has no offsets left: removed", group.group_id)
                self._coordinator.remove_group(group)
        if self._consumer_groups is not None:
            self._consumer_groups.forget_empty(lambda group_id: group_id not in with_offsets)
        if expired:
            log.info("offsets retention expired %d offsets", expired)
        return expired


def subscribed_topics(group: ClassicGroup) -> set[str] | None:
    """The topics the members subscribe to (consumer protocol); None when a subscription cannot be read."""
    topics: set[str] = set()
    protocol = group.protocol_name or ""
    for member in group.members.values():
        data = member.metadata(protocol)
        try:
            version = Reader(data, 0).int16()
            subscription = ConsumerProtocolSubscription.read(Reader(data, 2), min(max(version, 0), 3))
        except DecodeError:
            return None
        topics.update(subscription.topics)
    return topics


async def _answer_when_durable(
    group_id: str, keys: list[TopicPartition], errors: CommitErrors, durable: asyncio.Future[None],
    settle: Callable[[], None],
) -> CommitErrors:  # fmt: skip
    """The answer once ``durable`` is done; ``settle()`` first, so a fetch after the answer sees the commit (the
    future's own callbacks may not have run yet when an awaited future was already done)."""
    try:
        await asyncio.shield(durable)
        outcome = ErrorCode.NONE
    except (StoreError, UnconfirmedWrite) as exc:
        log.error("offset commit for group %s was not made durable: %s", group_id, exc)
        outcome = write_error(exc, ErrorCode.COORDINATOR_NOT_AVAILABLE)
    settle()
    return errors | dict.fromkeys(keys, outcome)


def _keys(commits: Sequence[OffsetCommit]) -> list[TopicPartition]:
    return [TopicPartition(c.topic, c.partition) for c in commits]


def _ready(errors: CommitErrors) -> Awaitable[CommitErrors]:
    future: asyncio.Future[CommitErrors] = asyncio.get_running_loop().create_future()
    future.set_result(errors)
    return future


__all__ = ["NO_GENERATION", "OffsetManager", "subscribed_topics"]
