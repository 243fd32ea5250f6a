"""A flipped byte in the middle of an earlier version's consumer offsets log costs that one commit, not the commits
after it, when the broker upgrades the store.

Committed offsets are records of ``__consumer_offsets`` now; earlier versions kept them in
``config/consumerOffsets.log``, which the broker reads once at start and moves into the topic. Here a broker's
data directory gets such a log (written by its unchanged writer, ``OffsetStore``) with one byte of a commit frame
in the middle flipped, and after the start OffsetFetch (kafka-python's admin client and librdkafka's
``committed``) returns every intact commit's offset: the latest intact one of each partition. The loss is in the
broker's log and the quarantine ledger, and a commit made after the start survives a restart that meets no
damage again.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer
from confluent_kafka import TopicPartition as ConfluentPartition
from kafka import KafkaConsumer, OffsetAndMetadata, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

from rockafka.store import OffsetCommit, offsets
from rockafka.store.framedlog import scan
from rockafka.store.quarantine import read_losses

from .brokerproc import BrokerProcess

GROUPS = ("g-one", "g-two")
Expected = dict[str, dict[int, int]]


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path / "broker").start()
    try:
        yield process
    finally:
        process.kill()


def _commit(bootstrap: str, group: str, topic: str, values: dict[int, int]) -> None:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False)
    try:
        consumer.commit({TopicPartition(topic, p): OffsetAndMetadata(o, "", -1) for p, o in values.items()})
    finally:
        consumer.close()


def _fetched_kafka_python(bootstrap: str, topic: str) -> Expected:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        found = {}
        for group in GROUPS:
            offsets_ = admin.list_group_offsets(group)[group]
            found[group] = {tp.partition: meta.offset for tp, meta in offsets_.items() if tp.topic == topic}
        return found
    finally:
        admin.close()


def _fetched_librdkafka(bootstrap: str, topic: str) -> Expected:
    found = {}
    for group in GROUPS:
        consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
        try:
            committed = consumer.committed([ConfluentPartition(topic, p) for p in range(2)], timeout=20)
        finally:
            consumer.close()
        found[group] = {tp.partition: tp.offset for tp in committed if tp.offset >= 0}
    return found


def _flip_a_middle_commit(log: Path, topic: str) -> Expected:
    """Flip a byte of the committed offset of the middle frame; what every other frame commits."""
    data = bytearray(log.read_bytes())
    result = scan(bytes(data), offsets.RULES)
    assert not result.gaps and len(result.values) == 2 * len(GROUPS) * 5
    middle = len(result.values) // 2
    # the body ends: offset i64, leader epoch i32, timestamp i64, metadata length u32 (empty metadata)
    data[result.ends[middle] - 4 - 8 - 4 - 3] ^= 0x40
    log.write_bytes(bytes(data))
    intact: Expected = {group: {} for group in GROUPS}
    for index, value in enumerate(result.values):
        assert value.topic == topic and value.committed is not None
        if index != middle:
            intact[value.group][value.partition] = value.committed.offset
    return intact


def test_a_flipped_byte_in_the_offsets_log_costs_one_commit(restartable: BrokerProcess) -> None:
    bootstrap, topic = restartable.bootstrap, f"damaged-{uuid.uuid4().hex[:6]}"
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics([NewTopic(topic, 2, 1)])
    admin.close()
    assert restartable.stop() == 0
    old_log = offsets.OffsetStore(restartable.data_dir / "config", compact_bytes=1 << 30)
    old_log.load()
    for step in range(1, 11):  # two groups, two partitions: 50, 100, ... 500
        for group in GROUPS:
            old_log.commit(group, [OffsetCommit(topic, step % 2, step * 50)], int(time.time() * 1000))
    old_log.close()
    intact = _flip_a_middle_commit(restartable.data_dir / "config" / "consumerOffsets.log", topic)

    restartable.start()
    assert _fetched_kafka_python(bootstrap, topic) == intact
    assert _fetched_librdkafka(bootstrap, topic) == intact
    assert intact == {group: {0: 500, 1: 450} for group in GROUPS}  # both groups at their latest commits
    (loss,) = read_losses(restartable.data_dir / "quarantine")
    assert loss.source == "consumerOffsets" and "valid frames follow" in loss.reason
    assert "store damage: consumerOffsets" in restartable.log_text()

    _commit(bootstrap, GROUPS[1], topic, {0: 777})
    assert restartable.stop() == 0
    restartable.start()
    intact[GROUPS[1]][0] = 777
    assert _fetched_kafka_python(bootstrap, topic) == intact
    assert len(read_losses(restartable.data_dir / "quarantine")) == 1  # moved into __consumer_offsets
