"""The plugin's fixtures in async tests, under pytest-asyncio and under anyio, with the test's own async fixtures
built on them (an aiokafka producer): the in-process broker runs on its own thread, so the test's event loop is
never blocked by it and any loop (each plugin makes its own) can talk to it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from rockafka.testing import Broker
from rockafka.testing_topics import TopicFactory

TIMEOUT_MS = 20_000


async def _read(bootstrap: str, topic: str, count: int) -> list[bytes]:
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest")
    await consumer.start()
    try:
        values: list[bytes] = []
        for _ in range(20):
            batches = await consumer.getmany(timeout_ms=TIMEOUT_MS // 20)
            values += [record.value or b"" for records in batches.values() for record in records]
            if len(values) >= count:
                break
        return values
    finally:
        await consumer.stop()


@pytest_asyncio.fixture
async def asyncio_producer(kafka_broker: Broker) -> AsyncIterator[AIOKafkaProducer]:
    producer = AIOKafkaProducer(bootstrap_servers=kafka_broker.bootstrap)
    await producer.start()
    yield producer
    await producer.stop()


@pytest.mark.asyncio
async def test_under_pytest_asyncio(
    kafka_broker: Broker, kafka_topic: TopicFactory, asyncio_producer: AIOKafkaProducer
) -> None:
    topic = kafka_topic(partitions=2)
    await asyncio_producer.send_and_wait(topic, b"asyncio", partition=1)
    assert await _read(kafka_broker.bootstrap, topic, 1) == [b"asyncio"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # aiokafka runs on asyncio only (trio is not installed either)


@pytest.fixture
async def anyio_producer(kafka_broker: Broker, anyio_backend: str) -> AsyncIterator[AIOKafkaProducer]:
    producer = AIOKafkaProducer(bootstrap_servers=kafka_broker.bootstrap)
    await producer.start()
    yield producer
    await producer.stop()


@pytest.mark.anyio
async def test_under_anyio(kafka_broker: Broker, kafka_topic: TopicFactory, anyio_producer: AIOKafkaProducer) -> None:
    topic = kafka_topic()
    await anyio_producer.send_and_wait(topic, b"anyio")
    assert await _read(kafka_broker.bootstrap, topic, 1) == [b"anyio"]
