"""``rockafka.protocol.version``: 3.9 (the default) serves every version Kafka 3.9 serves, 4.0 Kafka 4.0's ranges
only; a request at a version not served closes its connection, and the broker logs that once per client id,
API and version however often the client retries."""

from __future__ import annotations

import pytest
from kafka import KafkaProducer
from kafka.errors import KafkaError

from rockafka.facade.handlers.registry import KAFKA_4_0_MINIMUMS
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
from rockafka.facade.protocol.messages.list_offsets import ListOffsetsRequest

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, module_broker
from .clients.records import unique_topic
from .clients.wire import RawClient

broker = module_broker()
kafka_4_0 = module_broker(fixture_name="kafka_4_0", **{"rockafka.protocol.version": "4.0"})
LIST_OFFSETS = 2
RETRIES = 5


def _advertised(bootstrap: str) -> dict[int, tuple[int, int]]:
    with RawClient(bootstrap) as raw:
        answer = raw.request(ApiVersionsRequest(), 0, ApiVersionsResponse)
    return {entry.api_key: (entry.min_version, entry.max_version) for entry in answer.api_keys}


def test_the_default_advertises_kafka_3_9_minimums_and_4_0_raises_them(
    broker: BrokerProcess, kafka_4_0: BrokerProcess
) -> None:
    default, narrow = _advertised(broker.bootstrap), _advertised(kafka_4_0.bootstrap)
    assert default[0] == (0, 11) and default[1] == (0, 17) and default[2][0] == 0
    assert {key: low for key, (low, _) in narrow.items() if low != default[key][0]} == KAFKA_4_0_MINIMUMS
    assert {key: high for key, (_, high) in narrow.items()} == {key: high for key, (_, high) in default.items()}


@QUIET_KAFKA_PYTHON
def test_a_kafka_0_10_producer_cannot_produce_to_a_4_0_broker_and_is_logged_once(kafka_4_0: BrokerProcess) -> None:
    """The issue's case: kafka-python pinned to 0.10 retries its Produce v2 on a new connection each time."""
    producer = KafkaProducer(
        bootstrap_servers=kafka_4_0.bootstrap, api_version=(0, 10, 1), max_block_ms=3000, request_timeout_ms=2000,
        delivery_timeout_ms=3000,
    )  # fmt: skip
    try:
        with pytest.raises(KafkaError):
            producer.send(unique_topic("too-old"), b"value").get(timeout=10)
    finally:
        producer.close(timeout=5)
    client = producer.config["client_id"]
    assert len([line for line in _refusals(kafka_4_0) if f"API 0 v2 is not served (client '{client}')" in line]) == 1


def _refusals(process: BrokerProcess) -> list[str]:
    return [line for line in process.log_path.read_text().splitlines() if "is not served" in line]


def test_an_unserved_version_closes_the_connection_and_is_logged_once_per_client(kafka_4_0: BrokerProcess) -> None:
    request = ListOffsetsRequest(replica_id=-1, topics=[])
    for client_id in ("old-client-a", "old-client-b"):
        for _ in range(RETRIES):
            with RawClient(kafka_4_0.bootstrap, client_id=client_id) as raw:
                raw.send(raw.frame(request, 0)[1])
                assert raw.closed_by_broker()
    with RawClient(kafka_4_0.bootstrap, client_id="old-client-a") as raw:
        assert raw.request(request, 1).topics == []  # v1 is served
    lines = [line for line in _refusals(kafka_4_0) if "'old-client-" in line]
    assert len(lines) == 2, lines
    assert "'old-client-a'" in lines[0] and "'old-client-b'" in lines[1]
    assert all(f"API {LIST_OFFSETS} v0" in line for line in lines)
