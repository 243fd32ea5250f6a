"""The clients' own ApiVersions fallback: their first ApiVersions request reaches the broker as a
version it does not speak (a proxy rewrites it), the broker answers UNSUPPORTED_VERSION with the v0
body naming its ApiVersions range, and the client retries on the same connection and works.

aiokafka is not here: it always sends ApiVersions v0, which is never too new, and it does not look
at the error code (it has no fallback to exercise).
"""

from __future__ import annotations

import pytest

from .brokerproc import BrokerProcess
from .clients.driver import EARLIEST
from .clients.fixtures import driver_named, kafkajs_process, module_broker
from .clients.proxy import TOO_NEW, ApiVersionsBumpProxy
from .clients.records import assert_records, unique_topic
from .clients.scenarios import now_ms, records_for

broker = module_broker()
kafkajs = kafkajs_process()

#: What each client sends first, and what it retries with after UNSUPPORTED_VERSION (the broker names
#: ApiVersions 0-4 in the v0 error body): kafka-python takes the broker's maximum, librdkafka (reading
#: the error body at the flexible version it asked for, where it finds no list) goes to v0, and
#: kafkajs steps down one version.
FALLBACKS = {
    "kafka-python": (4, 4),
    "confluent-kafka": (3, 0),
    "kafkajs": (2, 1),
    "kcat": (3, 0),
}


@pytest.mark.parametrize("name", list(FALLBACKS))
def test_client_falls_back_from_a_too_new_api_versions(
    broker: BrokerProcess, request: pytest.FixtureRequest, name: str
) -> None:
    driver = driver_named(name, request)
    with ApiVersionsBumpProxy(broker.bootstrap) as proxy:
        topic = unique_topic(f"{name}-fallback")
        records = records_for(driver, 3, seed=11, base_timestamp=now_ms())
        before = now_ms()
        assert driver.produce(proxy.bootstrap, topic, records, acks=1) == [0, 1, 2]
        got = driver.consume(proxy.bootstrap, topic, 0, EARLIEST, 3)
        assert_records(records, got, first_offset=0, stamped_between=(before, now_ms()))
        first_sent, retried = FALLBACKS[name]
        assert proxy.seen, "the client never connected through the proxy"
        assert proxy.seen[0][:2] == [(first_sent, TOO_NEW), (retried, retried)], proxy.seen
