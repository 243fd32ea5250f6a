"""kafkajs 2.2.4 (Node) against a live broker: every acks and codec it has, start positions, defaults.

kafkajs compresses with gzip by itself (snappy, lz4 and zstd need codec plug-ins, not installed here).
"""

from __future__ import annotations

import pytest

from .brokerproc import BrokerProcess
from .clients.fixtures import kafkajs_process, module_broker
from .clients.kafkajs_driver import KafkajsDriver, kafkajs_missing
from .clients.records import sample_records, unique_topic
from .clients.scenarios import check_roundtrip, check_start_positions

if (_missing := kafkajs_missing()) is not None:
    pytest.skip(_missing, allow_module_level=True)

broker = module_broker()
kafkajs = kafkajs_process()


@pytest.mark.parametrize("acks", [0, 1, -1])
@pytest.mark.parametrize("codec", KafkajsDriver.codecs)
def test_produce_and_consume_every_byte(broker: BrokerProcess, kafkajs: KafkajsDriver, codec: str, acks: int) -> None:
    check_roundtrip(kafkajs, broker.bootstrap, acks=acks, codec=codec)  # type: ignore[arg-type]


def test_start_positions(broker: BrokerProcess, kafkajs: KafkajsDriver) -> None:
    check_start_positions(kafkajs, broker.bootstrap)


def test_read_uncommitted_sees_the_same_records(broker: BrokerProcess, kafkajs: KafkajsDriver) -> None:
    """The consumer default (read_committed) is what the other tests use; read_uncommitted reads alike."""
    topic = unique_topic("kafkajs-uncommitted")
    records = sample_records(4, seed=7, base_timestamp=1_700_000_000_000)
    assert kafkajs.produce(broker.bootstrap, topic, records, acks=-1) == [0, 1, 2, 3]
    got = kafkajs.call(
        "fetch", bootstrap=broker.bootstrap, topic=topic, partition=0, offset=0, count=4, isolationLevel=0
    )
    assert [r["offset"] for r in got["records"]] == [0, 1, 2, 3]


def test_metadata_reports_auto_created_topic(broker: BrokerProcess, kafkajs: KafkajsDriver) -> None:
    topic = unique_topic("kafkajs-metadata")
    kafkajs.produce(broker.bootstrap, topic, sample_records(1, seed=3), acks=1)
    assert kafkajs.call("metadata", bootstrap=broker.bootstrap, topics=[topic]) == {
        "topics": [{"name": topic, "partitions": 1}]
    }
