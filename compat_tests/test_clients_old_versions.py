"""Old clients against a live broker: kafka-python pinned to Kafka 0.8.2 through 0.11 speaks Produce v0-3,
Fetch v0-4 and message formats v0/v1; the broker converts at the boundary and stores RecordBatch v2 only.

Every message crosses byte-exact between old and new clients in both directions; group offsets committed by an
old consumer read back; a topic with ``message.downconversion.enable=false`` refuses old fetches."""

from __future__ import annotations

import time

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.errors import UnsupportedVersionError

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, module_broker
from .clients.records import unique_topic

broker = module_broker()
pytestmark = QUIET_KAFKA_PYTHON

#: The protocol each pinned version speaks for Produce/Fetch: 0.8.2 v0/v0 (format v0), 0.9 v1/v1 (v0),
#: 0.10.1 v2/v3 (format v1, timestamps), 0.11 v3/v4 (RecordBatch v2).
OLD_VERSIONS = [(0, 8, 2), (0, 9), (0, 10, 1), (0, 11)]
GROUPS_FROM = (0, 9)
MESSAGES = [(f"key-{i}".encode() if i % 3 else None, bytes([i % 256]) * (i * 37 % 900)) for i in range(40)]
DEADLINE_S = 30


def _produce(bootstrap: str, topic: str, api_version: tuple[int, ...] | None, codec: str | None) -> None:
    options = {} if api_version is None else {"api_version": api_version}
    producer = KafkaProducer(bootstrap_servers=bootstrap, compression_type=codec, acks=1, **options)
    try:
        futures = [producer.send(topic, key=key, value=value, partition=0) for key, value in MESSAGES]
        offsets = [future.get(timeout=DEADLINE_S).offset for future in futures]
    finally:
        producer.close(timeout=5)
    assert offsets == list(range(len(MESSAGES)))


def _consume(
    bootstrap: str, topic: str, api_version: tuple[int, ...] | None, group: str | None = None
) -> list[tuple[int, bytes | None, bytes | None, int]]:
    options = {} if api_version is None else {"api_version": api_version}
    consumer = KafkaConsumer(
        bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False, auto_offset_reset="earliest",
        fetch_max_wait_ms=100, **options,
    )  # fmt: skip
    partition = TopicPartition(topic, 0)
    try:
        if group is None:
            consumer.assign([partition])
            consumer.seek_to_beginning(partition)
        else:
            consumer.subscribe([topic])
        found: list[tuple[int, bytes | None, bytes | None, int]] = []
        deadline = time.monotonic() + DEADLINE_S
        while len(found) < len(MESSAGES) and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                found.extend((r.offset, r.key, r.value, r.timestamp) for r in records)
        if group is not None:
            consumer.commit()
        return found
    finally:
        consumer.close()


def _expected() -> list[tuple[int, bytes | None, bytes | None]]:
    return [(offset, key, value) for offset, (key, value) in enumerate(MESSAGES)]


@pytest.mark.parametrize("codec", [None, "gzip", "snappy", "lz4"])
@pytest.mark.parametrize("api_version", OLD_VERSIONS, ids=lambda v: ".".join(map(str, v)))
def test_an_old_producer_and_consumer_round_trip_every_byte(
    broker: BrokerProcess, api_version: tuple[int, ...], codec: str | None
) -> None:
    topic = unique_topic("old-rt")
    _produce(broker.bootstrap, topic, api_version, codec)
    found = _consume(broker.bootstrap, topic, api_version)
    assert [(offset, key, value) for offset, key, value, _ in found] == _expected()
    if api_version < (0, 10):
        assert {stamp for *_, stamp in found} == {None}  # format v0 has no timestamps (kafka-python: None)
    else:
        assert all(stamp > 0 for *_, stamp in found)


@pytest.mark.parametrize("api_version", OLD_VERSIONS, ids=lambda v: ".".join(map(str, v)))
def test_messages_cross_between_old_and_current_clients_both_ways(
    broker: BrokerProcess, api_version: tuple[int, ...]
) -> None:
    old_to_new, new_to_old = unique_topic("old-to-new"), unique_topic("new-to-old")
    _produce(broker.bootstrap, old_to_new, api_version, "gzip")
    _produce(broker.bootstrap, new_to_old, None, "lz4")
    assert [(o, k, v) for o, k, v, _ in _consume(broker.bootstrap, old_to_new, None)] == _expected()
    assert [(o, k, v) for o, k, v, _ in _consume(broker.bootstrap, new_to_old, api_version)] == _expected()


@pytest.mark.parametrize(
    "api_version", [v for v in OLD_VERSIONS if v >= GROUPS_FROM], ids=lambda v: ".".join(map(str, v))
)
def test_an_old_group_consumer_commits_offsets_that_read_back(
    broker: BrokerProcess, api_version: tuple[int, ...]
) -> None:
    topic, group = unique_topic("old-group"), unique_topic("old-group-id")
    _produce(broker.bootstrap, topic, api_version, None)
    assert len(_consume(broker.bootstrap, topic, api_version, group)) == len(MESSAGES)
    reader = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id=group, api_version=api_version)
    try:
        assert reader.committed(TopicPartition(topic, 0)) == len(MESSAGES)
    finally:
        reader.close()


def test_a_topic_without_downconversion_refuses_old_fetches_and_serves_new_ones(broker: BrokerProcess) -> None:
    topic = unique_topic("no-downconversion")
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 1, 1, topic_configs={"message.downconversion.enable": "false"})])
    finally:
        admin.close()
    _produce(broker.bootstrap, topic, (0, 10, 1), None)
    assert len(_consume(broker.bootstrap, topic, None)) == len(MESSAGES)
    with pytest.raises(UnsupportedVersionError):
        _consume(broker.bootstrap, topic, (0, 10, 1))
