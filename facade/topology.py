"""Where partitions live and which broker serves what: the one seam between the handlers and a cluster.

Handlers never ask "are we clustered?"; they ask ``ctx.broker.topology``:

- ``led``: None when this broker leads every partition its store holds (a single broker: produce, fetch
  and list-offsets check nothing more); otherwise, per topic, the partitions this broker leads. Those
  handlers read it once per request and answer NOT_LEADER_OR_FOLLOWER for any other partition: an O(1)
  lookup in a map rebuilt when the cluster changes, never a request to etcd.
- ``readable``: what Fetch serves: ``led``, and in a cluster also the partitions whose move away is fenced
  (they take no appends any more, but are read until the switch; ``partition_moves.py``).
- ``move_partition``, ``cancel_move``, ``moves``: partitions moving between broker groups
  (AlterPartitionReassignments, ListPartitionReassignments); a single broker has nowhere to move them
  (``cancel_move`` answers False: no move was in progress; in a cluster an awaitable that raises ``ApiError``).
- ``brokers``, ``controller_id``: what Metadata and DescribeCluster list.
- ``metadata_partitions`` and ``place``: each partition's leader, leader epoch and replicas.
- ``leader_epoch``: a partition's leader epoch alone (-1: unknown), what the ``current_leader_epoch`` of Fetch,
  ListOffsets and OffsetForLeaderEpoch is checked against; cheap enough for every partition of every fetch.
- ``coordinator``: which broker coordinates a group or transactional id (None: not known yet, the
  client retries).
- ``create_topic``, ``auto_create``, ``delete_topic``, ``create_partitions``, ``alter_topic_configs``: topic
  changes, in the local store at once or through the cluster's metadata (an awaitable; see
  ``handlers/topic_changes.py``). ``alter_topic_configs`` takes a function from the current configs to the
  new ones (it may raise ``ApiError`` to refuse them), so an incremental change applies to the latest
  configs: the store's here, etcd's in a cluster. ``leaders`` of a creation are a manual assignment's broker
  per new partition (checked by the handler: here always this broker); a cluster places each new partition
  on the group of the broker named, instead of the least loaded group.

:class:`LocalTopology` is today's single broker, exactly. ``ClusterTopology`` (``facade/cluster_topology.py``)
answers from the cluster snapshot of ``rockafka.cluster``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

from rockafka.core_pyx import hotcodec as hot
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, TopicAlreadyExistsError, TopicInfo, key_partition
from rockafka.store import java_string_hash as java_string_hash  # re-exported: Kafka's key hash

log = logging.getLogger(__name__)

ConfigUpdate = Callable[[Mapping[str, str]], Mapping[str, str]]
"""From a topic's current config overrides to its new ones (all of them)."""

#: The internal-topic partition whose leader coordinates a key (the store's hash, which places its records too).
coordinator_partition: Final = key_partition


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    """A broker as clients reach it; ``rack`` is its ``broker.rack`` (None when unset: Metadata and DescribeCluster
    show it), ``group`` its broker group in a cluster."""

    node_id: int
    host: str
    port: int
    #: the listener's name the address is for (a cluster tells a client the other brokers' on its listener)
    listener: str = ""
    rack: str | None = None
    group: str | None = None


@dataclass(frozen=True, slots=True)
class PartitionMove:
    """A partition moving between broker groups: to ``target``'s group from ``source``'s; ``state`` as etcd has it
    (copying, fenced, sealed)."""

    topic: str
    partition: int
    target: int
    source: int
    state: str


@dataclass(frozen=True, slots=True)
class PartitionPlace:
    """One partition's leader (-1: none now), leader epoch, replicas and in-sync replicas (empty: all of them)."""

    leader: int
    epoch: int
    replicas: tuple[int, ...]
    in_sync: tuple[int, ...] = ()

    @property
    def isr(self) -> tuple[int, ...]:
        return self.in_sync or self.replicas


class Topology(Protocol):
    """What the handlers need to know about where partitions live (see the module docstring)."""

    @property
    def led(self) -> Mapping[str, frozenset[int]] | None: ...

    @property
    def readable(self) -> Mapping[str, frozenset[int]] | None: ...

    @property
    def followed(self) -> Mapping[str, frozenset[int]] | None: ...

    def move_partition(self, topic: str, partition: int, node: int) -> Awaitable[None] | None: ...

    def cancel_move(self, topic: str, partition: int) -> Awaitable[None] | bool: ...

    def moves(self) -> list[PartitionMove]: ...

    def brokers(self, own: BrokerAddress) -> list[BrokerAddress]: ...

    def metadata_brokers(self, own: BrokerAddress) -> list[BrokerAddress]: ...

    def controller_id(self, own: int) -> int: ...

    def place(self, topic: str, partition: int, own: int) -> PartitionPlace: ...

    def leader_epoch(self, topic: str, partition: int) -> int: ...

    def metadata_partitions(self, topic: str, count: int, own: int) -> tuple[hot.MetadataResponsePartition, ...]: ...

    def coordinator(
        self, internal_topic: str, partitions: int, key: str, own: BrokerAddress
    ) -> BrokerAddress | None: ...

    def max_replicas(self) -> int: ...

    def create_topic(
        self, name: str, partitions: int, configs: Mapping[str, str], leaders: Sequence[int] = (), replicas: int = 1
    ) -> TopicInfo | Awaitable[TopicInfo]: ...

    def auto_create(self, name: str, partitions: int) -> TopicInfo | None: ...

    def delete_topic(self, name: str) -> TopicInfo | Awaitable[TopicInfo]: ...

    def create_partitions(
        self, name: str, total: int, leaders: Sequence[int] = ()
    ) -> TopicInfo | Awaitable[TopicInfo]: ...

    def alter_topic_configs(self, name: str, update: ConfigUpdate) -> TopicInfo | Awaitable[TopicInfo]: ...


class LocalTopology:
    """One broker is the whole cluster: it leads every partition at its store's epoch (0: a single broker never
    begins another, ``store/epochs.py``) and coordinates everything."""

    led: Final = None
    readable: Final = None
    followed: Final = None

    def __init__(self, store: MessageStore, rack: str | None = None) -> None:
        self._store = store
        self.rack = rack
        """``broker.rack`` (None: unset)."""

    def move_partition(self, topic: str, partition: int, node: int) -> None:
        """``node`` is this broker (the handler checked it is registered): the partition is already there."""

    def cancel_move(self, topic: str, partition: int) -> bool:
        """False: no move is ever in progress on one broker."""
        return False

    def moves(self) -> list[PartitionMove]:
        return []

    def brokers(self, own: BrokerAddress) -> list[BrokerAddress]:
        return [own] if self.rack is None else [replace(own, rack=self.rack)]

    def metadata_brokers(self, own: BrokerAddress) -> list[BrokerAddress]:
        return self.brokers(own)

    def controller_id(self, own: int) -> int:
        return own

    def place(self, topic: str, partition: int, own: int) -> PartitionPlace:
        return PartitionPlace(own, self._store.epochs.current, (own,))

    def leader_epoch(self, topic: str, partition: int) -> int:
        return self._store.epochs.current

    def metadata_partitions(self, topic: str, count: int, own: int) -> tuple[hot.MetadataResponsePartition, ...]:
        return _local_partitions(count, own, self._store.epochs.current)

    def coordinator(self, internal_topic: str, partitions: int, key: str, own: BrokerAddress) -> BrokerAddress | None:
        return own

    def max_replicas(self) -> int:
        """The most replicas a partition can have here: one, this broker."""
        return 1

    def create_topic(
        self, name: str, partitions: int, configs: Mapping[str, str], leaders: Sequence[int] = (), replicas: int = 1
    ) -> TopicInfo:
        self._refuse_on_follower()
        return self._store.topics.create(name, partitions, configs)

    def _refuse_on_follower(self) -> None:
        """A follower's topic table is its leader's (the replication stream's ``TOPICS``): INVALID_REQUEST."""
        if self._store.replica.following:
            from .handlers.context import ApiError  # here: the handlers import this module

            raise ApiError(
                ErrorCode.INVALID_REQUEST,
                "this broker follows its group's leader: change topics on the leader",
            )

    def auto_create(self, name: str, partitions: int) -> TopicInfo | None:
        """Create ``name`` now (tolerating a race with another request creating it); a follower creates none."""
        if self._store.replica.following:
            return None
        try:
            topic = self._store.topics.create(name, partitions)
        except TopicAlreadyExistsError:
            return self._store.topics.describe(name)
        log.info("auto-created topic %s with %d partitions", name, topic.partitions)
        return topic

    def delete_topic(self, name: str) -> TopicInfo:
        self._refuse_on_follower()
        return self._store.topics.delete(name)

    def create_partitions(self, name: str, total: int, leaders: Sequence[int] = ()) -> TopicInfo:
        self._refuse_on_follower()
        return self._store.topics.create_partitions(name, total)

    def alter_topic_configs(self, name: str, update: ConfigUpdate) -> TopicInfo:
        self._refuse_on_follower()
        current = self._store.topics.describe(name).configs
        return self._store.topics.alter_configs(name, update(current), replace=True)


@functools.lru_cache(maxsize=256)
def _local_partitions(count: int, node: int, epoch: int) -> tuple[hot.MetadataResponsePartition, ...]:
    """Partitions 0..count-1, each led by ``node`` at ``epoch``, its only replica and whole ISR; one shared tuple per
    count."""
    replicas = (node,)
    entry = hot.MetadataResponsePartition
    return tuple(entry(ErrorCode.NONE, index, node, epoch, replicas, replicas, ()) for index in range(count))
