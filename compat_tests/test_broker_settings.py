"""Broker settings that supply topic defaults are enforced on topics that do not set their own."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaProducer
from kafka.errors import MessageSizeTooLargeError

from .brokerproc import BrokerProcess


@pytest.fixture(scope="module")
def small_message_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path_factory.mktemp("broker"), settings={"message.max.bytes": "5000"}).start()
    try:
        yield process
    finally:
        process.stop()


def test_message_max_bytes_limits_topics_without_their_own_limit(small_message_broker: BrokerProcess) -> None:
    producer = KafkaProducer(
        bootstrap_servers=small_message_broker.bootstrap, acks=1, enable_idempotence=False, retries=0, linger_ms=0
    )
    try:
        assert producer.send("limited", b"x" * 1000).get(timeout=20).offset == 0
        with pytest.raises(MessageSizeTooLargeError):
            producer.send("limited", b"y" * 20_000).get(timeout=20)
        assert producer.send("limited", b"z" * 1000).get(timeout=20).offset == 1
    finally:
        producer.close()


def test_bad_setting_stops_the_broker_with_one_line(tmp_path: Path) -> None:
    process = BrokerProcess(tmp_path, settings={"num.partitions": "zero"})
    with pytest.raises(RuntimeError) as failed:
        process.start()
    assert "invalid value 'zero' for setting 'num.partitions'" in str(failed.value)
    assert process.process is not None and process.process.returncode == 2
    assert "Traceback" not in process.log_text()


def test_port_in_use_exits_with_one_line(small_message_broker: BrokerProcess, tmp_path: Path) -> None:
    second = BrokerProcess(tmp_path, port=small_message_broker.port)
    finished = subprocess.run(second.command(), capture_output=True, text=True, timeout=60)
    assert finished.returncode == 1
    assert (
        finished.stderr.strip().splitlines()[-1].startswith("rockafka serve: cannot listen on PLAINTEXT://127.0.0.1:")
    )
    assert "Traceback" not in finished.stderr
