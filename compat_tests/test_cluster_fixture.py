"""The pytest plugin's ``kafka_cluster`` fixture as a user's test would use it: a partition's leader found through
etcd, killed and restarted under a confluent-kafka producer, and nothing acknowledged lost."""

from __future__ import annotations

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.testing import Cluster

TIMEOUT_S = 60.0


def _produce(producer: Producer, topic: str, values: range) -> None:
    failures: list[str] = []

    def delivered(error: object, _message: object) -> None:
        if error is not None:
            failures.append(str(error))

    for value in values:
        producer.produce(topic, str(value).encode(), partition=0, on_delivery=delivered)
    assert producer.flush(TIMEOUT_S) == 0 and failures == []


@pytest.mark.slow
@pytest.mark.kafka_cluster(groups=2)
def test_a_killed_leader_restarted_through_the_fixture_keeps_what_it_acknowledged(kafka_cluster: Cluster) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap})
    admin.create_topics([NewTopic("fixture-orders", 2, 1)])["fixture-orders"].result(TIMEOUT_S)
    leader = kafka_cluster.leader_of("fixture-orders", 0)
    assert leader in kafka_cluster.brokers

    settings = {"bootstrap.servers": kafka_cluster.bootstrap, "enable.idempotence": True, "message.timeout.ms": 60000}
    producer = Producer(settings)
    _produce(producer, "fixture-orders", range(50))
    kafka_cluster.restart(leader)
    assert kafka_cluster.leader_of("fixture-orders", 0) == leader  # its group has one broker: it leads again
    _produce(producer, "fixture-orders", range(50, 100))

    consumer = Consumer(
        {"bootstrap.servers": kafka_cluster.bootstrap, "group.id": "fixture-check", "auto.offset.reset": "earliest"}
    )
    consumer.subscribe(["fixture-orders"])
    seen: list[int] = []
    try:
        for _ in range(600):
            message = consumer.poll(0.5)
            if message is not None and message.error() is None and message.partition() == 0:
                seen.append(int(message.value()))
            if len(seen) >= 100:
                break
    finally:
        consumer.close()
    assert seen == list(range(100))
