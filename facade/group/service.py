"""The broker's group side in one object: the coordinator, offsets, administration, ``__consumer_offsets``.

Handlers reach it as ``ctx.broker.groups``:

- ``coordinator`` (``coordinator.py``): JoinGroup, SyncGroup, Heartbeat, LeaveGroup;
- ``offsets`` (``offsets.py``): OffsetCommit, OffsetFetch, OffsetDelete, offsets retention;
- here: DescribeGroups, ListGroups, DeleteGroups, and the internal topic.

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
import uuid
from collections.abc import Callable, Sequence
from typing import Final

from rockafka.facade.config import BrokerConfig
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, TopicInfo

from ..clock import REAL_CLOCK, Clock
from .coordinator import GroupCoordinator
from .model import DescribedMember, GroupDescription, GroupListing
from .offsets import OffsetManager, PendingTransactional, no_pending_transactional
from .state import GroupState

log = logging.getLogger(__name__)

OFFSETS_TOPIC: Final = "__consumer_offsets"
GROUP_TYPE: Final = "classic"


class GroupService:
    def __init__(
        self,
        config: BrokerConfig,
        store: MessageStore,
        cluster_id: str,
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
        self.offsets = OffsetManager(
            self.coordinator,
            store,
            internal_topics=frozenset({OFFSETS_TOPIC}),
            metadata_max_bytes=config.int("offset.metadata.max.bytes"),
            pending_transactional=pending_transactional,
        )
        self._retention_ms = config.int("offsets.retention.minutes") * 60_000
        self._retention_check_s = config.int("offsets.retention.check.interval.ms") / 1000
        topic_id = uuid.uuid5(uuid.NAMESPACE_URL, f"rockafka:{cluster_id}/{OFFSETS_TOPIC}")
        self._offsets_topic = TopicInfo(OFFSETS_TOPIC, topic_id, config.int("offsets.topic.num.partitions"), {})
        self._offsets_topic_shown = False
        self._retention_task: asyncio.Task[None] | None = None

    # --- lifecycle ---

    def start(self) -> None:
        """Load saved groups and start the retention pass (on the running event loop)."""
        self.coordinator.start()
        self._offsets_topic_shown = bool(self._store.offsets.groups() or self.coordinator.groups)
        self._retention_task = asyncio.get_running_loop().create_task(self._retention_loop())

    def coordinate(self, partitions: frozenset[int]) -> None:
        """Serve exactly the groups of these ``__consumer_offsets`` partitions (in a cluster, those this broker
        leads): a partition given up has its groups unloaded (their members get NOT_COORDINATOR) and its
        offsets forgotten in memory; a partition taken up is replayed from the store, then its groups served."""
        state = self._store.group_partitions
        for partition in sorted(state.loaded - partitions):
            unloaded = self.coordinator.unload(functools.partial(_in_partition, state.partition_of, partition))
            state.unload(partition)
            log.info("%s-%d is led elsewhere now: %d groups unloaded", OFFSETS_TOPIC, partition, unloaded)
        for partition in sorted(partitions - state.loaded):
            records = state.load(partition)
            loaded = self.coordinator.load(functools.partial(_in_partition, state.partition_of, partition))
            log.info("%s-%d is led here now: %d records replayed, %d groups loaded", OFFSETS_TOPIC, partition,
                     records, loaded)  # fmt: skip

    def shutdown(self) -> None:
        """Answer waiting members NOT_COORDINATOR, stop timers and the retention pass."""
        self.coordinator.shutdown()
        if self._retention_task is not None:
            self._retention_task.cancel()
            self._retention_task = None

    async def _retention_loop(self) -> None:
        while True:
            await self._timers.sleep(self._retention_check_s)
            with contextlib.suppress(Exception):
                self.offsets.expire(self._retention_ms)

    # --- the internal topic ---

    def internal_topics(self) -> tuple[TopicInfo, ...]:
        """Internal topics to list in Metadata (all topics)."""
        return (self._offsets_topic,) if self._offsets_topic_shown else ()

    def internal_topic(self, name: str) -> TopicInfo | None:
        """The internal topic ``name`` (shown from now on), or None if ``name`` is not one."""
        if name != OFFSETS_TOPIC:
            return None
        self._offsets_topic_shown = True
        return self._offsets_topic

    def coordinator_found(self) -> None:
        """FindCoordinator for a group: Kafka creates ``__consumer_offsets`` at this point."""
        self._offsets_topic_shown = True

    # --- administration ---

    def describe_group(self, group_id: str) -> GroupDescription:
        if not self.coordinator.active:
            return GroupDescription(group_id, ErrorCode.COORDINATOR_NOT_AVAILABLE, "", "", "", ())
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


def _in_partition(partition_of: Callable[[str], int], partition: int, group_id: str) -> bool:
    return partition_of(group_id) == partition
