"""The kafka_topic fixture: new topics named after the test, created as an admin client would, seen by clients."""

from __future__ import annotations

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, ConfigResource

from rockafka.testing import Broker, BrokerError
from rockafka.testing_topics import TopicFactory

TIMEOUT_S = 20.0


def test_each_call_is_a_new_topic_named_after_the_test(kafka_broker: Broker, kafka_topic: TopicFactory) -> None:
    first, second = kafka_topic(), kafka_topic(partitions=3, config={"cleanup.policy": "compact"})
    assert first != second
    assert first.startswith("test_each_call_is_a_new_topic_named_after_the_test-1-")
    admin = AdminClient({"bootstrap.servers": kafka_broker.bootstrap})
    topics = admin.list_topics(timeout=TIMEOUT_S).topics
    assert len(topics[first].partitions) == 1 and len(topics[second].partitions) == 3
    resource = ConfigResource(ConfigResource.Type.TOPIC, second)
    described = admin.describe_configs([resource])[resource].result(TIMEOUT_S)
    assert described["cleanup.policy"].value == "compact"
    producer = Producer({"bootstrap.servers": kafka_broker.bootstrap})
    producer.produce(second, b"v", partition=2)
    assert producer.flush(TIMEOUT_S) == 0
    assert kafka_topic.created == [first, second]


@pytest.mark.parametrize("suffix", ["a/b", "x" * 300])
def test_names_from_any_test_id_are_valid_topic_names(kafka_broker: Broker, suffix: str) -> None:
    topic = TopicFactory(kafka_broker.bootstrap, f"test_x[{suffix}]")()
    assert len(topic) <= 249 and all(c.isalnum() or c in "._-" for c in topic)


def test_a_refused_topic_is_one_broker_error(kafka_broker: Broker, kafka_topic: TopicFactory) -> None:
    taken = kafka_topic()
    with pytest.raises(BrokerError, match=f"cannot create topic '{taken}': TOPIC_ALREADY_EXISTS"):
        kafka_topic(name=taken)
    with pytest.raises(BrokerError, match="INVALID_CONFIG"):
        kafka_topic(config={"cleanup.policy": "sideways"})
