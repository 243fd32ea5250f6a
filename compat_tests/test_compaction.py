"""A compacted topic (cleanup.policy=compact) through real clients: the broker's cleaner compacts it in the
background, and confluent-kafka, aiokafka and kafka-python read every key's latest value across the offset gaps;
librdkafka's keyless record is refused as Kafka refuses it."""

from __future__ import annotations

import asyncio
import time

import pytest
from aiokafka import AIOKafkaConsumer
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

from .brokerproc import BrokerProcess
from .clients.driver import TIMEOUT_S
from .clients.fixtures import module_broker
from .clients.records import unique_topic

broker = module_broker(**{"log.cleaner.backoff.ms": "100"})
KEYS, ROUNDS = 10, 30
COMPACTED = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "0"}
Seen = list[tuple[int, bytes | None, bytes | None]]


def _create(bootstrap: str, topic: str) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 1, 1, topic_configs=COMPACTED)])
    finally:
        admin.close()


def _fill(bootstrap: str, topic: str) -> dict[bytes, bytes]:
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0)
    latest: dict[bytes, bytes] = {}
    try:
        for round_ in range(ROUNDS):
            for key in range(KEYS):
                name, value = b"k%d" % key, b"v%d-%d" % (round_, key)
                producer.send(topic, key=name, value=value).get(TIMEOUT_S)  # one batch per record
                latest[name] = value
    finally:
        producer.close()
    return latest


def _kafka_python_read(bootstrap: str, topic: str, high: int) -> Seen:
    from kafka import TopicPartition as KafkaTopicPartition

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    partition = KafkaTopicPartition(topic, 0)
    consumer.assign([partition])
    consumer.seek_to_beginning(partition)
    seen: Seen = []
    try:
        for _ in range(100):
            for records in consumer.poll(timeout_ms=200).values():
                seen += [(r.offset, r.key, r.value) for r in records]
            if consumer.position(partition) >= high:
                break
    finally:
        consumer.close()
    return seen


def _confluent_read(bootstrap: str, topic: str, high: int) -> Seen:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": unique_topic("g"), "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    seen: Seen = []
    try:
        for _ in range(100):
            seen += [(m.offset(), m.key(), m.value()) for m in consumer.consume(100, 0.2) if m.error() is None]
            if consumer.position([TopicPartition(topic, 0)])[0].offset >= high:
                break
    finally:
        consumer.close()
    return seen


def _aiokafka_read(bootstrap: str, topic: str, high: int) -> Seen:
    async def read() -> Seen:
        from aiokafka import TopicPartition as AioTopicPartition

        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
        await consumer.start()
        partition = AioTopicPartition(topic, 0)
        consumer.assign([partition])
        await consumer.seek_to_beginning(partition)
        seen: Seen = []
        try:
            for _ in range(100):
                for records in (await consumer.getmany(timeout_ms=200)).values():
                    seen += [(r.offset, r.key, r.value) for r in records]
                if await consumer.position(partition) >= high:
                    break
        finally:
            await consumer.stop()
        return seen

    return asyncio.run(read())


READERS = {"kafka-python": _kafka_python_read, "confluent-kafka": _confluent_read, "aiokafka": _aiokafka_read}


@pytest.fixture(scope="module")
def compacted(broker: BrokerProcess) -> tuple[str, dict[bytes, bytes], int]:
    """A compacted topic, filled and then compacted by the broker's cleaner: (topic, latest values, high mark)."""
    topic = unique_topic("compacted")
    _create(broker.bootstrap, topic)
    latest = _fill(broker.bootstrap, topic)
    high = KEYS * ROUNDS
    deadline = time.monotonic() + 60
    seen = _kafka_python_read(broker.bootstrap, topic, high)
    while len(seen) > 2 * KEYS and time.monotonic() < deadline:
        time.sleep(0.2)
        seen = _kafka_python_read(broker.bootstrap, topic, high)
    assert len(seen) <= 2 * KEYS, f"the cleaner did not compact the topic: {len(seen)} records remain"
    return topic, latest, high


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_compacted_topic_reads_the_latest_value_of_every_key_across_gaps(
    broker: BrokerProcess, compacted: tuple[str, dict[bytes, bytes], int], reader: str
) -> None:
    topic, latest, high = compacted
    seen = READERS[reader](broker.bootstrap, topic, high)
    offsets = [offset for offset, _, _ in seen]
    assert offsets == sorted(set(offsets)) and offsets[-1] == high - 1
    assert len(offsets) < high  # gaps
    final = {key: value for _, key, value in seen}
    assert final == latest
    for offset, key, value in seen:  # record n was written as round n // KEYS of key n % KEYS: never moved
        assert (key, value) == (b"k%d" % (offset % KEYS), b"v%d-%d" % (offset // KEYS, offset % KEYS))


def test_librdkafka_keyless_record_to_a_compacted_topic_is_refused(broker: BrokerProcess) -> None:
    topic = unique_topic("compacted-keyless")
    _create(broker.bootstrap, topic)
    producer = Producer({"bootstrap.servers": broker.bootstrap, "retries": 0})
    reports: list[KafkaError | None] = []
    producer.produce(topic, value=b"no key", on_delivery=lambda error, _message: reports.append(error))
    assert producer.flush(TIMEOUT_S) == 0
    producer.produce(topic, key=b"k", value=b"keyed", on_delivery=lambda error, _message: reports.append(error))
    assert producer.flush(TIMEOUT_S) == 0
    assert reports[0] is not None and reports[0].code() == KafkaError.INVALID_RECORD
    assert reports[1] is None
