"""Moving a partition between broker groups (AlterPartitionReassignments) under load, on a 2-group
``rockafka.testing.Cluster``.

A confluent-kafka idempotent producer (acks=all) writes keyed records to partition 0, led by group 1, while a
kafka-python consumer group reads and commits. ``rockafka cluster move`` moves the partition to group 2 in the
middle; the producer goes on. Afterwards broker 2 leads the partition and broker 1 answers
NOT_LEADER_OR_FOLLOWER, and reading the partition from broker 2
gives every acknowledged record exactly once, in the order acknowledged, at the offset its acknowledgement
named; the consumer group's committed offset carried over. Moved back, broker 1 serves the whole partition again.
The error cases answer as Kafka's controller does.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Producer
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from kafka.errors import InvalidReplicationAssignmentError, NoReassignmentInProgressError, UnknownTopicOrPartitionError

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.testing import Cluster
from rockafka.wire_client import WireClient

from .clients.fixtures import QUIET_KAFKA_PYTHON
from .clients.records import unique_topic

pytestmark = [pytest.mark.slow, QUIET_KAFKA_PYTHON]

DEADLINE_S = 90.0
GROUP = "move-readers"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=2) as running:
        yield running


def _admin(cluster: Cluster) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=cluster.brokers[1].bootstrap, request_timeout_ms=30_000)


def _new_topic_on_group_1(cluster: Cluster, partitions: int = 1, node: int = 1) -> str:
    topic = unique_topic("moving")
    admin = _admin(cluster)
    try:
        admin.create_topics({topic: {"assignments": {p: [node] for p in range(partitions)}}})
    finally:
        admin.close()
    _until(f"{topic} is led by broker {node}", lambda: _leader(cluster, topic, 0)[0] == node)
    return topic


def _leader(cluster: Cluster, topic: str, partition: int) -> tuple[int, bool]:
    """(the partition's leader as broker 2 answers ListOffsets, and whether broker 1 answers it)."""
    answers = {}
    for node in (1, 2):
        with WireClient(cluster.brokers[node].bootstrap) as wire:
            request = ListOffsetsRequest(
                replica_id=-1,
                topics=[
                    ListOffsetsTopic(
                        name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-1)]
                    )
                ],
            )
            (found,) = wire.request(request, 4, ListOffsetsResponse).topics[0].partitions
            answers[node] = found.error_code
    leader = next((node for node, code in answers.items() if code == ErrorCode.NONE), -1)
    return leader, answers[1] == ErrorCode.NONE


def _until(what: str, check: object, deadline_s: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {deadline_s:g} s: {what}")


def _read_all(bootstrap: str, topic: str, end: int, committed: bool = False) -> list[tuple[int, bytes]]:
    """Every record of partition 0 until the one at ``end - 1`` (or the deadline)."""
    consumer = KafkaConsumer(
        bootstrap_servers=bootstrap, enable_auto_commit=False, auto_offset_reset="earliest",
        isolation_level="read_committed" if committed else "read_uncommitted",
    )  # fmt: skip
    try:
        consumer.assign([TopicPartition(topic, 0)])
        seen: list[tuple[int, bytes]] = []
        deadline = time.monotonic() + DEADLINE_S
        while (not seen or seen[-1][0] < end - 1) and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                seen += [(record.offset, record.value) for record in records]
        return seen
    finally:
        consumer.close()


def test_a_partition_moved_under_load_loses_and_repeats_nothing(cluster: Cluster) -> None:
    topic = _new_topic_on_group_1(cluster)
    acknowledged: list[tuple[int, bytes]] = []
    failures: list[str] = []
    stop = threading.Event()

    def produce() -> None:
        producer = Producer(
            {"bootstrap.servers": cluster.brokers[1].bootstrap, "enable.idempotence": True, "acks": "all",
             "linger.ms": 5, "message.timeout.ms": 60_000}
        )  # fmt: skip

        def delivered(err: object, message: object) -> None:
            if err is not None:
                failures.append(str(err))
            else:
                acknowledged.append((message.offset(), message.value()))  # type: ignore[attr-defined]

        number = 0
        while not stop.is_set() and number < 200_000:
            producer.produce(topic, value=b"record-%06d" % number, key=b"k%d" % (number % 7), partition=0,
                             on_delivery=delivered)  # fmt: skip
            number += 1
            producer.poll(0)
            if number % 200 == 0:
                time.sleep(0.01)
        producer.flush(60)

    consumed: list[int] = []

    def consume() -> None:
        consumer = KafkaConsumer(
            topic, bootstrap_servers=cluster.brokers[1].bootstrap, group_id=GROUP, auto_offset_reset="earliest",
            enable_auto_commit=False,
        )  # fmt: skip
        try:
            while not stop.is_set():
                for records in consumer.poll(timeout_ms=200).values():
                    consumed.extend(record.offset for record in records)
                    consumer.commit()
        finally:
            consumer.close()

    threads = [threading.Thread(target=produce), threading.Thread(target=consume)]
    for thread in threads:
        thread.start()
    try:
        _until("records are acknowledged", lambda: len(acknowledged) > 2000)
        moved = subprocess.run(
            [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", cluster.brokers[2].bootstrap,
             "--topic", topic, "--partition", "0", "--to-group", "group-2", "--timeout", "80"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert moved.returncode == 0, moved.stdout + moved.stderr
        assert f"{topic}-0: moving to broker [2]" in moved.stdout
        assert f"{topic}-0: moved, leader 2" in moved.stdout
        before = len(acknowledged)
        _until("records are acknowledged by the new leader", lambda: len(acknowledged) > before + 2000)
    finally:
        stop.set()
        for thread in threads:
            thread.join(120)
    assert not failures
    assert _leader(cluster, topic, 0) == (2, False)

    acknowledged.sort()
    end = acknowledged[-1][0] + 1
    stored = _read_all(cluster.brokers[2].bootstrap, topic, end)
    assert [offset for offset, _ in stored] == list(range(end))  # nothing lost, nothing twice, offsets unchanged
    assert stored == acknowledged[: len(stored)] and len(stored) == len(acknowledged)
    numbers = [int(value[len("record-") :]) for _, value in stored]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)  # in the order produced

    reader = KafkaConsumer(bootstrap_servers=cluster.brokers[2].bootstrap, group_id=GROUP, enable_auto_commit=False)
    try:
        committed = reader.committed(TopicPartition(topic, 0))
    finally:
        reader.close()
    assert committed is not None and 0 < committed <= end and consumed and max(consumed) == committed - 1
    assert sorted(set(consumed)) == list(range(committed))  # the group read every offset up to its commit

    # and back: broker 1 retired its copy (log start at its end), and holds the whole partition again after the move
    back = subprocess.run(
        [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", cluster.brokers[1].bootstrap,
         "--topic", topic, "--partition", "0", "--to-broker", "1", "--timeout", "80"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert back.returncode == 0, back.stdout + back.stderr
    assert _read_all(cluster.brokers[1].bootstrap, topic, end) == stored


def test_a_move_is_cancelled_and_wrong_ones_are_refused(cluster: Cluster) -> None:
    topic = _new_topic_on_group_1(cluster, partitions=2)
    admin = _admin(cluster)
    try:
        outcomes = admin.alter_partition_reassignments(
            {
                TopicPartition(topic, 0): [1],  # its present leader: nothing moves
                TopicPartition(topic, 1): None,  # no move in progress to cancel
                TopicPartition(topic, 5): [2],  # no such partition
                TopicPartition("no-such-topic", 0): [2],
            }
        )
        assert outcomes == {
            TopicPartition(topic, 0): None,
            TopicPartition(topic, 1): NoReassignmentInProgressError,
            TopicPartition(topic, 5): UnknownTopicOrPartitionError,
            TopicPartition("no-such-topic", 0): UnknownTopicOrPartitionError,
        }
        outcomes = admin.alter_partition_reassignments(
            {TopicPartition(topic, 0): [7], TopicPartition(topic, 1): [1, 2]}
        )
        assert set(outcomes.values()) == {InvalidReplicationAssignmentError}
        assert admin.list_partition_reassignments() == {}
    finally:
        admin.close()

    # a move of an empty partition: it completes at once and lists nothing
    moves = subprocess.run(
        [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", cluster.brokers[1].bootstrap,
         "--topic", topic, "--partition", "1", "--to-broker", "2", "--no-wait"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert moves.returncode == 0, moves.stderr
    _until("the empty partition moved", lambda: _leader(cluster, topic, 1) == (2, False))
    listed = subprocess.run(
        [sys.executable, "-m", "rockafka", "cluster", "moves", "--bootstrap-server", cluster.brokers[1].bootstrap],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (listed.returncode, listed.stdout) == (0, "")
    cancel = subprocess.run(
        [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", cluster.brokers[1].bootstrap,
         "--topic", topic, "--partition", "1", "--cancel"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert cancel.returncode == 1
    assert f"{topic}-1: NO_REASSIGNMENT_IN_PROGRESS: No partition reassignment is in progress." in cancel.stdout


def _transaction_coordinator(cluster: Cluster, transactional_id: str) -> int:
    """The node coordinating ``transactional_id`` (the first lookup may create the internal topic)."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        with WireClient(cluster.brokers[1].bootstrap) as wire:
            found = wire.request(FindCoordinatorRequest(key=transactional_id, key_type=1), 3, FindCoordinatorResponse)
        if found.error_code != ErrorCode.COORDINATOR_NOT_AVAILABLE or time.monotonic() > deadline:
            assert found.error_code == ErrorCode.NONE
            return found.node_id
        time.sleep(0.1)


def test_transactions_aborted_records_and_the_log_start_move_with_the_partition(cluster: Cluster) -> None:
    transactional_id = unique_topic("moving-txn")
    source = _transaction_coordinator(cluster, transactional_id)  # transactions spanning groups are not built
    target = 3 - source
    topic = _new_topic_on_group_1(cluster, node=source)
    producer = Producer({"bootstrap.servers": cluster.brokers[source].bootstrap, "transactional.id": transactional_id})
    producer.init_transactions(30)
    for values, commit in (([b"c1", b"c2", b"c3"], True), ([b"a1", b"a2"], False), ([b"c4"], True)):
        producer.begin_transaction()
        for value in values:
            producer.produce(topic, value=value, partition=0)
        producer.flush(30)
        (producer.commit_transaction if commit else producer.abort_transaction)(30)
    admin = _admin(cluster)
    try:
        admin.delete_records({TopicPartition(topic, 0): 1})
    finally:
        admin.close()
    end = 8  # 3 + marker, 2 + marker, c4 at offset 7 (its marker at 8)
    everything = _read_all(cluster.brokers[source].bootstrap, topic, end)
    committed = _read_all(cluster.brokers[source].bootstrap, topic, end, committed=True)
    assert [value for _, value in committed] == [b"c2", b"c3", b"c4"]

    moved = subprocess.run(
        [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", cluster.brokers[1].bootstrap,
         "--topic", topic, "--partition", "0", "--to-broker", str(target), "--timeout", "80"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert _read_all(cluster.brokers[target].bootstrap, topic, end) == everything  # aborted records too
    assert _read_all(cluster.brokers[target].bootstrap, topic, end, committed=True) == committed
    assert _offset(cluster, target, topic, -2) == 1  # the log start came along
    assert _offset(cluster, target, topic, -1, committed=True) == 9  # the last stable offset: nothing open


def _offset(cluster: Cluster, node: int, topic: str, timestamp: int, committed: bool = False) -> int:
    """ListOffsets of partition 0 on ``node`` (-2 earliest, -1 latest; ``committed``: read_committed)."""
    with WireClient(cluster.brokers[node].bootstrap) as wire:
        asked = ListOffsetsPartition(partition_index=0, timestamp=timestamp)
        request = ListOffsetsRequest(
            replica_id=-1, isolation_level=int(committed), topics=[ListOffsetsTopic(name=topic, partitions=[asked])]
        )
        (found,) = wire.request(request, 4, ListOffsetsResponse).topics[0].partitions
    assert found.error_code == ErrorCode.NONE
    return int(found.offset)
