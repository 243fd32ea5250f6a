"""aiokafka 0.14 against a live broker: every acks and codec, start positions, its defaults."""

from __future__ import annotations

import asyncio

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from .brokerproc import BrokerProcess
from .clients.aiokafka_driver import AiokafkaDriver
from .clients.driver import CODECS
from .clients.fixtures import module_broker
from .clients.records import unique_topic
from .clients.scenarios import check_roundtrip, check_start_positions

broker = module_broker()
DRIVER = AiokafkaDriver()


@pytest.mark.parametrize("acks", [0, 1, -1])
@pytest.mark.parametrize("codec", CODECS)
def test_produce_and_consume_every_byte(broker: BrokerProcess, codec: str, acks: int) -> None:
    check_roundtrip(DRIVER, broker.bootstrap, acks=acks, codec=codec)  # type: ignore[arg-type]


def test_start_positions(broker: BrokerProcess) -> None:
    check_start_positions(DRIVER, broker.bootstrap)


def test_defaults_produce_and_consume(broker: BrokerProcess) -> None:
    """aiokafka's defaults (acks=1, not idempotent, read_uncommitted, latest) work unchanged."""
    topic = unique_topic("aiokafka-defaults")

    async def scenario() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap)
        await producer.start()
        try:
            sent = [await producer.send_and_wait(topic, f"value-{i}".encode()) for i in range(3)]
        finally:
            await producer.stop()
        assert [m.offset for m in sent] == [0, 1, 2]
        consumer = AIOKafkaConsumer(topic, bootstrap_servers=broker.bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        try:
            got = [await asyncio.wait_for(consumer.getone(), 15) for _ in range(3)]
        finally:
            await consumer.stop()
        assert [(m.offset, m.value) for m in got] == [(i, f"value-{i}".encode()) for i in range(3)]

    asyncio.run(scenario())
