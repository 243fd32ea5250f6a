"""Committed offsets and group metadata survive a broker restart, clean or kill -9, and members carry on."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer
from confluent_kafka import TopicPartition as ConfluentPartition
from kafka import KafkaConsumer, KafkaProducer, OffsetAndMetadata, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

from .brokerproc import BrokerProcess
from .groupscenario import GROUP_BROKER_SETTINGS, Scenario, Worker, broker_assignments, python_worker


@pytest.fixture
def restartable(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[BrokerProcess]:
    settings = {**GROUP_BROKER_SETTINGS, **getattr(request, "param", {})}
    process = BrokerProcess(tmp_path / "broker", settings=settings).start()
    try:
        yield process
    finally:
        process.kill()


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(name, partitions, 1)])
    finally:
        admin.close()


def kafka_python_offsets(bootstrap: str, group: str, topic: str) -> dict[int, tuple[int, str]]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        offsets = admin.list_group_offsets(group)[group]
    finally:
        admin.close()
    return {tp.partition: (meta.offset, meta.metadata) for tp, meta in offsets.items() if tp.topic == topic}


@pytest.mark.parametrize(
    ("restartable", "crash"),
    [({}, False), ({}, True), ({"rockafka.flush.mode": "sync"}, True)],
    indirect=["restartable"],
    ids=["clean-restart", "kill-9", "kill-9-sync-flush"],
)
def test_committed_offsets_and_metadata_survive_a_restart(restartable: BrokerProcess, crash: bool) -> None:
    bootstrap, topic = restartable.bootstrap, f"durable-{uuid.uuid4().hex[:6]}"
    create_topic(bootstrap, topic, 3)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id="kp-group", enable_auto_commit=False)
    commits = {TopicPartition(topic, p): OffsetAndMetadata(10 * p + 7, f"kafka-python ✓ {p}", -1) for p in range(3)}
    consumer.commit(commits)
    consumer.close()
    librdkafka = Consumer({"bootstrap.servers": bootstrap, "group.id": "rdkafka-group", "enable.auto.commit": False})
    librdkafka.commit(
        offsets=[ConfluentPartition(topic, p, 100 + p, metadata=f"librdkafka {p}") for p in range(3)],
        asynchronous=False,
    )
    librdkafka.close()
    expected = {p: (10 * p + 7, f"kafka-python ✓ {p}") for p in range(3)}
    assert kafka_python_offsets(bootstrap, "kp-group", topic) == expected

    restartable.restart(crash=crash)

    assert kafka_python_offsets(bootstrap, "kp-group", topic) == expected
    reader = Consumer({"bootstrap.servers": bootstrap, "group.id": "rdkafka-group"})
    committed = reader.committed([ConfluentPartition(topic, p) for p in range(3)], timeout=20)
    reader.close()
    assert [(tp.partition, tp.offset, tp.metadata) for tp in committed] == [
        (p, 100 + p, f"librdkafka {p}") for p in range(3)
    ]


def assert_consumes(
    bootstrap: str, topic: str, member: Worker, value: bytes, broker: BrokerProcess | None = None
) -> None:
    """Produce one record to each of the 12 partitions and wait (bounded) until the member has read them all."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=False)
    sent = [producer.send(topic, value, partition=p).get(20) for p in range(12)]
    producer.close()
    wanted = {(m.partition, m.offset) for m in sent}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not wanted <= member.consumed():
        time.sleep(0.2)
    broker_log = broker.log_text() if broker is not None else "(not restarted)"
    assert wanted <= member.consumed(), (
        f"the member stopped consuming; broker log:\n{broker_log}\nthe member's log:\n{member.log_tail()}"
    )


@pytest.mark.parametrize("crash", [False, True], ids=["clean-restart", "kill-9"])
def test_a_stable_group_survives_a_restart_and_its_member_carries_on(
    restartable: BrokerProcess, tmp_path: Path, crash: bool
) -> None:
    admin = KafkaAdminClient(bootstrap_servers=restartable.bootstrap)
    settings = {"session_timeout_ms": 30_000, "heartbeat_interval_ms": 500, "assignor": "range"}
    scenario = Scenario(restartable.bootstrap, python_worker("kafka-python", tmp_path), settings, admin)
    scenario.create_topic()
    try:
        member = scenario.start_worker("member")
        scenario.wait_stable([member])
        # The member is consuming (positions known, committed offsets read) before the broker goes down.
        assert_consumes(restartable.bootstrap, scenario.topic, member, b"before restart")
        before = broker_assignments(admin, scenario.group)
        assignments_seen = member.assignment_events()
        admin.close()

        restartable.restart(crash=crash)

        admin = KafkaAdminClient(bootstrap_servers=restartable.bootstrap)
        scenario.admin = admin
        assert broker_assignments(admin, scenario.group) == before  # loaded: same member id, same partitions
        assert_consumes(restartable.bootstrap, scenario.topic, member, b"after restart", broker=restartable)
        assert broker_assignments(admin, scenario.group) == before
        assert member.assignment_events() == assignments_seen, "the member had to rejoin"
    finally:
        scenario.stop_all()
        admin.close()
