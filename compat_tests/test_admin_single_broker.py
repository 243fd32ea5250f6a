"""The replica-placement admin APIs of a one-broker cluster: ElectLeaders, partition reassignments, log dirs.

First through kafka-python 3.0.12's KafkaAdminClient, asserting what its own integration suite asserts
against a one-broker Kafka (and the per-partition failures Kafka answers), then at every version of each
API's spec range over a raw socket, with the requests clients rarely send (null lists, unknown topics and
partitions, other directories, duplicates). Partition sizes are checked against records produced and
deleted, the volume's size against ``os.statvfs``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import kafka.errors as errors
import pytest
from kafka import KafkaAdminClient, KafkaProducer, TopicPartition
from kafka.structs import TopicPartitionReplica

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import alter_partition_reassignments as apr
from rockafka.facade.protocol.messages import alter_replica_log_dirs as ard
from rockafka.facade.protocol.messages import describe_log_dirs as dld
from rockafka.facade.protocol.messages import elect_leaders as el
from rockafka.facade.protocol.messages import list_partition_reassignments as lpr

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, module_broker
from .clients.records import unique_topic
from .clients.wire import RawClient

pytestmark = QUIET_KAFKA_PYTHON
broker = module_broker()
PARTITIONS = 4
ELECTION_NOT_NEEDED = "Leader election not needed for topic partition."


@pytest.fixture(scope="module")
def admin(broker: BrokerProcess) -> Iterator[KafkaAdminClient]:
    client = KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="rockafka-single-broker")
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="module")
def client(broker: BrokerProcess) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as wire:
        yield wire


@pytest.fixture(scope="module")
def node_id(admin: KafkaAdminClient) -> int:
    (only,) = admin._manager.cluster.brokers()  # as kafka-python's own suite finds the broker ids
    return int(only.node_id)


@pytest.fixture(scope="module")
def topic(admin: KafkaAdminClient) -> str:
    """A topic of PARTITIONS partitions; partition 1 holds three records, the others none."""
    name = unique_topic("single-broker")
    admin.create_topics({name: {"num_partitions": PARTITIONS, "replication_factor": 1}})
    producer = KafkaProducer(bootstrap_servers=admin.config["bootstrap_servers"])
    try:
        for index in range(3):
            producer.send(name, f"value-{index}".encode(), partition=1).get(timeout=10)
    finally:
        producer.close()
    return name


def log_dir(broker: BrokerProcess) -> str:
    return str(broker.data_dir.absolute())


# --- kafka-python ---


def test_elect_leaders_not_needed(admin: KafkaAdminClient, topic: str) -> None:
    for election_type in (0, 1):
        response = admin.elect_leaders(election_type, {topic: list(range(PARTITIONS))})
        assert response.error_code == 0
        ((name, results),) = [(result.topic, result.partition_result) for result in response.replica_election_results]
        assert name == topic
        assert sorted(p.partition_id for p in results) == list(range(PARTITIONS))
        assert {p.error_code for p in results} == {errors.ElectionNotNeededError.errno}
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        admin.elect_leaders(0, {topic: [PARTITIONS]})
    answered = admin.elect_leaders(0, {topic: [0, PARTITIONS]}, raise_errors=False)
    codes = [p.error_code for p in answered.replica_election_results[0].partition_result]
    assert codes == [errors.ElectionNotNeededError.errno, errors.UnknownTopicOrPartitionError.errno]


def test_alter_partition_reassignments(admin: KafkaAdminClient, topic: str, node_id: int) -> None:
    first, last = TopicPartition(topic, 0), TopicPartition(topic, PARTITIONS - 1)
    assert admin.alter_partition_reassignments({first: [node_id], last: [node_id]}) == {first: None, last: None}
    missing = TopicPartition(topic, PARTITIONS)
    unknown = TopicPartition(unique_topic("never-created"), 0)
    answered = admin.alter_partition_reassignments(
        {first: None, last: [node_id + 1], missing: [node_id], unknown: [node_id]}
    )
    assert answered == {
        first: errors.NoReassignmentInProgressError,
        last: errors.InvalidReplicationAssignmentError,
        missing: errors.UnknownTopicOrPartitionError,
        unknown: errors.UnknownTopicOrPartitionError,
    }
    assert admin.list_partition_reassignments() == {}


def test_list_partition_reassignments(admin: KafkaAdminClient, topic: str) -> None:
    assert admin.list_partition_reassignments() == {}
    assert admin.list_partition_reassignments([TopicPartition(topic, 0)]) == {}
    assert admin.list_partition_reassignments({topic: [0, 1, PARTITIONS], unique_topic("never-created"): [0]}) == {}


def test_describe_log_dirs(admin: KafkaAdminClient, broker: BrokerProcess, topic: str, node_id: int) -> None:
    (described,) = admin.describe_log_dirs()
    assert described["broker"] == node_id
    (directory,) = described["log_dirs"]
    assert (directory["error_code"], directory["log_dir"]) == (0, log_dir(broker))
    volume = os.statvfs(broker.data_dir)
    assert directory["total_bytes"] == volume.f_blocks * volume.f_frsize
    assert 0 < directory["usable_bytes"] <= directory["total_bytes"]
    sizes = partition_sizes(directory, topic)
    assert set(sizes) == set(range(PARTITIONS))
    assert sizes[1] > 0 and {sizes[p] for p in (0, 2, 3)} == {0}
    (scoped,) = admin.describe_log_dirs({topic: [1, PARTITIONS]})
    assert [t["name"] for t in scoped["log_dirs"][0]["topics"]] == [topic]
    assert partition_sizes(scoped["log_dirs"][0], topic) == {1: sizes[1]}


def test_describe_log_dirs_after_delete_records(admin: KafkaAdminClient) -> None:
    """The size counts from the log start offset: deleting every record leaves 0 bytes."""
    name = unique_topic("trimmed")
    admin.create_topics({name: {"num_partitions": 1, "replication_factor": 1}})
    producer = KafkaProducer(bootstrap_servers=admin.config["bootstrap_servers"], linger_ms=0)
    try:
        for _ in range(2):
            producer.send(name, b"x" * 100, partition=0).get(timeout=10)
    finally:
        producer.close()
    before = partition_sizes(admin.describe_log_dirs({name: [0]})[0]["log_dirs"][0], name)[0]
    assert before > 200
    admin.delete_records({TopicPartition(name, 0): 1})
    after = partition_sizes(admin.describe_log_dirs({name: [0]})[0]["log_dirs"][0], name)[0]
    assert 0 < after < before
    admin.delete_records({TopicPartition(name, 0): 2})
    assert partition_sizes(admin.describe_log_dirs({name: [0]})[0]["log_dirs"][0], name) == {0: 0}


def partition_sizes(directory: dict, topic: str) -> dict[int, int]:
    (described,) = [t for t in directory["topics"] if t["name"] == topic]
    assert {(p["offset_lag"], p["is_future_key"]) for p in described["partitions"]} == {(0, False)}
    return {p["partition_index"]: p["partition_size"] for p in described["partitions"]}


def test_alter_replica_log_dirs(admin: KafkaAdminClient, broker: BrokerProcess, topic: str, node_id: int) -> None:
    target = admin.describe_log_dirs()[0]["log_dirs"][0]["log_dir"]
    here, other = TopicPartitionReplica(topic, 0, node_id), TopicPartitionReplica(topic, 1, node_id)
    missing = TopicPartitionReplica(topic, PARTITIONS, node_id)
    assert admin.alter_replica_log_dirs({here: target}) == {here: errors.NoError}
    answered = admin.alter_replica_log_dirs({here: target, other: f"{target}-elsewhere", missing: target})
    assert answered == {
        here: errors.NoError,
        other: errors.LogDirNotFoundError,
        missing: errors.UnknownTopicOrPartitionError,
    }
    assert partition_sizes(admin.describe_log_dirs({topic: [1]})[0]["log_dirs"][0], topic)[1] > 0


# --- raw requests, every version ---


@pytest.mark.parametrize("version", range(3))
def test_elect_leaders_every_version(client: RawClient, topic: str, version: int) -> None:
    unknown = unique_topic("never-created")
    request = el.ElectLeadersRequest(
        election_type=1 if version >= 1 else 0,
        topic_partitions=[
            el.TopicPartitions(topic=topic, partitions=[2, 0, PARTITIONS]),
            el.TopicPartitions(topic=unknown, partitions=[0]),
        ],
    )
    response = client.request(request, version)
    assert response.error_code == 0
    answers = [
        (result.topic, p.partition_id, p.error_code, p.error_message)
        for result in response.replica_election_results
        for p in result.partition_result
    ]
    assert answers == [
        (topic, 2, ErrorCode.ELECTION_NOT_NEEDED, ELECTION_NOT_NEEDED),
        (topic, 0, ErrorCode.ELECTION_NOT_NEEDED, ELECTION_NOT_NEEDED),
        (topic, PARTITIONS, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such partition as {topic}-{PARTITIONS}"),
        (unknown, 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {unknown}"),
    ]
    everything = client.request(el.ElectLeadersRequest(topic_partitions=None), version)
    listed = {result.topic: result.partition_result for result in everything.replica_election_results}
    assert topic in listed and unknown not in listed
    assert all(results == [] for results in listed.values())


@pytest.mark.parametrize("version", (1, 2))
def test_elect_leaders_unknown_election_type(client: RawClient, topic: str, version: int) -> None:
    request = el.ElectLeadersRequest(
        election_type=2, topic_partitions=[el.TopicPartitions(topic=topic, partitions=[0])]
    )
    response = client.request(request, version)
    assert response.error_code == ErrorCode.INVALID_REQUEST
    assert [p.error_code for p in response.replica_election_results[0].partition_result] == [ErrorCode.INVALID_REQUEST]


def test_alter_partition_reassignments_every_version(client: RawClient, topic: str, node_id: int) -> None:
    unknown = unique_topic("never-created")
    asked = [(0, [node_id]), (1, None), (2, []), (3, [node_id, node_id]), (0, [node_id + 7]), (PARTITIONS, [node_id])]
    request = apr.AlterPartitionReassignmentsRequest(
        topics=[
            apr.ReassignableTopic(
                name=topic,
                partitions=[apr.ReassignablePartition(partition_index=p, replicas=r) for p, r in asked],
            ),
            apr.ReassignableTopic(
                name=unknown, partitions=[apr.ReassignablePartition(partition_index=0, replicas=[1])]
            ),
        ]
    )
    response = client.request(request, 0)
    assert (response.error_code, response.error_message) == (0, None)
    answers = [
        (t.name, p.partition_index, p.error_code, p.error_message) for t in response.responses for p in t.partitions
    ]
    manual = "The manual partition assignment includes"
    assert answers == [
        (topic, 0, ErrorCode.NONE, None),
        (topic, 1, ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, "No partition reassignment is in progress."),
        (topic, 2, ErrorCode.INVALID_REPLICA_ASSIGNMENT, f"{manual} an empty replica list."),
        (topic, 3, ErrorCode.INVALID_REPLICA_ASSIGNMENT, f"{manual} the broker {node_id} more than once."),
        (
            topic,
            0,
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            f"{manual} broker {node_id + 7}, but no such broker is registered.",
        ),
        (topic, PARTITIONS, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {topic}:{PARTITIONS}."),
        (unknown, 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {unknown}."),
    ]


def test_list_partition_reassignments_every_version(client: RawClient, topic: str) -> None:
    for topics in (None, [lpr.ListPartitionReassignmentsTopics(name=topic, partition_indexes=[0, PARTITIONS])]):
        response = client.request(lpr.ListPartitionReassignmentsRequest(topics=topics), 0)
        assert (response.error_code, response.error_message, response.topics) == (0, None, [])


@pytest.mark.parametrize("version", range(5))
def test_describe_log_dirs_every_version(client: RawClient, broker: BrokerProcess, topic: str, version: int) -> None:
    unknown = unique_topic("never-created")
    request = dld.DescribeLogDirsRequest(
        topics=[
            dld.DescribableLogDirTopic(topic=topic, partitions=[1, 0, PARTITIONS]),
            dld.DescribableLogDirTopic(topic=unknown, partitions=[0]),
        ]
    )
    response = client.request(request, version)
    assert response.error_code == 0
    (result,) = response.results
    assert (result.error_code, result.log_dir) == (0, log_dir(broker))
    (described,) = result.topics
    sizes = {p.partition_index: (p.partition_size, p.offset_lag, p.is_future_key) for p in described.partitions}
    assert described.name == topic and set(sizes) == {0, 1}
    assert sizes[0] == (0, 0, False) and sizes[1][0] > 0
    if version >= 4:
        volume = os.statvfs(broker.data_dir)
        assert result.total_bytes == volume.f_blocks * volume.f_frsize
        assert 0 < result.usable_bytes <= result.total_bytes
    everything = client.request(dld.DescribeLogDirsRequest(topics=None), version).results[0]
    listed = {t.name: {p.partition_index: p.partition_size for p in t.partitions} for t in everything.topics}
    assert listed[topic] == {index: size for index, (size, _, _) in sizes.items()} | {2: 0, 3: 0}
    nothing = client.request(dld.DescribeLogDirsRequest(topics=[]), version).results[0]
    assert (nothing.log_dir, nothing.topics) == (log_dir(broker), [])


@pytest.mark.parametrize("version", range(3))
def test_alter_replica_log_dirs_every_version(
    client: RawClient, broker: BrokerProcess, topic: str, version: int
) -> None:
    here, unknown, too_long = log_dir(broker), unique_topic("never-created"), "t" * 249
    request = ard.AlterReplicaLogDirsRequest(
        dirs=[
            ard.AlterReplicaLogDir(
                path=f"{here}/elsewhere",
                topics=[ard.AlterReplicaLogDirTopic(name=topic, partitions=[0, 1])],
            ),
            ard.AlterReplicaLogDir(
                path=here,
                topics=[
                    ard.AlterReplicaLogDirTopic(name=unknown, partitions=[0]),
                    ard.AlterReplicaLogDirTopic(name=topic, partitions=[1, PARTITIONS]),
                    ard.AlterReplicaLogDirTopic(name=too_long, partitions=[0]),
                ],
            ),
        ]
    )
    response = client.request(request, version)
    answers = {(t.topic_name, p.partition_index): p.error_code for t in response.results for p in t.partitions}
    assert [t.topic_name for t in response.results] == [topic, unknown, too_long]
    assert answers == {
        (topic, 0): ErrorCode.LOG_DIR_NOT_FOUND,
        (topic, 1): ErrorCode.NONE,  # named twice: the last directory counts
        (unknown, 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        (topic, PARTITIONS): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        (too_long, 0): ErrorCode.INVALID_TOPIC_EXCEPTION,
    }
