"""Group and transaction coordination across a 3-group cluster, with real admin clients and on the wire.

Only the broker that coordinates a group (its ``__consumer_offsets`` partition's leader) answers for it:
DescribeGroups and DeleteGroups answer NOT_COORDINATOR per group elsewhere, OffsetDelete and AddPartitionsToTxn
(for a transactional id) NOT_COORDINATOR, and ListGroups lists only the groups the broker coordinates, as
Kafka's brokers do; kafka-python's and confluent-kafka's admin clients ask every broker and merge the lists.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer
from confluent_kafka import TopicPartition as ConfluentTopicPartition
from confluent_kafka.admin import AdminClient
from kafka import KafkaAdminClient
from kafka.admin import NewTopic

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.add_partitions_to_txn import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnTopic,
)
from rockafka.facade.protocol.messages.delete_groups import DeleteGroupsRequest, DeleteGroupsResponse
from rockafka.facade.protocol.messages.describe_groups import DescribeGroupsRequest, DescribeGroupsResponse
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.facade.protocol.messages.list_groups import ListGroupsRequest, ListGroupsResponse
from rockafka.facade.protocol.messages.offset_delete import (
    OffsetDeleteRequest,
    OffsetDeleteRequestPartition,
    OffsetDeleteRequestTopic,
    OffsetDeleteResponse,
)
from rockafka.testing import Cluster

from .clients.cluster import wait_known_everywhere
from .clients.fixtures import QUIET_KAFKA_PYTHON
from .clients.records import unique_topic
from .clients.wire import RawClient

pytestmark = [pytest.mark.slow, QUIET_KAFKA_PYTHON]

DEADLINE_S = 60.0
GROUP_KEY, TRANSACTION_KEY = 0, 1


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=3) as running:
        yield running


@pytest.fixture(scope="module")
def topic(cluster: Cluster) -> str:
    """A 3-partition topic every broker lists."""
    name = unique_topic("coordination")
    admin = KafkaAdminClient(bootstrap_servers=cluster.brokers[1].bootstrap)
    try:
        admin.create_topics([NewTopic(name, 3, 1)])
    finally:
        admin.close()
    wait_known_everywhere(cluster, name, DEADLINE_S)
    return name


def _coordinator(cluster: Cluster, key: str, key_type: int) -> int:
    """The node coordinating ``key`` (the first lookup creates the internal topic and is answered "not available")."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            found = raw.request(FindCoordinatorRequest(key=key, key_type=key_type), 3, FindCoordinatorResponse)
        if found.error_code != ErrorCode.COORDINATOR_NOT_AVAILABLE or time.monotonic() > deadline:
            assert found.error_code == ErrorCode.NONE
            return found.node_id
        time.sleep(0.05)


def _commit_offsets(cluster: Cluster, group: str, topic: str) -> None:
    """Make ``group`` exist with committed offsets and no members (confluent-kafka finds its coordinator)."""
    consumer = Consumer({"bootstrap.servers": cluster.brokers[1].bootstrap, "group.id": group})
    try:
        consumer.commit(offsets=[ConfluentTopicPartition(topic, 0, 5)], asynchronous=False)
    finally:
        consumer.close()


def _listed_by(cluster: Cluster, node: int) -> set[str]:
    with RawClient(cluster.brokers[node].bootstrap) as raw:
        answer = raw.request(ListGroupsRequest(states_filter=[]), 4, ListGroupsResponse)
    assert answer.error_code == ErrorCode.NONE
    return {group.group_id for group in answer.groups}


def test_only_the_coordinator_describes_lists_and_deletes_offsets_of_a_group(cluster: Cluster, topic: str) -> None:
    group = unique_topic("described")
    coordinator = _coordinator(cluster, group, GROUP_KEY)
    _commit_offsets(cluster, group, topic)
    for node, broker in cluster.brokers.items():
        expected = ErrorCode.NONE if node == coordinator else ErrorCode.NOT_COORDINATOR
        with RawClient(broker.bootstrap) as raw:
            described = raw.request(DescribeGroupsRequest(groups=[group]), 5, DescribeGroupsResponse)
            assert [(g.group_id, g.error_code) for g in described.groups] == [(group, expected)]
            if node == coordinator:
                assert described.groups[0].group_state == "Empty"
            if node != coordinator:
                deleted = raw.request(
                    OffsetDeleteRequest(
                        group_id=group,
                        topics=[
                            OffsetDeleteRequestTopic(
                                name=topic, partitions=[OffsetDeleteRequestPartition(partition_index=0)]
                            )
                        ],
                    ),
                    0,
                    OffsetDeleteResponse,
                )
                assert deleted.error_code == ErrorCode.NOT_COORDINATOR
        assert (group in _listed_by(cluster, node)) == (node == coordinator)


def test_admin_clients_list_every_group_once_and_delete_it_through_its_coordinator(
    cluster: Cluster, topic: str
) -> None:
    groups = [unique_topic("listed") for _ in range(6)]  # hashed onto several coordinators
    for group in groups:
        _commit_offsets(cluster, group, topic)
    coordinators = {group: _coordinator(cluster, group, GROUP_KEY) for group in groups}
    assert len(set(coordinators.values())) > 1, coordinators
    kafka_python = KafkaAdminClient(bootstrap_servers=cluster.brokers[2].bootstrap)
    try:
        merged = [listed["group_id"] for listed in kafka_python.list_groups()]
        assert all(merged.count(group) == 1 for group in groups), merged
        described = kafka_python.describe_groups(groups)
        assert {group: described[group]["group_state"] for group in groups} == dict.fromkeys(groups, "Empty")
    finally:
        kafka_python.close()
    confluent = AdminClient({"bootstrap.servers": cluster.brokers[3].bootstrap})
    listed = confluent.list_consumer_groups().result(timeout=DEADLINE_S)
    assert set(groups) <= {listing.group_id for listing in listed.valid}
    for group, future in confluent.delete_consumer_groups(groups, request_timeout=DEADLINE_S).items():
        future.result(timeout=DEADLINE_S)
        assert all(group not in _listed_by(cluster, node) for node in cluster.brokers), group


def test_delete_groups_answers_not_coordinator_per_group(cluster: Cluster, topic: str) -> None:
    groups = [unique_topic("deleted") for _ in range(4)]
    for group in groups:
        _commit_offsets(cluster, group, topic)
    coordinators = {group: _coordinator(cluster, group, GROUP_KEY) for group in groups}
    for node, broker in cluster.brokers.items():
        with RawClient(broker.bootstrap) as raw:
            answer = raw.request(DeleteGroupsRequest(groups_names=groups), 2, DeleteGroupsResponse)
        expected = {g: ErrorCode.NONE if coordinators[g] == node else ErrorCode.NOT_COORDINATOR for g in groups}
        assert {result.group_id: result.error_code for result in answer.results} == expected
    assert all(group not in _listed_by(cluster, node) for node in cluster.brokers for group in groups)


def test_add_partitions_to_txn_elsewhere_than_the_coordinator_is_not_coordinator(cluster: Cluster, topic: str) -> None:
    transactional_id = unique_topic("txn")
    coordinator = _coordinator(cluster, transactional_id, TRANSACTION_KEY)
    request = AddPartitionsToTxnRequest(
        v3_and_below_transactional_id=transactional_id,
        v3_and_below_producer_id=1,
        v3_and_below_producer_epoch=0,
        v3_and_below_topics=[AddPartitionsToTxnTopic(name=topic, partitions=[0, 1])],
    )
    for node, broker in cluster.brokers.items():
        with RawClient(broker.bootstrap) as raw:
            answer = raw.request(request, 3, AddPartitionsToTxnResponse)
        errors = {p.partition_error_code for t in answer.results_by_topic_v3_and_below for p in t.results_by_partition}
        # the coordinator knows no such producer id; every other broker is not the coordinator
        expected = ErrorCode.INVALID_PRODUCER_ID_MAPPING if node == coordinator else ErrorCode.NOT_COORDINATOR
        assert errors == {expected}, node
