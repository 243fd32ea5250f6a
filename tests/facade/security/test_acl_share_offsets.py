"""Authorization of the share-group offset admin APIs through the broker's dispatcher, as Kafka checks them:
DescribeShareGroupOffsets DESCRIBE on the group and each topic, AlterShareGroupOffsets READ on both,
DeleteShareGroupOffsets DELETE on the group and READ on each topic; a refused change changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import alter_share_group_offsets as alt
from rockafka.facade.protocol.messages import delete_share_group_offsets as dlt
from rockafka.facade.protocol.messages import describe_share_group_offsets as dsc
from rockafka.facade.protocol.messages import share_group_heartbeat as sgh
from rockafka.facade.security import AclOperation, AclPermission, PatternType, ResourceType, binding

from .wire import Conn, broker, connect

Op = AclOperation
TOPIC, GROUP = ResourceType.TOPIC, ResourceType.GROUP
SETTINGS = ("authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer", "super.users=User:admin")
OPEN, SECRET = "app-orders", "secret"
ACLS = [
    ("User:bob", GROUP, Op.DESCRIBE),  # bob describes
    ("User:bob", TOPIC, Op.DESCRIBE),
    ("User:alice", GROUP, Op.READ),  # alice alters
    ("User:alice", TOPIC, Op.READ),
    ("User:carol", GROUP, Op.DELETE),  # carol deletes
    ("User:carol", TOPIC, Op.READ),
]
DENIED_TOPIC = ErrorCode.TOPIC_AUTHORIZATION_FAILED


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[RequestDispatcher]:
    with broker(tmp_path, *SETTINGS) as (instance, dispatcher):
        for name in (OPEN, SECRET):
            instance.store.topics.create(name, 1)
        assert dispatcher.security is not None
        dispatcher.security.acls.add(
            [
                binding(kind, "g" if kind is GROUP else OPEN, PatternType.LITERAL, who, "*", op, AclPermission.ALLOW)
                for who, kind, op in ACLS
            ]
        )
        admin = connect(dispatcher, "User:admin")
        join = sgh.ShareGroupHeartbeatRequest(
            group_id="g", member_id="m", member_epoch=0, subscribed_topic_names=[OPEN]
        )
        assert admin.call(join, 1, sgh.ShareGroupHeartbeatResponse).error_code == ErrorCode.NONE
        leave = sgh.ShareGroupHeartbeatRequest(group_id="g", member_id="m", member_epoch=-1)
        assert admin.call(leave, 1, sgh.ShareGroupHeartbeatResponse).error_code == ErrorCode.NONE
        assert alter(admin, {OPEN: 3, SECRET: 5}) == (ErrorCode.NONE, {OPEN: 0, SECRET: 0})
        yield dispatcher


def describe(conn: Conn, topics: list[str] | None) -> tuple[int, dict[str, tuple[int, int]]]:
    """The group's error and, per topic, (partition 0's start offset, its error)."""
    asked = None if topics is None else [dsc.DescribeShareGroupOffsetsRequestTopic(topic_name=t, partitions=[0])
                                         for t in topics]  # fmt: skip
    request = dsc.DescribeShareGroupOffsetsRequest(
        groups=[dsc.DescribeShareGroupOffsetsRequestGroup(group_id="g", topics=asked)]
    )
    (group,) = conn.call(request, 0, dsc.DescribeShareGroupOffsetsResponse).groups
    return group.error_code, {t.topic_name: (t.partitions[0].start_offset, t.partitions[0].error_code)
                              for t in group.topics}  # fmt: skip


def alter(conn: Conn, offsets: dict[str, int]) -> tuple[int, dict[str, int]]:
    """The top-level error and, per topic, partition 0's error."""
    request = alt.AlterShareGroupOffsetsRequest(group_id="g", topics=[
        alt.AlterShareGroupOffsetsRequestTopic(topic_name=name, partitions=[
            alt.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=offset)])
        for name, offset in offsets.items()])  # fmt: skip
    answer = conn.call(request, 0, alt.AlterShareGroupOffsetsResponse)
    return answer.error_code, {t.topic_name: t.partitions[0].error_code for t in answer.responses}


def delete(conn: Conn, topics: list[str]) -> tuple[int, dict[str, int]]:
    request = dlt.DeleteShareGroupOffsetsRequest(
        group_id="g", topics=[dlt.DeleteShareGroupOffsetsRequestTopic(topic_name=name) for name in topics]
    )
    answer = conn.call(request, 0, dlt.DeleteShareGroupOffsetsResponse)
    return answer.error_code, {t.topic_name: t.error_code for t in answer.responses}


def test_describe_needs_describe_on_the_group_and_each_topic(setup: RequestDispatcher) -> None:
    bob = connect(setup, "User:bob")
    assert describe(bob, [OPEN, SECRET]) == (0, {OPEN: (3, 0), SECRET: (-1, DENIED_TOPIC)})
    assert describe(bob, None) == (0, {OPEN: (3, 0)})  # a topic bob may not describe is left out
    assert describe(connect(setup, "User:mallory"), None) == (ErrorCode.GROUP_AUTHORIZATION_FAILED, {})
    assert describe(connect(setup, "User:admin"), None) == (0, {OPEN: (3, 0), SECRET: (5, 0)})


def test_alter_needs_read_on_the_group_and_each_topic(setup: RequestDispatcher) -> None:
    refused = ErrorCode.GROUP_AUTHORIZATION_FAILED
    assert alter(connect(setup, "User:bob"), {OPEN: 7}) == (refused, {OPEN: refused})  # DESCRIBE is not enough
    assert alter(connect(setup, "User:alice"), {OPEN: 7, SECRET: 9}) == (0, {OPEN: 0, SECRET: DENIED_TOPIC})
    assert describe(connect(setup, "User:admin"), None) == (0, {OPEN: (7, 0), SECRET: (5, 0)})


def test_delete_needs_delete_on_the_group_and_read_on_each_topic(setup: RequestDispatcher) -> None:
    refused = ErrorCode.GROUP_AUTHORIZATION_FAILED
    assert delete(connect(setup, "User:alice"), [OPEN]) == (refused, {OPEN: refused})  # READ is not enough
    assert delete(connect(setup, "User:carol"), [OPEN, SECRET]) == (0, {OPEN: 0, SECRET: DENIED_TOPIC})
    assert describe(connect(setup, "User:admin"), [OPEN, SECRET]) == (0, {OPEN: (-1, 0), SECRET: (5, 0)})
