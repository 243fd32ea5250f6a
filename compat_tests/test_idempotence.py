"""Idempotent producers against a live broker: retries after lost responses and after kill -9 write each
record once, in order; a duplicate is answered with its original offset on the wire; InitProducerId rules.

Clients: kafka-python with its DEFAULT producer (idempotent, acks=all), confluent-kafka with
enable.idempotence=true, aiokafka with enable_idempotence=True and kafkajs with idempotent:true. Lost
responses come from ``ProduceResponseDropper`` (the broker advertises the proxy, so every connection goes
through it); crashes from SIGKILL of the broker process, restarted on the same port and data directory.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest
from rockafka.facade.protocol.messages.init_producer_id import InitProducerIdRequest, InitProducerIdResponse
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.produce import PartitionProduceData, ProduceRequest, TopicProduceData

from .brokerproc import BrokerProcess
from .clients.aiokafka_driver import AiokafkaDriver
from .clients.confluent_driver import ConfluentDriver
from .clients.driver import EARLIEST
from .clients.dropproxy import ProduceResponseDropper
from .clients.fixtures import SMALL_STORE, kafkajs_process
from .clients.kafka_python_driver import KafkaPythonDriver
from .clients.kafkajs_driver import KafkajsDriver
from .clients.records import Rec, unique_topic
from .clients.wire import RawClient

kafkajs = kafkajs_process()
COUNT = 400


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[BrokerProcess, ProduceResponseDropper]]:
    """A broker that advertises a response-dropping proxy in front of it."""
    broker = BrokerProcess(tmp_path / "broker", dict(SMALL_STORE))
    with ProduceResponseDropper(broker.bootstrap, every=4, max_drops=3) as proxy:
        broker.settings["advertised.listeners"] = f"PLAINTEXT://{proxy.bootstrap}"
        broker.start()
        try:
            yield broker, proxy
        finally:
            broker.kill()


def values(count: int, prefix: str = "m") -> list[bytes]:
    return [f"{prefix}-{i:05d}".encode() for i in range(count)]


def check_exactly_once(bootstrap: str, topic: str, sent: list[bytes]) -> None:
    """The partition holds ``sent``, each once, in order, and nothing else."""
    got = KafkaPythonDriver().consume(bootstrap, topic, 0, EARLIEST, len(sent))
    assert [r.value for r in got] == sent
    assert [r.offset for r in got] == list(range(len(sent)))
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    try:
        assert consumer.end_offsets([TopicPartition(topic, 0)])[TopicPartition(topic, 0)] == len(sent)
    finally:
        consumer.close()


def kafka_python_send(bootstrap: str, topic: str, sent: list[bytes], pause_every: int = 0) -> list[int]:
    """kafka-python's DEFAULT producer (idempotent, acks=all), small batches so there are many requests."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, batch_size=512, linger_ms=2)
    assert producer.config["enable_idempotence"] is True
    try:
        futures = []
        for index, value in enumerate(sent):
            futures.append(producer.send(topic, value, partition=0))
            if pause_every and index % pause_every == pause_every - 1:
                time.sleep(0.05)
        producer.flush(60)
        return [future.get(30).offset for future in futures]
    finally:
        producer.close(10)


def test_kafka_python_defaults_write_once_despite_lost_responses(
    proxied: tuple[BrokerProcess, ProduceResponseDropper],
) -> None:
    _, proxy = proxied
    topic, sent = unique_topic("idem-kp-drops"), values(COUNT)
    offsets = kafka_python_send(proxy.bootstrap, topic, sent)
    assert proxy.drops == 3
    assert offsets == list(range(COUNT))
    check_exactly_once(proxy.bootstrap, topic, sent)


def test_kafka_python_defaults_write_once_across_kill_9(fresh_broker: BrokerProcess) -> None:
    topic, sent = unique_topic("idem-kp-kill"), values(COUNT)
    offsets: list[int] = []
    sender = threading.Thread(target=lambda: offsets.extend(kafka_python_send(fresh_broker.bootstrap, topic, sent, 20)))
    sender.start()
    time.sleep(0.4)
    assert sender.is_alive(), "the producer finished before the crash"
    fresh_broker.restart(crash=True)
    sender.join(90)
    assert not sender.is_alive()
    assert offsets == list(range(COUNT))
    check_exactly_once(fresh_broker.bootstrap, topic, sent)


def test_confluent_kafka_idempotent_through_lost_responses(
    proxied: tuple[BrokerProcess, ProduceResponseDropper],
) -> None:
    _, proxy = proxied
    topic, sent = unique_topic("idem-confluent"), values(COUNT)
    settings = {"enable.idempotence": True, "batch.size": 512, "linger.ms": 2}
    offsets = ConfluentDriver().produce(
        proxy.bootstrap, topic, [Rec(None, v) for v in sent], acks=-1, settings=settings
    )
    assert proxy.drops >= 1
    assert offsets == list(range(COUNT))
    check_exactly_once(proxy.bootstrap, topic, sent)


def test_aiokafka_idempotent_through_lost_responses(proxied: tuple[BrokerProcess, ProduceResponseDropper]) -> None:
    _, proxy = proxied
    topic, sent = unique_topic("idem-aiokafka"), values(COUNT)
    settings = {"enable_idempotence": True, "max_batch_size": 512}
    offsets = AiokafkaDriver().produce(proxy.bootstrap, topic, [Rec(None, v) for v in sent], acks=-1, settings=settings)
    assert proxy.drops >= 1
    assert offsets == list(range(COUNT))
    check_exactly_once(proxy.bootstrap, topic, sent)


def test_kafkajs_idempotent(fresh_broker: BrokerProcess, kafkajs: KafkajsDriver) -> None:
    topic, sent = unique_topic("idem-kafkajs"), values(50)
    for start in range(0, 50, 10):
        messages = [{"key": None, "value": _b64(v), "headers": [], "partition": 0} for v in sent[start : start + 10]]
        result = kafkajs.call(
            "produce", bootstrap=fresh_broker.bootstrap, topic=topic, acks=-1, messages=messages,
            producer={"idempotent": True, "maxInFlightRequests": 1},
        )  # fmt: skip
        assert result["offsets"] == list(range(start, start + 10))
    check_exactly_once(fresh_broker.bootstrap, topic, sent)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# --- the wire, with our own codec ---


def init_producer_id(client: RawClient, version: int, **fields: object) -> InitProducerIdResponse:
    return client.request(InitProducerIdRequest(**fields), version)  # type: ignore[arg-type]


def produce(client: RawClient, topic: str, batch: bytes) -> tuple[int, int]:
    request = ProduceRequest(
        acks=-1, timeout_ms=5000,
        topic_data=[TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])],
    )  # fmt: skip
    (partition,) = client.request(request, 9).responses[0].partition_responses
    return partition.error_code, partition.base_offset


def create_topic(client: RawClient, name: str) -> None:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=True)
    for _ in range(20):
        if client.request(request, 12, MetadataResponse).topics[0].error_code == ErrorCode.NONE:
            return
    raise AssertionError(f"topic {name} was not created")


def idempotent_batch(producer_id: int, epoch: int, first_sequence: int, count: int) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=0, producer_id=producer_id, producer_epoch=epoch,
        base_sequence=first_sequence, batch_size=1 << 20,
    )  # fmt: skip
    for delta in range(count):
        builder.append(delta, timestamp=int(time.time() * 1000), key=None, value=b"w%d" % delta, headers=[])
    return bytes(builder.build())


def test_wire_duplicate_answered_with_original_offset_before_and_after_kill_9(fresh_broker: BrokerProcess) -> None:
    topic = unique_topic("idem-wire")
    with RawClient(fresh_broker.bootstrap) as client:
        versions = client.request(ApiVersionsRequest(), 3).api_keys
        assert [(k.min_version, k.max_version) for k in versions if k.api_key == 22] == [(0, 5)]
        answer = init_producer_id(client, 4, transactional_id=None, transaction_timeout_ms=0)
        assert (answer.error_code, answer.producer_epoch) == (ErrorCode.NONE, 0)
        pid = answer.producer_id
        create_topic(client, topic)
        assert produce(client, topic, idempotent_batch(-1, -1, -1, 1)) == (ErrorCode.NONE, 0)  # never checked
        assert produce(client, topic, idempotent_batch(pid, 0, 0, 3)) == (ErrorCode.NONE, 1)
        assert produce(client, topic, idempotent_batch(pid, 0, 3, 2)) == (ErrorCode.NONE, 4)
        assert produce(client, topic, idempotent_batch(pid, 0, 0, 3)) == (ErrorCode.NONE, 1)
        assert produce(client, topic, idempotent_batch(pid, 0, 9, 1))[0] == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    fresh_broker.restart(crash=True)
    with RawClient(fresh_broker.bootstrap) as client:
        assert produce(client, topic, idempotent_batch(pid, 0, 3, 2)) == (ErrorCode.NONE, 4)
        assert produce(client, topic, idempotent_batch(pid, 0, 5, 1)) == (ErrorCode.NONE, 6)
        assert produce(client, topic, idempotent_batch(pid, 1, 0, 1)) == (ErrorCode.NONE, 7)
        assert produce(client, topic, idempotent_batch(pid, 0, 6, 1))[0] == ErrorCode.INVALID_PRODUCER_EPOCH
        again = init_producer_id(client, 0, transactional_id=None, transaction_timeout_ms=0)
        assert again.producer_id > pid


@pytest.mark.parametrize(("version", "fenced"), [(3, ErrorCode.INVALID_PRODUCER_EPOCH), (5, ErrorCode.PRODUCER_FENCED)])
def test_wire_transactional_ids_bump_and_fence_across_restart(
    fresh_broker: BrokerProcess, version: int, fenced: ErrorCode
) -> None:
    with RawClient(fresh_broker.bootstrap) as client:
        first = init_producer_id(client, version, transactional_id="tx", transaction_timeout_ms=60_000)
        second = init_producer_id(client, version, transactional_id="tx", transaction_timeout_ms=60_000)
        assert (second.producer_id, second.producer_epoch) == (first.producer_id, first.producer_epoch + 1)
        too_long = init_producer_id(client, version, transactional_id="tx", transaction_timeout_ms=900_001)
        assert too_long.error_code == ErrorCode.INVALID_TRANSACTION_TIMEOUT
    fresh_broker.restart(crash=True)
    with RawClient(fresh_broker.bootstrap) as client:
        stale = init_producer_id(client, version, transactional_id="tx", transaction_timeout_ms=60_000,
                                 producer_id=first.producer_id, producer_epoch=first.producer_epoch)  # fmt: skip
        assert stale.error_code == fenced
        bumped = init_producer_id(client, version, transactional_id="tx", transaction_timeout_ms=60_000,
                                  producer_id=second.producer_id, producer_epoch=second.producer_epoch)  # fmt: skip
        assert (bumped.error_code, bumped.producer_id, bumped.producer_epoch) == (
            ErrorCode.NONE, first.producer_id, second.producer_epoch + 1,
        )  # fmt: skip
