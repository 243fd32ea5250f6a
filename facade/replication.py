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

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
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
    follower = ReplicationFollower(config.node_id, *source, silence_ms=config.int("replica.lag.time.max.ms"))
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


#: How long a coordinator's write waits for the in-sync members before it is answered COORDINATOR_NOT_AVAILABLE:
#: Kafka's offsets.commit.timeout.ms default.
COORDINATOR_WRITE_TIMEOUT_MS = 5000


class UnconfirmedWrite(Exception):
    """A coordinator's write that not every in-sync member confirmed: ``error_code`` is what Kafka's coordinators
    answer then (COORDINATOR_NOT_AVAILABLE after a timeout, NOT_COORDINATOR once this broker no longer leads)."""

    def __init__(self, error_code: ErrorCode) -> None:
        super().__init__(f"not confirmed by the in-sync members: {error_code.name}")
        self.error_code = error_code


def coordinator_error(code: ErrorCode) -> ErrorCode:
    """The coordinator's answer for an append that ended with ``code``, as Kafka's GroupMetadataManager and
    TransactionStateManager map them: a timeout or too few replicas is COORDINATOR_NOT_AVAILABLE (the client
    retries), a leader that is no more is NOT_COORDINATOR (the client finds the new one)."""
    if code in (ErrorCode.NONE, ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE):
        return code
    if code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.KAFKA_STORAGE_ERROR):
        return ErrorCode.NOT_COORDINATOR
    return ErrorCode.COORDINATOR_NOT_AVAILABLE


async def coordinator_write_confirmed(broker: Broker, timeout_ms: int = COORDINATOR_WRITE_TIMEOUT_MS) -> ErrorCode:
    """After a coordinator appended to this broker's log: on a replicated group's leader, wait until every in-sync
    member holds the log's end, as Kafka appends its internal topics with acks=all; NONE, else the partition
    leader's error (REQUEST_TIMED_OUT, NOT_LEADER_OR_FOLLOWER: ``coordinator_error`` says what a coordinator
    answers for it). A single broker (or a follower) has nothing to wait for. The one wait of every coordinator
    write: the handlers of OffsetCommit, TxnOffsetCommit and WriteTxnMarkers await it, the coordinators' own
    writes go through ``CoordinatorWrites``."""
    replication = broker.replication
    if replication is None or replication.leader is None:
        return ErrorCode.NONE
    return await confirmed(replication.leader, broker.store.replica.published_end, timeout_ms)


#: What a coordinator does with the durability future of a write it just appended: ``CoordinatorWrites.confirmed``
#: on a replicated leader, else ``as_written``.
ConfirmWrite = Callable[["Future[None] | None"], "Future[None] | None"]


def as_written(durable: Future[None] | None) -> Future[None] | None:
    """A single broker's coordinator write: answered once durable, as before (nothing more to wait for)."""
    return durable


@dataclass
class CoordinatorWrites:
    """The group, share-group and transaction coordinators' writes (their documents in ``__consumer_offsets`` and
    ``__transaction_state``) on a replicated leader: ``confirmed`` turns the store's durability future of a write
    into one done once every in-sync member also holds it (``coordinator_write_confirmed``), failed with
    ``UnconfirmedWrite`` when they do not in time. A group or transaction state answered before then could be lost
    at a failover. Installed only where ``Broker.replication`` is set: a single broker's writes are not wrapped."""

    broker: Broker
    timeout_ms: int = COORDINATOR_WRITE_TIMEOUT_MS
    min_insync: int = 1
    """The in-sync members a write must reach (the leader included), as Kafka's ``transaction.state.log.min.isr``
    for ``__transaction_state``; fewer: COORDINATOR_NOT_AVAILABLE (Kafka's answer for NOT_ENOUGH_REPLICAS)."""
    _pending: set[asyncio.Task[None]] = field(default_factory=set)

    def confirmed(self, durable: Future[None] | None) -> Future[None] | None:
        """``durable`` (the future of a write just appended, or None), also waiting for the in-sync members."""
        replication = self.broker.replication
        if replication is None or replication.leader is None:
            return durable
        both: Future[None] = Future()
        end = self.broker.store.replica.published_end  # just past this write
        settling = self._settle(both, durable, replication.leader, end, self.timeout_ms, self.min_insync)
        task = asyncio.get_running_loop().create_task(settling)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)
        return both

    @staticmethod
    async def _settle(
        both: Future[None], durable: Future[None] | None, leader: ReplicationLeader, end: int, timeout_ms: int,
        min_insync: int,
    ) -> None:  # fmt: skip
        try:
            if durable is not None:
                await asyncio.wrap_future(durable)
            code = await confirmed(leader, end, timeout_ms)
        except Exception as exc:  # the store's error for the write, handed on as it would have been
            both.set_exception(exc)
            return
        if code == ErrorCode.NONE and leader.in_sync.size < min_insync:
            code = ErrorCode.NOT_ENOUGH_REPLICAS
        if code == ErrorCode.NONE:
            both.set_result(None)
        else:
            both.set_exception(UnconfirmedWrite(coordinator_error(code)))


def write_error(exc: BaseException, otherwise: ErrorCode) -> ErrorCode:
    """What a coordinator answers when a write of its failed with ``exc``: the unconfirmed write's error, else
    ``otherwise`` (the API's answer for a store that could not write)."""
    return exc.error_code if isinstance(exc, UnconfirmedWrite) else otherwise
