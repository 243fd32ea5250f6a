"""Transactions spanning broker groups, in a 3-group cluster (``rockafka.testing.Cluster``) with real clients.

A transaction's coordinator (the leader of its ``__transaction_state`` partition) writes the COMMIT or ABORT marker
into the partitions it leads and sends WriteTxnMarkers to the leaders of the others; a leader that is not the
coordinator accepts the transactional batches and holds its last stable offset at the open transaction until the
marker arrives. Checked here: a confluent-kafka transactional producer over partitions of all three leaders, commit
and abort, read by read_committed consumers of confluent-kafka and aiokafka (exactly the committed records, in
order); ``send_offsets_to_transaction`` for a group whose coordinator is a third broker (the offsets are visible
only after the commit, and an aborted transaction's offsets never); a coordinator killed -9 after EndTxn while a
leader is down (the marker cannot have been written): after both restart, the transaction completes; the
WriteTxnMarkers API itself, per partition.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator

import pytest
from aiokafka import AIOKafkaConsumer
from aiokafka.structs import TopicPartition as AioPartition
from confluent_kafka import Consumer, Producer
from confluent_kafka import TopicPartition as ConfluentPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.facade.protocol.messages.write_txn_markers import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
    WriteTxnMarkersResponse,
)
from rockafka.testing import Cluster

from .clients.records import unique_topic
from .clients.wire import RawClient
from .test_cluster_clients import DEADLINE_S, _create_topic, _leaders, _wait_known_everywhere
from .txnscenario import TXN_BROKER_SETTINGS

pytestmark = [pytest.mark.slow]

PARTITIONS = 6  # two on each of the three broker groups
TRANSACTION = 1  # FindCoordinator's key type of a transactional id (0: a group)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=3, settings=TXN_BROKER_SETTINGS) as running:
        yield running


def _wait(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, f"not within {DEADLINE_S}s: {what}"
        time.sleep(0.2)


def _coordinator(cluster: Cluster, key: str, key_type: int) -> int:
    """The node FindCoordinator names for ``key`` (the first lookup creates the internal topic in etcd)."""
    found: list[FindCoordinatorResponse] = []

    def answered() -> bool:
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            found[:] = [raw.request(FindCoordinatorRequest(key=key, key_type=key_type), 3, FindCoordinatorResponse)]
        return found[0].error_code == ErrorCode.NONE

    _wait(answered, f"a coordinator for {key!r}")
    return int(found[0].node_id)


def _topic(cluster: Cluster, prefix: str) -> tuple[str, dict[int, int]]:
    """A new topic of ``PARTITIONS`` partitions known to every broker, and partition -> its leader."""
    topic = unique_topic(prefix)
    _create_topic(cluster.brokers[1].bootstrap, topic, PARTITIONS)
    _wait_known_everywhere(cluster, topic)
    leaders = {p: leader for p, (leader, _) in _leaders(cluster, topic, 1).items()}
    assert sorted(set(leaders.values())) == [1, 2, 3], leaders
    return topic, leaders


def _producer(cluster: Cluster, transactional_id: str) -> Producer:
    producer = Producer({
        "bootstrap.servers": cluster.bootstrap, "transactional.id": transactional_id, "linger.ms": 5,
        "transaction.timeout.ms": 120_000, "reconnect.backoff.max.ms": 500, "log_level": 0,
    })  # fmt: skip
    producer.init_transactions(DEADLINE_S)
    return producer


def _transaction(
    producer: Producer, topic: str, label: str, partitions: range, commit: bool
) -> list[tuple[int, bytes]]:
    """One transaction writing three records to each partition; its (partition, value)s."""
    producer.begin_transaction()
    written = [(p, f"{label}-p{p}-{i}".encode()) for p in partitions for i in range(3)]
    for partition, value in written:
        producer.produce(topic, value, partition=partition)
    if commit:
        producer.commit_transaction(DEADLINE_S)
    else:
        producer.abort_transaction(DEADLINE_S)
    return written


def _read_committed_confluent(
    cluster: Cluster, topic: str, expected: int, partitions: int = PARTITIONS, **settings: object
) -> dict[int, list[bytes]]:
    """Up to ``expected`` records of ``topic``'s partitions, read_committed (``settings``: the client's own)."""
    consumer = Consumer({
        "bootstrap.servers": cluster.bootstrap, "group.id": unique_topic("rc"), "isolation.level": "read_committed",
        "enable.auto.commit": False, "auto.offset.reset": "earliest", "log_level": 0, **settings,
    })  # fmt: skip
    received: dict[int, list[bytes]] = {}
    try:
        consumer.assign([ConfluentPartition(topic, p, 0) for p in range(partitions)])
        deadline = time.monotonic() + DEADLINE_S
        while sum(map(len, received.values())) < expected and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                received.setdefault(message.partition(), []).append(message.value())
    finally:
        consumer.close()
    return received


def _read_committed_aiokafka(cluster: Cluster, topic: str, expected: int) -> dict[int, list[bytes]]:
    async def read() -> dict[int, list[bytes]]:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=cluster.bootstrap, isolation_level="read_committed", enable_auto_commit=False,
            auto_offset_reset="earliest",
        )  # fmt: skip
        received: dict[int, list[bytes]] = {}
        await consumer.start()
        try:
            consumer.assign([AioPartition(topic, p) for p in range(PARTITIONS)])
            deadline = time.monotonic() + DEADLINE_S
            while sum(map(len, received.values())) < expected and time.monotonic() < deadline:
                for tp, records in (await consumer.getmany(timeout_ms=500)).items():
                    received.setdefault(tp.partition, []).extend(r.value for r in records if r.value is not None)
        finally:
            await consumer.stop()
        return received

    return asyncio.run(read())


def _by_partition(written: list[tuple[int, bytes]]) -> dict[int, list[bytes]]:
    grouped: dict[int, list[bytes]] = {}
    for partition, value in written:
        grouped.setdefault(partition, []).append(value)
    return grouped


def test_a_transaction_over_three_leaders_commits_and_aborts_atomically(cluster: Cluster) -> None:
    topic, _ = _topic(cluster, "span")
    producer = _producer(cluster, unique_topic("span-txn"))
    every = range(PARTITIONS)
    first = _transaction(producer, topic, "first", every, commit=True)
    _transaction(producer, topic, "aborted", every, commit=False)
    last = _transaction(producer, topic, "last", every, commit=True)
    producer.flush(DEADLINE_S)
    wanted = _by_partition(first + last)
    count = len(first) + len(last)
    assert _read_committed_confluent(cluster, topic, count) == wanted
    assert _read_committed_aiokafka(cluster, topic, count) == wanted


def _ids_on_different_brokers(cluster: Cluster) -> tuple[str, int, str, int]:
    """A transactional id and a group id whose coordinators are two different brokers."""
    transactional_id = unique_topic("offsets-txn")
    txn_node = _coordinator(cluster, transactional_id, TRANSACTION)
    for attempt in range(100):
        group = unique_topic(f"offsets-group-{attempt}")
        group_node = _coordinator(cluster, group, 0)
        if group_node != txn_node:
            return transactional_id, txn_node, group, group_node
    raise AssertionError("no group id hashed onto another broker than the transactional id in 100 tries")


def _committed(cluster: Cluster, group: str, topic: str, partition: int) -> int:
    """The group's committed offset as OffsetFetch answers without ``require_stable`` (librdkafka sets it under
    read_committed, and then waits while a transaction holds the offset: UNSTABLE_OFFSET_COMMIT)."""
    settings = {"group.id": group, "isolation.level": "read_uncommitted", "log_level": 0}
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap, **settings})
    try:
        [found] = consumer.committed([ConfluentPartition(topic, partition)], timeout=DEADLINE_S)
        return int(found.offset)
    finally:
        consumer.close()


def test_offsets_sent_to_a_transaction_for_a_group_of_a_third_broker_are_committed_with_it(cluster: Cluster) -> None:
    transactional_id, txn_node, group, group_node = _ids_on_different_brokers(cluster)
    topic, leaders = _topic(cluster, "offsets")
    third = next(p for p, leader in leaders.items() if leader not in (txn_node, group_node))
    producer = _producer(cluster, transactional_id)
    source = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": group, "log_level": 0})
    try:
        producer.begin_transaction()
        producer.produce(topic, b"with-offsets", partition=third)
        producer.send_offsets_to_transaction([ConfluentPartition(topic, third, 7)], source.consumer_group_metadata())
        producer.flush(DEADLINE_S)
        assert _committed(cluster, group, topic, third) < 0  # held by the group's coordinator until the marker
        producer.commit_transaction(DEADLINE_S)
        _wait(lambda: _committed(cluster, group, topic, third) == 7, "the offset committed with the transaction")

        producer.begin_transaction()
        producer.produce(topic, b"aborted-with-offsets", partition=third)
        producer.send_offsets_to_transaction([ConfluentPartition(topic, third, 9)], source.consumer_group_metadata())
        producer.abort_transaction(DEADLINE_S)
        producer.begin_transaction()  # the next transaction starts once the abort's markers are all written
        producer.produce(topic, b"after", partition=third)
        producer.commit_transaction(DEADLINE_S)
        assert _committed(cluster, group, topic, third) == 7
    finally:
        source.close()


@pytest.mark.parametrize("commit", [True, False], ids=["commit", "abort"])
def test_offsets_held_by_a_group_coordinator_killed_before_the_marker_outlive_its_restart(
    cluster: Cluster, commit: bool
) -> None:
    """TxnOffsetCommit answered by the group's coordinator (not the transaction's), which is then killed -9 before
    the marker can reach it; the transaction ends; the group coordinator starts again and replays the offsets it
    wrote as the transaction's records, then the marker the transaction coordinator retried settles them: after a
    commit the offset is the group's, after an abort it is not."""
    transactional_id, txn_node, group, group_node = _ids_on_different_brokers(cluster)
    topic, leaders = _topic(cluster, "held")
    own = next(p for p, leader in leaders.items() if leader == txn_node)
    producer = _producer(cluster, transactional_id)
    source = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": group, "log_level": 0})
    try:
        producer.begin_transaction()
        producer.produce(topic, b"with-held-offsets", partition=own)
        producer.send_offsets_to_transaction([ConfluentPartition(topic, own, 11)], source.consumer_group_metadata())
        assert producer.flush(DEADLINE_S) == 0
    finally:
        source.close()
    cluster.kill(group_node)  # TxnOffsetCommit was answered: its records are in the partition, no marker yet
    if commit:
        producer.commit_transaction(DEADLINE_S)
    else:
        producer.abort_transaction(DEADLINE_S)
    _restart(cluster, group_node, txn_node)
    producer.begin_transaction()  # starts once every marker of the last one is written, the group's included
    producer.produce(topic, b"after", partition=own)
    producer.commit_transaction(DEADLINE_S)
    assert _committed(cluster, group, topic, own) == (11 if commit else -1001)  # -1001: librdkafka's "none"


def _last_stable(cluster: Cluster, node: int, topic: str, partition: int) -> int:
    """ListOffsets(latest, read_committed) at the partition's leader ``node`` (retried while a restarted leader's
    own view of the cluster has not caught up with etcd's: NOT_LEADER_OR_FOLLOWER)."""
    request = ListOffsetsRequest(replica_id=-1, isolation_level=1, topics=[
        ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-1)]),
    ])  # fmt: skip
    answers: list[int] = []

    def answered() -> bool:
        with RawClient(cluster.brokers[node].bootstrap) as raw:
            [answer] = raw.request(request, 5, ListOffsetsResponse).topics[0].partitions
        assert answer.error_code in (ErrorCode.NONE, ErrorCode.NOT_LEADER_OR_FOLLOWER), answer
        answers[:] = [int(answer.offset)]
        return answer.error_code == ErrorCode.NONE

    _wait(answered, f"broker {node} serving {topic}-{partition}")
    return answers[0]


def test_a_coordinator_killed_before_its_markers_completes_the_transaction_after_restart(cluster: Cluster) -> None:
    transactional_id = unique_topic("killed-txn")
    coordinator = _coordinator(cluster, transactional_id, TRANSACTION)
    topic, leaders = _topic(cluster, "killed")
    own = next(p for p, leader in leaders.items() if leader == coordinator)
    away, down = next((p, leader) for p, leader in leaders.items() if leader != coordinator)
    producer = _producer(cluster, transactional_id)
    try:
        written = _transaction_left_open(producer, topic, (own, away))
        cluster.kill(down)  # the leader of ``away``: its marker cannot be written now
        producer.commit_transaction(DEADLINE_S)  # EndTxn answered: PrepareCommit saved, ``own``'s marker written
        cluster.kill(coordinator)  # before it could deliver ``away``'s marker
    finally:
        producer.purge()
    third = ({1, 2, 3} - {coordinator, down}).pop()
    _restart(cluster, down, third)
    assert _last_stable(cluster, down, topic, away) == 0  # the transaction is still open there
    _restart(cluster, coordinator, third)
    _wait(lambda: _last_stable(cluster, down, topic, away) == 4, "the restarted coordinator's marker")
    count = len(written)
    received = _read_committed_confluent(cluster, topic, count)
    assert received == _by_partition(written)


def _restart(cluster: Cluster, node: int, via: int) -> None:
    """Start the killed broker ``node`` again once its registration is gone (a broker refuses to start while its
    node id is registered by a live lease: the killed one's, until it expires), and wait until it leads its group."""
    _wait(lambda: node not in _registered(cluster, via), f"broker {node}'s lease to expire")
    cluster.start_broker(node)
    try:
        cluster.wait_ready([node])
    except Exception as exc:
        raise AssertionError(cluster.brokers[node].log_path.read_text(errors="replace")[-3000:]) from exc


def _registered(cluster: Cluster, via: int) -> set[int]:
    """The brokers ``via`` lists in Metadata (those registered in etcd, as its watch last saw)."""
    with RawClient(cluster.brokers[via].bootstrap) as raw:
        answer = raw.request(MetadataRequest(topics=[], allow_auto_topic_creation=False), 12, MetadataResponse)
    return {int(b.node_id) for b in answer.brokers}


def _transaction_left_open(producer: Producer, topic: str, partitions: tuple[int, int]) -> list[tuple[int, bytes]]:
    producer.begin_transaction()
    written = [(p, f"kept-p{p}-{i}".encode()) for p in partitions for i in range(3)]
    for partition, value in written:
        producer.produce(topic, value, partition=partition)
    assert producer.flush(DEADLINE_S) == 0
    return written


def test_write_txn_markers_answers_per_partition(cluster: Cluster) -> None:
    topic, leaders = _topic(cluster, "markers-api")
    partition, leader = next(iter(leaders.items()))
    other = next(node for node in (1, 2, 3) if node != leader)
    topics = [
        WritableTxnMarkerTopic(name=topic, partition_indexes=[partition]),
        WritableTxnMarkerTopic(name="no-such-topic", partition_indexes=[0]),
    ]
    marker = WritableTxnMarker(producer_id=987_654, producer_epoch=0, transaction_result=False, topics=topics)
    answers = {}
    for node in (leader, other):
        with RawClient(cluster.brokers[node].bootstrap) as raw:
            response = raw.request(WriteTxnMarkersRequest(markers=[marker]), 1, WriteTxnMarkersResponse)
        answers[node] = {
            (t.name, p.partition_index): p.error_code for t in response.markers[0].topics for p in t.partitions
        }
    assert answers[leader] == {
        (topic, partition): ErrorCode.NONE,
        ("no-such-topic", 0): ErrorCode.NOT_LEADER_OR_FOLLOWER,
    }
    assert answers[other] == {
        (topic, partition): ErrorCode.NOT_LEADER_OR_FOLLOWER,
        ("no-such-topic", 0): ErrorCode.NOT_LEADER_OR_FOLLOWER,
    }


BROKER_JAAS = (
    'org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="broker-secret" '
    'user_broker="broker-secret" user_alice="alice-secret";'
)
SASL_SETTINGS = {
    **TXN_BROKER_SETTINGS,
    "listener.security.protocol.map": "PLAINTEXT:SASL_PLAINTEXT",
    "sasl.enabled.mechanisms": "PLAIN",
    "sasl.jaas.config": BROKER_JAAS,
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:broker;User:alice",
}


def test_brokers_authenticate_to_each_other_for_markers_with_acls_on() -> None:
    """Listeners that ask SASL PLAIN, ACLs on and none granted: only super users may do anything, and the brokers
    send WriteTxnMarkers as the JAAS line's username (a super user; an unauthenticated broker would be refused),
    so the transaction completes only if brokers authenticate to each other. The client, alice, is a super user
    too (ACLs reach each broker through its etcd watch a moment after they are created: not this test's matter)."""
    with Cluster(groups=2, settings=SASL_SETTINGS, name="sasl") as cluster:
        client = {
            "bootstrap.servers": cluster.bootstrap, "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "PLAIN",
            "log_level": 0,
        }  # fmt: skip
        broker_login = {**client, "sasl.username": "broker", "sasl.password": "broker-secret"}
        alice = {**client, "sasl.username": "alice", "sasl.password": "alice-secret"}
        topic, transactional_id = unique_topic("sasl"), unique_topic("sasl-txn")
        admin = AdminClient(broker_login)
        for future in admin.create_topics([NewTopic(topic, 4, 1)]).values():
            future.result(DEADLINE_S)
        leaders = {
            p.id: p.leader for p in admin.list_topics(topic, timeout=DEADLINE_S).topics[topic].partitions.values()
        }
        assert len(set(leaders.values())) == 2, leaders
        producer = Producer({**alice, "transactional.id": transactional_id, "linger.ms": 5})
        producer.init_transactions(DEADLINE_S)
        written = _transaction(producer, topic, "sasl", range(4), commit=True)
        received = _read_committed_confluent(cluster, topic, len(written), 4, **alice)
        assert received == _by_partition(written)
