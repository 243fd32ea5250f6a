"""aiokafka 0.14's AIOKafkaAdminClient against a live broker (CreateTopics v3, DescribeConfigs v2, AlterConfigs v1,
CreatePartitions v1, DeleteRecords, DeleteTopics v3 and Metadata v5 are what it speaks)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewPartitions, NewTopic, RecordsToDelete
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType
from aiokafka.structs import TopicPartition

from rockafka.facade.config import BROKER_CONFIGS, TOPIC_CONFIGS
from rockafka.facade.protocol.error_codes import ErrorCode

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import unique_topic

broker = module_broker()


def with_admin(bootstrap: str, scenario: Callable[[AIOKafkaAdminClient], Awaitable[None]]) -> None:
    async def run() -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, client_id="rockafka-admin-tests")
        await admin.start()
        try:
            await scenario(admin)
        finally:
            await admin.close()

    asyncio.run(run())


async def config_values(admin: AIOKafkaAdminClient, kind: ConfigResourceType, name: str) -> dict[str, Any]:
    (response,) = await admin.describe_configs([ConfigResource(kind, name)], include_synonyms=True)
    (resource,) = response.resources
    assert resource[0] == ErrorCode.NONE, resource
    return {entry[0]: entry for entry in resource[4]}


async def partition_count(admin: AIOKafkaAdminClient, name: str) -> int:
    (topic,) = await admin.describe_topics([name])
    assert topic["error_code"] == ErrorCode.NONE, topic
    return len(topic["partitions"])


def test_topic_lifecycle(broker: BrokerProcess) -> None:
    name = unique_topic("aio-life")

    async def scenario(admin: AIOKafkaAdminClient) -> None:
        created = await admin.create_topics([NewTopic(name, 3, 1, topic_configs={"retention.ms": "60000"})])
        assert [(t[0], t[1]) for t in created.topic_errors] == [(name, ErrorCode.NONE)]
        assert name in await admin.list_topics()
        assert await partition_count(admin, name) == 3
        again = await admin.create_topics([NewTopic(name, 1, 1)])
        assert again.topic_errors[0][1] == ErrorCode.TOPIC_ALREADY_EXISTS

        entries = await config_values(admin, ConfigResourceType.TOPIC, name)
        assert set(entries) == set(TOPIC_CONFIGS)
        assert entries["retention.ms"][1:4] == ("60000", False, 1)  # value, read-only, TOPIC_CONFIG
        (altered,) = await admin.alter_configs(
            [ConfigResource(ConfigResourceType.TOPIC, name, configs={"segment.ms": "100000"})]
        )
        assert altered.resources[0][0] == ErrorCode.NONE
        entries = await config_values(admin, ConfigResourceType.TOPIC, name)
        assert (entries["segment.ms"][1], entries["retention.ms"][1]) == ("100000", "604800000")  # replaced

        grown = await admin.create_partitions({name: NewPartitions(5)})
        assert grown.topic_errors[0][1] == ErrorCode.NONE
        assert await partition_count(admin, name) == 5

        deleted = await admin.delete_topics([name, unique_topic("aio-missing")])
        assert [code for _, code in deleted.topic_error_codes] == [0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]
        assert name not in await admin.list_topics()

    with_admin(broker.bootstrap, scenario)


def test_broker_configs_and_cluster(broker: BrokerProcess) -> None:
    async def scenario(admin: AIOKafkaAdminClient) -> None:
        entries = await config_values(admin, ConfigResourceType.BROKER, "0")
        assert set(entries) == set(BROKER_CONFIGS)
        assert entries["listeners"][1:4] == (f"PLAINTEXT://127.0.0.1:{broker.port}", True, 4)
        cluster = await admin.describe_cluster()
        assert cluster["controller_id"] == 0
        assert cluster["brokers"] == [{"node_id": 0, "host": "127.0.0.1", "port": broker.port, "rack": None}]
        responses = await admin.alter_configs(
            [ConfigResource(ConfigResourceType.BROKER, "0", configs={"num.partitions": "4"})]
        )  # an empty topic request, then the broker's
        assert [[r[0] for r in response.resources] for response in responses] == [[], [ErrorCode.INVALID_REQUEST]]

    with_admin(broker.bootstrap, scenario)


def test_delete_records(broker: BrokerProcess) -> None:
    name = unique_topic("aio-trim")
    partition = TopicPartition(name, 0)

    async def scenario(admin: AIOKafkaAdminClient) -> None:
        await admin.create_topics([NewTopic(name, 1, 1)])
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap)
        await producer.start()
        try:
            for i in range(8):
                await producer.send_and_wait(name, b"%d" % i, partition=0)
        finally:
            await producer.stop()
        assert await admin.delete_records({partition: RecordsToDelete(5)}) == {partition: 5}
        consumer = AIOKafkaConsumer(bootstrap_servers=broker.bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        try:
            assert await consumer.beginning_offsets([partition]) == {partition: 5}
            consumer.assign([partition])
            batches = await consumer.getmany(timeout_ms=5000)
            assert [(r.offset, r.value) for r in batches[partition]] == [(i, b"%d" % i) for i in range(5, 8)]
        finally:
            await consumer.stop()

    with_admin(broker.bootstrap, scenario)


def test_metadata_of_a_thousand_partitions(broker: BrokerProcess) -> None:
    name = unique_topic("aio-wide")

    async def scenario(admin: AIOKafkaAdminClient) -> None:
        created = await admin.create_topics([NewTopic(name, 1000, 1)])
        assert created.topic_errors[0][1] == ErrorCode.NONE
        assert await partition_count(admin, name) == 1000

    with_admin(broker.bootstrap, scenario)
