"""The broker's shared state, handed to every handler: settings, store, identity, parked fetches, groups, producers,
transactions."""

from __future__ import annotations

import base64
import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rockafka.store import (
    CorruptStoreError,
    FlushMode,
    MessageStore,
    StoreConfig,
    TopicInfo,
    UnknownTopicOrPartitionError,
)

from .clock import REAL_CLOCK, Clock
from .config import BrokerConfig, ConfigSource, describe_topic_config
from .config.broker import decode_properties, read_properties
from .config.errors import ConfigError
from .dynamic_configs import DynamicConfigs
from .group import GroupService
from .internal_topics import OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC, InternalTopicListing
from .ops.metrics import BrokerMetrics
from .producers import ProducerService
from .replication import CoordinatorWrites, Replication
from .topology import BrokerAddress, LocalTopology, Topology
from .transactions import TransactionCoordinator
from .waiters import PartitionWaiters

if TYPE_CHECKING:
    from .leader_elections import ClusterLeaderElections

log = logging.getLogger(__name__)

META_FILE = "meta.properties"


@dataclass(eq=False)
class Broker:
    """One running broker. Handlers reach the store and settings through it; it holds no request logic."""

    config: BrokerConfig
    store: MessageStore
    cluster_id: str
    waiters: PartitionWaiters = field(default_factory=PartitionWaiters)
    #: Where partitions live; a cluster member replaces it with a ``ClusterTopology`` before serving.
    topology: Topology = field(init=False)
    metrics: BrokerMetrics | None = None
    """The traffic counters, when the HTTP listener exports them (``rockafka.http.listener``)."""
    replication: Replication | None = None
    """This broker's role in its group's replication (``replication.py``); None for a single broker."""
    leader_elections: ClusterLeaderElections | None = None
    """ElectLeaders' elections of broker groups (``leader_elections.py``); None for a single broker."""
    groups: GroupService = field(init=False)
    internal_topics: InternalTopicListing = field(init=False)
    """The internal topics clients see (``__consumer_offsets``, ``__transaction_state``) once Kafka would list them."""
    producers: ProducerService = field(init=False)
    transactions: TransactionCoordinator = field(init=False)
    dynamic: DynamicConfigs = field(init=False)
    """The dynamic broker configs (``dynamicBrokerConfigs.json``), layered over the static ones in ``config``."""
    reconfigured: list[Callable[[BrokerConfig], None]] = field(default_factory=list)
    """Called with the new configuration after a dynamic broker config changed (the connection limits)."""
    clock: Clock = REAL_CLOCK
    """What the broker's own timers consult (``clock.py``): real, or a test's ``ManualClock``."""

    def __post_init__(self) -> None:
        self.topology = LocalTopology(self.store, str(self.config.get("broker.rack") or "") or None)
        clock = self.clock
        self.producers = ProducerService(self.config, self.store, clock.now_ms, clock)
        self.transactions = TransactionCoordinator(self.config, self.store, self.producers, clock.now_ms, clock)
        self.groups = GroupService(
            self.config, self.store, pending_transactional=self.transactions.pending_offsets, timers=clock
        )
        self.groups.consumer.subscriptions.partition_racks = self._partition_racks
        if self.replication is not None:  # a replicated group's leader answers coordinator writes once replicated
            self.groups.confirm_writes(CoordinatorWrites(self).confirmed)
            min_isr = self.config.int("transaction.state.log.min.isr")
            self.transactions.confirm_write = CoordinatorWrites(self, min_insync=min_isr).confirmed
        self.internal_topics = InternalTopicListing(
            self.cluster_id,
            self.config.int("offsets.topic.num.partitions"),
            {OFFSETS_TOPIC: self.groups.has_state, TRANSACTION_STATE_TOPIC: self.transactions.has_state},
        )
        self.dynamic = DynamicConfigs(self.config.static.data_dir)
        layered = self.dynamic.load(self.config)
        if layered is not self.config:
            self.reconfigure(layered)

    def reconfigure(self, config: BrokerConfig) -> None:
        """Serve under ``config`` from now on: handlers read ``self.config`` per request; the store's topic
        defaults, the producer-state expiry and the ``reconfigured`` hooks are updated here, off the hot path."""
        self.config = config
        self.store.topics.set_defaults(topic_defaults(config))
        self.producers.reconfigure(config)
        self.store.cleaner.set_io_budget(_cleaner_budget(config.get("log.cleaner.io.max.bytes.per.second")))
        self.store.cleaner.set_threads(config.int("log.cleaner.threads"))
        for hook in self.reconfigured:
            hook(config)

    @property
    def node_id(self) -> int:
        return self.config.node_id

    def _partition_racks(self, topics: Mapping[str, int]) -> dict[tuple[str, int], frozenset[str]]:
        """The racks of each partition's replicas: their ``broker.rack`` (Metadata's and DescribeCluster's rack), as
        Kafka's; with no broker's rack set there are none (KIP-848's rack-aware assignment then does not apply)."""
        brokers = self.topology.brokers(BrokerAddress(self.node_id, "", 0))
        racks = {broker.node_id: broker.rack for broker in brokers if broker.rack}
        if not racks:
            return {}
        return {
            (name, index): frozenset(racks[node] for node in self.topology.place(name, index, self.node_id).replicas
                                     if node in racks)
            for name, count in topics.items()
            for index in range(count)
        }  # fmt: skip

    def topic_or_none(self, name: str) -> TopicInfo | None:
        try:
            return self.store.topics.describe(name)
        except UnknownTopicOrPartitionError:
            return None

    def auto_create_topic(self, name: str) -> TopicInfo | None:
        """Create ``name`` with ``num.partitions`` partitions (Metadata auto-creation); tolerates a race.
        None when the topic is being created elsewhere (in a cluster: through etcd) and is not here yet."""
        return self.topology.auto_create(name, self.config.int("num.partitions"))


def store_config(config: BrokerConfig) -> StoreConfig:
    """The store's settings, from the broker's (Kafka names mapped onto RocketMQ-style geometry)."""
    flush_mode: FlushMode = "sync" if config.str("rockafka.flush.mode") == "sync" else "async"
    cache_bytes = config.int("rockafka.commitlog.cache.bytes")
    return StoreConfig(
        root_dir=config.data_dir,
        commitlog_segment_bytes=config.int("log.segment.bytes"),
        consume_queue_units_per_file=config.int("rockafka.consumequeue.units.per.file"),
        flush_mode=flush_mode,
        flush_interval_ms=config.int("rockafka.flush.interval.ms"),
        index_slot_count=config.int("rockafka.index.slots"),
        index_entry_count=config.int("rockafka.index.entries"),
        commitlog_cache_bytes=None if cache_bytes < 0 else cache_bytes,
        free_space_reserve_bytes=config.int("rockafka.free.space.reserve.bytes"),
        offsets_topic_partitions=config.int("offsets.topic.num.partitions"),
        cleaner_io_bytes_per_second=_cleaner_budget(config.get("log.cleaner.io.max.bytes.per.second")),
        cleaner_duty_cycle=min(1.0, float(config.get("rockafka.cleaner.duty.cycle"))),  # type: ignore[arg-type]
        cleaner_dedupe_buffer_bytes=config.int("log.cleaner.dedupe.buffer.size"),
        cleaner_threads=max(1, config.int("log.cleaner.threads")),
        topic_defaults=topic_defaults(config),
    )


def _cleaner_budget(per_second: object) -> int | None:
    """Kafka's unlimited default is Double.MAX_VALUE: anything past an exabyte a second is unthrottled."""
    budget = float(per_second) if isinstance(per_second, (int, float)) else 1e308
    return None if budget >= 1e18 else max(1, int(budget))


def topic_defaults(config: BrokerConfig) -> Mapping[str, str]:
    """Topic configs the broker's own settings supply (``message.max.bytes`` as ``max.message.bytes``, ...),
    static or dynamic."""
    return {
        entry.name: entry.value
        for entry in describe_topic_config({}, config)
        if entry.source != ConfigSource.DEFAULT_CONFIG and entry.value is not None
    }


def load_cluster_id(data_dir: Path, node_id: int) -> str:
    """The cluster id kept in ``meta.properties`` in the data directory, made on first start (Kafka's format).

    A file that cannot be read or is not UTF-8 text is a :class:`CorruptStoreError` naming it (the broker
    says so in one line and exits 1); it is never replaced, so a damaged file keeps its cluster id for
    whoever repairs it.
    """
    path = data_dir / META_FILE
    try:
        if path.exists():
            values = dict(read_properties(decode_properties(path.read_bytes(), path)))
            if values.get("cluster.id"):
                return values["cluster.id"]
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode("ascii").rstrip("=")
        data_dir.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(f"version=1\ncluster.id={cluster_id}\nnode.id={node_id}\n", encoding="utf-8")
        temporary.replace(path)
    except ConfigError as exc:
        raise CorruptStoreError(str(exc)) from None
    except OSError as exc:
        raise CorruptStoreError(f"{path}: {exc.strerror or exc}") from None
    return cluster_id
