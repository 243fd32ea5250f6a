"""Tests as a Kafka application's project would write them, using only the plugin and the conftest beside it."""

from __future__ import annotations

import os

from confluent_kafka import Consumer, Producer

from rockafka.testing import Broker


def publish(topic: str, values: list[bytes]) -> None:
    """The application code under test: it reads its broker address from the environment."""
    producer = Producer({"bootstrap.servers": os.environ["KAFKA_BOOTSTRAP_SERVERS"], "enable.idempotence": True})
    for value in values:
        producer.produce(topic, value)
    assert producer.flush(30) == 0


def read(topic: str, count: int) -> list[bytes]:
    consumer = Consumer(
        {"bootstrap.servers": os.environ["KAFKA_BOOTSTRAP_SERVERS"], "group.id": topic, "auto.offset.reset": "earliest"}
    )
    consumer.subscribe([topic])
    values: list[bytes] = []
    for _ in range(60):
        message = consumer.poll(0.5)
        if message is not None and message.error() is None:
            values.append(message.value() or b"")
        if len(values) == count:
            break
    consumer.close()
    return values


def test_orders_are_published_in_order(kafka_topic) -> None:  # type: ignore[no-untyped-def]
    topic = kafka_topic()
    publish(topic, [b"order-1", b"order-2"])
    assert read(topic, 2) == [b"order-1", b"order-2"]


def test_publishing_survives_a_leader_move(kafka_broker: Broker, kafka_topic) -> None:  # type: ignore[no-untyped-def]
    topic = kafka_topic()
    publish(topic, [b"warm-up"])
    kafka_broker.faults.fail("Produce", "NOT_LEADER_OR_FOLLOWER", times=2, topic=topic)
    publish(topic, [b"order-3"])
    assert kafka_broker.faults.pending()["errors"] == []
    assert read(topic, 2) == [b"warm-up", b"order-3"]


def test_the_session_broker_is_shared(kafka_broker: Broker) -> None:
    assert os.environ["KAFKA_BOOTSTRAP_SERVERS"] == kafka_broker.bootstrap
