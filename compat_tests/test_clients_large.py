"""1 MiB messages through every client, configured as a user would.

Kafka's default limit (``max.message.bytes`` 1048588) is just too small for a 1 MiB value plus the
batch overhead, so it is raised, either for the topic (created with ``max.message.bytes``, as
``kafka-topics --create --config`` does, here through kafka-python's admin client) or for the whole
broker (``message.max.bytes``, the default of topics without their own), and each producer's own
request limit is raised to match. Consumers keep their defaults: the broker returns a batch larger
than the fetch limits whole when it is the first one (KIP-74).
"""

from __future__ import annotations

import pytest

from .brokerproc import BrokerProcess
from .clients.fixtures import ALL_CLIENTS, driver_named, kafkajs_process, module_broker
from .clients.records import unique_topic
from .clients.scenarios import check_large_messages, create_topic

LIMIT = 3 << 20
broker = module_broker()
roomy_broker = module_broker(fixture_name="roomy_broker", **{"message.max.bytes": str(3 << 20)})
kafkajs = kafkajs_process()

PRODUCER_LIMITS: dict[str, dict[str, object]] = {
    "kafka-python": {"max_request_size": LIMIT},
    "aiokafka": {"max_request_size": LIMIT},
    "confluent-kafka": {"message.max.bytes": LIMIT},
    "kafkajs": {},  # kafkajs has no client-side request size limit
    "kcat": {"message.max.bytes": LIMIT},
}


@pytest.mark.parametrize("name", ALL_CLIENTS)
def test_one_mib_messages_under_a_topic_setting(
    broker: BrokerProcess, request: pytest.FixtureRequest, name: str
) -> None:
    driver = driver_named(name, request)
    topic = unique_topic(f"{name}-large")
    create_topic(broker.bootstrap, topic, configs={"max.message.bytes": str(LIMIT)})
    check_large_messages(driver, broker.bootstrap, producer=PRODUCER_LIMITS[name], topic=topic)


@pytest.mark.parametrize("name", ALL_CLIENTS)
def test_one_mib_messages_under_the_broker_default(
    roomy_broker: BrokerProcess, request: pytest.FixtureRequest, name: str
) -> None:
    """The topic is auto-created and takes the broker's message.max.bytes."""
    check_large_messages(driver_named(name, request), roomy_broker.bootstrap, producer=PRODUCER_LIMITS[name])
