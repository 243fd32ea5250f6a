"""confluent-kafka (librdkafka) and kcat against one broker group of three members, topics at replication factor 3.

One ``Cluster(groups=1, replicas=3)`` (a local etcd and nodes 1-3, node 1 leading ``group-1``) for the module:

- CreateTopics at replication factor 3: every partition's replicas and in-sync set, as the admin client's
  DescribeTopics and kcat's ``-L`` show them, are the group's three members; a factor of 4 is refused with
  INVALID_REPLICATION_FACTOR;
- an idempotent acks=all producer (``min.insync.replicas=2``), every record read back in order by a consumer
  group that commits, and its committed offsets seen by the next member of the group;
- a transaction committed and one aborted: read_committed sees exactly the committed records;
- last, a member stopped: the leader drops it from the in-sync set after ``replica.lag.time.max.ms`` and acks=all
  still answers with two of three in sync.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from confluent_kafka import (
    OFFSET_BEGINNING,
    Consumer,
    KafkaError,
    KafkaException,
    Producer,
    TopicCollection,
    TopicPartition,
)
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.testing import Cluster

from .clients.kcat_driver import KcatDriver, kcat_missing

MEMBERS = [1, 2, 3]
WAIT_S = 60.0
LAG_TIME_MS = 2000
SETTINGS = {"log.segment.bytes": str(16 << 20), "replica.lag.time.max.ms": str(LAG_TIME_MS)}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=1, replicas=3, settings=SETTINGS, name="rf3") as started:
        yield started


def _admin(cluster: Cluster) -> AdminClient:
    return AdminClient({"bootstrap.servers": cluster.bootstrap})


def _create(cluster: Cluster, topic: str, partitions: int, **configs: str) -> None:
    admin = _admin(cluster)  # kept until the result: a client destroyed fails its futures
    admin.create_topics([NewTopic(topic, partitions, 3, config=configs)])[topic].result(WAIT_S)


def _described(cluster: Cluster, topic: str) -> dict[int, tuple[int, list[int], list[int]]]:
    """partition -> (leader, replicas, in-sync set), as DescribeTopics answers."""
    admin = _admin(cluster)
    found = admin.describe_topics(TopicCollection([topic]))[topic].result(WAIT_S)
    return {
        p.id: (p.leader.id, sorted(node.id for node in p.replicas), sorted(node.id for node in p.isr))
        for p in found.partitions
    }


def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.2)


def _in_sync(cluster: Cluster, topic: str, members: list[int]) -> bool:
    return all(isr == members for _leader, _replicas, isr in _described(cluster, topic).values())


def _produce(producer: Producer, topic: str, values: list[bytes], partitions: int) -> list[str]:
    """Send ``values`` round-robin over the partitions; the delivery errors (none expected)."""
    errors: list[str] = []

    def report(error: KafkaError | None, _message: object) -> None:
        if error is not None:
            errors.append(str(error))

    for n, value in enumerate(values):
        producer.produce(topic, value, partition=n % partitions, on_delivery=report)
        producer.poll(0)
    assert producer.flush(WAIT_S) == 0
    return errors


def _read_to_end(consumer: Consumer, topic: str, partitions: int) -> dict[int, list[bytes]]:
    """Poll until the consumer's position reaches each partition's high watermark; the values per partition."""
    ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=WAIT_S)[1] for p in range(partitions)}
    found: dict[int, list[bytes]] = {p: [] for p in range(partitions)}

    def caught_up() -> bool:
        positions = consumer.position([TopicPartition(topic, p) for p in range(partitions)])
        return all(tp.offset >= ends[tp.partition] for tp in positions)

    deadline = time.monotonic() + WAIT_S
    while not caught_up() and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is not None and message.error() is None:
            found[message.partition()].append(message.value())
    return found


def test_replicas_and_in_sync_set_are_the_groups_three_members(cluster: Cluster) -> None:
    _create(cluster, "rf3-described", 3)
    _until(lambda: _in_sync(cluster, "rf3-described", MEMBERS), "every partition has nodes 1-3 in sync")
    assert _described(cluster, "rf3-described") == {p: (1, MEMBERS, MEMBERS) for p in range(3)}
    with pytest.raises(KafkaException) as refused:
        admin = _admin(cluster)
        admin.create_topics([NewTopic("rf4", 1, 4)])["rf4"].result(WAIT_S)
    assert refused.value.args[0].code() == KafkaError.INVALID_REPLICATION_FACTOR


def test_kcat_lists_three_brokers_and_each_partitions_replicas_and_isrs(cluster: Cluster) -> None:
    if (missing := kcat_missing()) is not None:
        pytest.skip(missing)
    _create(cluster, "rf3-kcat", 2)
    _until(lambda: _in_sync(cluster, "rf3-kcat", MEMBERS), "every partition has nodes 1-3 in sync")
    listing = KcatDriver().run(["-L", "-b", cluster.bootstrap, "-t", "rf3-kcat"]).decode()
    assert " 3 brokers:" in listing
    for partition in (0, 1):
        assert f"partition {partition}, leader 1, replicas: 1,2,3, isrs: 1,2,3" in listing


def test_idempotent_acks_all_records_are_read_by_a_group_that_commits(cluster: Cluster) -> None:
    topic, partitions = "rf3-orders", 3
    _create(cluster, topic, partitions, **{"min.insync.replicas": "2"})
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    sent = [b"order-%d" % n for n in range(300)]
    assert _produce(producer, topic, sent, partitions) == []
    group = {"bootstrap.servers": cluster.bootstrap, "group.id": "rf3-readers", "enable.auto.commit": False}
    consumer = Consumer({**group, "auto.offset.reset": "earliest"})
    try:
        consumer.subscribe([topic])
        found: dict[int, list[bytes]] = {p: [] for p in range(partitions)}
        deadline = time.monotonic() + WAIT_S
        while sum(map(len, found.values())) < len(sent) and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                found[message.partition()].append(message.value())
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    assert found == {p: sent[p::partitions] for p in range(partitions)}
    successor = Consumer(group)
    try:
        committed = successor.committed([TopicPartition(topic, p) for p in range(partitions)], timeout=WAIT_S)
    finally:
        successor.close()
    assert {tp.partition: tp.offset for tp in committed} == {p: 100 for p in range(partitions)}


def test_read_committed_sees_the_committed_transaction_only(cluster: Cluster) -> None:
    topic = "rf3-txn"
    _create(cluster, topic, 1)
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "transactional.id": "rf3-txn-producer"})
    producer.init_transactions(WAIT_S)
    for outcome in ("committed", "aborted"):
        producer.begin_transaction()
        assert _produce(producer, topic, [b"%s-%d" % (outcome.encode(), n) for n in range(10)], 1) == []
        if outcome == "committed":
            producer.commit_transaction(WAIT_S)
        else:
            producer.abort_transaction(WAIT_S)
    consumer = Consumer({
        "bootstrap.servers": cluster.bootstrap, "group.id": "rf3-txn-reader", "isolation.level": "read_committed",
    })  # fmt: skip
    try:
        consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        found = _read_to_end(consumer, topic, 1)
    finally:
        consumer.close()
    assert found == {0: [b"committed-%d" % n for n in range(10)]}


def test_a_stopped_member_leaves_the_in_sync_set_and_acks_all_goes_on(cluster: Cluster) -> None:
    """Last in the module: node 3 stays down."""
    topic = "rf3-shrink"
    _create(cluster, topic, 2, **{"min.insync.replicas": "2"})
    _until(lambda: _in_sync(cluster, topic, MEMBERS), "every partition has nodes 1-3 in sync")
    cluster.kill(3)
    _until(lambda: _in_sync(cluster, topic, [1, 2]), "node 3 leaves every partition's in-sync set")
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    assert _produce(producer, topic, [b"after-%d" % n for n in range(20)], 2) == []
