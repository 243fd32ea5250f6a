"""kafka-python 3.0.12 against a live broker: every acks and codec, start positions, its defaults."""

from __future__ import annotations

import time

import pytest
from kafka import KafkaProducer
from kafka.errors import IncompatibleBrokerVersion

from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse

from .brokerproc import BrokerProcess
from .clients.driver import CODECS
from .clients.fixtures import module_broker
from .clients.kafka_python_driver import KafkaPythonDriver
from .clients.records import unique_topic
from .clients.scenarios import check_roundtrip, check_start_positions
from .clients.wire import RawClient

broker = module_broker()
DRIVER = KafkaPythonDriver()
INIT_PRODUCER_ID = 22


@pytest.mark.parametrize("acks", [0, 1, -1])
@pytest.mark.parametrize("codec", CODECS)
def test_produce_and_consume_every_byte(broker: BrokerProcess, codec: str, acks: int) -> None:
    check_roundtrip(DRIVER, broker.bootstrap, acks=acks, codec=codec)  # type: ignore[arg-type]


def test_start_positions(broker: BrokerProcess) -> None:
    check_start_positions(DRIVER, broker.bootstrap)


def test_default_producer_is_idempotent(broker: BrokerProcess) -> None:
    """kafka-python's default producer (acks=all, idempotent) needs InitProducerId: where the broker
    serves it, the defaults just work; where it does not (yet), the send fails at once with
    IncompatibleBrokerVersion instead of hanging."""
    with RawClient(broker.bootstrap) as raw:
        advertised = {entry.api_key for entry in raw.request(ApiVersionsRequest(), 0, ApiVersionsResponse).api_keys}
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    try:
        assert producer.config["acks"] == -1 and producer.config["enable_idempotence"] is True
        started = time.monotonic()
        future = producer.send(unique_topic("kp-default"), b"value")
        if INIT_PRODUCER_ID in advertised:
            assert future.get(timeout=15).offset == 0
        else:
            with pytest.raises(IncompatibleBrokerVersion, match="InitProducerId"):
                future.get(timeout=15)
            assert time.monotonic() - started < 10
    finally:
        producer.close(timeout=5)
