"""1 MiB messages through every client, configured as a user would.

Kafka's default limit (``max.message.bytes`` 1048588) is just too small for a 1 MiB value plus the
batch overhead, so each topic is created with ``max.message.bytes`` raised (``kafka-topics --create
--config``, here through kafka-python's admin client), and each producer's own request limit is
raised to match. Consumers keep their defaults: the broker returns a batch larger than the fetch
limits whole when it is the first one (KIP-74).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kafka.admin import KafkaAdminClient, NewTopic

from .brokerproc import BrokerProcess
from .clients.aiokafka_driver import AiokafkaDriver
from .clients.confluent_driver import ConfluentDriver
from .clients.driver import Driver
from .clients.fixtures import module_broker
from .clients.kafka_python_driver import KafkaPythonDriver
from .clients.kafkajs_driver import KafkajsDriver, kafkajs_missing
from .clients.kcat_driver import KcatDriver, kcat_missing
from .clients.records import unique_topic
from .clients.scenarios import check_large_messages

LIMIT = 3 << 20
broker = module_broker()

PRODUCER_LIMITS: dict[str, dict[str, object]] = {
    "kafka-python": {"max_request_size": LIMIT},
    "aiokafka": {"max_request_size": LIMIT},
    "confluent-kafka": {"message.max.bytes": LIMIT},
    "kafkajs": {},  # kafkajs has no client-side request size limit
    "kcat": {"message.max.bytes": LIMIT},
}


@pytest.fixture(scope="module")
def kafkajs() -> Iterator[KafkajsDriver]:
    if (missing := kafkajs_missing()) is not None:
        pytest.skip(missing)
    driver = KafkajsDriver()
    try:
        yield driver
    finally:
        driver.close()


def driver_named(name: str, request: pytest.FixtureRequest) -> Driver:
    if name == "kafkajs":
        return request.getfixturevalue("kafkajs")  # type: ignore[no-any-return]
    if name == "kcat":
        if (missing := kcat_missing()) is not None:
            pytest.skip(missing)
        return KcatDriver()
    return {"kafka-python": KafkaPythonDriver, "aiokafka": AiokafkaDriver, "confluent-kafka": ConfluentDriver}[name]()


def create_topic(bootstrap: str, name: str, configs: dict[str, str]) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(name, num_partitions=1, replication_factor=1, topic_configs=configs)])
    finally:
        admin.close()


@pytest.mark.parametrize("name", list(PRODUCER_LIMITS))
def test_one_mib_messages(broker: BrokerProcess, request: pytest.FixtureRequest, name: str) -> None:
    driver = driver_named(name, request)
    topic = unique_topic(f"{name}-large")
    create_topic(broker.bootstrap, topic, {"max.message.bytes": str(LIMIT)})
    check_large_messages(driver, broker.bootstrap, producer=PRODUCER_LIMITS[name], topic=topic)
