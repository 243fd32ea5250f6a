"""The topology of a broker in a cluster: every answer from the cluster snapshot, topics mirrored into the store.

Built by ``BrokerApp`` when ``rockafka.cluster.etcd.endpoints`` is set. It listens to the
:class:`~rockafka.cluster.view.ClusterView` and, on every new snapshot:

- mirrors the cluster's topics into the local store (created with the cluster's topic id, grown, configs
  replaced by etcd's, deleted), unless the store follows its group's leader (``store.replica.following``: then
  the leader's ``TOPICS`` message alone changes its topic table; mirroring resumes when it leads),
  so the store's per-partition code runs unchanged and every broker holds every topic's (possibly empty)
  partitions; only the leader's receive records;
- when this broker has become its group's leader at a newer epoch than its store's, begins that epoch in the
  store (``store.epochs.begin``) before it leads anything, so the epoch Metadata reports (the group's, from
  etcd), the one stamped into every batch it appends and OffsetForLeaderEpoch's current epoch are one;
- rebuilds ``led`` (per topic, the partitions this broker's group leads while this broker is the group's
  leader, less those whose move away is fenced), ``readable`` (``led`` with those: Fetch still serves them
  until the switch) and ``followed`` (its group's partitions while it follows the group's leader: Fetch serves
  them to consumers, KIP-392), and drops the cached Metadata partitions;
- lets the ``PartitionMover`` (``partition_moves.py``) play its part in the moves in progress;
- notes each broker whose registration vanished (its lease expired: killed, paused, cut off): Metadata keeps
  listing it among the brokers for ``DEPARTED_LISTED_S`` (its partitions name it leader only until the
  controller's election, which follows the same watch event), so that the answer which moves its partitions to
  their new leader does not also remove the broker. librdkafka, given both in one answer, decommissions the old
  broker after it delegated the partition to the new leader, and the old broker's thread hands the partition back
  to no broker until the next Metadata refresh (its once-a-second topic scan): a failover's produce waited up to a
  second more.

``move_partition`` and ``cancel_move`` (AlterPartitionReassignments) and ``moves`` (ListPartitionReassignments)
write and read ``moves/<topic>/<partition>`` in etcd (``cluster/moves.py``).

One store, one CommitLog, one epoch sequence per broker: every partition a group holds shares its group's
epoch, so a Kafka per-partition leader epoch here is the group's epoch, and a partition's own history of epochs
is derived from the store's (``store/epochs.py``). A store already past the group's epoch (etcd's state was
lost and started over) cannot go back: the broker logs an error and leads on (clients' epoch checks use etcd's
epoch, its batches carry the store's) until an election gives etcd a newer epoch than the store's.

Internal topics (``__consumer_offsets``, ``__transaction_state``) have placements in etcd like any topic
but are not mirrored: each broker's store creates its own (``store/internaltopics.py``) with the configured
partition count, and etcd says who leads each partition, that is who coordinates its keys. When the partitions
of an internal topic that this broker leads change, its callback in ``on_coordination`` is called with the new
set (``GroupService.coordinate``, ``TransactionCoordinator.coordinate``: keys loaded and unloaded). A
FindCoordinator for an internal topic not yet in etcd creates it there (as Kafka creates ``__consumer_offsets``
on first use) and is answered "not available" until the watch brings it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final

from rockafka.cluster import (
    NO_LEADER,
    BrokerInfo,
    ClusterError,
    ClusterSnapshot,
    GroupState,
    NoBrokerGroupsError,
    TopicExistsError,
    UnknownTopicError,
)
from rockafka.cluster.errors import MoveSwitchingError, NoMoveError
from rockafka.cluster.member import ClusterMember
from rockafka.cluster.metadata import ClusterMetadata
from rockafka.cluster.moves import PartitionMoves
from rockafka.core_pyx import hotcodec as hot
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError, TopicInfo, TopicPartition, UnknownTopicOrPartitionError

from .handlers.context import ApiError
from .interbroker import InterBrokerSettings
from .partition_moves import PartitionMover
from .topology import BrokerAddress, ConfigUpdate, PartitionMove, PartitionPlace, coordinator_partition
from .transactions.markers import Place

log = logging.getLogger(__name__)

INTERNAL_TOPICS: Final = frozenset({"__consumer_offsets", "__transaction_state"})
#: How long CreateTopics waits for its own change to come back through the watch.
SEEN_TIMEOUT_S: Final = 10.0
#: How long Metadata lists a broker after its registration vanished (see the module docstring): more than a
#: client's slowest metadata refresh while a partition has no reachable leader (librdkafka: 1 s).
DEPARTED_LISTED_S: Final = 3.0


class ClusterTopology:
    """Answers the handlers' questions from the current cluster snapshot (see the module docstring)."""

    def __init__(
        self,
        member: ClusterMember,
        store: MessageStore,
        on_coordination: Mapping[str, Callable[[frozenset[int]], None]],
        moved_in: Callable[[str, int], None] = lambda topic, partition: None,
        interbroker: InterBrokerSettings | None = None,
    ) -> None:
        assert member.view is not None, "the member must have started"
        self._member = member
        self._view = member.view
        self._store = store
        self._node = member.settings.node_id
        self.led: Mapping[str, frozenset[int]] = {}
        self.readable: Mapping[str, frozenset[int]] = {}
        self.followed: Mapping[str, frozenset[int]] = {}
        metadata = member.metadata
        assert metadata is not None, "the member has started"
        self._moves = PartitionMoves(metadata.etcd, metadata.layout)
        self._interbroker_listener = None if interbroker is None else interbroker.listener
        self._mover = PartitionMover(self._moves, store, self._node, lambda: self._view.snapshot, moved_in, interbroker)
        self._partitions_cache: dict[str, tuple[hot.MetadataResponsePartition, ...]] = {}
        self._creating: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._on_coordination = on_coordination
        self._coordinated: dict[str, frozenset[int]] = {}
        self._behind: GroupState | None = None  # the group state last logged as behind the store's epoch
        self._unmirrored = False  # topics went unmirrored while this broker followed its group's leader
        self._departed: dict[int, tuple[float, BrokerInfo]] = {}  # node -> (when it vanished, its registration)
        self._changed(ClusterSnapshot(), self._view.snapshot)
        self._view.add_listener(self._changed)

    @property
    def snapshot(self) -> ClusterSnapshot:
        return self._view.snapshot

    def brokers(self, own: BrokerAddress) -> list[BrokerAddress]:
        brokers = self.snapshot.brokers
        others = [
            BrokerAddress(node, *info.address(own.listener), own.listener, info.rack, info.group)
            for node, info in sorted(brokers.items())
            if node != own.node_id
        ]
        mine = brokers.get(own.node_id)
        if mine is None:
            return [own, *others]
        return [BrokerAddress(own.node_id, own.host, own.port, own.listener, mine.rack, mine.group), *others]

    def metadata_brokers(self, own: BrokerAddress) -> list[BrokerAddress]:
        """:meth:`brokers`, and those whose registration vanished less than ``DEPARTED_LISTED_S`` ago."""
        listed = self.brokers(own)
        now = time.monotonic()
        departed = [
            BrokerAddress(node, *info.address(own.listener), own.listener, info.rack, info.group)
            for node, (since, info) in sorted(self._departed.items())
            if now - since < DEPARTED_LISTED_S and node != own.node_id
        ]
        return [*listed, *departed] if departed else listed

    def controller_id(self, own: int) -> int:
        controller = self.snapshot.controller
        return -1 if controller is None else controller

    def place(self, topic: str, partition: int, own: int) -> PartitionPlace:
        snapshot = self.snapshot
        leader = snapshot.leader_of(topic, partition)
        if leader is None:
            return PartitionPlace(NO_LEADER, -1, ())
        members = tuple(snapshot.group_members(leader.group))
        state = snapshot.groups.get(leader.group)
        in_sync = () if state is None else tuple(node for node in state.in_sync if node in members)
        return PartitionPlace(leader.leader, leader.epoch, members or (leader.leader,), in_sync)

    def leader_epoch(self, topic: str, partition: int) -> int:
        leader = self.snapshot.leader_of(topic, partition)
        return -1 if leader is None else leader.epoch

    def metadata_partitions(self, topic: str, count: int, own: int) -> tuple[hot.MetadataResponsePartition, ...]:
        cached = self._partitions_cache.get(topic)
        if cached is None or len(cached) != count:
            cached = tuple(self._metadata_partition(topic, index) for index in range(count))
            self._partitions_cache[topic] = cached
        return cached

    def _metadata_partition(self, topic: str, index: int) -> hot.MetadataResponsePartition:
        place = self.place(topic, index, self._node)
        code = ErrorCode.NONE if place.leader != NO_LEADER else ErrorCode.LEADER_NOT_AVAILABLE
        return hot.MetadataResponsePartition(code, index, place.leader, place.epoch, place.replicas, place.isr, ())

    def coordinator(self, internal_topic: str, partitions: int, key: str, own: BrokerAddress) -> BrokerAddress | None:
        snapshot = self.snapshot
        record = snapshot.topics.get(internal_topic)
        if record is None:
            self._create_in_background(internal_topic, partitions)
            return None
        leader = snapshot.leader_of(internal_topic, coordinator_partition(key, record.partitions))
        if leader is None or leader.leader == NO_LEADER:
            return None
        if leader.leader == own.node_id:
            return own
        info = snapshot.brokers.get(leader.leader)
        return None if info is None else BrokerAddress(info.node_id, *info.address(own.listener), own.listener)

    def marker_route(self, tp: TopicPartition) -> BrokerAddress | Place:
        """Where a transaction marker for ``tp`` goes now (``transactions/markers.py``): this broker, another
        broker, nowhere yet (no live leader), or nowhere (the partition is gone)."""
        snapshot = self.snapshot
        record = snapshot.topics.get(tp.topic)
        if record is None or not 0 <= tp.partition < record.partitions:
            return Place.GONE
        leader = snapshot.leader_of(tp.topic, tp.partition)
        if leader is None or leader.leader == NO_LEADER:
            return Place.UNAVAILABLE
        if leader.leader == self._node:
            return Place.LOCAL
        info = snapshot.brokers.get(leader.leader)
        if info is None:
            return Place.UNAVAILABLE
        if self._interbroker_listener is None:
            return BrokerAddress(info.node_id, info.host, info.port)
        return BrokerAddress(info.node_id, *info.address(self._interbroker_listener), self._interbroker_listener)

    def max_replicas(self) -> int:
        """The most replicas a partition can have: the live members of the largest group with a live leader."""
        snapshot = self.snapshot
        return max((len(snapshot.group_members(group)) for group in snapshot.live_groups()), default=0)

    async def create_topic(
        self, name: str, partitions: int, configs: Mapping[str, str], leaders: Sequence[int] = (), replicas: int = 1
    ) -> TopicInfo:
        """Create ``name`` in etcd (partition i on the group of ``leaders[i]`` when given, else on groups of at least
        ``replicas`` members), then wait until this broker's store mirrors it."""
        metadata = self._metadata()
        groups = self._groups_of(leaders)
        with _as_api_errors(name):
            record = await metadata.create_topic(self.snapshot, name, partitions, configs, groups, replicas)
            await self._view.wait_for(lambda s: name in s.topics, SEEN_TIMEOUT_S)
        return TopicInfo(name, record.topic_id, record.partitions, dict(record.configs))

    async def delete_topic(self, name: str) -> TopicInfo:
        """Delete ``name`` from etcd, then wait until this broker's store dropped it."""
        metadata = self._metadata()
        with _as_api_errors(name):
            record = await metadata.delete_topic(name)
            await self._view.wait_for(lambda s: name not in s.topics, SEEN_TIMEOUT_S)
        return TopicInfo(name, record.topic_id, record.partitions, dict(record.configs))

    async def create_partitions(self, name: str, total: int, leaders: Sequence[int] = ()) -> TopicInfo:
        """Grow ``name`` to ``total`` partitions in etcd (new ones on the groups of ``leaders`` when given, else on
        the least loaded groups), then wait for it."""
        metadata = self._metadata()
        groups = self._groups_of(leaders)
        with _as_api_errors(name):
            record = await metadata.add_partitions(self.snapshot, name, total, groups)
            await self._view.wait_for(lambda s: s.topics.get(name) == record, SEEN_TIMEOUT_S)
        return TopicInfo(name, record.topic_id, record.partitions, dict(record.configs))

    async def alter_topic_configs(self, name: str, update: ConfigUpdate) -> TopicInfo:
        """Make ``name``'s configs ``update(its configs in etcd)`` (compare-and-swap), then wait until this broker's
        store has them; every other broker's store follows through its watch."""
        metadata = self._metadata()
        with _as_api_errors(name):
            record, revision = await metadata.alter_topic_configs(name, update)
            await self._view.wait_for(lambda s: s.revision >= revision, SEEN_TIMEOUT_S)
        return TopicInfo(name, record.topic_id, record.partitions, dict(record.configs))

    async def move_partition(self, topic: str, partition: int, node: int) -> None:
        """Start moving ``topic``-``partition`` to the group of broker ``node`` (a registered broker; naming the
        present leader cancels a move in progress, or changes nothing)."""
        group = self._groups_of([node])[0]
        key = (topic, partition)
        held = self.snapshot.leader_of(topic, partition)
        if topic in INTERNAL_TOPICS and (held is None or held.group != group):
            raise ApiError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, f"{topic} is internal: its partitions do not move")
        with _as_api_errors(topic):
            move = await self._moves.start(topic, partition, group)
            await self._view.wait_for(lambda s: s.moves.get(key) == move, SEEN_TIMEOUT_S)

    async def cancel_move(self, topic: str, partition: int) -> None:
        key = (topic, partition)
        with _as_api_errors(topic):
            await self._moves.cancel(topic, partition)
            await self._view.wait_for(lambda s: key not in s.moves, SEEN_TIMEOUT_S)

    def moves(self) -> list[PartitionMove]:
        """The moves in progress: (topic, partition, target leader, source leader), by topic and partition."""
        snapshot = self.snapshot
        found = []
        for key in sorted(snapshot.moves):
            move = snapshot.moves[key]
            if key[0] not in snapshot.topics:
                continue  # a move of a deleted topic, left behind
            target, source = snapshot.groups.get(move.target), snapshot.groups.get(move.source)
            found.append(
                PartitionMove(
                    move.topic, move.partition, NO_LEADER if target is None else target.leader,
                    NO_LEADER if source is None else source.leader, move.state,
                )
            )  # fmt: skip
        return found

    async def stop(self) -> None:
        await self._mover.stop()

    def _groups_of(self, leaders: Sequence[int]) -> list[str]:
        """The group of each broker a manual assignment names (INVALID_REPLICA_ASSIGNMENT for one not registered)."""
        brokers = self.snapshot.brokers
        missing = [node for node in leaders if node not in brokers]
        if missing:
            raise ApiError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"The manual partition assignment includes broker {missing[0]}, but no such broker is registered.",
            )
        return [brokers[node].group for node in leaders]

    def _metadata(self) -> ClusterMetadata:
        metadata = self._member.metadata
        assert metadata is not None, "the member has started"
        return metadata

    def auto_create(self, name: str, partitions: int) -> TopicInfo | None:
        """Start creating ``name`` in etcd; the client finds it on a later Metadata request."""
        self._create_in_background(name, partitions)
        return None

    def _create_in_background(self, name: str, partitions: int) -> None:
        """Create ``name`` in etcd without waiting (auto-creation; internal topics on first use)."""
        if name in self._creating:
            return
        self._creating.add(name)
        task = asyncio.get_running_loop().create_task(self._create_quietly(name, partitions))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _create_quietly(self, name: str, partitions: int) -> None:
        try:
            await self._metadata().create_topic(self.snapshot, name, partitions, {})
            log.info("auto-created topic %s with %d partitions in the cluster", name, partitions)
        except TopicExistsError:
            pass
        except ClusterError as exc:
            log.warning("cannot create topic %s in the cluster: %s", name, exc)
        finally:
            self._creating.discard(name)

    def _changed(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        if self._store.replica.following:
            self._unmirrored = True  # the leader's TOPICS message makes the store's topics
        elif self._unmirrored or new.topics is not old.topics:
            self._mirror(ClusterSnapshot() if self._unmirrored else old, new)
            self._unmirrored = False
        self._begin_epoch(new)
        self.readable = self._led_by_me(new)
        self.followed = self._followed_by_me(new)
        fenced = self._mover.fenced_out(new)
        self.led = {
            name: frozenset(led - fenced[name]) if name in fenced else led for name, led in self.readable.items()
        }
        self._partitions_cache = {}
        self._note_departed(old, new)
        self._mover.changed(old, new)
        for topic, coordinate in self._on_coordination.items():
            coordinated = self.led.get(topic, frozenset())
            if self._coordinated.get(topic) != coordinated:
                self._coordinated[topic] = coordinated
                try:
                    coordinate(coordinated)
                except StoreError as exc:
                    log.error("cannot load or unload the keys of %s: %s", topic, exc)

    def _note_departed(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        if new.brokers is old.brokers:
            return
        now = time.monotonic()
        for node, info in old.brokers.items():
            if node not in new.brokers:
                self._departed[node] = (now, info)
        self._departed = {
            node: seen for node, seen in self._departed.items()
            if node not in new.brokers and now - seen[0] < DEPARTED_LISTED_S
        }  # fmt: skip

    def _begin_epoch(self, snapshot: ClusterSnapshot) -> None:
        """Begin the group's epoch in the store when this broker leads the group at a newer one."""
        state = snapshot.groups.get(self._member.settings.group)
        if state is None or state.leader != self._node or state.epoch == self._store.epochs.current:
            return
        if state.epoch < self._store.epochs.current:
            if state == self._behind:
                return
            self._behind = state
            log.error(
                "group %s: etcd gives leader epoch %d, but this broker's store is already at epoch %d",
                state.name, state.epoch, self._store.epochs.current,
            )  # fmt: skip
            return
        try:
            self._store.epochs.begin(state.epoch)
        except StoreError as exc:
            log.error("group %s: cannot begin leader epoch %d in the store: %s", state.name, state.epoch, exc)
            return
        log.info("group %s: this broker leads at epoch %d", state.name, state.epoch)

    def _led_by_me(self, snapshot: ClusterSnapshot) -> dict[str, frozenset[int]]:
        mine = {name for name, state in snapshot.groups.items() if state.leader == self._node}
        return {
            name: frozenset(index for index, group in enumerate(record.placement) if group in mine)
            for name, record in snapshot.topics.items()
        }

    def _followed_by_me(self, snapshot: ClusterSnapshot) -> dict[str, frozenset[int]]:
        """Per topic, the partitions of this broker's group while another member leads it: what this broker, a
        follower, serves consumers (KIP-392), up to the high watermark its leader sent."""
        group = self._member.settings.group
        state = snapshot.groups.get(group)
        if state is None or state.leader in (self._node, NO_LEADER) or not self._store.replica.following:
            return {}
        return {
            name: frozenset(index for index, placed in enumerate(record.placement) if placed == group)
            for name, record in snapshot.topics.items()
        }

    def _mirror(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        """Make the store's topics follow the cluster's (internal topics excepted)."""
        for name, record in new.topics.items():
            if name in INTERNAL_TOPICS or old.topics.get(name) == record:
                continue
            try:
                self._mirror_one(name, record.topic_id, record.partitions, record.configs)
            except StoreError as exc:
                log.error("cannot mirror topic %s into the store: %s", name, exc)
        for name in old.topics.keys() - new.topics.keys():
            if name not in INTERNAL_TOPICS:
                try:
                    self._store.topics.delete(name)
                except UnknownTopicOrPartitionError:
                    pass
                except StoreError as exc:
                    log.error("cannot delete topic %s from the store: %s", name, exc)

    def _mirror_one(self, name: str, topic_id: uuid.UUID, partitions: int, configs: Mapping[str, str]) -> None:
        try:
            local = self._store.topics.describe(name)
        except UnknownTopicOrPartitionError:
            self._store.topics.create(name, partitions, dict(configs), topic_id)
            return
        if local.topic_id != topic_id:
            log.error("topic %s: id %s in the store, %s in the cluster: not mirrored", name, local.topic_id, topic_id)
            return
        if local.partitions < partitions:
            self._store.topics.create_partitions(name, partitions)
        if dict(local.configs) != dict(configs):
            self._store.topics.alter_configs(name, dict(configs), replace=True)


@contextlib.contextmanager
def _as_api_errors(name: str) -> Iterator[None]:
    """The cluster layer's errors of a topic change or a move, as the Kafka error codes admin clients act on."""
    try:
        yield
    except TopicExistsError as exc:
        raise ApiError(ErrorCode.TOPIC_ALREADY_EXISTS, str(exc)) from None
    except UnknownTopicError as exc:
        raise ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, str(exc)) from None
    except NoBrokerGroupsError as exc:
        raise ApiError(ErrorCode.INVALID_REPLICATION_FACTOR, str(exc)) from None
    except NoMoveError as exc:
        raise ApiError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, str(exc)) from None
    except MoveSwitchingError as exc:
        raise ApiError(ErrorCode.REASSIGNMENT_IN_PROGRESS, str(exc)) from None
    except (ClusterError, TimeoutError) as exc:  # etcd unreachable, or a concurrent change won: retriable
        raise ApiError(
            ErrorCode.REQUEST_TIMED_OUT, f"the cluster metadata did not take the change to {name}: {exc}"
        ) from None
