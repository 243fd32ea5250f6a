"""kafka-python 3.0.12's KafkaAdminClient against a live broker: topics, partitions, configs, records, cluster."""

from __future__ import annotations

from collections.abc import Iterator

import kafka.errors as errors
import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, NewPartitions

from rockafka.facade.config import BROKER_CONFIGS, TOPIC_CONFIGS

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, module_broker
from .clients.records import unique_topic

pytestmark = QUIET_KAFKA_PYTHON
broker = module_broker()


@pytest.fixture(scope="module")
def admin(broker: BrokerProcess) -> Iterator[KafkaAdminClient]:
    client = KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="rockafka-admin-tests")
    try:
        yield client
    finally:
        client.close()


def topic_configs(admin: KafkaAdminClient, name: str, config_filter: str = "modified") -> dict[str, dict]:
    described = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, name)], config_filter=config_filter)
    return dict(described["topic"][name])


def partition_count(admin: KafkaAdminClient, name: str) -> int:
    (topic,) = admin.describe_topics([name])
    assert topic["error_code"] == 0, topic
    return len(topic["partitions"])


def test_topic_lifecycle(admin: KafkaAdminClient) -> None:
    name, checked = unique_topic("kp-life"), unique_topic("kp-validated")
    created = admin.create_topics(
        {name: {"num_partitions": 3, "replication_factor": 1, "configs": {"retention.ms": "60000"}}}
    )
    (result,) = created["topics"]
    assert (result["name"], result["error_code"], result["num_partitions"], result["replication_factor"]) == (
        name,
        0,
        3,
        1,
    )
    assert set(result["configs"]) == set(TOPIC_CONFIGS)
    assert result["configs"]["retention.ms"]["config_source"] == "DYNAMIC_TOPIC_CONFIG"
    assert admin.create_topics({checked: {"num_partitions": 2}}, validate_only=True)["topics"][0]["error_code"] == 0
    assert name in admin.list_topics() and checked not in admin.list_topics()
    with pytest.raises(errors.TopicAlreadyExistsError):
        admin.create_topics({name: {}})
    assert partition_count(admin, name) == 3

    assert {key: c["value"] for key, c in topic_configs(admin, name).items()} == {"retention.ms": "60000"}
    assert len(topic_configs(admin, name, "all")) == len(TOPIC_CONFIGS)
    assert admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, name, configs={"segment.ms": "100000"})]) == {
        "topic": {name: "OK"}
    }
    legacy = ConfigResource(ConfigResourceType.TOPIC, name, configs={"max.message.bytes": "5000"})
    assert admin.alter_configs([legacy], incremental=False) == {"topic": {name: "OK"}}
    values = {key: c["value"] for key, c in topic_configs(admin, name).items()}
    assert values == {"retention.ms": "60000", "segment.ms": "100000", "max.message.bytes": "5000"}
    admin.reset_configs([ConfigResource(ConfigResourceType.TOPIC, name, configs=["segment.ms", "retention.ms"])])
    assert set(topic_configs(admin, name)) == {"max.message.bytes"}
    bad = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, name, configs={"retention.ms": "soon"})])
    assert "InvalidConfigurationError" in bad["topic"][name]

    admin.create_partitions({name: NewPartitions(5)})
    assert partition_count(admin, name) == 5
    with pytest.raises(errors.InvalidPartitionsError):
        admin.create_partitions({name: NewPartitions(2)})

    deleted = admin.delete_topics([name])
    assert [(t["name"], t["error_code"]) for t in deleted["topics"]] == [(name, 0)]
    assert name not in admin.list_topics()
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        admin.delete_topics([name])


def test_create_topics_mixed_valid_and_invalid(admin: KafkaAdminClient) -> None:
    prefix = unique_topic("kp-mixed")
    admin.create_topics({f"{prefix}-exists": {}})
    request = {
        f"{prefix}-ok": {"num_partitions": 2},
        f"{prefix}-exists": {},
        f"{prefix} bad": {},
        f"{prefix}-rf3": {"num_partitions": 1, "replication_factor": 3},
        f"{prefix}-config": {"configs": {"cleanup.policy": "shred"}},
        f"{prefix}-assigned": {"assignments": {0: [0], 1: [0]}},
    }
    results = admin.create_topics(request, raise_errors=False)["topics"]
    assert {r["name"]: r["error_code"] for r in results} == {
        f"{prefix}-ok": 0,
        f"{prefix}-exists": errors.TopicAlreadyExistsError.errno,
        f"{prefix} bad": errors.InvalidTopicError.errno,
        f"{prefix}-rf3": errors.InvalidReplicationFactorError.errno,
        f"{prefix}-config": errors.InvalidConfigurationError.errno,
        f"{prefix}-assigned": 0,
    }
    assert partition_count(admin, f"{prefix}-ok") == 2 and partition_count(admin, f"{prefix}-assigned") == 2
    assert f"{prefix}-rf3" not in admin.list_topics()


def test_broker_configs_list_every_setting_and_stay_read_only(broker: BrokerProcess, admin: KafkaAdminClient) -> None:
    resource = ConfigResource(ConfigResourceType.BROKER, "0")
    described = admin.describe_configs([resource], config_filter="all", include_synonyms=True)["broker"]["0"]
    assert set(described) == set(BROKER_CONFIGS)
    assert described["listeners"]["value"] == f"PLAINTEXT://127.0.0.1:{broker.port}"
    assert described["listeners"]["config_source"] == "STATIC_BROKER_CONFIG"
    assert described["num.partitions"]["synonyms"] == [
        {"name": "num.partitions", "value": "1", "source": "DEFAULT_CONFIG"}
    ]
    with pytest.raises(ValueError, match="Unrecognized configs"):
        admin.alter_configs([ConfigResource(ConfigResourceType.BROKER, "0", configs={"num.partitions": "3"})])
    refused = admin.alter_configs(
        [ConfigResource(ConfigResourceType.BROKER, "0", configs={"num.partitions": "3"})], raise_on_unknown=False
    )
    assert "InvalidRequestError" in refused["broker"]["0"]


def test_delete_records_moves_the_log_start(broker: BrokerProcess, admin: KafkaAdminClient) -> None:
    name = unique_topic("kp-trim")
    admin.create_topics({name: {"num_partitions": 1}})
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1, enable_idempotence=False)
    try:
        for i in range(10):
            producer.send(name, value=b"%d" % i)
        producer.flush(timeout=10)
    finally:
        producer.close(timeout=5)
    partition = TopicPartition(name, 0)
    assert admin.delete_records({partition: 4})[partition]["low_watermark"] == 4
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, auto_offset_reset="earliest", consumer_timeout_ms=5000)
    try:
        assert consumer.beginning_offsets([partition]) == {partition: 4}
        consumer.assign([partition])
        records = [next(consumer) for _ in range(6)]
        assert [(r.offset, r.value) for r in records] == [(i, b"%d" % i) for i in range(4, 10)]
    finally:
        consumer.close()
    assert admin.delete_records({partition: -1})[partition]["low_watermark"] == 10


def test_describe_cluster(broker: BrokerProcess, admin: KafkaAdminClient) -> None:
    cluster = admin.describe_cluster()
    assert cluster["controller_id"] == 0
    assert cluster["brokers"] == [{"broker_id": 0, "host": "127.0.0.1", "port": broker.port, "rack": None}]
    assert len(cluster["cluster_id"]) == 22


def test_metadata_of_a_thousand_partitions(broker: BrokerProcess, admin: KafkaAdminClient) -> None:
    name = unique_topic("kp-wide")
    admin.create_topics({name: {"num_partitions": 1000}})
    assert partition_count(admin, name) == 1000
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
    try:
        assert consumer.partitions_for_topic(name) == set(range(1000))
    finally:
        consumer.close()
