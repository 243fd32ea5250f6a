"""What kafka-python's own suite checks when run as against Kafka 4.0 (KAFKA_VERSION=4.0), reproduced here
because CI cannot run the upstream suites: version inference from ListOffsets v10, DescribeTopicPartitions
(KIP-966) and its cursor pages, DescribeQuorum, ``advertised.listeners`` described as a static broker
setting, and ACLs under the allow-everyone authorizer its fixture configures.

The broker has the suite's settings (``compat_tests/upstream/suites.py``): 4 partitions on auto-create,
``advertised.listeners`` set, Kafka's ACL authorizer with ``allow.everyone.if.no.acl.found=true``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
from kafka import KafkaAdminClient, KafkaConsumer
from kafka.admin import (
    ACL,
    ACLFilter,
    ACLOperation,
    ACLPermissionType,
    ConfigResource,
    ConfigResourceType,
    NewTopic,
    ResourcePattern,
    ResourceType,
)

from rockafka.facade.handlers.authorized import TOPIC_OPERATIONS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import create_acls as ca
from rockafka.facade.protocol.messages import delete_acls as da
from rockafka.facade.protocol.messages import describe_quorum as dq
from rockafka.facade.protocol.messages import describe_topic_partitions as dtp
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, SMALL_STORE
from .clients.records import Rec, unique_topic
from .clients.wire import RawClient, record_batch

pytestmark = QUIET_KAFKA_PYTHON
ZERO_UUID = uuid.UUID(int=0)
# Kafka's AclResourceType / AclOperation / AclPermissionType / PatternType codes
TOPIC, CLUSTER, ALL, DESCRIBE, DENY, ALLOW, LITERAL, PREFIXED = 2, 4, 2, 8, 2, 3, 3, 4


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path_factory.mktemp("broker"), dict(SMALL_STORE))
    process.settings.update(
        {
            "num.partitions": "4",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{process.port}",
            "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "allow.everyone.if.no.acl.found": "true",
        }
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def client(broker: BrokerProcess) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as raw:
        yield raw


@pytest.fixture
def admin(broker: BrokerProcess) -> Iterator[KafkaAdminClient]:
    client = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=10_000)
    try:
        yield client
    finally:
        client.close()


def create_topics(admin: KafkaAdminClient, **partitions: int) -> None:
    admin.create_topics([NewTopic(name, count, 1) for name, count in partitions.items()])


# --- version inference and ListOffsets v10 ---


def test_kafka_python_infers_kafka_4_0(broker: BrokerProcess) -> None:
    """kafka-python reads an advertised ListOffsets v10 as Kafka 4.0 (upstream test_kafka_version_infer)."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, api_version=None)
    try:
        assert consumer.config["api_version"] == (4, 0)
    finally:
        consumer.close()


def test_list_offsets_v10_with_a_timeout_answers_like_v9(client: RawClient, admin: KafkaAdminClient) -> None:
    topic = unique_topic("k4-offsets")
    create_topics(admin, **{topic: 1})
    base = 1_700_000_000_000
    batch = record_batch([Rec(b"a", b"1", (), base), Rec(b"b", b"2", (), base + 10)])
    data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])
    produced = client.request(ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[data]), 9, ProduceResponse)
    assert produced.responses[0].partition_responses[0].error_code == 0
    for timestamp, offset, found_at in ((-2, 0, -1), (-1, 2, -1), (base + 5, 1, base + 10), (-3, 1, base + 10)):
        request = ListOffsetsRequest(
            replica_id=-1,
            timeout_ms=30_000,
            topics=[
                ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=0, timestamp=timestamp)])
            ],
        )
        for version in (9, 10):
            part = client.request(request, version, ListOffsetsResponse).topics[0].partitions[0]
            assert (part.error_code, part.offset, part.timestamp, part.leader_epoch) == (0, offset, found_at, 0)


# --- DescribeTopicPartitions ---


def describe_partitions(
    client: RawClient, names: list[str], limit: int = 2000, cursor: tuple[str, int] | None = None
) -> dtp.DescribeTopicPartitionsResponse:
    request = dtp.DescribeTopicPartitionsRequest(
        topics=[dtp.TopicRequest(name=name) for name in names],
        response_partition_limit=limit,
        cursor=None if cursor is None else dtp.Cursor(topic_name=cursor[0], partition_index=cursor[1]),
    )
    return client.request(request, 0, dtp.DescribeTopicPartitionsResponse)


def pages(answer: dtp.DescribeTopicPartitionsResponse) -> tuple[list[tuple[str | None, list[int]]], object]:
    """(topic, partition indexes) per topic answered, and the next cursor as a tuple (or None)."""
    shown = [(topic.name, [p.partition_index for p in topic.partitions]) for topic in answer.topics]
    cursor = answer.next_cursor
    return shown, None if cursor is None else (cursor.topic_name, cursor.partition_index)


def test_describe_topic_partitions_with_kafka_python(admin: KafkaAdminClient) -> None:
    """The upstream tests: one topic with its 4 partitions, then one partition a page, following the cursor."""
    topic = unique_topic("k4-dtp")
    create_topics(admin, **{topic: 4})
    whole = admin.describe_topic_partitions([topic])
    assert whole["next_cursor"] is None
    (described,) = whole["topics"]
    assert (described["name"], described["error_code"], described["is_internal"]) == (topic, 0, False)
    assert described["topic_id"] != ZERO_UUID
    assert described["topic_authorized_operations"] == TOPIC_OPERATIONS
    assert [
        (p["partition_index"], p["leader_id"], p["replica_nodes"], p["isr_nodes"]) for p in described["partitions"]
    ] == [(index, 0, [0], [0]) for index in range(4)]
    first = admin.describe_topic_partitions([topic], response_partition_limit=1)
    assert [p["partition_index"] for p in first["topics"][0]["partitions"]] == [0]
    assert first["next_cursor"] == {"topic_name": topic, "partition_index": 1}
    rest = admin.describe_topic_partitions([topic], response_partition_limit=10, cursor=first["next_cursor"])
    assert [p["partition_index"] for p in rest["topics"][0]["partitions"]] == [1, 2, 3]
    assert rest["next_cursor"] is None


def test_describe_topic_partitions_pages_across_topics(client: RawClient, admin: KafkaAdminClient) -> None:
    """Topics sorted by name, duplicates once; a page ends inside a topic (cursor there) or exactly at a topic's
    end (cursor at the next topic's partition 0); a cursor skips the topics before it."""
    prefix = unique_topic("k4-pages")
    a, b, c = f"{prefix}-a", f"{prefix}-b", f"{prefix}-c"
    create_topics(admin, **{a: 3, b: 2, c: 1})
    assert pages(describe_partitions(client, [c, a, b, a], limit=4)) == ([(a, [0, 1, 2]), (b, [0])], (b, 1))
    assert pages(describe_partitions(client, [c, a, b], limit=4, cursor=(b, 1))) == ([(b, [1]), (c, [0])], None)
    assert pages(describe_partitions(client, [a, b, c], limit=3)) == ([(a, [0, 1, 2])], (b, 0))
    assert pages(describe_partitions(client, [a, b, c], limit=0)) == ([(a, [0])], (a, 1))  # at least one
    assert pages(describe_partitions(client, [a], cursor=(a, 7))) == ([(a, [])], None)
    everything, cursor = pages(describe_partitions(client, []))
    names = [name for name, _ in everything]
    assert names == sorted(names) and [a, b, c] == [name for name in names if name and name.startswith(prefix)]
    assert cursor is None


def test_describe_topic_partitions_errors(client: RawClient) -> None:
    missing, illegal = unique_topic("k4-missing"), "bad name!"
    answer = describe_partitions(client, [missing, illegal])
    assert [(t.name, t.error_code, t.topic_id, t.partitions) for t in answer.topics] == [
        (illegal, ErrorCode.INVALID_TOPIC_EXCEPTION, ZERO_UUID, []),
        (missing, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ZERO_UUID, []),
    ]
    for names, cursor in (([missing], (illegal, 0)), ([missing], (missing, -1))):
        refused = describe_partitions(client, names, cursor=cursor)
        assert [(t.name, t.error_code) for t in refused.topics] == [(missing, ErrorCode.INVALID_REQUEST)]


def acl_binding(
    resource_type: int, name: str, pattern: int, operation: int, permission: int
) -> tuple[ca.AclCreation, da.DeleteAclsFilter]:
    """An ACL for the anonymous principal (a PLAINTEXT client) from any host, and the filter deleting it."""
    creation = ca.AclCreation(
        resource_type=resource_type,
        resource_name=name,
        resource_pattern_type=pattern,
        principal="User:ANONYMOUS",
        host="*",
        operation=operation,
        permission_type=permission,
    )
    removal = da.DeleteAclsFilter(
        resource_type_filter=resource_type,
        resource_name_filter=name,
        pattern_type_filter=pattern,
        principal_filter="User:ANONYMOUS",
        host_filter="*",
        operation=operation,
        permission_type=permission,
    )
    return creation, removal


def test_describe_topic_partitions_hides_topics_the_principal_may_not_describe(
    client: RawClient, admin: KafkaAdminClient
) -> None:
    """Left out of an all-topics answer; named, TOPIC_AUTHORIZATION_FAILED with no id, after the others."""
    prefix = unique_topic("k4-hidden")
    shown, hidden = f"{prefix}-shown", f"{prefix}-secret"
    create_topics(admin, **{shown: 1, hidden: 2})
    creation, removal = acl_binding(TOPIC, hidden, PREFIXED, DESCRIBE, DENY)
    created = client.request(ca.CreateAclsRequest(creations=[creation]), 3, ca.CreateAclsResponse)
    assert [r.error_code for r in created.results] == [0]
    try:
        named = describe_partitions(client, [hidden, shown])
        assert [(t.name, t.error_code, t.topic_id, len(t.partitions)) for t in named.topics] == [
            (shown, 0, named.topics[0].topic_id, 1),
            (hidden, ErrorCode.TOPIC_AUTHORIZATION_FAILED, ZERO_UUID, 0),
        ]
        listed = [t.name for t in describe_partitions(client, []).topics]
        assert shown in listed and hidden not in listed
    finally:
        deleted = client.request(da.DeleteAclsRequest(filters=[removal]), 3, da.DeleteAclsResponse)
        assert [len(r.matching_acls) for r in deleted.filter_results] == [1]


# --- DescribeQuorum ---


def quorum_request(topic: str = "__cluster_metadata", partitions: tuple[int, ...] = (0,)) -> dq.DescribeQuorumRequest:
    asked = [dq.DescribeQuorumRequestPartitionData(partition_index=index) for index in partitions]
    return dq.DescribeQuorumRequest(topics=[dq.DescribeQuorumRequestTopicData(topic_name=topic, partitions=asked)])


@pytest.mark.parametrize("version", [0, 1, 2])
def test_describe_quorum_every_version(client: RawClient, broker: BrokerProcess, version: int) -> None:
    before = int(time.time() * 1000)
    answer = client.request(quorum_request(), version, dq.DescribeQuorumResponse)
    after = int(time.time() * 1000)
    assert answer.error_code == 0
    (topic,) = answer.topics
    (partition,) = topic.partitions
    assert (topic.topic_name, partition.partition_index, partition.error_code) == ("__cluster_metadata", 0, 0)
    assert (partition.leader_id, partition.leader_epoch, partition.high_watermark) == (0, 1, 0)
    (voter,) = partition.current_voters
    assert (voter.replica_id, voter.log_end_offset, partition.observers) == (0, 0, [])
    if version >= 1:  # the leader's own timestamps are the current time, as Kafka reports them
        assert before <= voter.last_fetch_timestamp <= after
        assert before <= voter.last_caught_up_timestamp <= after
    else:
        assert (voter.last_fetch_timestamp, voter.last_caught_up_timestamp) == (-1, -1)
    if version >= 2:
        assert (answer.error_message, partition.error_message) == (None, None)
        assert [(n.node_id, [(x.name, x.host, x.port) for x in n.listeners]) for n in answer.nodes] == [
            (0, [("PLAINTEXT", "127.0.0.1", broker.port)])
        ]


def test_describe_quorum_other_partitions_are_unknown(client: RawClient) -> None:
    for request in (quorum_request(partitions=(1,)), quorum_request("other"), quorum_request(partitions=(0, 0))):
        answer = client.request(request, 2, dq.DescribeQuorumResponse)
        asked = [(t.topic_name, [p.partition_index for p in t.partitions]) for t in request.topics]
        assert [(t.topic_name, [p.partition_index for p in t.partitions]) for t in answer.topics] == asked
        assert {p.error_code for t in answer.topics for p in t.partitions} == {ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}


def test_describe_quorum_needs_describe_on_the_cluster(client: RawClient) -> None:
    """With DESCRIBE on the cluster denied (and everything else allowed: once an ACL names the cluster,
    allow.everyone.if.no.acl.found no longer applies to it, and DeleteAcls needs ALTER there)."""
    creations, removals = zip(
        *(
            acl_binding(CLUSTER, "kafka-cluster", LITERAL, op, permission)
            for op, permission in ((ALL, ALLOW), (DESCRIBE, DENY))
        ),
        strict=True,
    )
    created = client.request(ca.CreateAclsRequest(creations=list(creations)), 3, ca.CreateAclsResponse)
    assert [result.error_code for result in created.results] == [0, 0]
    try:
        refused = client.request(quorum_request(), 2, dq.DescribeQuorumResponse)
        assert (refused.error_code, refused.topics) == (ErrorCode.CLUSTER_AUTHORIZATION_FAILED, [])
    finally:
        deleted = client.request(da.DeleteAclsRequest(filters=list(removals)), 3, da.DeleteAclsResponse)
        assert [len(result.matching_acls) for result in deleted.filter_results] == [1, 1]
    assert client.request(quorum_request(), 2, dq.DescribeQuorumResponse).error_code == 0


def test_describe_metadata_quorum_with_kafka_python(admin: KafkaAdminClient) -> None:
    """The upstream test_describe_metadata_quorum."""
    result = admin.describe_metadata_quorum()
    assert "error_code" not in result and "error_message" not in result
    (topic,) = result["topics"]
    (partition,) = topic["partitions"]
    assert (topic["topic_name"], partition["partition_index"], partition["error"]) == ("__cluster_metadata", 0, None)
    assert (partition["leader_id"], partition["leader_epoch"], partition["high_watermark"]) == (0, 1, 0)
    assert [voter["replica_id"] for voter in partition["current_voters"]] == [0]


# --- DescribeConfigs and ACLs as the suite's fixture configures the broker ---


def test_advertised_listeners_is_a_read_only_static_broker_setting(
    admin: KafkaAdminClient, broker: BrokerProcess
) -> None:
    """Upstream test_describe_configs_broker_resource_returns_configs at 4.0: kafka.properties sets it."""
    configs = admin.describe_configs([ConfigResource(ConfigResourceType.BROKER, 0)], config_filter="all")
    entry = configs["broker"]["0"]["advertised.listeners"]
    assert entry == {
        "value": f"PLAINTEXT://127.0.0.1:{broker.port}",
        "read_only": True,
        "config_source": "STATIC_BROKER_CONFIG",
        "is_sensitive": False,
        "synonyms": [],
        "config_type": "LIST",
        "documentation": None,
    }


def test_acls_created_listed_and_deleted_under_allow_everyone(admin: KafkaAdminClient) -> None:
    """Upstream test_create_describe_delete_acls: nothing named, one created and listed, then deleted."""
    topic = unique_topic("k4-acl")
    pattern = ResourcePattern(ResourceType.TOPIC, topic)
    everything = ACLFilter(
        principal=None,
        host="*",
        operation=ACLOperation.ANY,
        permission_type=ACLPermissionType.ANY,
        resource_pattern=pattern,
    )
    assert admin.describe_acls(everything)[0] == []
    acl = ACL("User:test", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)
    created = admin.create_acls([acl])
    assert (len(created["succeeded"]), len(created["failed"])) == (1, 0)
    assert len(admin.describe_acls(everything)[0]) == 1
    deleted = admin.delete_acls([ACLFilter("User:test", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)])
    assert len(deleted) == 1 and len(deleted[0][1]) == 1
    assert admin.describe_acls(everything)[0] == []
