"""Many partitions through every client: a 1,000-partition topic in each client's metadata, one record
produced to every partition in one go (kcat: to a few, one call per partition), and read back."""

from __future__ import annotations

from dataclasses import replace

import pytest

from .brokerproc import BrokerProcess
from .clients.driver import EARLIEST
from .clients.fixtures import ALL_CLIENTS, driver_named, kafkajs_process, module_broker
from .clients.records import assert_records, unique_topic
from .clients.scenarios import create_topic, now_ms, records_for

PARTITIONS = 1000
broker = module_broker()
kafkajs = kafkajs_process()


@pytest.mark.parametrize("name", ALL_CLIENTS)
def test_thousand_partitions(broker: BrokerProcess, request: pytest.FixtureRequest, name: str) -> None:
    driver = driver_named(name, request)
    topic = unique_topic(f"{name}-partitions")
    create_topic(broker.bootstrap, topic, PARTITIONS)
    assert driver.partition_count(broker.bootstrap, topic) == PARTITIONS

    targets = [0, 1, 499, 998, 999] if driver.printable_only else list(range(PARTITIONS))
    template = records_for(driver, len(targets), seed=5, base_timestamp=now_ms())
    records = [replace(r, partition=p) for r, p in zip(template, targets, strict=True)]
    before = now_ms()
    if driver.printable_only:  # kcat sends to one partition per call
        offsets = [driver.produce(broker.bootstrap, topic, [r], acks=1)[0] for r in records]
    else:
        offsets = driver.produce(broker.bootstrap, topic, records, acks=1)
    after = now_ms()
    assert offsets == [0] * len(targets)
    for index in (0, len(targets) // 2, len(targets) - 1):
        got = driver.consume(broker.bootstrap, topic, targets[index], EARLIEST, 1)
        assert_records([records[index]], got, first_offset=0, stamped_between=(before, after))
