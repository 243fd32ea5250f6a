"""A 3-group Rockafka cluster (three brokers and their etcd, ``rockafka.testing.Cluster``) with real clients.

Each client creates a 12-partition topic and produces to it through ONE bootstrap broker (node 1); the
partitions are led by the three brokers (four each), so the client must follow Metadata to every leader.
Every record is read back, in order per partition, by a consumer group whose coordinator is found by hashing
the group id onto ``__consumer_offsets``. The wire checks: a broker that does not lead a partition answers
NOT_LEADER_OR_FOLLOWER to Produce and ListOffsets, one that does not coordinate a group answers NOT_COORDINATOR,
Metadata names the same leaders from every broker, and admin changes work from any broker.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict
from collections.abc import Iterator

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.admin import NewTopic as AioNewTopic
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient
from confluent_kafka.admin import NewTopic as ConfluentNewTopic
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewPartitions, NewTopic

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.facade.protocol.messages.heartbeat import HeartbeatRequest, HeartbeatResponse
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.offset_fetch import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchResponse,
)
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)
from rockafka.testing import Cluster

from .clients.cluster import wait_known_everywhere
from .clients.fixtures import QUIET_KAFKA_PYTHON
from .clients.records import Rec, unique_topic
from .clients.wire import RawClient, record_batch

pytestmark = [pytest.mark.slow, QUIET_KAFKA_PYTHON]

PARTITIONS = 12
PER_PARTITION = 25
DEADLINE_S = 60.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=3) as running:
        yield running


def _bootstrap(cluster: Cluster) -> str:
    """One broker only: the clients must find the other leaders through Metadata."""
    return cluster.brokers[1].bootstrap


def _expected() -> dict[int, list[bytes]]:
    return {p: [f"p{p}-{i}".encode() for i in range(PER_PARTITION)] for p in range(PARTITIONS)}


def _leaders(cluster: Cluster, topic: str, via: int) -> dict[int, tuple[int, int]]:
    """partition -> (leader, leader epoch), as broker ``via`` answers Metadata v12."""
    with RawClient(cluster.brokers[via].bootstrap) as raw:
        request = MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False)
        answer = raw.request(request, 12, MetadataResponse)
    [described] = answer.topics
    assert described.error_code == ErrorCode.NONE
    assert sorted(b.node_id for b in answer.brokers) == [1, 2, 3]
    return {p.partition_index: (p.leader_id, p.leader_epoch) for p in described.partitions}


def _wait_known_everywhere(cluster: Cluster, topic: str) -> None:
    wait_known_everywhere(cluster, topic, DEADLINE_S)


def test_partitions_are_spread_and_every_broker_names_the_same_leaders(cluster: Cluster) -> None:
    topic = unique_topic("spread")
    _create_topic(_bootstrap(cluster), topic, PARTITIONS)
    _wait_known_everywhere(cluster, topic)  # CreateTopics answers once the answering broker has the topic
    seen = [_leaders(cluster, topic, node) for node in (1, 2, 3)]
    assert seen[0] == seen[1] == seen[2]
    counts = defaultdict(int)
    for leader, epoch in seen[0].values():
        counts[leader] += 1
        assert epoch == 0
    assert dict(counts) == {1: 4, 2: 4, 3: 4}


def test_a_broker_that_does_not_lead_a_partition_refuses_produce_and_list_offsets(cluster: Cluster) -> None:
    topic = unique_topic("not-leader")
    _create_topic(_bootstrap(cluster), topic, 3)
    _wait_known_everywhere(cluster, topic)
    leaders = _leaders(cluster, topic, 1)
    partition, (leader, _) = next(iter(leaders.items()))
    other = next(node for node in (1, 2, 3) if node != leader)
    batch = record_batch([Rec(b"k", b"v", (), None)])
    data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])
    offsets = ListOffsetsRequest(
        replica_id=-1,
        topics=[
            ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-1)])
        ],
    )
    for node, code in ((other, ErrorCode.NOT_LEADER_OR_FOLLOWER), (leader, ErrorCode.NONE)):
        with RawClient(cluster.brokers[node].bootstrap) as raw:
            produced = raw.request(ProduceRequest(acks=1, timeout_ms=5000, topic_data=[data]), 9, ProduceResponse)
            listed = raw.request(offsets, 9, ListOffsetsResponse)
        assert produced.responses[0].partition_responses[0].error_code == code
        assert listed.topics[0].partitions[0].error_code == code


def _create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, partitions, 1)])
    finally:
        admin.close()


def _count(received: dict[int, list[bytes]]) -> int:
    return sum(map(len, received.values()))


def _kafka_python_produce(bootstrap: str, topic: str, retries: int | None = None) -> None:
    """Every record of ``_expected()`` to its partition, through kafka-python (acks=all)."""
    extra = {} if retries is None else {"retries": retries}
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", **extra)
    try:
        for partition, values in _expected().items():
            for value in values:
                producer.send(topic, value=value, partition=partition)
        producer.flush(timeout=DEADLINE_S)
    finally:
        producer.close()


def _check_in_order(received: dict[int, list[bytes]]) -> None:
    assert received == _expected()


def test_kafka_python_produces_through_one_broker_and_a_group_reads_everything_in_order(cluster: Cluster) -> None:
    topic = unique_topic("kp")
    bootstrap = _bootstrap(cluster)
    _create_topic(bootstrap, topic, PARTITIONS)
    _kafka_python_produce(bootstrap, topic, retries=20)
    consumer = KafkaConsumer(
        topic, bootstrap_servers=bootstrap, group_id=f"{topic}-group", auto_offset_reset="earliest",
        consumer_timeout_ms=1000,
    )  # fmt: skip
    received: dict[int, list[bytes]] = defaultdict(list)
    deadline = time.monotonic() + DEADLINE_S
    try:
        while _count(received) < PARTITIONS * PER_PARTITION and time.monotonic() < deadline:
            for message in consumer:
                received[message.partition].append(message.value)
        consumer.commit()
    finally:
        consumer.close()
    _check_in_order(dict(received))


def test_confluent_kafka_produces_through_one_broker_and_a_group_reads_everything_in_order(cluster: Cluster) -> None:
    topic = unique_topic("ck")
    bootstrap = _bootstrap(cluster)
    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept: a collected client cancels its futures
    admin.create_topics([ConfluentNewTopic(topic, PARTITIONS, 1)])[topic].result(DEADLINE_S)
    producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for partition, values in _expected().items():
        for value in values:
            producer.produce(topic, value=value, partition=partition)
    assert producer.flush(DEADLINE_S) == 0
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"{topic}-group", "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    received: dict[int, list[bytes]] = defaultdict(list)
    deadline = time.monotonic() + DEADLINE_S
    try:
        while _count(received) < PARTITIONS * PER_PARTITION and time.monotonic() < deadline:
            message = consumer.poll(1.0)
            if message is None:
                continue
            assert message.error() is None, message.error()
            received[message.partition()].append(message.value())
    finally:
        consumer.close()
    _check_in_order(dict(received))


def test_aiokafka_produces_through_one_broker_and_a_group_reads_everything_in_order(cluster: Cluster) -> None:
    topic = unique_topic("aio")
    bootstrap = _bootstrap(cluster)

    async def scenario() -> dict[int, list[bytes]]:
        admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        await admin.start()
        try:
            await admin.create_topics([AioNewTopic(topic, PARTITIONS, 1)])
        finally:
            await admin.close()
        producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
        await producer.start()
        try:
            for partition, values in _expected().items():
                for value in values:
                    await producer.send(topic, value=value, partition=partition)
            await producer.flush()
        finally:
            await producer.stop()
        consumer = AIOKafkaConsumer(
            topic, bootstrap_servers=bootstrap, group_id=f"{topic}-group", auto_offset_reset="earliest"
        )
        await consumer.start()
        received: dict[int, list[bytes]] = defaultdict(list)
        try:
            async with asyncio.timeout(DEADLINE_S):
                while _count(received) < PARTITIONS * PER_PARTITION:
                    batches = await consumer.getmany(timeout_ms=1000)
                    for part, messages in batches.items():
                        received[part.partition].extend(m.value for m in messages if m.value is not None)
        finally:
            await consumer.stop()
        return dict(received)

    _check_in_order(asyncio.run(scenario()))


def test_admin_changes_from_any_broker_are_seen_by_every_broker(cluster: Cluster) -> None:
    """Created through broker 2, grown through broker 3, deleted through broker 1 (kafka-python's admin client
    sends CreateTopics and CreatePartitions to the controller, so a broker's view may trail the answer by a watch
    event): every broker's Metadata follows (the new partitions on the least loaded groups)."""
    topic = unique_topic("admin-anywhere")
    admins = {node: KafkaAdminClient(bootstrap_servers=broker.bootstrap) for node, broker in cluster.brokers.items()}
    try:
        admins[2].create_topics([NewTopic(topic, 2, 1)])
        assert len(_leaders_eventually(cluster, topic, 2, 2)) == 2
        admins[3].create_partitions({topic: NewPartitions(5)})
        grown = _leaders_eventually(cluster, topic, 3, 5)
        assert len(grown) == 5
        assert _leaders_eventually(cluster, topic, 1, 5) == grown
        admins[1].delete_topics([topic])
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            request = MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False)
            [gone] = raw.request(request, 12, MetadataResponse).topics
        assert gone.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    finally:
        for admin in admins.values():
            admin.close()


def _leaders_eventually(cluster: Cluster, topic: str, via: int, count: int) -> dict[int, tuple[int, int]]:
    """Broker ``via``'s leaders once it shows ``count`` partitions (its watch may trail the broker that changed it)."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        leaders = _leaders(cluster, topic, via)
        if len(leaders) == count or time.monotonic() > deadline:
            return leaders
        time.sleep(0.05)


def test_only_the_coordinator_of_a_group_serves_it(cluster: Cluster) -> None:
    """FindCoordinator (asked of any broker) names one broker; the others answer Heartbeat and OffsetFetch for
    the group NOT_COORDINATOR."""
    group = unique_topic("coordinated")
    deadline = time.monotonic() + DEADLINE_S
    while True:  # the first lookup creates __consumer_offsets in etcd and is answered "not available"
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            found = raw.request(FindCoordinatorRequest(key=group, key_type=0), 3, FindCoordinatorResponse)
        if found.error_code != ErrorCode.COORDINATOR_NOT_AVAILABLE or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert found.error_code == ErrorCode.NONE
    for node, broker in cluster.brokers.items():
        with RawClient(broker.bootstrap) as raw:
            again = raw.request(FindCoordinatorRequest(key=group, key_type=0), 3, FindCoordinatorResponse)
            beat = raw.request(
                HeartbeatRequest(group_id=group, generation_id=1, member_id="nobody"), 4, HeartbeatResponse
            )
            fetched = raw.request(
                OffsetFetchRequest(groups=[OffsetFetchRequestGroup(group_id=group, topics=None)]),
                8,
                OffsetFetchResponse,
            )
        assert again.node_id == found.node_id
        expected = ErrorCode.NOT_COORDINATOR if node != found.node_id else ErrorCode.UNKNOWN_MEMBER_ID
        assert beat.error_code == expected
        assert fetched.groups[0].error_code == (ErrorCode.NOT_COORDINATOR if node != found.node_id else ErrorCode.NONE)


def test_every_broker_answers_metadata_as_kafka_python_asks_it(cluster: Cluster) -> None:
    """kafka-python 3 asks Metadata v12 with allow_auto_topic_creation: at bootstrap with ``topics=[]`` (no topic,
    as Kafka answers it), then for its subscription, and admin clients with ``topics=None`` (every topic). Every
    broker gives the same answer to each."""
    topic = unique_topic("kp-metadata")
    _create_topic(_bootstrap(cluster), topic, PARTITIONS)
    _wait_known_everywhere(cluster, topic)
    answers = []
    for broker in cluster.brokers.values():
        with RawClient(broker.bootstrap) as raw:
            none = raw.request(MetadataRequest(topics=[], allow_auto_topic_creation=True), 12, MetadataResponse)
            named = raw.request(
                MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=True),
                12,
                MetadataResponse,
            )
            every = raw.request(MetadataRequest(topics=None, allow_auto_topic_creation=True), 12, MetadataResponse)
        assert none.topics == [] and sorted(b.node_id for b in none.brokers) == [1, 2, 3]
        [listed] = [t for t in every.topics if t.name == topic]
        assert named.topics[0].error_code == listed.error_code == ErrorCode.NONE
        leaders = sorted((p.partition_index, p.leader_id, p.leader_epoch) for p in named.topics[0].partitions)
        assert leaders == sorted((p.partition_index, p.leader_id, p.leader_epoch) for p in listed.partitions)
        answers.append((leaders, none.controller_id))
    assert len(answers[0][0]) == PARTITIONS and answers[0] == answers[1] == answers[2]


def test_a_kafka_python_group_of_three_shares_the_partitions_of_all_three_leaders(cluster: Cluster) -> None:
    """Three members of one group, each bootstrapped from a different broker and each polled by its own thread
    (as applications run consumers), share the 12 partitions (4 per leader); every record is read, each member
    reading its partitions in offset order. A rebalance under load may hand a partition on and re-deliver from the
    last commit (Kafka's at-least-once): records are matched by offset, so nothing may be missing or differ, but a
    re-read is allowed.

    One thread per member matters: kafka-python 3.0.12 drops a JoinGroup/SyncGroup round that completes while no
    ``poll()`` of that consumer is waiting for it and joins again; three consumers polled in turn from one thread
    each wait only a third of the time, so the group rebalanced for ever (the leader's rejoin starts a new
    generation every time). See docs/cluster.md."""
    topic = unique_topic("kp-group")
    _create_topic(_bootstrap(cluster), topic, PARTITIONS)
    _wait_known_everywhere(cluster, topic)
    members = [
        _PolledMember(
            KafkaConsumer(
                topic, bootstrap_servers=broker.bootstrap, group_id=f"{topic}-group", auto_offset_reset="earliest"
            )
        )
        for broker in cluster.brokers.values()
    ]
    try:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline and not _settled_group(members):
            time.sleep(0.1)
        assert _settled_group(members), [member.assigned for member in members]
        _kafka_python_produce(cluster.brokers[3].bootstrap, topic)
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline and _read_count(members) < PARTITIONS * PER_PARTITION:
            time.sleep(0.1)
    finally:
        for member in members:
            member.stop()
    by_offset: dict[int, dict[int, bytes]] = defaultdict(dict)
    for member in members:
        assert member.error is None, member.error
        for partition, offset, value in member.records:
            seen = by_offset[partition].setdefault(offset, value)
            assert seen == value, f"offset {offset} read as {seen!r} and {value!r}"
    _check_in_order({p: [values[o] for o in sorted(values)] for p, values in by_offset.items()})


class _PolledMember:
    """One KafkaConsumer polled by its own thread until stopped; what it read and owns, for the test to look at."""

    def __init__(self, consumer: KafkaConsumer) -> None:
        self.consumer = consumer
        self.assigned: list[int] = []
        self.records: list[tuple[int, int, bytes]] = []
        self.error: BaseException | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        deadline = time.monotonic() + 3 * DEADLINE_S  # bounded even if the test never stops it
        try:
            while not self._stopping.is_set() and time.monotonic() < deadline:
                for records in self.consumer.poll(timeout_ms=100).values():
                    offsets = [record.offset for record in records]
                    assert offsets == sorted(offsets), f"out of order: {offsets}"
                    self.records.extend((record.partition, record.offset, record.value) for record in records)
                self.assigned = sorted(tp.partition for tp in self.consumer.assignment())
        except BaseException as exc:  # handed to the test thread, which asserts on it
            self.error = exc

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=DEADLINE_S)
        self.consumer.close()


def _settled_group(members: list[_PolledMember]) -> bool:
    """Whether the members' assignments are non-empty and cover every partition exactly once."""
    owned = [partition for member in members for partition in member.assigned]
    return all(member.assigned for member in members) and sorted(owned) == list(range(PARTITIONS))


def _read_count(members: list[_PolledMember]) -> int:
    return len({(partition, offset) for member in members for partition, offset, _ in member.records})
