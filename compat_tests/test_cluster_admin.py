"""Cluster-wide admin state in etcd, with real clients against a 3-group ``rockafka.testing.Cluster``.

Every broker's only listener is SASL_PLAINTEXT (PLAIN for ``admin``, a super user; SCRAM for the users the
tests create), with the ACL authorizer on and ``allow.everyone.if.no.acl.found=false``. What one broker is
told, every broker acts on: a topic config altered through broker 1 is described by brokers 2 and 3 and
enforced by the leaders of every partition; an ACL created through broker 1 is enforced by broker 2; a SCRAM
user added through broker 1 authenticates on broker 2 (and is described by broker 3); DeleteRecords is
answered by the partition's leader and NOT_LEADER_OR_FOLLOWER elsewhere; a manual assignment puts each
partition on the group of the broker it names; a reassignment to another group's broker is listed until cancelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from confluent_kafka import KafkaError, KafkaException, Producer
from confluent_kafka.admin import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewTopic,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from kafka.admin import ACL, ACLOperation, ACLPermissionType, ResourcePattern
from kafka.admin import ConfigResource as KafkaConfigResource
from kafka.admin import ConfigResourceType as KafkaConfigResourceType
from kafka.admin import ResourceType as KafkaResourceType
from kafka.errors import InvalidReplicationAssignmentError

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import create_topics as ct
from rockafka.facade.protocol.messages.delete_records import (
    DeleteRecordsPartition,
    DeleteRecordsRequest,
    DeleteRecordsResponse,
    DeleteRecordsTopic,
)
from rockafka.facade.protocol.messages.describe_configs import (
    DescribeConfigsRequest,
    DescribeConfigsResource,
    DescribeConfigsResponse,
    DescribeConfigsResult,
)
from rockafka.testing import Cluster
from rockafka.wire_client import WireClient

from .clients.fixtures import QUIET_KAFKA_PYTHON
from .clients.records import unique_topic
from .test_admin_confluent import outcomes

pytestmark = [pytest.mark.slow, QUIET_KAFKA_PYTHON]

ADMIN_PASSWORD = "admin-secret-5J"
PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule required"
SETTINGS = {
    "listener.security.protocol.map": "PLAINTEXT:SASL_PLAINTEXT",
    "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
    "sasl.jaas.config": f'{PLAIN_MODULE} user_admin="{ADMIN_PASSWORD}";',
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:admin",
    "allow.everyone.if.no.acl.found": "false",
    "num.partitions": "3",
}
ADMIN_WIRE = {
    "security.protocol": "SASL_PLAINTEXT",
    "sasl.mechanism": "PLAIN",
    "sasl.jaas.config": f'{PLAIN_MODULE} username="admin" password="{ADMIN_PASSWORD}";',
}
TIMEOUT_S = 20.0
TOPIC_CONFIG_SOURCE = 1  # DescribeConfigs' DYNAMIC_TOPIC_CONFIG


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=3, settings=SETTINGS) as running:
        yield running


def _confluent(cluster: Cluster, node: int, user: str = "admin", password: str = ADMIN_PASSWORD) -> dict[str, str]:
    mechanism = "PLAIN" if user == "admin" else "SCRAM-SHA-256"
    return {
        "bootstrap.servers": cluster.brokers[node].bootstrap,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": mechanism,
        "sasl.username": user,
        "sasl.password": password,
    }


def _kafka_python_admin(cluster: Cluster, node: int) -> KafkaAdminClient:
    return KafkaAdminClient(
        bootstrap_servers=cluster.brokers[node].bootstrap,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism="PLAIN",
        sasl_plain_username="admin",
        sasl_plain_password=ADMIN_PASSWORD,
        client_id="cluster-admin-tests",
    )


def _until(what: str, check: Callable[[], bool]) -> None:
    """Until ``check()`` holds (each broker learns a change from its etcd watch a moment after the one asked)."""
    deadline = time.monotonic() + TIMEOUT_S
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)


def _create_topic(cluster: Cluster, topic: str, partitions: int) -> dict[int, int]:
    """Create ``topic`` through broker 1; once every broker itself describes it (a client's next request may go to
    any of them, and each learns of the topic through its own etcd watch), partition -> leader."""
    admin = AdminClient(_confluent(cluster, 1))
    assert outcomes(admin.create_topics([NewTopic(topic, partitions, 1)])) == {topic: None}
    for node in cluster.brokers:
        _until(f"broker {node} describes {topic}", lambda node=node: _knows(cluster, node, topic))
    described = admin.list_topics(topic, timeout=TIMEOUT_S).topics[topic]
    return {index: partition.leader for index, partition in described.partitions.items()}


def _topic_configs(cluster: Cluster, node: int, topic: str) -> DescribeConfigsResult:
    """``topic``'s configs as broker ``node`` itself answers DescribeConfigs."""
    with WireClient(cluster.brokers[node].bootstrap, ADMIN_WIRE) as wire:
        request = DescribeConfigsRequest(
            resources=[DescribeConfigsResource(resource_type=2, resource_name=topic, configuration_keys=None)]
        )
        (result,) = wire.request(request, 4, DescribeConfigsResponse).results
    return result


def _described_overrides(cluster: Cluster, node: int, topic: str) -> dict[str, str]:
    """The topic's config overrides as broker ``node`` itself answers DescribeConfigs."""
    result = _topic_configs(cluster, node, topic)
    assert result.error_code == ErrorCode.NONE, result.error_message
    return {c.name: c.value for c in result.configs if c.config_source == TOPIC_CONFIG_SOURCE}


def _knows(cluster: Cluster, node: int, topic: str) -> bool:
    """Whether broker ``node`` itself answers DescribeConfigs for ``topic`` without an error."""
    return bool(_topic_configs(cluster, node, topic).error_code == ErrorCode.NONE)


def _describes(cluster: Cluster, node: int, topic: str, expected: dict[str, str]) -> Callable[[], bool]:
    return lambda: _described_overrides(cluster, node, topic) == expected


def test_topic_configs_altered_through_one_broker_are_described_and_enforced_by_every_broker(cluster: Cluster) -> None:
    topic = unique_topic("cluster-configs")
    leaders = _create_topic(cluster, topic, 3)
    assert sorted(leaders.values()) == [1, 2, 3]

    kafka_python = _kafka_python_admin(cluster, 1)
    try:
        changed = KafkaConfigResource(
            KafkaConfigResourceType.TOPIC, topic, configs={"max.message.bytes": "2000", "retention.ms": "3600000"}
        )
        assert kafka_python.alter_configs([changed], incremental=False) == {"topic": {topic: "OK"}}
    finally:
        kafka_python.close()
    expected = {"max.message.bytes": "2000", "retention.ms": "3600000"}
    for node in cluster.brokers:
        _until(f"broker {node} describes {expected}", _describes(cluster, node, topic, expected))

    confluent = AdminClient(_confluent(cluster, 3))
    incremental = ConfigResource(
        ResourceType.TOPIC,
        topic,
        incremental_configs=[
            ConfigEntry("cleanup.policy", "compact", incremental_operation=AlterConfigOpType.APPEND),
            ConfigEntry("retention.ms", None, incremental_operation=AlterConfigOpType.DELETE),
        ],
    )
    assert outcomes(confluent.incremental_alter_configs([incremental])) == {incremental: None}
    expected = {"max.message.bytes": "2000", "cleanup.policy": "delete,compact"}
    for node in cluster.brokers:
        _until(f"broker {node} describes {expected}", _describes(cluster, node, topic, expected))

    # every leader's store applies max.message.bytes: a record over it is refused by each of the three
    producer = Producer({**_confluent(cluster, 1), "linger.ms": 0, "message.timeout.ms": 15000})
    refusals: dict[int, int | None] = {}

    def delivered(err: KafkaError | None, message: Any) -> None:
        refusals[message.partition()] = None if err is None else err.code()

    for partition in leaders:
        producer.produce(topic, key=b"k", value=b"x" * 5000, partition=partition, on_delivery=delivered)
    producer.flush(TIMEOUT_S)
    assert refusals == dict.fromkeys(leaders, KafkaError.MSG_SIZE_TOO_LARGE)


def _add_user_through_broker_1(
    cluster: Cluster, user: str, password: str, iterations: int, topic: str, allowed: AclOperation
) -> None:
    """A SCRAM-SHA-256 user, and an ACL allowing it ``allowed`` on ``topic``, both through broker 1 alone."""
    admin = AdminClient(_confluent(cluster, 1))
    info = ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, iterations)
    upsert = UserScramCredentialUpsertion(user, info, password.encode())
    assert outcomes(admin.alter_user_scram_credentials([upsert])) == {user: None}
    grant = AclBinding(
        ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, f"User:{user}", "*", allowed, AclPermissionType.ALLOW
    )
    assert outcomes(admin.create_acls([grant])) == {grant: None}


def test_an_acl_created_through_one_broker_is_enforced_by_another(cluster: Cluster) -> None:
    topic = unique_topic("cluster-acls")
    leaders = _create_topic(cluster, topic, 3)
    _add_user_through_broker_1(cluster, "carol", "carol-pw-4K", 4096, topic, AclOperation.ALL)

    producer = Producer({**_confluent(cluster, 2, "carol", "carol-pw-4K"), "linger.ms": 0, "message.timeout.ms": 15000})
    delivered: dict[int, int | None] = {}

    def on_delivery(err: KafkaError | None, message: Any) -> None:
        delivered[message.partition()] = None if err is None else err.code()

    def produce_to_each() -> dict[int, int | None]:
        delivered.clear()
        for partition in leaders:
            try:
                producer.produce(topic, value=b"v", partition=partition, on_delivery=on_delivery)
            except KafkaException as exc:  # librdkafka remembers a topic's authorization failure and refuses at once
                delivered[partition] = exc.args[0].code()
        producer.flush(TIMEOUT_S)
        return dict(delivered)

    assert produce_to_each() == dict.fromkeys(leaders)

    # a DENY created through broker 1 (kafka-python) is enforced by every leader, broker 2's included
    kafka_python = _kafka_python_admin(cluster, 1)
    try:
        deny = ACL(
            "User:carol", "*", ACLOperation.WRITE, ACLPermissionType.DENY,
            ResourcePattern(KafkaResourceType.TOPIC, topic),
        )  # fmt: skip
        assert kafka_python.create_acls([deny])["failed"] == []
    finally:
        kafka_python.close()
    refused = dict.fromkeys(leaders, KafkaError.TOPIC_AUTHORIZATION_FAILED)
    _until("every leader refuses carol's writes", lambda: produce_to_each() == refused)
    every = AclBindingFilter(
        ResourceType.TOPIC, topic, ResourcePatternType.ANY, None, None, AclOperation.ANY, AclPermissionType.ANY
    )
    third = AdminClient(_confluent(cluster, 3))
    described = third.describe_acls(every).result(timeout=TIMEOUT_S)
    assert sorted((b.operation.value, b.permission_type.value) for b in described) == sorted(
        [
            (AclOperation.ALL.value, AclPermissionType.ALLOW.value),
            (AclOperation.WRITE.value, AclPermissionType.DENY.value),
        ]
    )

    # the DENY deleted through broker 3 stops being enforced everywhere (a new producer: librdkafka remembers)
    denies = AclBindingFilter(
        ResourceType.TOPIC, topic, ResourcePatternType.ANY, None, None, AclOperation.ANY, AclPermissionType.DENY
    )
    (removed,) = outcomes(third.delete_acls([denies])).values()
    assert [(b.principal, b.operation.value) for b in removed] == [("User:carol", AclOperation.WRITE.value)]
    producer = Producer({**_confluent(cluster, 2, "carol", "carol-pw-4K"), "linger.ms": 0, "message.timeout.ms": 15000})
    _until("every leader takes carol's writes again", lambda: produce_to_each() == dict.fromkeys(leaders))


def test_a_scram_user_added_through_one_broker_authenticates_on_another(cluster: Cluster) -> None:
    topic = unique_topic("cluster-scram")
    _create_topic(cluster, topic, 1)
    _add_user_through_broker_1(cluster, "dave", "dave-pw-2P", 8192, topic, AclOperation.DESCRIBE)

    consumer = KafkaConsumer(
        bootstrap_servers=cluster.brokers[2].bootstrap,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism="SCRAM-SHA-256",
        sasl_plain_username="dave",
        sasl_plain_password="dave-pw-2P",
        request_timeout_ms=10000,
    )
    try:
        assert consumer.partitions_for_topic(topic) == {0}
    finally:
        consumer.close()
    third = AdminClient(_confluent(cluster, 3))
    (described,) = outcomes(third.describe_user_scram_credentials(["dave"])).values()
    assert [(info.mechanism, info.iterations) for info in described.scram_credential_infos] == [
        (ScramMechanism.SCRAM_SHA_256, 8192)
    ]
    wrong = Producer({**_confluent(cluster, 2, "dave", "not-the-password"), "socket.timeout.ms": 5000})
    with pytest.raises(KafkaException):
        wrong.list_topics(timeout=5)


def test_delete_records_is_answered_by_the_leader_only(cluster: Cluster) -> None:
    topic = unique_topic("cluster-delete-records")
    leaders = _create_topic(cluster, topic, 3)
    producer = Producer({**_confluent(cluster, 1), "linger.ms": 0})
    for partition in leaders:
        for index in range(5):
            producer.produce(topic, value=f"r{index}".encode(), partition=partition)
    assert producer.flush(TIMEOUT_S) == 0

    for partition, leader in leaders.items():
        for node in cluster.brokers:
            with WireClient(cluster.brokers[node].bootstrap, ADMIN_WIRE) as wire:
                request = DeleteRecordsRequest(
                    topics=[
                        DeleteRecordsTopic(
                            name=topic, partitions=[DeleteRecordsPartition(partition_index=partition, offset=2)]
                        )
                    ],
                    timeout_ms=5000,
                )
                (answer,) = wire.request(request, 2, DeleteRecordsResponse).topics[0].partitions
            if node == leader:
                assert (answer.error_code, answer.low_watermark) == (ErrorCode.NONE, 2)
            else:
                assert (answer.error_code, answer.low_watermark) == (ErrorCode.NOT_LEADER_OR_FOLLOWER, -1)

    # a real admin client finds each partition's leader by itself
    kafka_python = _kafka_python_admin(cluster, 1)
    try:
        deleted = kafka_python.delete_records({TopicPartition(topic, p): 4 for p in leaders})
    finally:
        kafka_python.close()
    assert {tp.partition: result["low_watermark"] for tp, result in deleted.items()} == dict.fromkeys(leaders, 4)


def test_manual_assignments_place_partitions_on_the_named_brokers_groups(cluster: Cluster) -> None:
    topic = unique_topic("cluster-assigned")
    kafka_python = _kafka_python_admin(cluster, 1)
    try:
        kafka_python.create_topics({topic: {"assignments": {0: [3], 1: [3], 2: [2]}}})
        _until(f"every broker lists {topic}", lambda: all(_leaders_seen(cluster, node, topic) for node in (1, 2, 3)))
        assert _leaders_seen(cluster, 2, topic) == {0: 3, 1: 3, 2: 2}
        kafka_python.create_partitions({topic: {"count": 5, "assignments": [[1], [3]]}})
        _until("broker 1 sees 5 partitions", lambda: len(_leaders_seen(cluster, 1, topic)) == 5)
        assert _leaders_seen(cluster, 1, topic) == {0: 3, 1: 3, 2: 2, 3: 1, 4: 3}

        # naming a partition's leader changes nothing; another group's broker starts a move, listed until cancelled
        # (brokers copy over PLAINTEXT only, so on these SASL listeners the move stays copying: see docs/cluster.md)
        moves = kafka_python.alter_partition_reassignments(
            {TopicPartition(topic, 2): [2], TopicPartition(topic, 3): [2], TopicPartition(topic, 4): [99]}
        )
        assert moves[TopicPartition(topic, 2)] is None
        assert moves[TopicPartition(topic, 3)] is None
        assert moves[TopicPartition(topic, 4)] is InvalidReplicationAssignmentError
        listed = kafka_python.list_partition_reassignments()
        assert listed == {
            TopicPartition(topic, 3): {"replicas": [2, 1], "adding_replicas": [2], "removing_replicas": [1]}
        }
        assert kafka_python.alter_partition_reassignments({TopicPartition(topic, 3): None}) == {
            TopicPartition(topic, 3): None
        }
        assert kafka_python.list_partition_reassignments() == {}
        assert _leaders_seen(cluster, 1, topic)[3] == 1
    finally:
        kafka_python.close()


def _leaders_seen(cluster: Cluster, node: int, topic: str) -> dict[int, int]:
    """partition -> leader as broker ``node`` answers Metadata (empty while it does not know the topic)."""
    admin = AdminClient(_confluent(cluster, node))
    described = admin.list_topics(topic, timeout=TIMEOUT_S).topics[topic]
    if described.error is not None:
        return {}
    return {index: partition.leader for index, partition in described.partitions.items()}


def test_a_replication_factor_is_refused_above_the_largest_groups_members(cluster: Cluster) -> None:
    """Each group here has one member, so a partition has one replica: RF 2 is refused with Kafka's code and
    message; a replica list naming brokers of two groups is refused (a partition's replicas are one group's
    members); RF 1 and the broker default are answered with the factor created."""
    prefix = unique_topic("cluster-rf")
    admin = AdminClient(_confluent(cluster, 1))
    asked = [NewTopic(f"{prefix}-rf2", 1, 2), NewTopic(f"{prefix}-two-groups", 1, replica_assignment=[[1, 2]]),
             NewTopic(f"{prefix}-rf1", 2, 1), NewTopic(f"{prefix}-default", 2)]  # fmt: skip
    assert outcomes(admin.create_topics(asked)) == {
        f"{prefix}-rf2": ErrorCode.INVALID_REPLICATION_FACTOR,
        f"{prefix}-two-groups": ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        f"{prefix}-rf1": None,
        f"{prefix}-default": None,
    }
    with WireClient(cluster.brokers[2].bootstrap, ADMIN_WIRE) as wire:
        answer = wire.request(
            ct.CreateTopicsRequest(topics=[ct.CreatableTopic(name=f"{prefix}-wire", num_partitions=1,
                                                             replication_factor=3)], timeout_ms=5000),
            7, ct.CreateTopicsResponse,
        ).topics[0]  # fmt: skip
    assert answer.error_code == ErrorCode.INVALID_REPLICATION_FACTOR
    assert answer.error_message == (
        "Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because "
        "only 1 broker(s) are registered in the largest broker group."
    )
