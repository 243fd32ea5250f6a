"""librdkafka (confluent-kafka, and kcat where installed) without ApiVersions, as against a Kafka 0.9/0.10 broker: with
``api.version.request=false`` and ``broker.version.fallback`` 0.9.0 it speaks Produce v1/Fetch v1 in message
format v0, at 0.10.0 Produce v2/Fetch v2 in format v1. Every codec, a consumer group, offsets committed and read
back, and the messages byte-exact across the old protocol and kafka-python's current one."""

from __future__ import annotations

import subprocess
import time

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, module_broker
from .clients.kcat_driver import kcat_missing
from .clients.records import unique_topic
from .test_clients_old_versions import MESSAGES, _consume, _expected, _produce

broker = module_broker()
FALLBACKS = ["0.9.0", "0.10.0"]
DEADLINE_S = 30


def _old(fallback: str) -> dict[str, object]:
    return {"api.version.request": False, "broker.version.fallback": fallback}


def _produce_old(bootstrap: str, topic: str, fallback: str, codec: str) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "compression.codec": codec, "linger.ms": 5, **_old(fallback)})
    errors: list[object] = []
    for key, value in MESSAGES:
        producer.produce(topic, value=value, key=key, partition=0, on_delivery=lambda err, _msg: errors.append(err))
    assert producer.flush(DEADLINE_S) == 0
    assert errors == [None] * len(MESSAGES)


def _consume_old(bootstrap: str, topic: str, fallback: str, group: str) -> list[tuple[int, bytes | None, bytes | None]]:
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
         "enable.auto.commit": False, **_old(fallback)}
    )  # fmt: skip
    try:
        consumer.subscribe([topic])
        found: list[tuple[int, bytes | None, bytes | None]] = []
        deadline = time.monotonic() + DEADLINE_S
        while len(found) < len(MESSAGES) and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is None:
                continue
            assert message.error() is None, message.error()
            found.append((message.offset(), message.key(), message.value()))
        consumer.commit(asynchronous=False)
        committed = consumer.committed([TopicPartition(topic, 0)], timeout=10)
        assert committed[0].offset == len(MESSAGES)
        return found
    finally:
        consumer.close()


@pytest.mark.parametrize("codec", ["none", "gzip", "snappy", "lz4"])
@pytest.mark.parametrize("fallback", FALLBACKS)
def test_librdkafka_without_api_versions_round_trips_every_codec_in_a_group(
    broker: BrokerProcess, fallback: str, codec: str
) -> None:
    topic = unique_topic(f"rdk-{fallback}-{codec}")
    _produce_old(broker.bootstrap, topic, fallback, codec)
    assert _consume_old(broker.bootstrap, topic, fallback, unique_topic("rdk-group")) == _expected()


@QUIET_KAFKA_PYTHON
@pytest.mark.parametrize("fallback", FALLBACKS)
def test_librdkafka_old_protocol_and_kafka_python_read_each_others_messages(
    broker: BrokerProcess, fallback: str
) -> None:
    old_to_new, new_to_old = unique_topic("rdk-old-to-new"), unique_topic("rdk-new-to-old")
    _produce_old(broker.bootstrap, old_to_new, fallback, "gzip")
    _produce(broker.bootstrap, new_to_old, None, "zstd")
    assert [(o, k, v) for o, k, v, _ in _consume(broker.bootstrap, old_to_new, None)] == _expected()
    assert _consume_old(broker.bootstrap, new_to_old, fallback, unique_topic("rdk-group")) == _expected()


@pytest.mark.parametrize("fallback", ["0.8.2", *FALLBACKS])
def test_kcat_without_api_versions_produces_and_consumes(broker: BrokerProcess, fallback: str) -> None:
    """kcat (librdkafka 2.0.2) as against a Kafka 0.8.2-0.10 broker, gzip, keys and a null key."""
    if (missing := kcat_missing()) is not None:
        pytest.skip(missing)
    topic = unique_topic("kcat-old")
    old = ["-b", broker.bootstrap, "-t", topic, "-p", "0", "-X", "api.version.request=false",
           "-X", f"broker.version.fallback={fallback}"]  # fmt: skip
    produced = subprocess.run(["kcat", "-P", "-K:", "-z", "gzip", *old], input=b"k1:v1\nk2:v2\n:v3\n",
                              capture_output=True, timeout=DEADLINE_S, check=False)  # fmt: skip
    assert produced.returncode == 0, produced.stderr
    consumed = subprocess.run(["kcat", "-C", "-o", "beginning", "-e", "-f", "%o|%k|%s\n", *old],
                              capture_output=True, timeout=DEADLINE_S, check=False)  # fmt: skip
    assert consumed.returncode == 0, consumed.stderr
    assert consumed.stdout.splitlines() == [b"0|k1|v1", b"1|k2|v2", b"2||v3"]
