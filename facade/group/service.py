"""The broker's group side in one object: the coordinator, offsets, administration, ``__consumer_offsets``.

Handlers reach it as ``ctx.broker.groups``:

- ``coordinator`` (``coordinator.py``): JoinGroup, SyncGroup, Heartbeat, LeaveGroup;
- ``offsets`` (``offsets.py``): OffsetCommit, OffsetFetch, OffsetDelete, offsets retention;
- ``consumer`` (``consumer_protocol/``): KIP-848 consumer groups (ConsumerGroupHeartbeat, ConsumerGroupDescribe);
- ``share`` and ``share_delivery`` (``share/``): KIP-932 share groups (ShareGroupHeartbeat, ShareGroupDescribe,
  ShareFetch, ShareAcknowledge);
- here: DescribeGroups, ListGroups, DeleteGroups, and the internal topic.

ListGroups lists every kind with its type (``classic``, ``consumer``, ``share``); ``describe_group`` describes a
consumer or share group with the error GROUP_ID_NOT_FOUND, which DescribeGroups answers (state Dead, no members),
as Kafka 4 does: clients describe those with ConsumerGroupDescribe. A group id is held by one kind at a time.

Groups known only by their committed offsets (simple commits, or a group whose members all left before
its metadata was kept) are listed and described as Empty with protocol type "", as Kafka shows them.
DescribeGroups of a group that does not exist answers state Dead with no error (Kafka, v0-5).

``__consumer_offsets``: Kafka keeps offsets in this internal topic and clients expect to see it in
Metadata (with ``offsets.topic.num.partitions`` partitions) once group coordination has been used, as
Kafka creates it on the first FindCoordinator for a group. The store keeps committed offsets and group
documents as records in its partitions (``store/coordinatorstate.py``) but does not list it among its
topics; the topic is shown here: after the first FindCoordinator for a group, a Metadata request naming
it, or at start when the store holds any group's offsets or metadata. In a cluster, ``coordinate`` loads
and unloads the groups of its partitions as their leadership moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Sequence
from typing import Final

from rockafka.facade.config import BrokerConfig
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError

from ..clock import REAL_CLOCK, Clock
from ..replication import ConfirmWrite
from .consumer_protocol import ClassicGroups, ConsumerGroup, GroupConfigs, assignor_name
from .consumer_protocol.classic_members import MixedGroupCoordinator
from .consumer_protocol.migration import MigrationPolicy
from .coordinator import GroupCoordinator
from .model import DescribedMember, GroupDescription, GroupListing
from .offsets import OffsetManager, PendingTransactional, no_pending_transactional
from .share import ShareDelivery, ShareGroup, ShareGroupCoordinator
from .state import GroupState

log = logging.getLogger(__name__)

OFFSETS_TOPIC: Final = "__consumer_offsets"
GROUP_TYPE: Final = "classic"
CONSUMER_GROUP_TYPE: Final = "consumer"
#: The protocol type ListGroups shows for a consumer group (Kafka's).
CONSUMER_PROTOCOL: Final = "consumer"
#: A share group's type and protocol type (Kafka's).
SHARE_GROUP_TYPE: Final = "share"


class GroupService:
    def __init__(
        self,
        config: BrokerConfig,
        store: MessageStore,
        *,
        pending_transactional: PendingTransactional = no_pending_transactional,
        timers: Clock = REAL_CLOCK,
    ) -> None:
        self._store = store
        self._timers = timers
        self.coordinator = GroupCoordinator(
            store,
            min_session_timeout_ms=config.int("group.min.session.timeout.ms"),
            max_session_timeout_ms=config.int("group.max.session.timeout.ms"),
            initial_rebalance_delay_ms=config.int("group.initial.rebalance.delay.ms"),
            max_group_size=config.int("group.max.size"),
            timers=timers,
        )
        assignors = config.get("group.consumer.assignors")
        group_configs = GroupConfigs(config.data_dir, lambda: config)
        self.consumer = MixedGroupCoordinator(
            store,
            migration_policy=MigrationPolicy(config.get("group.consumer.migration.policy")),
            configs=group_configs,
            assignors=tuple(dict.fromkeys(assignor_name(a) for a in assignors)) if isinstance(assignors, list) else (),
            max_size=config.int("group.consumer.max.size"),
            classic=ClassicGroups(
                self._classic_has_members,
                self._drop_empty_classic,
                get=self.coordinator.groups.get,
                detach=self.coordinator.detach,
                adopt=self.coordinator.adopt,
                max_size=config.int("group.max.size"),
            ),
            clock_ms=self.coordinator.clock_ms,
            timers=timers,
        )
        self.share = ShareGroupCoordinator(
            store,
            configs=group_configs,
            max_size=config.int("group.share.max.size"),
            held_elsewhere=lambda group_id: group_id in self.coordinator.groups or group_id in self.consumer.groups,
            timers=timers,
        )
        self.share_delivery = ShareDelivery(store, self.share, config)
        self.coordinator.consumer_group_ids = self.consumer.groups
        self.coordinator.consumer_groups = self.consumer
        self.coordinator.share_group_ids = self.share.groups  # classic JoinGroups get INCONSISTENT_GROUP_PROTOCOL
        self.offsets = OffsetManager(
            self.coordinator,
            store,
            internal_topics=frozenset({OFFSETS_TOPIC}),
            metadata_max_bytes=config.int("offset.metadata.max.bytes"),
            pending_transactional=pending_transactional,
            consumer_groups=self.consumer,
        )
        self._retention_ms = config.int("offsets.retention.minutes") * 60_000
        self._retention_check_s = config.int("offsets.retention.check.interval.ms") / 1000
        self._retention_task: asyncio.Task[None] | None = None

    def confirm_writes(self, confirm: ConfirmWrite) -> None:
        """Every coordinator's saves (classic, consumer and share groups, offset commits) go through ``confirm``
        from now on: on a replicated leader, answered only once every in-sync member holds them."""
        self.coordinator.confirm_write = confirm
        self.consumer.confirm_write = confirm
        self.share.confirm_write = confirm
        self.offsets.confirm_write = confirm

    # --- lifecycle ---

    def start(self) -> None:
        """Load saved groups and start the retention pass (on the running event loop)."""
        self.coordinator.start()
        self.consumer.start()
        self.share.start()
        self._retention_task = asyncio.get_running_loop().create_task(self._retention_loop())

    def coordinate(self, partitions: frozenset[int]) -> None:
        """Serve exactly the groups of these ``__consumer_offsets`` partitions (in a cluster, those this broker
        leads): a partition given up has its groups unloaded (their members get NOT_COORDINATOR) and its
        offsets forgotten in memory; a partition taken up is replayed from the store, then its groups served."""
        state = self._store.group_partitions
        for partition in sorted(state.loaded - partitions):
            wanted = functools.partial(_in_partition, state.partition_of, partition)
            unloaded = self.coordinator.unload(wanted) + self.consumer.unload(wanted) + self.share.unload(wanted)
            state.unload(partition)
            log.info("%s-%d is led elsewhere now: %d groups unloaded", OFFSETS_TOPIC, partition, unloaded)
        for partition in sorted(partitions - state.loaded):
            records = state.load(partition)
            wanted = functools.partial(_in_partition, state.partition_of, partition)
            loaded = self.coordinator.load(wanted) + self.consumer.load(wanted) + self.share.load(wanted)
            log.info("%s-%d is led here now: %d records replayed, %d groups loaded", OFFSETS_TOPIC, partition,
                     records, loaded)  # fmt: skip

    def shutdown(self) -> None:
        """Answer waiting members NOT_COORDINATOR, stop timers and the retention pass."""
        self.coordinator.shutdown()
        self.consumer.shutdown()
        self.share.shutdown()
        if self._retention_task is not None:
            self._retention_task.cancel()
            self._retention_task = None

    async def _retention_loop(self) -> None:
        while True:
            await self._timers.sleep(self._retention_check_s)
            with contextlib.suppress(Exception):
                self.offsets.expire(self._retention_ms)

    # --- a group id both protocols could hold ---

    def _classic_has_members(self, group_id: str) -> bool | None:
        """Whether the classic group has members (ids handed out with MEMBER_ID_REQUIRED do not count: Kafka's
        group is Empty until one joins); None when there is no such group."""
        group = self.coordinator.groups.get(group_id)
        return None if group is None else bool(group.members)

    def _drop_empty_classic(self, group_id: str) -> None:
        group = self.coordinator.groups.get(group_id)
        if group is not None and not group.members:
            self.coordinator.remove_group(group)

    def has_state(self) -> bool:
        """Whether any group or committed offset exists (``__consumer_offsets`` is then listed in Metadata)."""
        if self.coordinator.groups or self.consumer.groups or self.share.groups:
            return True
        try:
            return bool(self._store.offsets.groups())
        except StoreError:  # an offline store: the listing does not change
            return False

    # --- administration ---

    def describe_group(self, group_id: str) -> GroupDescription:
        if not self.coordinator.active:
            return GroupDescription(group_id, ErrorCode.COORDINATOR_NOT_AVAILABLE, "", "", "", ())
        consumer_group = self.consumer.groups.get(group_id)
        if consumer_group is not None:
            return _consumer_group_description(consumer_group)
        share_group = self.share.groups.get(group_id)
        if share_group is not None:
            return _share_group_description(share_group)
        group = self.coordinator.groups.get(group_id)
        if group is None:
            state = GroupState.EMPTY if self._store.offsets.fetch(group_id) else GroupState.DEAD
            return GroupDescription(group_id, ErrorCode.NONE, state.kafka_name, "", "", ())
        stable = group.state is GroupState.STABLE
        protocol = (group.protocol_name or "") if stable else ""
        members = tuple(
            DescribedMember(
                m.member_id,
                m.group_instance_id,
                m.client_id,
                m.client_host,
                m.metadata(protocol) if stable else b"",
                m.assignment if stable else b"",
            )
            for m in group.members.values()
        )
        return GroupDescription(
            group_id, ErrorCode.NONE, group.state.kafka_name, group.protocol_type or "", protocol, members
        )

    def list_groups(self, states_filter: Sequence[str] = (), types_filter: Sequence[str] = ()) -> list[GroupListing]:
        """Every group (ListGroups), restricted to the given states and types (case-insensitive) if any."""
        listings = {
            group_id: GroupListing(group_id, group.protocol_type or "", group.state.kafka_name, GROUP_TYPE)
            for group_id, group in self.coordinator.groups.items()
        }
        for group_id, consumer_group in self.consumer.groups.items():
            listings[group_id] = GroupListing(
                group_id, CONSUMER_PROTOCOL, consumer_group.state.value, CONSUMER_GROUP_TYPE
            )
        for group_id, share_group in self.share.groups.items():
            listings[group_id] = GroupListing(group_id, SHARE_GROUP_TYPE, share_group.state.value, SHARE_GROUP_TYPE)
        for group_id in self._store.offsets.groups():
            listings.setdefault(group_id, GroupListing(group_id, "", GroupState.EMPTY.kafka_name, GROUP_TYPE))
        states = {state.casefold() for state in states_filter}
        types = {kind.casefold() for kind in types_filter}
        return [
            listing
            for _, listing in sorted(listings.items())
            if (not states or listing.state.casefold() in states) and (not types or listing.group_type in types)
        ]

    def delete_groups(self, group_ids: Sequence[str]) -> list[tuple[str, ErrorCode]]:
        """DeleteGroups: each group's outcome (NON_EMPTY_GROUP while it has members)."""
        with_offsets = set(self._store.offsets.groups())
        return [(group_id, self._delete_one(group_id, group_id in with_offsets)) for group_id in group_ids]

    def _delete_one(self, group_id: str, has_offsets: bool) -> ErrorCode:
        if not self.coordinator.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if group_id in self.share.groups:
            return self.share.delete(group_id)
        if group_id in self.consumer.groups:
            error = self.consumer.delete(group_id)
            if error is ErrorCode.NONE:
                self._store.offsets.delete_group(group_id)
            return error
        group = self.coordinator.groups.get(group_id)
        if group is None and not has_offsets:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if group is not None:
            if group.state is not GroupState.EMPTY:
                return ErrorCode.NON_EMPTY_GROUP
            self.coordinator.remove_group(group)
        self._store.offsets.delete_group(group_id)
        self._store.group_metadata.delete(group_id)
        log.info("group %s deleted", group_id)
        return ErrorCode.NONE


def _consumer_group_description(group: ConsumerGroup) -> GroupDescription:
    """A consumer group as the console shows it: its state and members (no classic metadata or assignment bytes).
    The error is DescribeGroups' answer for it (GROUP_ID_NOT_FOUND: not a classic group)."""
    members = tuple(
        DescribedMember(m.member_id, m.instance_id, m.client_id, m.client_host, b"", b"")
        for m in group.members.values()
    )
    return GroupDescription(
        group.group_id, ErrorCode.GROUP_ID_NOT_FOUND, group.state.value, CONSUMER_PROTOCOL, group.assignor, members
    )


def _share_group_description(group: ShareGroup) -> GroupDescription:
    """A share group as the console shows it; DescribeGroups answers GROUP_ID_NOT_FOUND for it, as Kafka 4 does."""
    members = tuple(
        DescribedMember(m.member_id, None, m.client_id, m.client_host, b"", b"") for m in group.members.values()
    )
    return GroupDescription(
        group.group_id, ErrorCode.GROUP_ID_NOT_FOUND, group.state.value, SHARE_GROUP_TYPE, "simple", members
    )


def _in_partition(partition_of: Callable[[str], int], partition: int, group_id: str) -> bool:
    return partition_of(group_id) == partition
