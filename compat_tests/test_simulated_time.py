"""Simulated time: a broker built with ``Broker(clock=ManualClock())`` fires its own timers when the test advances
the clock, never by sleeping through them, and real clients react as they do when real time passes.

Each test moves the clock past one timer (a session timeout, a transaction timeout, retention, the cleaner's
``delete.retention.ms``) and checks both that the broker acted and that nothing happened before the clock moved.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from aiokafka import AIOKafkaConsumer
from confluent_kafka import Producer
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

from rockafka.testing import Broker, ManualClock

from .txnfence import assert_aborted_and_fenced

SETTLE_TIMEOUT_S = 60.0
SESSION_TIMEOUT_S = 30
RETENTION_CHECK_S = 300  # log.retention.check.interval.ms: Kafka's default, five minutes
CLEANER_BACKOFF_S = 15  # log.cleaner.backoff.ms: Kafka's default
OFFSETS_RETENTION_CHECK_S = 600  # offsets.retention.check.interval.ms: Kafka's default
ABORT_CHECK_S = 10  # transaction.abort.timed.out.transaction.cleanup.interval.ms: Kafka's default


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def broker(tmp_path: Path, clock: ManualClock) -> Iterator[Broker]:
    with Broker(data_dir=tmp_path / "data", clock=clock) as running:
        yield running


def _until(condition: Callable[[], bool], what: str, step: Callable[[], None] = lambda: None) -> None:
    """Wait (bounded in count and time) for ``condition``, calling ``step`` (advance the clock) between tries."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    for _ in range(600):
        if condition():
            return
        if time.monotonic() > deadline:
            break
        step()
        time.sleep(0.1)
    pytest.fail(f"never happened: {what}")


def _create(bootstrap: str, topic: str, config: dict[str, str]) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 1, 1, topic_configs=config)])
    finally:
        admin.close()


def _members(bootstrap: str, group: str) -> set[str]:
    """The group's member ids, as DescribeGroups shows them."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        return {member["member_id"] for member in admin.describe_groups([group])[group]["members"]}
    finally:
        admin.close()


# --- group sessions ---


def test_a_member_whose_session_expired_is_removed_and_rejoins(broker: Broker, clock: ManualClock) -> None:
    async def scenario() -> None:
        consumer = AIOKafkaConsumer(
            "sessions", bootstrap_servers=broker.bootstrap, group_id="sessions",
            session_timeout_ms=SESSION_TIMEOUT_S * 1000, heartbeat_interval_ms=3000,
        )  # fmt: skip
        await consumer.start()
        try:
            for _ in range(100):
                await consumer.getmany(timeout_ms=200)
                if consumer.assignment():
                    break
            assert consumer.assignment(), "the consumer never got its partitions"
            (first,) = _members(broker.bootstrap, "sessions")
            await asyncio.sleep(0.5)  # real time passes, the broker's clock stands: the session holds
            assert _members(broker.bootstrap, "sessions") == {first}
            clock.advance(SESSION_TIMEOUT_S + 1)
            assert first not in _members(broker.bootstrap, "sessions")  # removed, without waiting 30 s
            for _ in range(100):  # its next heartbeat gets UNKNOWN_MEMBER_ID: it joins again as a new member
                await consumer.getmany(timeout_ms=200)
                if _members(broker.bootstrap, "sessions") - {first} and consumer.assignment():
                    break
            assert _members(broker.bootstrap, "sessions") - {first}, "the consumer did not rejoin"
        finally:
            await consumer.stop()

    asyncio.run(scenario())


def test_the_initial_rebalance_delay_waits_for_the_clock(tmp_path: Path, clock: ManualClock) -> None:
    settings = {"group.initial.rebalance.delay.ms": "3000"}
    with Broker(data_dir=tmp_path / "data", clock=clock, settings=settings) as broker:
        consumer = KafkaConsumer("delayed", bootstrap_servers=broker.bootstrap, group_id="delayed")
        try:
            for _ in range(10):  # two seconds of real time: the group waits for its delay on the broker's clock
                consumer.poll(timeout_ms=200)
            assert not consumer.assignment()
            clock.advance(3)
            _until(lambda: bool(consumer.poll(timeout_ms=200) is not None and consumer.assignment()), "assignment")
        finally:
            consumer.close()


def test_an_empty_groups_offsets_expire_after_offsets_retention_minutes(tmp_path: Path, clock: ManualClock) -> None:
    settings = {"offsets.retention.minutes": "1"}  # checked every offsets.retention.check.interval.ms (10 min)
    with Broker(data_dir=tmp_path / "data", clock=clock, settings=settings) as broker:
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        producer.send("kept", b"x").get(SETTLE_TIMEOUT_S)
        producer.close()
        consumer = KafkaConsumer("kept", bootstrap_servers=broker.bootstrap, group_id="leaving")
        _until(lambda: bool(consumer.poll(timeout_ms=200)) or bool(consumer.assignment() and consumer.position(
            TopicPartition("kept", 0)) == 1), "the record consumed")  # fmt: skip
        consumer.commit()
        consumer.close()  # the group is empty from now on
        reader = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id="leaving", enable_auto_commit=False)
        try:
            partition = TopicPartition("kept", 0)
            assert reader.committed(partition) == 1  # OffsetFetch, without joining the group
            clock.advance(OFFSETS_RETENTION_CHECK_S - 1)  # past the minute, before the check
            assert reader.committed(partition) == 1
            clock.advance(1)
            assert reader.committed(partition) is None
        finally:
            reader.close()


# --- transactions ---


def _open_transaction(bootstrap: str, transactional_id: str, value: bytes) -> Producer:
    """A librdkafka producer inside a transaction (``transaction.timeout.ms`` one minute) with one record sent."""
    producer = Producer(
        {"bootstrap.servers": bootstrap, "transactional.id": transactional_id, "transaction.timeout.ms": 60_000}
    )
    producer.init_transactions(SETTLE_TIMEOUT_S)
    producer.begin_transaction()
    producer.produce("txn-time", value)
    producer.flush(SETTLE_TIMEOUT_S)
    return producer


def test_a_transaction_past_its_timeout_is_aborted_and_its_producer_fenced(broker: Broker, clock: ManualClock) -> None:
    producer = _open_transaction(broker.bootstrap, "slow", b"never committed")
    clock.advance(60 + ABORT_CHECK_S)  # past transaction.timeout.ms and the next abort pass
    assert_aborted_and_fenced(producer, broker.bootstrap, "txn-time")


def test_a_transaction_within_its_timeout_commits(broker: Broker, clock: ManualClock) -> None:
    producer = _open_transaction(broker.bootstrap, "quick", b"committed")
    clock.advance(50)  # five abort passes, none past the timeout
    producer.commit_transaction(SETTLE_TIMEOUT_S)


# --- retention and compaction ---


def test_records_past_retention_ms_are_deleted(broker: Broker, clock: ManualClock) -> None:
    _create(broker.bootstrap, "retained", {"retention.ms": "60000"})
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    for value in (b"a", b"b", b"c"):
        producer.send("retained", value).get(SETTLE_TIMEOUT_S)
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
    partition = TopicPartition("retained", 0)
    try:
        clock.advance(RETENTION_CHECK_S - 1)  # long past retention.ms, but no retention pass yet
        assert consumer.beginning_offsets([partition])[partition] == 0
        clock.advance(1)  # the retention pass
        _until(lambda: consumer.beginning_offsets([partition])[partition] == 3, "the log start moving past 3")
        assert consumer.end_offsets([partition])[partition] == 3
    finally:
        consumer.close()


def _read_keys(bootstrap: str, topic: str, high: int) -> list[tuple[bytes | None, bytes | None]]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    partition = TopicPartition(topic, 0)
    consumer.assign([partition])
    consumer.seek_to_beginning(partition)
    seen: list[tuple[bytes | None, bytes | None]] = []
    try:
        for _ in range(100):
            for records in consumer.poll(timeout_ms=200).values():
                seen += [(r.key, r.value) for r in records]
            if consumer.position(partition) >= high:
                break
    finally:
        consumer.close()
    return seen


def test_a_tombstone_past_delete_retention_ms_is_cleaned(broker: Broker, clock: ManualClock) -> None:
    topic = "tombstones"
    _create(
        broker.bootstrap, topic,
        {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "3600000"},
    )  # fmt: skip
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, linger_ms=0)
    for round_ in range(20):
        for key in (b"gone", b"kept"):
            producer.send(topic, key=key, value=b"%s-%d" % (key, round_)).get(SETTLE_TIMEOUT_S)
    producer.send(topic, key=b"gone", value=None).get(SETTLE_TIMEOUT_S)
    for round_ in range(20):
        producer.send(topic, key=b"kept", value=b"later-%d" % round_).get(SETTLE_TIMEOUT_S)
    producer.close()
    high = 61

    def compacted() -> bool:
        return len(_read_keys(broker.bootstrap, topic, high)) < high

    _until(compacted, "a compaction pass", step=lambda: clock.advance(CLEANER_BACKOFF_S))
    assert (b"gone", None) in _read_keys(broker.bootstrap, topic, high)  # kept for delete.retention.ms
    clock.advance(3600)

    def tombstone_cleaned() -> bool:
        return all(key != b"gone" for key, _ in _read_keys(broker.bootstrap, topic, high))

    _until(tombstone_cleaned, "the tombstone cleaned", step=lambda: clock.advance(CLEANER_BACKOFF_S))
