"""The pipeline tests' brokers keep the records :func:`kafkadata.produce` writes through a retention pass.

Those records carry fixed timestamps from 2023, older than Kafka's default ``retention.ms`` (7 days): a broker's
retention pass (every ``log.retention.check.interval.ms``, 5 minutes by default) moves the log start of their
partitions to the end, as Kafka deletes them. The session's brokers live longer than that, so a Spark read planned
before a pass fetched offsets after it that the broker answered OFFSET_OUT_OF_RANGE (a CI flake under load, where
the suite is slow and the planning-to-fetch window long). The pass runs here on a ``ManualClock``, without waiting.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from kafka import KafkaConsumer, TopicPartition
from kafka.errors import OffsetOutOfRangeError

from rockafka.testing import Broker, ManualClock

from .kafkadata import BROKER_SETTINGS, consume_all, create_topic, produce

RETENTION_CHECK_S = 1
COUNT = 6


def _after_a_retention_pass(settings: Mapping[str, str], topic: str) -> Broker:
    """A started broker with ``settings`` that holds ``COUNT`` records of ``topic`` and has run retention once."""
    clock = ManualClock()
    broker = Broker(
        settings={**settings, "log.retention.check.interval.ms": str(RETENTION_CHECK_S * 1000)}, clock=clock
    )
    broker.start()
    create_topic(broker.bootstrap, topic, 1)
    produce(broker.bootstrap, topic, COUNT, partitions=1)
    clock.advance(RETENTION_CHECK_S + 1)
    return broker


def _log_start(bootstrap: str, topic: str) -> int:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap)
    try:
        tp = TopicPartition(topic, 0)
        return int(consumer.beginning_offsets([tp])[tp])
    finally:
        consumer.close()


def test_a_broker_with_the_default_retention_drops_the_fixed_timestamp_records_in_one_pass() -> None:
    broker = _after_a_retention_pass({}, "dropped")
    try:
        assert _log_start(broker.bootstrap, "dropped") == COUNT
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, auto_offset_reset="none")
        try:
            tp = TopicPartition("dropped", 0)
            consumer.assign([tp])
            consumer.seek(tp, 0)  # where a read planned before the pass starts
            with pytest.raises(OffsetOutOfRangeError):
                for _ in range(20):  # a few polls: the first may return before the fetch is answered
                    consumer.poll(timeout_ms=500)
        finally:
            consumer.close()
    finally:
        broker.close()


def test_the_pipeline_brokers_keep_every_record_through_a_retention_pass() -> None:
    broker = _after_a_retention_pass(BROKER_SETTINGS, "kept")
    try:
        assert _log_start(broker.bootstrap, "kept") == 0
        assert [row[1] for row in consume_all(broker.bootstrap, "kept")] == list(range(COUNT))
    finally:
        broker.close()
