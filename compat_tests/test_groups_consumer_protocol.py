"""KIP-848 consumer groups (``group.protocol=consumer``) with confluent-kafka (librdkafka) and over the raw wire.

librdkafka members join, are given partitions incrementally as members come and go, and commit: no partition
is owned by two members at once (each member's assign/revoke callbacks against one shared ledger) and every
record is consumed exactly once. Static members come back to their partitions; a regex subscription picks up
a topic created later. Raw ConsumerGroupHeartbeat requests check the errors clients are fenced with.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, ConsumerGroupType, KafkaError, KafkaException, Producer
from confluent_kafka import TopicPartition as ConfluentPartition
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType
from kafka import KafkaConsumer

from rockafka.facade.config import ConfigSource
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.consumer_group_describe import ConsumerGroupDescribeRequest
from rockafka.facade.protocol.messages.consumer_group_heartbeat import ConsumerGroupHeartbeatRequest
from rockafka.facade.protocol.messages.describe_configs import DescribeConfigsRequest, DescribeConfigsResource
from rockafka.facade.protocol.messages.describe_groups import DescribeGroupsRequest
from rockafka.facade.protocol.messages.incremental_alter_configs import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from rockafka.facade.protocol.messages.list_groups import ListGroupsRequest
from rockafka.facade.protocol.messages.offset_commit import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)

from .brokerproc import BrokerProcess
from .clients.wire import RawClient

SETTINGS = {"group.consumer.heartbeat.interval.ms": "500", "group.consumer.session.timeout.ms": "6000"}
WAIT_S = 60.0
GROUP_RESOURCE = 32  # Kafka's config resource type of a group


@pytest.fixture(scope="module")
def kip848_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path_factory.mktemp("broker"), settings=dict(SETTINGS)).start()
    try:
        yield process
    finally:
        process.stop()


@dataclass
class Ledger:
    """Who owns each partition, as the members' own callbacks say; a partition assigned while another member
    owns it is a violation, told with the holder's events (seconds since the ledger began) so a failure shows
    whether the holder was closing or had never been told to revoke."""

    owners: dict[tuple[str, int], str] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    events: list[tuple[float, str, str]] = field(default_factory=list)
    began: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def assigned(self, member: str, partitions: list[ConfluentPartition]) -> None:
        with self.lock:
            self._note(member, "assigned", partitions)
            for tp in partitions:
                holder = self.owners.get((tp.topic, tp.partition))
                if holder not in (None, member):
                    history = "; ".join(f"{at:.2f} {what}" for at, who, what in self.events if who == holder)
                    self.violations.append(
                        f"{tp.topic}/{tp.partition} to {member} at {self.events[-1][0]:.2f} while {holder} owns it"
                        f" ({holder}: {history})"
                    )
                self.owners[(tp.topic, tp.partition)] = member

    def revoked(self, member: str, partitions: list[ConfluentPartition], why: str = "revoked") -> None:
        with self.lock:
            self._note(member, why, partitions)
            for tp in partitions:
                if self.owners.get((tp.topic, tp.partition)) == member:
                    del self.owners[(tp.topic, tp.partition)]

    def noted(self, member: str, what: str) -> None:
        """A member's event other than its callbacks (closing, closed)."""
        with self.lock:
            self.events.append((time.monotonic() - self.began, member, what))

    def _note(self, member: str, what: str, partitions: list[ConfluentPartition]) -> None:
        numbers = sorted(tp.partition for tp in partitions)
        self.events.append((time.monotonic() - self.began, member, f"{what} {numbers}"))

    def owned_by(self, member: str) -> set[int]:
        with self.lock:
            return {partition for (_, partition), holder in self.owners.items() if holder == member}


@dataclass
class Member:
    """One confluent-kafka consumer of the group in a thread of its own, committing after every batch."""

    name: str
    config: dict[str, Any]
    topics: list[str]
    ledger: Ledger
    consumed: list[tuple[str, int, int]] = field(default_factory=list)
    assignments: int = 0
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def start(self) -> Member:
        self.thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        consumer = Consumer(self.config)

        def on_assign(c: Consumer, partitions: list[ConfluentPartition]) -> None:
            if closing:
                # An assignment still queued for the application when close() starts is handed to on_assign
                # inside close(); librdkafka then applies it as an unassign and leaves without on_revoke: the
                # member never consumes it, and the broker frees it at the LeaveGroup.
                self.ledger.revoked(self.name, partitions, "assigned inside close(), applied as an unassign")
                return
            self.assignments += 1
            self.ledger.assigned(self.name, partitions)

        def on_revoke(c: Consumer, partitions: list[ConfluentPartition]) -> None:
            self._commit(c)  # what was consumed is committed before the partitions go
            self.ledger.revoked(self.name, partitions)

        def on_lost(c: Consumer, partitions: list[ConfluentPartition]) -> None:
            self.ledger.revoked(self.name, partitions, "lost")

        closing = False
        consumer.subscribe(self.topics, on_assign=on_assign, on_revoke=on_revoke, on_lost=on_lost)
        try:
            while not self.stop.is_set():
                batch = consumer.consume(num_messages=100, timeout=0.2)
                records = [m for m in batch if m.error() is None]
                self.consumed.extend((m.topic(), m.partition(), m.offset()) for m in records)
                self.errors.extend(str(m.error()) for m in batch if m.error() is not None)
                if records:
                    self._commit(consumer)
        finally:
            self.ledger.noted(self.name, "closing")
            closing = True
            consumer.close()
            self.ledger.noted(self.name, "closed")

    def _commit(self, consumer: Consumer) -> None:
        try:
            consumer.commit(asynchronous=False)
        except KafkaException as exc:
            if exc.args[0].code() != KafkaError._NO_OFFSET:  # nothing consumed since the last commit
                self.errors.append(f"commit: {exc}")

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=30)
            assert not self.thread.is_alive(), f"{self.name} did not close"


def consumer_config(broker: BrokerProcess, group: str, **extra: Any) -> dict[str, Any]:
    return {
        "bootstrap.servers": broker.bootstrap,
        "group.id": group,
        "group.protocol": "consumer",
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "topic.metadata.refresh.interval.ms": 1000,
        **extra,
    }


def create_topic(broker: BrokerProcess, name: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    for future in admin.create_topics([NewTopic(name, partitions, 1)]).values():
        future.result(timeout=30)


def produce(broker: BrokerProcess, topic: str, partitions: int, count: int) -> None:
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
    for i in range(count):
        producer.produce(topic, value=str(i).encode(), partition=i % partitions)
    assert producer.flush(30) == 0


def wait_until(condition: Callable[[], bool], what: str, members: list[Member]) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    details = {m.name: (sorted(m.ledger.owned_by(m.name)), len(m.consumed), m.errors[-3:]) for m in members}
    raise AssertionError(f"{what} within {WAIT_S} s: {details}")


def test_members_come_and_go_with_no_partition_owned_twice_and_every_record_consumed_once(
    kip848_broker: BrokerProcess,
) -> None:
    suffix = uuid.uuid4().hex[:6]
    topic, group, partitions = f"kip848-{suffix}", f"kip848-group-{suffix}", 6
    create_topic(kip848_broker, topic, partitions)
    produce(kip848_broker, topic, partitions, 600)
    ledger = Ledger()
    config = consumer_config(kip848_broker, group)
    a = Member("a", config, [topic], ledger).start()
    wait_until(lambda: len(a.consumed) >= 100, "a consumes", [a])
    b = Member("b", config, [topic], ledger).start()
    produce(kip848_broker, topic, partitions, 600)
    every = set(range(partitions))

    def shared_by(*members: Member) -> bool:
        owned = [ledger.owned_by(m.name) for m in members]
        return all(owned) and set().union(*owned) == every

    wait_until(lambda: shared_by(a, b), "a and b share the partitions", [a, b])
    c = Member("c", config, [topic], ledger).start()
    wait_until(lambda: shared_by(a, b, c), "a, b and c share the partitions", [a, b, c])
    admin = AdminClient({"bootstrap.servers": kip848_broker.bootstrap})
    described = admin.describe_consumer_groups([group])[group].result(timeout=30)
    assert described.type == ConsumerGroupType.CONSUMER
    member_partitions = [{tp.partition for tp in m.assignment.topic_partitions} for m in described.members]
    assert len(member_partitions) == 3 and sum(map(len, member_partitions)) == partitions
    assert set().union(*member_partitions) == every
    b.close()
    produce(kip848_broker, topic, partitions, 600)
    wait_until(lambda: shared_by(a, c), "a and c take b's partitions", [a, c])
    wait_until(lambda: len({r for m in (a, b, c) for r in m.consumed}) >= 1800, "every record is consumed", [a, c])
    a.close()
    c.close()
    consumed = [record for m in (a, b, c) for record in m.consumed]
    assert ledger.violations == []
    assert len(set(consumed)) == 1800
    failed_commits = [error for m in (a, b, c) for error in m.errors if error.startswith("commit")]
    # at-least-once: a record may come twice only after a commit failed (the next owner starts from the last one)
    assert len(consumed) == 1800 or failed_commits, "a record was consumed twice though every commit succeeded"


def test_a_static_member_comes_back_to_its_partitions_without_moving_the_others(kip848_broker: BrokerProcess) -> None:
    suffix = uuid.uuid4().hex[:6]
    topic, group = f"static-{suffix}", f"static-group-{suffix}"
    create_topic(kip848_broker, topic, 4)
    ledger = Ledger()
    first = Member("s1", consumer_config(kip848_broker, group, **{"group.instance.id": "s-1"}), [topic], ledger)
    second = Member("s2", consumer_config(kip848_broker, group, **{"group.instance.id": "s-2"}), [topic], ledger)
    first.start()
    second.start()
    members = [first, second]
    wait_until(lambda: len(ledger.owned_by("s1")) == len(ledger.owned_by("s2")) == 2, "s1 and s2 get two", members)
    held, others, changes = ledger.owned_by("s1"), ledger.owned_by("s2"), second.assignments
    first.close()
    again = Member("s1-again", first.config, [topic], ledger).start()
    wait_until(lambda: len(ledger.owned_by("s1-again")) == 2, "s1 is back", [again, second])
    assert ledger.owned_by("s1-again") == held
    assert (ledger.owned_by("s2"), second.assignments) == (others, changes)
    again.close()
    second.close()
    assert ledger.violations == []


def test_a_regex_subscription_picks_up_a_topic_created_later(kip848_broker: BrokerProcess) -> None:
    suffix = uuid.uuid4().hex[:6]
    early, late, group = f"rx-{suffix}-early", f"rx-{suffix}-late", f"regex-group-{suffix}"
    create_topic(kip848_broker, early, 2)
    create_topic(kip848_broker, f"other-rx-{suffix}", 1)
    produce(kip848_broker, early, 2, 10)
    member = Member("r", consumer_config(kip848_broker, group), [f"^rx-{suffix}-.*"], Ledger()).start()
    wait_until(lambda: len(member.consumed) == 10, "the early topic is consumed", [member])
    create_topic(kip848_broker, late, 3)
    produce(kip848_broker, late, 3, 9)
    wait_until(lambda: sum(1 for t, _, _ in member.consumed if t == late) == 9, "the late topic is consumed", [member])
    member.close()
    assert {t for t, _, _ in member.consumed} == {early, late}


def heartbeat(client: RawClient, group: str, member: str, epoch: int, **fields: Any) -> Any:
    if epoch == 0:
        fields = {"rebalance_timeout_ms": 30_000, "subscribed_topic_names": [group], "topic_partitions": [], **fields}
    request = ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=epoch, **fields)
    return client.request(request, 1)


def test_raw_heartbeats_are_fenced_and_refused_with_kafkas_errors(kip848_broker: BrokerProcess) -> None:
    group = f"raw-{uuid.uuid4().hex[:6]}"  # subscribing to a topic of its own name
    create_topic(kip848_broker, group, 2)
    with RawClient(kip848_broker.bootstrap) as client:
        joined = heartbeat(client, group, "m-1", 0)
        assert (joined.error_code, joined.member_id, joined.member_epoch) == (0, "m-1", 1)
        assert joined.heartbeat_interval_ms == 500
        assert sorted(p for t in joined.assignment.topic_partitions for p in t.partitions) == [0, 1]
        assert heartbeat(client, group, "m-1", 5).error_code == ErrorCode.FENCED_MEMBER_EPOCH
        assert heartbeat(client, group, "nobody", 1).error_code == ErrorCode.UNKNOWN_MEMBER_ID
        assert heartbeat(client, group, "", 0).error_code == ErrorCode.INVALID_REQUEST  # v1: the client's id
        unsupported = heartbeat(client, group, "m-2", 0, server_assignor="sticky")
        assert unsupported.error_code == ErrorCode.UNSUPPORTED_ASSIGNOR and unsupported.error_message
        bad_regex = heartbeat(client, group, "m-2", 0, subscribed_topic_names=None, subscribed_topic_regex="(")
        assert bad_regex.error_code == ErrorCode.INVALID_REGULAR_EXPRESSION
        v0 = client.request(
            ConsumerGroupHeartbeatRequest(
                group_id=group, member_epoch=0, rebalance_timeout_ms=1000, subscribed_topic_names=[group],
                topic_partitions=[],
            ),
            0,
        )  # fmt: skip
        assert v0.error_code == 0 and v0.member_id  # v0: the broker names the member
        stale = _commit(client, group, "m-1", 0)
        assert stale == ErrorCode.STALE_MEMBER_EPOCH
        assert _commit(client, group, "m-1", 1) == ErrorCode.NONE  # m-1 stays at epoch 1 until it heartbeats
        left = heartbeat(client, group, "m-1", -1)
        assert (left.error_code, left.member_epoch) == (0, -1)
        described, missing = client.request(ConsumerGroupDescribeRequest(group_ids=[group, "no-such-group"]), 0).groups
        assert (described.error_code, [m.member_id for m in described.members]) == (0, [v0.member_id])
        assert described.group_epoch == 3 and described.assignor_name == "uniform"
        assert missing.error_code == ErrorCode.GROUP_ID_NOT_FOUND
        listed = client.request(ListGroupsRequest(types_filter=["consumer"]), 5).groups
        assert (group, "consumer", "consumer") in {(g.group_id, g.protocol_type, g.group_type) for g in listed}
        (classic_view,) = client.request(DescribeGroupsRequest(groups=[group]), 5).groups
        assert (classic_view.error_code, classic_view.group_state) == (ErrorCode.GROUP_ID_NOT_FOUND, "Dead")


def _commit(client: RawClient, group: str, member: str, epoch: int) -> int:
    request = OffsetCommitRequest(
        group_id=group,
        generation_id_or_member_epoch=epoch,
        member_id=member,
        topics=[OffsetCommitRequestTopic(name=group, partitions=[OffsetCommitRequestPartition(committed_offset=1)])],
    )
    (topic,) = client.request(request, 9).topics
    return int(topic.partitions[0].error_code)


@pytest.mark.parametrize("crash", [False, True], ids=["clean-restart", "kill-9"])
def test_a_member_carries_on_through_a_broker_restart_without_a_new_assignment(tmp_path: Path, crash: bool) -> None:
    broker = BrokerProcess(tmp_path / "broker", settings=dict(SETTINGS)).start()
    try:
        topic = "restarted"
        create_topic(broker, topic, 3)
        produce(broker, topic, 3, 30)
        ledger = Ledger()
        member = Member("m", consumer_config(broker, "restart-group"), [topic], ledger).start()
        wait_until(lambda: len(member.consumed) == 30 and len(ledger.owned_by("m")) == 3, "m consumes", [member])
        assignments = member.assignments
        broker.restart(crash=crash)
        produce(broker, topic, 3, 30)
        wait_until(lambda: len(member.consumed) >= 60, "m consumes after the restart", [member])
        member.close()
        assert member.assignments == assignments, "the member was given its partitions again"
        assert len(member.consumed) == len(set(member.consumed)) == 60
    finally:
        broker.kill()


def test_an_empty_classic_group_is_taken_over_with_its_offsets(kip848_broker: BrokerProcess) -> None:
    suffix = uuid.uuid4().hex[:6]
    topic, group = f"upgrade-{suffix}", f"upgrade-group-{suffix}"
    create_topic(kip848_broker, topic, 2)
    produce(kip848_broker, topic, 2, 10)
    classic = KafkaConsumer(
        topic, bootstrap_servers=kip848_broker.bootstrap, group_id=group, auto_offset_reset="earliest",
        enable_auto_commit=False, session_timeout_ms=6000,
    )  # fmt: skip
    read = 0
    deadline = time.monotonic() + WAIT_S
    while read < 10 and time.monotonic() < deadline:
        read += sum(len(records) for records in classic.poll(timeout_ms=200).values())
    assert read == 10
    classic.commit()
    classic.close()  # leaves: the classic group is empty now (a live one is upgraded: test_groups_migration.py)
    produce(kip848_broker, topic, 2, 10)
    member = Member("new", consumer_config(kip848_broker, group), [topic], Ledger()).start()
    wait_until(lambda: len(member.consumed) >= 10, "the new member consumes what came after the commits", [member])
    time.sleep(1.0)  # nothing more arrives
    member.close()
    assert len(member.consumed) == 10 and all(offset >= 5 for _, _, offset in member.consumed)


def alter_group_configs(client: RawClient, group: str, **values: str | None) -> Any:
    configs = [
        AlterableConfig(name=name.replace("_", "."), config_operation=1 if value is None else 0, value=value)
        for name, value in values.items()
    ]
    request = IncrementalAlterConfigsRequest(
        resources=[AlterConfigsResource(resource_type=GROUP_RESOURCE, resource_name=group, configs=configs)]
    )
    (answer,) = client.request(request, 1).responses
    return answer


def described_group_configs(
    client: RawClient, group: str, prefix: str = "consumer."
) -> dict[str, tuple[str | None, int]]:
    """The group's configs named ``prefix``... (the consumer-protocol ones by default), value and source."""
    request = DescribeConfigsRequest(
        resources=[DescribeConfigsResource(resource_type=GROUP_RESOURCE, resource_name=group, configuration_keys=None)]
    )
    (result,) = client.request(request, 4).results
    assert result.error_code == 0, result.error_message
    return {entry.name: (entry.value, entry.config_source) for entry in result.configs if entry.name.startswith(prefix)}


def test_group_configs_are_described_altered_and_used_by_the_group(kip848_broker: BrokerProcess) -> None:
    group = f"configured-{uuid.uuid4().hex[:6]}"
    create_topic(kip848_broker, group, 1)
    with RawClient(kip848_broker.bootstrap) as client:
        assert described_group_configs(client, group) == {
            "consumer.heartbeat.interval.ms": ("500", ConfigSource.STATIC_BROKER_CONFIG),
            "consumer.session.timeout.ms": ("6000", ConfigSource.STATIC_BROKER_CONFIG),
        }
        assert alter_group_configs(client, group, consumer_heartbeat_interval_ms="1200").error_code == 0
        described = described_group_configs(client, group)
        assert described["consumer.heartbeat.interval.ms"] == ("1200", ConfigSource.GROUP_CONFIG)
        assert heartbeat(client, group, "m-1", 0).heartbeat_interval_ms == 1200
        too_long = alter_group_configs(client, group, consumer_heartbeat_interval_ms="7000")
        assert too_long.error_code == ErrorCode.INVALID_CONFIG and "less than" in too_long.error_message
        unknown = alter_group_configs(client, group, consumer_max_size="3")
        assert unknown.error_code == ErrorCode.INVALID_CONFIG
        assert alter_group_configs(client, group, consumer_heartbeat_interval_ms=None).error_code == 0
        assert heartbeat(client, group, "m-1", 1).heartbeat_interval_ms == 500


def test_confluent_admin_alters_and_describes_a_groups_configs(kip848_broker: BrokerProcess) -> None:
    group = f"admin-configured-{uuid.uuid4().hex[:6]}"
    admin = AdminClient({"bootstrap.servers": kip848_broker.bootstrap})
    entry = ConfigEntry("consumer.session.timeout.ms", "50000", incremental_operation=AlterConfigOpType.SET)
    altered = ConfigResource(ResourceType.GROUP, group, incremental_configs=[entry])
    admin.incremental_alter_configs([altered])[altered].result(timeout=30)
    described = ConfigResource(ResourceType.GROUP, group)
    configs = admin.describe_configs([described])[described].result(timeout=30)
    assert {name: (c.value, c.source) for name, c in configs.items() if name.startswith("consumer.")} == {
        "consumer.session.timeout.ms": ("50000", ConfigSource.GROUP_CONFIG),
        "consumer.heartbeat.interval.ms": ("500", ConfigSource.STATIC_BROKER_CONFIG),
    }


def test_a_consumer_protocol_member_commits_offsets_in_transactions_at_its_member_epoch(
    kip848_broker: BrokerProcess,
) -> None:
    suffix = uuid.uuid4().hex[:6]
    source, sink, group = f"txn-src-{suffix}", f"txn-sink-{suffix}", f"txn-group-{suffix}"
    create_topic(kip848_broker, source, 2)
    create_topic(kip848_broker, sink, 1)
    produce(kip848_broker, source, 2, 20)
    consumer = Consumer(consumer_config(kip848_broker, group))
    consumer.subscribe([source])
    producer = Producer({"bootstrap.servers": kip848_broker.bootstrap, "transactional.id": f"txn-{suffix}"})
    producer.init_transactions(30)
    read = 0
    deadline = time.monotonic() + WAIT_S
    while read < 20 and time.monotonic() < deadline:
        records = [m for m in consumer.consume(num_messages=50, timeout=0.5) if m.error() is None]
        if records:
            producer.begin_transaction()
            for record in records:
                producer.produce(sink, value=record.value())
            offsets = consumer.position(consumer.assignment())
            producer.send_offsets_to_transaction(offsets, consumer.consumer_group_metadata(), 30)
            producer.commit_transaction(30)
            read += len(records)
    assert read == 20
    committed = consumer.committed([ConfluentPartition(source, 0), ConfluentPartition(source, 1)], timeout=30)
    assert [tp.offset for tp in committed] == [10, 10]
    departed = consumer.consumer_group_metadata()
    consumer.close()  # leaves the group: its member id and epoch are no longer the group's
    producer.begin_transaction()
    with pytest.raises(KafkaException) as refused:
        producer.send_offsets_to_transaction([ConfluentPartition(source, 0, 10)], departed, 30)
    assert refused.value.args[0].code() == KafkaError.UNKNOWN_MEMBER_ID
    producer.abort_transaction(30)
