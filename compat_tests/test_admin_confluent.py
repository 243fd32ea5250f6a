"""confluent-kafka's AdminClient (librdkafka: CreateTopics v4, DeleteTopics v4, CreatePartitions v2,
DescribeConfigs v1, AlterConfigs v1, IncrementalAlterConfigs v1, DeleteRecords v2) against a live broker."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicCollection, TopicPartition
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewPartitions,
    NewTopic,
    ResourceType,
)

from rockafka.facade.config import BROKER_CONFIGS, TOPIC_CONFIGS
from rockafka.facade.protocol.error_codes import ErrorCode

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import unique_topic

broker = module_broker()
TIMEOUT_S = 15


@pytest.fixture(scope="module")
def admin(broker: BrokerProcess) -> Iterator[AdminClient]:
    yield AdminClient({"bootstrap.servers": broker.bootstrap, "client.id": "rockafka-admin-tests"})


def outcomes(futures: dict[Any, Future[Any]]) -> dict[Any, Any]:
    """Each future's result, or the Kafka error code it failed with."""
    done: dict[Any, Any] = {}
    for key, future in futures.items():
        try:
            done[key] = future.result(timeout=TIMEOUT_S)
        except KafkaException as exc:
            done[key] = exc.args[0].code()
    return done


def topic_configs(admin: AdminClient, name: str) -> dict[str, ConfigEntry]:
    resource = ConfigResource(ResourceType.TOPIC, name)
    result: dict[str, ConfigEntry] = admin.describe_configs([resource])[resource].result(timeout=TIMEOUT_S)
    return result


def partition_count(admin: AdminClient, name: str) -> int:
    description = admin.describe_topics(TopicCollection([name]))[name].result(timeout=TIMEOUT_S)
    return len(description.partitions)


def test_topic_lifecycle(admin: AdminClient) -> None:
    name, checked = unique_topic("ck-life"), unique_topic("ck-validated")
    assert outcomes(admin.create_topics([NewTopic(name, 3, 1, config={"retention.ms": "60000"})])) == {name: None}
    assert outcomes(admin.create_topics([NewTopic(checked, 2, 1)], validate_only=True)) == {checked: None}
    topics = admin.list_topics(timeout=TIMEOUT_S).topics
    assert len(topics[name].partitions) == 3 and checked not in topics
    assert outcomes(admin.create_topics([NewTopic(name, 1, 1)])) == {name: ErrorCode.TOPIC_ALREADY_EXISTS}

    entries = topic_configs(admin, name)
    assert set(entries) == set(TOPIC_CONFIGS)
    retention = entries["retention.ms"]
    assert (retention.value, retention.source, retention.is_default) == ("60000", 1, False)
    assert list(retention.synonyms) == ["retention.ms", "log.retention.ms"]
    incremental = ConfigResource(ResourceType.TOPIC, name, incremental_configs=[
        ConfigEntry("cleanup.policy", "compact", incremental_operation=AlterConfigOpType.APPEND),
        ConfigEntry("retention.ms", None, incremental_operation=AlterConfigOpType.DELETE),
    ])  # fmt: skip
    assert outcomes(admin.incremental_alter_configs([incremental])) == {incremental: None}
    entries = topic_configs(admin, name)
    assert (entries["cleanup.policy"].value, entries["retention.ms"].value) == ("delete,compact", "604800000")
    bad = ConfigResource(ResourceType.TOPIC, name, incremental_configs=[
        ConfigEntry("retention.ms", "x", incremental_operation=AlterConfigOpType.SET)
    ])  # fmt: skip
    assert outcomes(admin.incremental_alter_configs([bad])) == {bad: ErrorCode.INVALID_CONFIG}

    assert outcomes(admin.create_partitions([NewPartitions(name, 5)])) == {name: None}
    assert partition_count(admin, name) == 5
    assert outcomes(admin.create_partitions([NewPartitions(name, 4)])) == {name: ErrorCode.INVALID_PARTITIONS}

    missing = unique_topic("ck-missing")
    assert outcomes(admin.delete_topics([name, missing])) == {name: None, missing: 3}
    assert name not in admin.list_topics(timeout=TIMEOUT_S).topics


def test_create_topics_mixed_valid_and_invalid(admin: AdminClient) -> None:
    """librdkafka's 0081-admin: one CreateTopics request whose topics succeed or fail alone."""
    prefix = unique_topic("ck-mixed")
    topics = [
        NewTopic(f"{prefix}-ok", 2, 1),
        NewTopic(f"{prefix}-rf3", 1, 3),
        NewTopic(f"{prefix} bad", 1, 1),
        NewTopic(f"{prefix}-config", 1, 1, config={"cleanup.policy": "shred"}),
        NewTopic(f"{prefix}-assigned", 3, replica_assignment=[[0], [0], [0]]),
        NewTopic(f"{prefix}-elsewhere", 2, replica_assignment=[[0], [1]]),
    ]
    assert outcomes(admin.create_topics(topics)) == {
        f"{prefix}-ok": None,
        f"{prefix}-rf3": ErrorCode.INVALID_REPLICATION_FACTOR,
        f"{prefix} bad": ErrorCode.INVALID_TOPIC_EXCEPTION,
        f"{prefix}-config": ErrorCode.INVALID_CONFIG,
        f"{prefix}-assigned": None,
        f"{prefix}-elsewhere": ErrorCode.INVALID_REPLICA_ASSIGNMENT,
    }
    assert partition_count(admin, f"{prefix}-assigned") == 3


def test_broker_configs_and_cluster(broker: BrokerProcess, admin: AdminClient) -> None:
    resource = ConfigResource(ResourceType.BROKER, "0")
    entries = outcomes(admin.describe_configs([resource]))[resource]
    assert set(entries) == set(BROKER_CONFIGS)
    listeners = entries["listeners"]
    assert (listeners.value, listeners.source, listeners.is_read_only) == (
        f"PLAINTEXT://127.0.0.1:{broker.port}",
        4,
        True,
    )
    change = ConfigResource(ResourceType.BROKER, "0", incremental_configs=[
        ConfigEntry("num.partitions", "3", incremental_operation=AlterConfigOpType.SET)
    ])  # fmt: skip
    assert outcomes(admin.incremental_alter_configs([change])) == {change: ErrorCode.INVALID_REQUEST}
    cluster = admin.describe_cluster().result(timeout=TIMEOUT_S)
    assert [(node.id, node.host, node.port) for node in cluster.nodes] == [(0, "127.0.0.1", broker.port)]
    assert cluster.controller.id == 0 and cluster.cluster_id


def test_delete_records(broker: BrokerProcess, admin: AdminClient) -> None:
    name = unique_topic("ck-trim")
    outcomes(admin.create_topics([NewTopic(name, 1, 1)]))
    producer = Producer({"bootstrap.servers": broker.bootstrap, "enable.idempotence": False, "linger.ms": 0})
    for i in range(6):
        producer.produce(name, b"%d" % i, partition=0)
    assert producer.flush(TIMEOUT_S) == 0
    (deleted,) = outcomes(admin.delete_records([TopicPartition(name, 0, 2)])).values()
    assert deleted.low_watermark == 2
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": unique_topic("ck-group")})
    try:
        low, high = consumer.get_watermark_offsets(TopicPartition(name, 0), timeout=TIMEOUT_S)
        assert (low, high) == (2, 6)
    finally:
        consumer.close()
    (everything,) = outcomes(admin.delete_records([TopicPartition(name, 0, -1)])).values()
    assert everything.low_watermark == 6


def test_metadata_of_a_thousand_partitions(admin: AdminClient) -> None:
    name = unique_topic("ck-wide")
    assert outcomes(admin.create_topics([NewTopic(name, 1000, 1)])) == {name: None}
    metadata = admin.list_topics(name, timeout=TIMEOUT_S).topics[name]
    assert sorted(metadata.partitions) == list(range(1000))
    assert {(p.leader, p.error) for p in metadata.partitions.values()} == {(0, None)}
