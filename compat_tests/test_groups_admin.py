"""Group administration as Kafka's admin clients use it: kafka-python's KafkaAdminClient and confluent-kafka's
AdminClient list, describe and delete groups, and list, alter and delete committed offsets."""

from __future__ import annotations

import time
import uuid

import pytest
from confluent_kafka import ConsumerGroupState, ConsumerGroupTopicPartitions, KafkaException
from confluent_kafka import TopicPartition as ConfluentPartition
from confluent_kafka.admin import AdminClient
from kafka import KafkaConsumer, OffsetAndMetadata, TopicPartition
from kafka.admin import KafkaAdminClient, MemberToRemove, NewTopic
from kafka.errors import GroupSubscribedToTopicError, NoError, UnknownMemberIdError

from .brokerproc import BrokerProcess


@pytest.fixture
def names(admin: KafkaAdminClient) -> tuple[str, str, str]:
    suffix = uuid.uuid4().hex[:6]
    subscribed, other = f"subscribed-{suffix}", f"other-{suffix}"
    admin.create_topics([NewTopic(subscribed, 3, 1), NewTopic(other, 1, 1)])
    return f"admin-group-{suffix}", subscribed, other


def joined_consumer(bootstrap: str, group: str, topic: str, **extra: object) -> KafkaConsumer:
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False, **extra)
    deadline = time.monotonic() + 30
    while not consumer.assignment() and time.monotonic() < deadline:
        consumer.poll(timeout_ms=200)
    assert consumer.assignment(), "the consumer never got an assignment"
    return consumer


def test_kafka_python_admin_lists_describes_and_deletes(
    group_broker: BrokerProcess, admin: KafkaAdminClient, names: tuple[str, str, str]
) -> None:
    group, subscribed, other = names
    consumer = joined_consumer(group_broker.bootstrap, group, subscribed)
    consumer.commit({TopicPartition(subscribed, 0): OffsetAndMetadata(5, "first", -1)})
    consumer.commit({TopicPartition(other, 0): OffsetAndMetadata(9, "second", -1)})
    # as with Kafka, an admin (memberless) commit is refused while the group has members
    refused = admin.alter_group_offsets(group, {TopicPartition(other, 0): OffsetAndMetadata(1, "", -1)})
    assert refused == {TopicPartition(other, 0): UnknownMemberIdError}

    stable = admin.list_groups(states_filter=["Stable"])
    assert {"group_id": group, "protocol_type": "consumer", "group_state": "Stable", "group_type": "classic"} in stable
    described = admin.describe_groups([group])[group]
    assert (described["group_state"], described["protocol_type"], described["protocol_data"]) == (
        "Stable", "consumer", "range",
    )  # fmt: skip
    (member,) = described["members"]
    assert member["member_metadata"]["topics"] == [subscribed]
    assigned = member["member_assignment"]["assigned_partitions"]
    assert assigned == [{"topic": subscribed, "partitions": [0, 1, 2]}]

    offsets = admin.list_group_offsets(group)[group]
    assert {tp: (m.offset, m.metadata) for tp, m in offsets.items()} == {
        TopicPartition(subscribed, 0): (5, "first"),
        TopicPartition(other, 0): (9, "second"),
    }
    assert admin.delete_groups([group]) == {group: "NonEmptyGroupError"}
    kept = admin.delete_group_offsets(group, [TopicPartition(subscribed, 0), TopicPartition(other, 0)])
    assert kept == {TopicPartition(subscribed, 0): GroupSubscribedToTopicError, TopicPartition(other, 0): NoError}
    assert set(admin.list_group_offsets(group)[group]) == {TopicPartition(subscribed, 0)}

    consumer.close()
    assert {"group_id": group, "protocol_type": "consumer", "group_state": "Empty", "group_type": "classic"} in (
        admin.list_groups()
    )
    assert admin.delete_group_offsets(group, [TopicPartition(subscribed, 0)]) == {
        TopicPartition(subscribed, 0): NoError
    }
    altered = admin.alter_group_offsets(group, {TopicPartition(other, 0): OffsetAndMetadata(3, "reset", -1)})
    assert altered == {TopicPartition(other, 0): NoError}
    assert admin.list_group_offsets(group)[group][TopicPartition(other, 0)].offset == 3
    assert admin.delete_groups([group]) == {group: "OK"}
    assert group not in {g["group_id"] for g in admin.list_groups()}
    assert admin.describe_groups([group])[group]["group_state"] == "Dead"


def test_kafka_python_admin_removes_a_static_member(
    group_broker: BrokerProcess, admin: KafkaAdminClient, names: tuple[str, str, str]
) -> None:
    group, subscribed, _ = names
    consumer = joined_consumer(group_broker.bootstrap, group, subscribed, group_instance_id="instance-1")
    try:
        assert len(admin.describe_groups([group])[group]["members"]) == 1
        removed = admin.remove_group_members(group, [MemberToRemove(group_instance_id="instance-1")])
        assert list(removed.values()) == [NoError]
        deadline = time.monotonic() + 20
        while admin.describe_groups([group])[group]["members"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert admin.describe_groups([group])[group]["group_state"] in ("Empty", "PreparingRebalance")
    finally:
        consumer.close()


def test_confluent_admin_lists_describes_alters_and_deletes(
    group_broker: BrokerProcess, admin: KafkaAdminClient, names: tuple[str, str, str]
) -> None:
    group, subscribed, other = names
    client = AdminClient({"bootstrap.servers": group_broker.bootstrap})
    consumer = joined_consumer(group_broker.bootstrap, group, subscribed, client_id="admin-test")

    listed = client.list_consumer_groups(states={ConsumerGroupState.STABLE}).result()
    assert (group, ConsumerGroupState.STABLE, False) in {
        (g.group_id, g.state, g.is_simple_consumer_group) for g in listed.valid
    }
    described = client.describe_consumer_groups([group])[group].result()
    assert (described.state, described.partition_assignor, described.is_simple_consumer_group) == (
        ConsumerGroupState.STABLE, "range", False,
    )  # fmt: skip
    (member,) = described.members
    assert (member.client_id, member.host) == ("admin-test", "/127.0.0.1")
    assert sorted(tp.partition for tp in member.assignment.topic_partitions) == [0, 1, 2]

    simple = f"{group}-simple"
    altered = client.alter_consumer_group_offsets(
        [ConsumerGroupTopicPartitions(simple, [ConfluentPartition(other, 0, 42)])]
    )[simple].result()
    assert [(tp.topic, tp.partition, tp.offset) for tp in altered.topic_partitions] == [(other, 0, 42)]
    fetched = client.list_consumer_group_offsets([ConsumerGroupTopicPartitions(simple)])[simple].result()
    assert [(tp.topic, tp.partition, tp.offset) for tp in fetched.topic_partitions] == [(other, 0, 42)]
    empty = client.list_consumer_groups(states={ConsumerGroupState.EMPTY}).result()
    assert simple in {g.group_id for g in empty.valid}

    outcomes = client.delete_consumer_groups([group, simple])
    with pytest.raises(KafkaException, match="NON_EMPTY_GROUP"):
        outcomes[group].result()
    assert outcomes[simple].result() is None
    consumer.close()
    assert client.delete_consumer_groups([group])[group].result() is None
    remaining = {g.group_id for g in client.list_consumer_groups().result().valid}
    assert group not in remaining and simple not in remaining
