"""Authorization per API family through the broker's dispatcher: for each, an allowed and a denied principal,
literal against prefixed ACLs, DENY over ALLOW, and that a refused request changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.facade.broker import Broker
from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import create_topics as ct
from rockafka.facade.protocol.messages import delete_topics as dt
from rockafka.facade.protocol.messages import describe_configs as dc
from rockafka.facade.protocol.messages import describe_groups as dg
from rockafka.facade.protocol.messages import describe_log_dirs as dld
from rockafka.facade.protocol.messages import fetch as fe
from rockafka.facade.protocol.messages import join_group as jg
from rockafka.facade.protocol.messages import list_groups as lg
from rockafka.facade.protocol.messages import list_offsets as lo
from rockafka.facade.protocol.messages import metadata as md
from rockafka.facade.protocol.messages import offset_commit as oc
from rockafka.facade.protocol.messages import offset_fetch as of
from rockafka.facade.protocol.messages import produce as pr
from rockafka.facade.security import AclOperation, AclPermission, PatternType, ResourceType, binding

from .wire import Conn, broker, connect

Op, P = AclOperation, PatternType
TOPIC, GROUP, CLUSTER = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER
ALLOW, DENY = AclPermission.ALLOW, AclPermission.DENY
SETTINGS = (
    "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users=User:admin",
    "group.initial.rebalance.delay.ms=0",
)
ACLS = [
    # alice: everything on topics starting "app-", but DENY WRITE on app-locked; READ on group g-alice
    (TOPIC, "app-", P.PREFIXED, "User:alice", Op.ALL, ALLOW),
    (TOPIC, "app-locked", P.LITERAL, "User:alice", Op.WRITE, DENY),
    (GROUP, "g-alice", P.LITERAL, "User:alice", Op.READ, ALLOW),
    # bob: DESCRIBE on app-orders only (literal), CREATE on the cluster
    (TOPIC, "app-orders", P.LITERAL, "User:bob", Op.DESCRIBE, ALLOW),
    (CLUSTER, "kafka-cluster", P.LITERAL, "User:bob", Op.CREATE, ALLOW),
]


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Broker, RequestDispatcher]]:
    with broker(tmp_path, *SETTINGS) as (instance, dispatcher):
        for name in ("app-orders", "app-locked", "secret"):
            instance.store.topics.create(name, 1)
        assert dispatcher.security is not None
        dispatcher.security.acls.add([binding(k, n, p, who, "*", op, perm) for k, n, p, who, op, perm in ACLS])
        yield instance, dispatcher


def conn(setup: tuple[Broker, RequestDispatcher], principal: str) -> Conn:
    return connect(setup[1], principal)


def names(response: md.MetadataResponse) -> dict[str, int]:
    return {t.name or "": t.error_code for t in response.topics}


def test_metadata_hides_and_refuses_topics(setup: tuple[Broker, RequestDispatcher]) -> None:
    every = md.MetadataRequest(topics=None, include_topic_authorized_operations=True)
    assert set(names(conn(setup, "User:admin").call(every, 10))) == {"app-orders", "app-locked", "secret"}
    assert set(names(conn(setup, "User:alice").call(every, 10))) == {"app-orders", "app-locked"}
    assert set(names(conn(setup, "User:bob").call(every, 10))) == {"app-orders"}
    assert names(conn(setup, "User:mallory").call(every, 10)) == {}
    asked = md.MetadataRequest(topics=[md.MetadataRequestTopic(name=n) for n in ("secret", "app-orders")])
    assert names(conn(setup, "User:alice").call(asked, 9)) == {
        "secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
        "app-orders": ErrorCode.NONE,
    }
    ops = {t.name: t.topic_authorized_operations for t in conn(setup, "User:bob").call(every, 10).topics}
    assert ops == {"app-orders": 1 << Op.DESCRIBE}


def test_metadata_auto_creation_needs_create(setup: tuple[Broker, RequestDispatcher]) -> None:
    broker_, _ = setup
    ask = md.MetadataRequest(topics=[md.MetadataRequestTopic(name="app-new")], allow_auto_topic_creation=True)
    # alice may DESCRIBE app-new (prefixed ALL) and CREATE it (ALL on the topic)
    assert names(conn(setup, "User:alice").call(ask, 9)) == {"app-new": ErrorCode.LEADER_NOT_AVAILABLE}
    other = md.MetadataRequest(topics=[md.MetadataRequestTopic(name="other")], allow_auto_topic_creation=True)
    assert names(conn(setup, "User:alice").call(other, 9)) == {"other": ErrorCode.TOPIC_AUTHORIZATION_FAILED}
    assert broker_.topic_or_none("other") is None


def test_create_and_delete_topics(setup: tuple[Broker, RequestDispatcher]) -> None:
    broker_, _ = setup
    create = ct.CreateTopicsRequest(
        topics=[ct.CreatableTopic(name=n, num_partitions=1, replication_factor=1) for n in ("app-x", "zzz")],
        timeout_ms=1000,
    )
    by_alice = conn(setup, "User:alice").call(create, 5)
    assert {t.name: t.error_code for t in by_alice.topics} == {
        "app-x": ErrorCode.NONE,
        "zzz": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    }
    assert broker_.topic_or_none("zzz") is None
    create.topics = [ct.CreatableTopic(name="zzz", num_partitions=1, replication_factor=1)]
    assert conn(setup, "User:bob").call(create, 5).topics[0].error_code == ErrorCode.NONE  # CREATE on the cluster
    delete = dt.DeleteTopicsRequest(topic_names=["app-x", "secret"], timeout_ms=1000)
    by_alice_delete = conn(setup, "User:alice").call(delete, 3)
    assert {r.name: r.error_code for r in by_alice_delete.responses} == {
        "app-x": ErrorCode.NONE,
        "secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    }
    assert broker_.topic_or_none("secret") is not None


def test_describe_configs_by_resource(setup: tuple[Broker, RequestDispatcher]) -> None:
    request = dc.DescribeConfigsRequest(
        resources=[
            dc.DescribeConfigsResource(resource_type=2, resource_name="app-orders", configuration_keys=None),
            dc.DescribeConfigsResource(resource_type=2, resource_name="secret", configuration_keys=None),
            dc.DescribeConfigsResource(resource_type=4, resource_name="0", configuration_keys=None),
        ]
    )
    results = conn(setup, "User:alice").call(request, 4).results
    assert [r.error_code for r in results] == [
        ErrorCode.NONE,
        ErrorCode.TOPIC_AUTHORIZATION_FAILED,
        ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
    ]
    assert [r.error_code for r in conn(setup, "User:admin").call(request, 4).results] == [0, 0, 0]


def test_group_apis_need_the_group(setup: tuple[Broker, RequestDispatcher]) -> None:
    join = jg.JoinGroupRequest(
        group_id="g-other",
        session_timeout_ms=10000,
        rebalance_timeout_ms=10000,
        member_id="",
        protocol_type="consumer",
        protocols=[jg.JoinGroupRequestProtocol(name="range", metadata=b"")],
    )
    assert conn(setup, "User:alice").call(join, 5).error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED
    join.group_id = "g-alice"
    assert conn(setup, "User:alice").call(join, 5).error_code == ErrorCode.MEMBER_ID_REQUIRED  # admitted
    described = conn(setup, "User:bob").call(dg.DescribeGroupsRequest(groups=["g-alice"]), 5).groups
    assert [g.error_code for g in described] == [ErrorCode.GROUP_AUTHORIZATION_FAILED]
    listed = conn(setup, "User:alice").call(lg.ListGroupsRequest(), 4).groups
    assert [g.group_id for g in listed] == ["g-alice"]  # READ implies DESCRIBE
    assert conn(setup, "User:bob").call(lg.ListGroupsRequest(), 4).groups == []


def test_offset_commit_is_refused_per_topic_and_writes_nothing_refused(setup: tuple[Broker, RequestDispatcher]) -> None:
    commit = oc.OffsetCommitRequest(
        group_id="g-alice",
        generation_id_or_member_epoch=-1,
        member_id="",
        topics=[
            oc.OffsetCommitRequestTopic(
                name=name, partitions=[oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=5)]
            )
            for name in ("app-orders", "secret")
        ],
    )
    answer = conn(setup, "User:alice").call(commit, 8)
    assert {t.name: t.partitions[0].error_code for t in answer.topics} == {
        "app-orders": ErrorCode.NONE,
        "secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    }
    commit.group_id = "g-other"
    whole = conn(setup, "User:alice").call(commit, 8)
    assert {t.partitions[0].error_code for t in whole.topics} == {ErrorCode.GROUP_AUTHORIZATION_FAILED}
    fetch = of.OffsetFetchRequest(group_id="g-alice", topics=None)
    committed = conn(setup, "User:admin").call(fetch, 7)
    assert {(t.name, t.partitions[0].committed_offset) for t in committed.topics} == {("app-orders", 5)}
    assert conn(setup, "User:bob").call(fetch, 7).error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED


def test_cluster_apis_need_the_cluster_operation(setup: tuple[Broker, RequestDispatcher]) -> None:
    request = dld.DescribeLogDirsRequest(topics=None)
    assert conn(setup, "User:alice").call(request, 4).error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    assert conn(setup, "User:admin").call(request, 4).error_code == ErrorCode.NONE


def _batch(value: bytes) -> bytes:
    builder = DefaultRecordBatchBuilder(2, 0, False, -1, -1, -1, False)
    builder.append(0, timestamp=1_700_000_000_000, key=None, value=value, headers=[])
    return bytes(builder.build())


def test_produce_fetch_and_list_offsets_need_their_topic_operation(setup: tuple[Broker, RequestDispatcher]) -> None:
    broker_, _ = setup
    produce = pr.ProduceRequest(
        acks=1,
        timeout_ms=5000,
        topic_data=[
            pr.TopicProduceData(name=n, partition_data=[pr.PartitionProduceData(index=0, records=_batch(b"v"))])
            for n in ("app-orders", "app-locked", "secret")
        ],
    )
    answer = conn(setup, "User:alice").call(produce, 9)
    assert {t.name: t.partition_responses[0].error_code for t in answer.responses} == {
        "app-orders": ErrorCode.NONE,
        "app-locked": ErrorCode.TOPIC_AUTHORIZATION_FAILED,  # DENY WRITE over the prefixed ALLOW ALL
        "secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    }
    assert [
        broker_.store.records.partition_offsets(n, 0).high_watermark for n in ("app-orders", "app-locked", "secret")
    ] == [
        1,
        0,
        0,
    ]
    fetch = fe.FetchRequest(
        max_wait_ms=0,
        min_bytes=0,
        max_bytes=1 << 20,
        topics=[
            fe.FetchTopic(
                topic=n, partitions=[fe.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)]
            )
            for n in ("app-orders", "secret")
        ],
    )
    fetched = conn(setup, "User:bob").call(fetch, 11)  # bob may only DESCRIBE app-orders
    assert [p.error_code for t in fetched.responses for p in t.partitions] == [ErrorCode.TOPIC_AUTHORIZATION_FAILED] * 2
    fetched = conn(setup, "User:alice").call(fetch, 11)
    assert [p.error_code for t in fetched.responses for p in t.partitions] == [0, ErrorCode.TOPIC_AUTHORIZATION_FAILED]
    offsets = lo.ListOffsetsRequest(
        replica_id=-1,
        topics=[lo.ListOffsetsTopic(name=n, partitions=[lo.ListOffsetsPartition(partition_index=0, timestamp=-1)])
                for n in ("app-orders", "secret")],
    )  # fmt: skip
    listed = conn(setup, "User:bob").call(offsets, 5)
    assert [(t.name, t.partitions[0].error_code, t.partitions[0].offset) for t in listed.topics] == [
        ("app-orders", 0, 1),
        ("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, -1),
    ]
