"""An application on the source broker for the migration tests: a topic with config overrides, a consumer group
that consumed part of it with kafka-python, and the same group resumed on another broker."""

from __future__ import annotations

from typing import Any

from kafka import KafkaConsumer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewTopic

CONFIGS = {"retention.ms": "86400000", "max.message.bytes": "200000", "cleanup.policy": "delete"}
POLL_LIMIT = 200


def create_configured_topic(bootstrap: str, topic: str, partitions: int, **client: Any) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, **client)
    try:
        admin.create_topics([NewTopic(topic, partitions, 1, topic_configs=CONFIGS)])
    finally:
        admin.close()


def topic_overrides(bootstrap: str, topic: str, **client: Any) -> dict[str, str]:
    """The topic's non-default configs, as DescribeConfigs reports them."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, **client)
    try:
        found = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)], config_filter="all")
    finally:
        admin.close()
    configs = found["topic"][topic]
    return {k: c["value"] for k, c in configs.items() if c["config_source"] == "DYNAMIC_TOPIC_CONFIG"}


def consume(bootstrap: str, topic: str, group: str, count: int, **client: Any) -> list[tuple[int, int, bytes]]:
    """Consume ``count`` records (or all that are left, when ``count`` is 0) as the group, committing what was
    consumed; (partition, offset, value) of each, in the order read."""
    consumer = KafkaConsumer(
        bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False, auto_offset_reset="earliest", **client
    )
    consumer.subscribe([topic])
    read: list[tuple[int, int, bytes]] = []
    try:
        idle = 0
        for _ in range(POLL_LIMIT):
            wanted = count - len(read) if count else 100
            batch = consumer.poll(timeout_ms=500, max_records=wanted)
            read.extend((r.partition, r.offset, r.value) for records in batch.values() for r in records)
            idle = 0 if batch else idle + 1
            if (count and len(read) >= count) or (not count and idle >= 6 and consumer.assignment()):
                break
        consumer.commit()
    finally:
        consumer.close()
    return read


def committed(bootstrap: str, topic: str, group: str, partitions: int, **client: Any) -> dict[int, int | None]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False, **client)
    try:
        return {p: consumer.committed(TopicPartition(topic, p)) for p in range(partitions)}
    finally:
        consumer.close()


def delete_before(bootstrap: str, topic: str, partition: int, offset: int) -> None:
    """Truncate the partition's log start to ``offset`` (DeleteRecords), as retention would."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.delete_records({TopicPartition(topic, partition): offset})
    finally:
        admin.close()
