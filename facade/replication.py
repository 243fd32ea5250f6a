"""The broker's role in its group's replication (``cluster/replication/``), from its settings.

- ``rockafka.replication.listener`` set: a *leader*. It serves followers there (``ReplicationLeader``); while a
  follower is in sync, consumers see the confirm offset as the high watermark; Produce with acks=all waits for
  the confirm offset (every in-sync member holds the batch) and is refused with NOT_ENOUGH_REPLICAS when the
  in-sync set (the leader included) is smaller than ``min.insync.replicas``.
- ``rockafka.replication.leader`` set: a *follower* of the leader whose replication listener it names. Before
  the broker is built it handshakes and, when its log parts from the leader's, reopens the store cut back there
  (``MessageStore.open(truncate_to=)``); then it copies the leader's CommitLog (``ReplicationFollower``) and
  refuses Produce (NOT_LEADER_OR_FOLLOWER); its store refuses every append of its own (``store.replica.follow``:
  offset commits, coordinator records and markers included), so only the leader's bytes reach its CommitLog.
- Neither (a single broker, the default): nothing here runs; no listener is opened and acks=all is answered
  after the append, as before.

In a cluster (``rockafka.cluster.etcd.endpoints``) a member of a replicated group sets only
``rockafka.replication.listener``: its part comes from etcd (``groups/<group>``'s leader), not from its settings.
Before the broker is built, one read of etcd says whether another live member leads; if so this broker
handshakes with it and cuts its store back as a static follower does. Once it has joined, ``ClusterRoles``
(``replication_roles.py``) plays the part every new snapshot gives it: promotion, demotion, a new leader to follow.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rockafka.cluster import ClusterError
from rockafka.cluster.replication.follower import ReplicationFollower, Session
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.core_pyx import hotcodec as hot
from rockafka.store import MessageStore, StoreConfig, StoreError

from .config import BrokerConfig
from .protocol.error_codes import ErrorCode

if TYPE_CHECKING:
    from .broker import Broker

log = logging.getLogger(__name__)


class ReplicationSetupError(Exception):
    """The replication settings cannot be served (one line)."""


@dataclass
class Replication:
    """What the handlers ask: ``leader`` (acks=all) or ``follower`` (refuse produce); one of them is set."""

    leader: ReplicationLeader | None = None
    follower: ReplicationFollower | None = None
    _session: Session | None = None
    in_cluster: bool = False
    """The part comes from etcd: ``start`` opens no listener (``ClusterRoles`` does once etcd names this leader)."""

    async def stop(self) -> None:
        if self.leader is not None:
            await self.leader.stop()
        if self.follower is not None:
            await self.follower.stop()


def replication_address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    return host, int(port)


async def prepare(
    config: BrokerConfig, store: MessageStore, store_config: StoreConfig
) -> tuple[MessageStore, Replication | None]:
    """Before the broker is built: a follower handshakes with its leader and cuts its store back if it must (the
    store returned is then a new one). None for a single broker."""
    listener, leader = config.str("rockafka.replication.listener"), config.str("rockafka.replication.leader")
    if listener and leader:
        raise ReplicationSetupError("rockafka.replication.listener and rockafka.replication.leader are both set: a "
                                    "broker leads its group or follows it")  # fmt: skip
    in_cluster = bool(config.get("rockafka.cluster.etcd.endpoints"))
    if in_cluster and leader:
        raise ReplicationSetupError("rockafka.replication.leader is for a pair outside a cluster: in a cluster a "
                                    "member's leader is the one etcd names")  # fmt: skip
    if in_cluster and listener:
        source = await _leader_in_cluster(config)
        if source is None:
            return store, Replication(in_cluster=True)
        store, replication = await follow_from_start(config, store, store_config, source)
        replication.in_cluster = True
        return store, replication
    if not leader:
        return store, (Replication() if listener else None)
    return await follow_from_start(config, store, store_config, replication_address(leader))


async def _leader_in_cluster(config: BrokerConfig) -> tuple[str, int] | None:
    """The replication address of the live member etcd names leader of this broker's group, if another."""
    from rockafka.cluster.replication.roles import role_from_etcd  # loads the etcd client: only in a cluster

    endpoints = config.get("rockafka.cluster.etcd.endpoints")
    assert isinstance(endpoints, list)
    group = str(config.get("rockafka.cluster.group") or f"group-{config.node_id}")
    try:
        role = await role_from_etcd(endpoints, config.str("rockafka.cluster.name"), config.node_id, group)
    except ClusterError:
        return None  # joining the cluster says so in one line
    return None if role is None else role.source


async def follow_from_start(
    config: BrokerConfig, store: MessageStore, store_config: StoreConfig, source: tuple[str, int]
) -> tuple[MessageStore, Replication]:
    """A follower of ``source``: the handshake, and the store cut back (a new one) where its log parts."""
    leader = f"{source[0]}:{source[1]}"
    follower = ReplicationFollower(config.node_id, *source)
    store.replica.follow()
    store.records.set_confirmed(0)  # a follower's reads stop at its leader's confirm offset: none known yet
    try:
        session = await follower.handshake(store)
    except (OSError, TimeoutError, ClusterError) as exc:
        log.warning("replication: the leader at %s cannot be reached now (%s); following it once it can", leader, exc)
        return store, Replication(follower=follower)
    cut = session.welcome.truncate_to
    if cut < store.replica.end:
        log.warning("replication: this log parts from the leader's at offset %d; cutting it back from %d", cut,
                    store.replica.end)  # fmt: skip
        store.close()
        store = MessageStore.open(store_config, truncate_to=cut)
        store.replica.follow()
        store.records.set_confirmed(0)
    return store, Replication(follower=follower, _session=session)


async def start(
    replication: Replication, config: BrokerConfig, store: MessageStore, wake_fetches: Callable[[], None]
) -> None:
    """Once the broker is built: serve followers (``wake_fetches`` when the high watermark moves), or follow."""
    if replication.follower is not None:
        replication.follower.follow(store, replication._session)
        replication._session = None
        return
    if replication.in_cluster:
        return
    replication.leader = new_leader(config, store, wake_fetches)
    await listen(replication.leader, config)


def new_leader(config: BrokerConfig, store: MessageStore, wake_fetches: Callable[[], None]) -> ReplicationLeader:
    """A leader of this store, not listening yet."""
    leader = ReplicationLeader(store, lag_time_ms=config.int("replica.lag.time.max.ms"))
    leader.on_confirm = wake_fetches
    return leader


async def listen(leader: ReplicationLeader, config: BrokerConfig) -> None:
    """Serve followers on ``rockafka.replication.listener`` (``ReplicationSetupError`` when it cannot be bound)."""
    address = config.str("rockafka.replication.listener")
    try:
        await leader.start(*replication_address(address))
    except OSError as exc:
        raise ReplicationSetupError(f"cannot listen for followers on {address}: {exc.strerror or exc}") from None


def produce_refusal(
    replication: Replication, broker_config: BrokerConfig, store: MessageStore, topic: str, acks: int
) -> ErrorCode | None:
    """Why Produce to ``topic`` is refused here before any append: a follower takes none
    (NOT_LEADER_OR_FOLLOWER); a leader refuses acks=all while its in-sync set is below the topic's
    ``min.insync.replicas`` (NOT_ENOUGH_REPLICAS)."""
    if replication.follower is not None:
        return ErrorCode.NOT_LEADER_OR_FOLLOWER
    leader = replication.leader
    if acks == -1 and leader is not None and leader.in_sync.size < min_insync_replicas(broker_config, store, topic):
        return ErrorCode.NOT_ENOUGH_REPLICAS
    return None


def min_insync_replicas(config: BrokerConfig, store: MessageStore, topic: str) -> int:
    """The topic's ``min.insync.replicas``, else the broker's."""
    try:
        value = store.topics.describe(topic).configs.get("min.insync.replicas")
    except StoreError:
        value = None
    return int(value) if value is not None else config.int("min.insync.replicas")


async def confirmed(leader: ReplicationLeader, end: int, timeout_ms: int) -> ErrorCode:
    """acks=all: wait until every in-sync member holds the CommitLog below ``end``, at most the request's
    ``timeout_ms`` (Kafka's DelayedProduce): NONE, or REQUEST_TIMED_OUT; NOT_ENOUGH_REPLICAS_AFTER_APPEND when
    the set shrank below ``min.insync.replicas`` to get there (checked by the caller)."""
    waiting = leader.wait_confirmed(end, timeout_ms)
    if waiting is None:
        return ErrorCode.NONE
    done = await waiting
    if done is None:
        return ErrorCode.REQUEST_TIMED_OUT
    return ErrorCode.NONE if done else ErrorCode.NOT_LEADER_OR_FOLLOWER


def after_confirm(
    broker: Broker, responses: list[hot.TopicProduceResponse], code: ErrorCode
) -> list[hot.TopicProduceResponse]:
    """acks=all's answers once the wait ended with ``code``: partitions appended get it, or
    NOT_ENOUGH_REPLICAS_AFTER_APPEND when the in-sync set is now below their topic's minimum."""
    replication = broker.replication
    assert replication is not None
    if replication.leader is None:  # demoted during the wait (in a cluster): the leader's waits ended unconfirmed
        code, size = ErrorCode.NOT_LEADER_OR_FOLLOWER, 0
    else:
        size = replication.leader.in_sync.size
    out = []
    for topic in responses:
        topic_code = code
        if code == ErrorCode.NONE and size < min_insync_replicas(broker.config, broker.store, topic.name):
            topic_code = ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
        if topic_code != ErrorCode.NONE:
            topic = topic._replace(
                partition_responses=[
                    p._replace(error_code=topic_code) if p.error_code == ErrorCode.NONE else p
                    for p in topic.partition_responses
                ]
            )
        out.append(topic)
    return out


#: How long a coordinator's write (an offset commit) waits for the in-sync members before it is answered
#: COORDINATOR_NOT_AVAILABLE: Kafka's offsets.commit.timeout.ms default.
COORDINATOR_WRITE_TIMEOUT_MS = 5000


async def coordinator_write_confirmed(broker: Broker) -> ErrorCode:
    """After a coordinator appended to this broker's log (offset commits): on a replicated group's leader, wait until
    every in-sync member holds the log's end, as Kafka appends ``__consumer_offsets`` with acks=all; NONE, else the
    coordinator error Kafka's group coordinator answers then (COORDINATOR_NOT_AVAILABLE for a timeout,
    NOT_COORDINATOR once this broker no longer leads). A commit answered before a failover could lose it would let a
    consumer's committed offset go back."""
    replication = broker.replication
    if replication is None or replication.leader is None:
        return ErrorCode.NONE
    code = await confirmed(replication.leader, broker.store.replica.published_end, COORDINATOR_WRITE_TIMEOUT_MS)
    if code == ErrorCode.NONE:
        return code
    return ErrorCode.COORDINATOR_NOT_AVAILABLE if code == ErrorCode.REQUEST_TIMED_OUT else ErrorCode.NOT_COORDINATOR
