"""KIP-848's online migration of a live group between the classic and the consumer protocol.

confluent-kafka classic members consume; a ``group.protocol=consumer`` member joins and the group becomes a
consumer group; the classic members leave; a classic member joins again and the consumer-protocol member leaves:
the group is classic again. Every member's assign/revoke callbacks go to one ledger (no partition owned twice)
and every record is consumed exactly once with commits. Raw requests check the errors of classic members of a
consumer group, ``group.consumer.migration.policy``, and that a converted group survives a restart.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import ConsumerGroupType
from confluent_kafka.admin import AdminClient
from kafka import KafkaConsumer

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.consumer_group_describe import ConsumerGroupDescribeRequest
from rockafka.facade.protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from rockafka.facade.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from rockafka.facade.protocol.messages.heartbeat import HeartbeatRequest
from rockafka.facade.protocol.messages.join_group import JoinGroupRequest, JoinGroupRequestProtocol
from rockafka.facade.protocol.messages.leave_group import LeaveGroupRequest, MemberIdentity
from rockafka.facade.protocol.messages.list_groups import ListGroupsRequest
from rockafka.facade.protocol.messages.offset_commit import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from rockafka.facade.protocol.messages.sync_group import SyncGroupRequest
from rockafka.facade.protocol.primitives import Reader, pack_int16

from .brokerproc import BrokerProcess
from .clients.wire import RawClient
from .test_groups_consumer_protocol import SETTINGS as CONSUMER_PROTOCOL_SETTINGS
from .test_groups_consumer_protocol import (
    WAIT_S,
    Ledger,
    Member,
    consumer_config,
    create_topic,
    heartbeat,
    produce,
    wait_until,
)

SETTINGS = {**CONSUMER_PROTOCOL_SETTINGS, "group.initial.rebalance.delay.ms": "0"}


@pytest.fixture(scope="module")
def migration_broker(tmp_path_factory: pytest.TempPathFactory) -> Any:
    process = BrokerProcess(tmp_path_factory.mktemp("broker"), settings=dict(SETTINGS)).start()
    try:
        yield process
    finally:
        process.stop()


def classic_config(broker: BrokerProcess, group: str) -> dict[str, Any]:
    config = consumer_config(broker, group, **{"session.timeout.ms": 6000, "heartbeat.interval.ms": 500})
    del config["group.protocol"]  # classic, with librdkafka's default eager assignors (range, roundrobin)
    return config


def group_type(broker: BrokerProcess, group: str) -> str:
    with RawClient(broker.bootstrap) as client:
        listed = client.request(ListGroupsRequest(), 5).groups
    return next(g.group_type for g in listed if g.group_id == group)


def test_a_live_classic_group_upgrades_to_the_consumer_protocol_and_back(migration_broker: BrokerProcess) -> None:
    suffix = uuid.uuid4().hex[:6]
    topic, group, partitions = f"migrate-{suffix}", f"migrate-group-{suffix}", 6
    create_topic(migration_broker, topic, partitions)
    produce(migration_broker, topic, partitions, 600)
    ledger = Ledger()
    every = set(range(partitions))

    def shared_by(*members: Member) -> bool:
        owned = [ledger.owned_by(m.name) for m in members]
        return all(owned) and set().union(*owned) == every

    a = Member("classic-a", classic_config(migration_broker, group), [topic], ledger).start()
    b = Member("classic-b", classic_config(migration_broker, group), [topic], ledger).start()
    wait_until(lambda: shared_by(a, b), "the classic members share the partitions", [a, b])
    assert group_type(migration_broker, group) == "classic"
    c = Member("consumer-c", consumer_config(migration_broker, group), [topic], ledger).start()
    produce(migration_broker, topic, partitions, 600)
    wait_until(lambda: shared_by(a, b, c), "the classic and consumer members share the partitions", [a, b, c])
    assert group_type(migration_broker, group) == "consumer"
    admin = AdminClient({"bootstrap.servers": migration_broker.bootstrap})
    described = admin.describe_consumer_groups([group])[group].result(timeout=30)
    assert described.type == ConsumerGroupType.CONSUMER and len(described.members) == 3
    a.close()
    b.close()
    wait_until(lambda: ledger.owned_by("consumer-c") == every, "the consumer member takes every partition", [c])
    assert group_type(migration_broker, group) == "consumer"
    d = Member("classic-d", classic_config(migration_broker, group), [topic], ledger).start()
    wait_until(lambda: shared_by(c, d), "a classic member joins the consumer group", [c, d])
    c.close()  # the last consumer-protocol member: the group becomes classic again
    produce(migration_broker, topic, partitions, 600)
    wait_until(lambda: ledger.owned_by("classic-d") == every, "the classic member takes every partition", [d])
    assert group_type(migration_broker, group) == "classic"
    members = (a, b, c, d)
    wait_until(lambda: len({r for m in members for r in m.consumed}) >= 1800, "every record is consumed", [d])
    d.close()
    consumed = [record for m in members for record in m.consumed]
    assert ledger.violations == [], ledger.events
    assert len(set(consumed)) == 1800
    failed_commits = [error for m in members for error in m.errors if error.startswith("commit")]
    assert len(consumed) == 1800 or failed_commits, "a record was consumed twice though every commit succeeded"


# --- raw classic members ---


def subscription(topic: str, version: int = 1) -> bytes:
    out = bytearray(pack_int16(version))
    ConsumerProtocolSubscription(topics=[topic]).write(out, version)
    return bytes(out)


def join(client: RawClient, group: str, topic: str, member: str = "", protocol_type: str = "consumer") -> Any:
    request = JoinGroupRequest(
        group_id=group, session_timeout_ms=6000, rebalance_timeout_ms=10_000, member_id=member,
        protocol_type=protocol_type,
        protocols=[JoinGroupRequestProtocol(name="range", metadata=subscription(topic))],
    )  # fmt: skip
    return client.request(request, 3)  # v3: no MEMBER_ID_REQUIRED round


def sync(client: RawClient, group: str, member: str, generation: int, assignments: list[Any] | None = None) -> Any:
    request = SyncGroupRequest(
        group_id=group, generation_id=generation, member_id=member, assignments=assignments or []
    )
    return client.request(request, 3)


def assigned_partitions(data: bytes) -> list[int]:
    if not data:
        return []
    message = ConsumerProtocolAssignment.read(Reader(data, 2), Reader(data, 0).int16())
    return sorted(p for t in message.assigned_partitions for p in t.partitions)


def beat(client: RawClient, group: str, member: str, generation: int) -> int:
    request = HeartbeatRequest(group_id=group, generation_id=generation, member_id=member)
    return int(client.request(request, 3).error_code)


def commit(client: RawClient, group: str, topic: str, member: str, generation: int) -> int:
    request = OffsetCommitRequest(
        group_id=group, generation_id_or_member_epoch=generation, member_id=member,
        topics=[OffsetCommitRequestTopic(name=topic, partitions=[OffsetCommitRequestPartition(committed_offset=1)])],
    )  # fmt: skip
    (answer,) = client.request(request, 8).topics
    return int(answer.partitions[0].error_code)


def classic_member_of(client: RawClient, group: str, topic: str) -> tuple[str, int]:
    """A raw classic member that joined ``group`` alone and synced (it leads and assigns itself nothing)."""
    joined = join(client, group, topic)
    assert joined.error_code == 0 and joined.leader == joined.member_id
    synced = sync(client, group, joined.member_id, joined.generation_id)
    assert synced.error_code == 0
    return joined.member_id, joined.generation_id


def test_raw_classic_members_of_a_consumer_group_get_kafkas_errors(migration_broker: BrokerProcess) -> None:
    suffix = uuid.uuid4().hex[:6]
    topic, group = f"raw-mig-{suffix}", f"raw-mig-group-{suffix}"
    create_topic(migration_broker, topic, 4)
    with RawClient(migration_broker.bootstrap) as client:
        classic_id, generation = classic_member_of(client, group, topic)
        upgraded = heartbeat(client, group, "new-1", 0, subscribed_topic_names=[topic])
        assert upgraded.error_code == 0 and upgraded.member_epoch == generation + 1
        assert beat(client, group, classic_id, generation) == ErrorCode.REBALANCE_IN_PROGRESS
        assert beat(client, group, classic_id, generation + 7) == ErrorCode.ILLEGAL_GENERATION
        assert beat(client, group, "nobody", generation) == ErrorCode.UNKNOWN_MEMBER_ID
        assert beat(client, group, "new-1", 1) == ErrorCode.UNKNOWN_MEMBER_ID  # not a classic member
        assert commit(client, group, topic, classic_id, generation + 7) == ErrorCode.ILLEGAL_GENERATION
        assert join(client, group, topic, protocol_type="connect").error_code == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        rejoined = join(client, group, topic, classic_id)
        assert (rejoined.error_code, rejoined.leader, rejoined.members) == (0, "", [])  # the broker assigns
        assert rejoined.generation_id == generation + 1 and rejoined.protocol_name == "range"
        assert sync(client, group, classic_id, generation).error_code == ErrorCode.ILLEGAL_GENERATION
        synced = sync(client, group, classic_id, rejoined.generation_id)
        assert synced.error_code == 0 and len(assigned_partitions(synced.assignment)) == 2
        assert commit(client, group, topic, classic_id, rejoined.generation_id) == ErrorCode.NONE
        assert beat(client, group, classic_id, rejoined.generation_id) == ErrorCode.NONE
        left = client.request(LeaveGroupRequest(group_id=group, members=[MemberIdentity(member_id=classic_id)]), 3)
        assert [m.error_code for m in left.members] == [0]
        (described,) = client.request(ConsumerGroupDescribeRequest(group_ids=[group]), 0).groups
        assert [m.member_id for m in described.members] == ["new-1"]


def test_the_migration_policy_decides_and_a_converted_group_survives_a_restart(tmp_path: Path) -> None:
    settings = {**SETTINGS, "group.consumer.migration.policy": "upgrade"}
    broker = BrokerProcess(tmp_path / "broker", settings=settings).start()
    try:
        topic, group = "policy-topic", "policy-group"
        create_topic(broker, topic, 2)
        with RawClient(broker.bootstrap) as client:
            classic_id, generation = classic_member_of(client, group, topic)
            assert heartbeat(client, group, "new-1", 0, subscribed_topic_names=[topic]).error_code == 0
        broker.restart()
        with RawClient(broker.bootstrap) as client:
            assert group_type(broker, group) == "consumer"
            (described,) = client.request(ConsumerGroupDescribeRequest(group_ids=[group]), 0).groups
            assert sorted(m.member_id for m in described.members) == sorted([classic_id, "new-1"])
            assert beat(client, group, classic_id, generation) == ErrorCode.REBALANCE_IN_PROGRESS
            assert heartbeat(client, group, "new-1", -1).error_code == 0  # leaves: "upgrade" keeps the group
            assert group_type(broker, group) == "consumer"
    finally:
        broker.stop()
    settings = {**SETTINGS, "group.consumer.migration.policy": "disabled"}
    broker = BrokerProcess(tmp_path / "disabled", settings=settings).start()
    try:
        create_topic(broker, "policy-topic", 2)
        with RawClient(broker.bootstrap) as client:
            classic_member_of(client, "policy-group", "policy-topic")
            refused = heartbeat(client, "policy-group", "new-1", 0, subscribed_topic_names=["policy-topic"])
            assert refused.error_code == ErrorCode.GROUP_ID_NOT_FOUND and "disabled" in refused.error_message
            assert group_type(broker, "policy-group") == "classic"
    finally:
        broker.stop()


def test_a_kafka_python_member_carries_on_as_a_classic_member_of_the_upgraded_group(
    migration_broker: BrokerProcess,
) -> None:
    suffix = uuid.uuid4().hex[:6]
    topic, group = f"kp-mig-{suffix}", f"kp-mig-group-{suffix}"
    create_topic(migration_broker, topic, 4)
    produce(migration_broker, topic, 4, 40)
    classic = KafkaConsumer(
        topic, bootstrap_servers=migration_broker.bootstrap, group_id=group, auto_offset_reset="earliest",
        enable_auto_commit=False, session_timeout_ms=6000, heartbeat_interval_ms=300,
    )  # fmt: skip
    try:
        read = poll_until(classic, lambda: len(classic.assignment()) == 4, 40)
        classic.commit()
        with RawClient(migration_broker.bootstrap) as client:
            joined = heartbeat(client, group, "raw-new", 0, subscribed_topic_names=[topic])
            assert joined.error_code == 0 and group_type(migration_broker, group) == "consumer"
            epoch, owned = joined.member_epoch, []
            deadline = time.monotonic() + WAIT_S
            # kafka-python is told to rejoin, gives up two partitions, and the raw member gets them
            while sum(len(t.partitions) for t in owned) < 2 and time.monotonic() < deadline:
                read += poll_until(classic, lambda: True, 0)
                answer = heartbeat(client, group, "raw-new", epoch, topic_partitions=owned)
                assert answer.error_code == 0, answer.error_message
                epoch = answer.member_epoch
                if answer.assignment is not None:
                    owned = answer.assignment.topic_partitions
            mine = {p for t in owned for p in t.partitions}
            assert len(mine) == 2, f"the raw member owns {sorted(mine)} after {WAIT_S} s"
            # The broker frees an eager member's partitions at its JoinGroup (it gave them all up before joining), so
            # the raw member can hold its two before kafka-python's SyncGroup is answered; kafka-python's assignment()
            # changes only then, in one of its next polls.
            theirs = {0, 1, 2, 3} - mine
            read += poll_until(classic, lambda: {tp.partition for tp in classic.assignment()} == theirs, 0)
            assert {tp.partition for tp in classic.assignment()} == theirs
        assert read == 40
    finally:
        classic.close()


def poll_until(consumer: KafkaConsumer, done: Callable[[], bool], records: int) -> int:
    """Poll ``consumer`` until ``done()`` and ``records`` records read (once at least); how many were read."""
    read = 0
    deadline = time.monotonic() + WAIT_S
    while True:
        read += sum(len(batch) for batch in consumer.poll(timeout_ms=100).values())
        if (read >= records and done()) or time.monotonic() > deadline:
            return read
