"""confluent-kafka (librdkafka 2.x) against a live broker: every acks and codec, start positions, defaults."""

from __future__ import annotations

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from .brokerproc import BrokerProcess
from .clients.confluent_driver import ConfluentDriver
from .clients.driver import CODECS, TIMEOUT_S
from .clients.fixtures import module_broker
from .clients.kafka_python_driver import KafkaPythonDriver
from .clients.records import unique_topic
from .clients.scenarios import check_roundtrip, check_start_positions

broker = module_broker()
DRIVER = ConfluentDriver()


@pytest.mark.parametrize("acks", [0, 1, -1])
@pytest.mark.parametrize("codec", CODECS)
def test_produce_and_consume_every_byte(broker: BrokerProcess, codec: str, acks: int) -> None:
    check_roundtrip(DRIVER, broker.bootstrap, acks=acks, codec=codec)  # type: ignore[arg-type]


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_reads_what_librdkafka_wrote(broker: BrokerProcess, codec: str) -> None:
    check_roundtrip(DRIVER, broker.bootstrap, acks=1, codec=codec, reader=KafkaPythonDriver())


def test_start_positions(broker: BrokerProcess) -> None:
    check_start_positions(DRIVER, broker.bootstrap)


def test_defaults_acks_all_read_committed_and_auto_commit(broker: BrokerProcess) -> None:
    """librdkafka's defaults: an acks=all producer (not idempotent), and a consumer with a group.id that
    reads read_committed (it sees every record: without transactions the last stable offset is the high
    watermark) and auto-commits its position on close."""
    topic = unique_topic("confluent-defaults")
    producer = Producer({"bootstrap.servers": broker.bootstrap})
    delivered = []
    for i in range(3):
        producer.produce(topic, f"value-{i}".encode(), on_delivery=lambda e, m: delivered.append((e, m.offset())))
    assert producer.flush(TIMEOUT_S) == 0
    assert delivered == [(None, 0), (None, 1), (None, 2)]
    group = {"bootstrap.servers": broker.bootstrap, "group.id": unique_topic("confluent-defaults-group")}
    consumer = Consumer(group)
    try:
        consumer.assign([TopicPartition(topic, 0, 0)])
        got = []
        for _ in range(50):
            got += [(m.offset(), m.value()) for m in consumer.consume(3, 0.2) if m.error() is None]
            if len(got) >= 3:
                break
        assert got == [(i, f"value-{i}".encode()) for i in range(3)]
        low, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), TIMEOUT_S)
        assert (low, high) == (0, 3)
    finally:
        consumer.close()
    again = Consumer(group)
    try:
        (committed,) = again.committed([TopicPartition(topic, 0)], TIMEOUT_S)
        assert committed.offset == 3
    finally:
        again.close()
