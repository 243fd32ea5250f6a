"""rockafka.testing.Broker and the kafka_broker fixture, driven by real clients, in-process and as a subprocess."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from confluent_kafka import Consumer, Producer, TopicPartition
from kafka import KafkaConsumer, KafkaProducer
from kafka import TopicPartition as KafkaTopicPartition

from rockafka.testing import TEST_SETTINGS, Broker, BrokerError, ManualClock

pytest_plugins = ["pytester"]

TIMEOUT_S = 20.0


def accepts_connections(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def kafka_python_roundtrip(bootstrap: str, topic: str, values: list[bytes], *, expect_first: int = 0) -> list[bytes]:
    """Produce ``values`` with kafka-python (acks=1), then read the whole partition back."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=1, linger_ms=5)
    try:
        offsets = [producer.send(topic, value).get(timeout=TIMEOUT_S).offset for value in values]
    finally:
        producer.close(timeout=5)
    assert offsets == list(range(expect_first, expect_first + len(values)))
    return kafka_python_read(bootstrap, topic, expect_first + len(values))


def kafka_python_read(bootstrap: str, topic: str, count: int) -> list[bytes]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100)
    try:
        tp = KafkaTopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        got: list[bytes] = []
        deadline = time.monotonic() + TIMEOUT_S
        while len(got) < count and time.monotonic() < deadline:
            got += [m.value for m in consumer.poll(timeout_ms=200).get(tp, [])]
        return got
    finally:
        consumer.close()


def confluent_produce(bootstrap: str, topic: str, values: list[bytes]) -> list[int]:
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    offsets: list[int] = []
    for value in values:
        producer.produce(topic, value, on_delivery=lambda err, msg: offsets.append(-1 if err else msg.offset()))
    assert producer.flush(TIMEOUT_S) == 0
    return offsets


def confluent_read(bootstrap: str, topic: str, count: int) -> list[bytes]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "testing", "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition(topic, 0, 0)])
        got: list[bytes] = []
        deadline = time.monotonic() + TIMEOUT_S
        while len(got) < count and time.monotonic() < deadline:
            got += [m.value() for m in consumer.consume(count, 0.2) if m.error() is None]
        return got
    finally:
        consumer.close()


# --- in-process ---


def test_in_process_broker_serves_kafka_python_and_cleans_up() -> None:
    with Broker() as broker:
        assert broker.running and accepts_connections(broker.port)
        data_dir = broker.data_dir
        values = [b"one", b"two", b"three"]
        assert kafka_python_roundtrip(broker.bootstrap, "in-process", values) == values
        assert (data_dir / "meta.properties").exists()
    assert not broker.running
    assert not accepts_connections(broker.port)
    assert not data_dir.exists(), "a temporary data directory is removed on close"


def test_async_context_manager_with_aiokafka() -> None:
    async def scenario() -> list[bytes]:
        async with Broker() as broker:
            producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap)
            await producer.start()
            try:
                for index in range(3):
                    await producer.send_and_wait("async-topic", f"value-{index}".encode())
            finally:
                await producer.stop()
            consumer = AIOKafkaConsumer("async-topic", bootstrap_servers=broker.bootstrap, auto_offset_reset="earliest")
            await consumer.start()
            try:
                return [(await asyncio.wait_for(consumer.getone(), TIMEOUT_S)).value for _ in range(3)]
            finally:
                await consumer.stop()

    assert asyncio.run(scenario()) == [b"value-0", b"value-1", b"value-2"]


def test_restart_keeps_the_port_and_the_data(tmp_path: Path) -> None:
    broker = Broker(data_dir=tmp_path / "data")
    with broker:
        port = broker.port
        assert kafka_python_roundtrip(broker.bootstrap, "kept", [b"a", b"b"]) == [b"a", b"b"]
        broker.restart()
        assert broker.port == port and broker.running
        assert kafka_python_roundtrip(broker.bootstrap, "kept", [b"c"], expect_first=2) == [b"a", b"b", b"c"]
    assert (tmp_path / "data" / "meta.properties").exists(), "a given data directory is kept"


def test_settings_override_the_broker_defaults() -> None:
    with Broker(settings={"num.partitions": "3", "auto.create.topics.enable": "true"}) as broker:
        assert broker.settings["num.partitions"] == "3"
        assert broker.settings["group.initial.rebalance.delay.ms"] == TEST_SETTINGS["group.initial.rebalance.delay.ms"]
        assert confluent_produce(broker.bootstrap, "three-partitions", [b"x"]) == [0]
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
        try:
            assert consumer.partitions_for_topic("three-partitions") == {0, 1, 2}
        finally:
            consumer.close()


def test_two_brokers_at_once_on_different_ports() -> None:
    with Broker() as first, Broker() as second:
        assert first.port != second.port
        assert confluent_produce(first.bootstrap, "t", [b"1"]) == [0]
        assert confluent_produce(second.bootstrap, "t", [b"1", b"2"]) == [0, 1]


def test_misuse_is_refused_clearly() -> None:
    with pytest.raises(BrokerError, match="data_dir"):
        Broker(settings={"log.dirs": "/tmp/elsewhere"})
    with pytest.raises(BrokerError, match="no port until it is started"):
        _ = Broker().bootstrap
    with Broker() as broker:
        with pytest.raises(BrokerError, match="subprocess=True"):
            broker.kill()
        with pytest.raises(BrokerError, match="already running"):
            broker.start()
    with pytest.raises(BrokerError, match=r"num\.partitions"), Broker(settings={"num.partitions": "zero"}):
        pass


# --- subprocess ---


def test_subprocess_broker_survives_kill_and_restarts(tmp_path: Path) -> None:
    """SIGKILL (a crash) and a start on the same data directory: every acknowledged record is back."""
    with Broker(subprocess=True, data_dir=tmp_path / "data") as broker:
        values = [f"v{index}".encode() for index in range(20)]
        assert confluent_produce(broker.bootstrap, "crash", values) == list(range(20))
        broker.kill()
        assert not broker.running and not accepts_connections(broker.port)
        broker.start()
        assert confluent_read(broker.bootstrap, "crash", 20) == values
        broker.stop()
        assert "Rockafka broker stopped" in broker.log_path.read_text()


# --- the pytest plugin ---


def test_kafka_broker_fixture(kafka_broker: Broker, tmp_path: Path) -> None:
    assert not kafka_broker.subprocess and kafka_broker.data_dir == tmp_path / "rockafka-data"
    assert kafka_python_roundtrip(kafka_broker.bootstrap, "fixture", [b"hello"]) == [b"hello"]


@pytest.mark.kafka_broker(subprocess=True, settings={"num.partitions": "2"})
def test_kafka_broker_fixture_as_configured_by_the_marker(kafka_broker: Broker) -> None:
    assert kafka_broker.subprocess and kafka_broker.running
    assert confluent_produce(kafka_broker.bootstrap, "marked", [b"m"]) == [0]
    consumer = KafkaConsumer(bootstrap_servers=kafka_broker.bootstrap)
    try:
        assert consumer.partitions_for_topic("marked") == {0, 1}
    finally:
        consumer.close()


@pytest.mark.kafka_broker(clock=ManualClock())
def test_the_fixture_runs_on_the_markers_clock(kafka_broker: Broker) -> None:
    assert isinstance(kafka_broker.clock, ManualClock)
    before = kafka_broker.clock.now_ms()
    kafka_broker.clock.advance(3600)
    assert kafka_broker.clock.now_ms() == before + 3_600_000


def test_a_subprocess_broker_refuses_a_clock() -> None:
    with pytest.raises(BrokerError, match="runs on real time"):
        Broker(subprocess=True, clock=ManualClock())


SHARED_BROKER_TESTS = """
seen = []


def test_one(kafka_broker, kafka_topic):
    seen.append((kafka_broker.bootstrap, kafka_topic()))


def test_two(kafka_broker, kafka_topic):
    seen.append((kafka_broker.bootstrap, kafka_topic()))


def test_both_ran_on_one_broker_with_topics_of_their_own():
    assert len(seen) == 2 and seen[0][0] == seen[1][0] and seen[0][1] != seen[1][1]
"""


def test_the_broker_fixture_is_shared_by_the_session_when_the_ini_says_so(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nrockafka_broker_scope = session\n")
    pytester.makepyfile(test_shared=SHARED_BROKER_TESTS)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=3)


def test_a_scope_the_plugin_does_not_know_is_one_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nrockafka_broker_scope = forever\n")
    pytester.makepyfile(test_shared=SHARED_BROKER_TESTS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*rockafka_broker_scope = 'forever': expected one of function, module, session*"])
