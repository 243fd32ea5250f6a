"""Record timestamps on produce, as Kafka's LogValidator checks them (KIP-937, Kafka 4.0's defaults).

On a CreateTime topic every record's timestamp must lie within ``message.timestamp.before.max.ms`` before
and ``message.timestamp.after.max.ms`` after the broker's clock (defaults: unbounded, one hour); a batch
the producer marked LogAppendTime is refused. Refusals are INVALID_TIMESTAMP (32) for the partition, each
offending record named in the record errors (v8+), and nothing of the batch is stored.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator

import pytest
from confluent_kafka import KafkaError, Producer
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

from rockafka.facade.protocol.messages.produce import ProduceResponse

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import Rec, unique_topic
from .clients.scenarios import create_topic
from .clients.wire import RawClient, record_batch, restamp_crc
from .test_bad_input import fetch, produce_request

broker = module_broker()

NONE, INVALID_TIMESTAMP = 0, 32
HOUR_MS = 3_600_000
LOG_APPEND_TIME_BIT = 0x08


def now_ms() -> int:
    return int(time.time() * 1000)


@pytest.fixture
def raw(broker: BrokerProcess) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as client:
        yield client


def topic_with(broker: BrokerProcess, **configs: str) -> str:
    name = unique_topic("timestamps")
    create_topic(broker.bootstrap, name, 1, {key.replace("_", "."): value for key, value in configs.items()})
    return name


def answer(raw: RawClient, topic: str, records: list[Rec], version: int = 9):  # type: ignore[no-untyped-def]
    """The partition's answer to a Produce of ``records`` as one batch."""
    response = raw.request(produce_request(topic, record_batch(records)), version, ProduceResponse)
    return response.responses[0].partition_responses[0]


def stamped(*timestamps: int) -> list[Rec]:
    return [Rec(f"k{i}".encode(), f"v{i}".encode(), (), stamp) for i, stamp in enumerate(timestamps)]


def test_defaults_refuse_more_than_an_hour_ahead_and_accept_any_past(broker: BrokerProcess, raw: RawClient) -> None:
    topic = topic_with(broker)
    ahead = answer(raw, topic, stamped(now_ms() + 2 * HOUR_MS))
    assert ahead.error_code == INVALID_TIMESTAMP
    assert [e.batch_index for e in ahead.record_errors] == [0]
    assert "out of range" in ahead.record_errors[0].batch_index_error_message
    assert ahead.error_message == "One or more records have been rejected due to invalid timestamp"
    assert fetch(raw, topic, 0).high_watermark == 0, "nothing of a refused batch is stored"
    assert answer(raw, topic, stamped(now_ms() + HOUR_MS // 2, 978_307_200_000)).error_code == NONE  # 2001 is fine
    assert fetch(raw, topic, 0).high_watermark == 2


def test_each_offending_record_is_named(broker: BrokerProcess, raw: RawClient) -> None:
    topic = topic_with(broker, message_timestamp_before_max_ms=str(HOUR_MS))
    now = now_ms()
    refused = answer(raw, topic, stamped(now, now - 2 * HOUR_MS, now + 10_000, now + 3 * HOUR_MS))
    assert refused.error_code == INVALID_TIMESTAMP
    assert [e.batch_index for e in refused.record_errors] == [1, 3]
    message = refused.record_errors[0].batch_index_error_message
    assert f"Timestamp {now - 2 * HOUR_MS} of message with offset 1" in message
    assert fetch(raw, topic, 0).high_watermark == 0


def test_records_without_a_timestamp_are_not_checked(broker: BrokerProcess, raw: RawClient) -> None:
    topic = topic_with(broker, message_timestamp_before_max_ms="0")
    assert answer(raw, topic, stamped(-1)).error_code == NONE


@pytest.mark.parametrize("version", [3, 7])
def test_older_versions_get_the_code_alone(broker: BrokerProcess, raw: RawClient, version: int) -> None:
    topic = topic_with(broker)
    refused = answer(raw, topic, stamped(now_ms() + 2 * HOUR_MS), version=version)
    assert (refused.error_code, refused.record_errors) == (INVALID_TIMESTAMP, [])


def test_log_append_time_topics_take_any_timestamp(broker: BrokerProcess, raw: RawClient) -> None:
    topic = topic_with(broker, message_timestamp_type="LogAppendTime", message_timestamp_before_max_ms="0")
    part = answer(raw, topic, stamped(now_ms() + 5 * HOUR_MS, 1))
    assert part.error_code == NONE
    assert abs(part.log_append_time_ms - now_ms()) < 60_000


def test_a_batch_marked_log_append_time_by_its_producer_is_refused(broker: BrokerProcess, raw: RawClient) -> None:
    topic = topic_with(broker)
    batch = bytearray(record_batch(stamped(now_ms(), now_ms())))
    (attributes,) = struct.unpack_from(">h", batch, 21)
    struct.pack_into(">h", batch, 21, attributes | LOG_APPEND_TIME_BIT)
    response = raw.request(produce_request(topic, restamp_crc(bytes(batch))), 9, ProduceResponse)
    refused = response.responses[0].partition_responses[0]
    assert refused.error_code == INVALID_TIMESTAMP
    assert [e.batch_index for e in refused.record_errors] == [0, 1]
    assert fetch(raw, topic, 0).high_watermark == 0


def test_altering_the_bound_applies_to_the_next_produce(broker: BrokerProcess, raw: RawClient) -> None:
    topic = topic_with(broker)
    future = stamped(now_ms() + 5 * HOUR_MS)
    assert answer(raw, topic, future).error_code == INVALID_TIMESTAMP
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        unbounded = {"message.timestamp.after.max.ms": str((1 << 63) - 1)}
        admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs=unbounded)])
    finally:
        admin.close()
    assert answer(raw, topic, future).error_code == NONE


def test_a_real_producer_sees_invalid_timestamp(broker: BrokerProcess) -> None:
    topic = topic_with(broker)
    errors: list[KafkaError] = []
    producer = Producer({"bootstrap.servers": broker.bootstrap, "retries": 0})
    producer.produce(topic, b"late", timestamp=now_ms() + 3 * HOUR_MS, on_delivery=lambda e, m: errors.append(e))
    assert producer.flush(30) == 0
    producer.produce(topic, b"now", on_delivery=lambda e, m: errors.append(e))  # its own batch
    assert producer.flush(30) == 0
    assert [e.code() if e is not None else None for e in errors] == [KafkaError.INVALID_TIMESTAMP, None]
