"""Coordinator writes a replicated group's leader answered survive a failover: one group of three broker processes
over a real etcd (``test_cluster_failover.Group``), checked with confluent-kafka and raw requests.

Kafka appends ``__consumer_offsets`` and ``__transaction_state`` with acks=all: a coordinator answers once every
in-sync replica holds the write. To leave a write on the leader alone, the followers are paused (SIGSTOP: still
connected and in the in-sync set, copying nothing) and then killed with what their sockets held unread, so the
member elected next holds the log as it was before the write.

- EndTxn answered to a transactional producer: the new leader's coordinator holds the transaction as answered,
  and a read_committed consumer sees its records once failover is over (the producer retries its commit while
  the leader cannot answer it, as librdkafka does).
- SyncGroup: while the followers copy nothing, the leader's assignment is answered COORDINATOR_NOT_AVAILABLE
  once the coordinator's write timeout passes (Kafka's answer for a group write not replicated in time), not
  NONE; the member's next generation, answered NONE, is held by the new leader after a SIGKILL of the old one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_groups import DescribeGroupsRequest, DescribeGroupsResponse
from rockafka.facade.protocol.messages.join_group import JoinGroupRequest, JoinGroupRequestProtocol
from rockafka.facade.protocol.messages.sync_group import SyncGroupRequest, SyncGroupRequestAssignment

from .clients.wire import RawClient
from .test_cluster_failover import PARTITIONS, TOPIC, WAIT_S, Group, _create_topic, _leader, _wait

#: Longer than a coordinator write waits for its followers (5 s): paused followers keep their registrations.
LEASE_TTL_MS = 8000
RECORDS = 10
CONSUMER_GROUP = "acked-assignment"
_NOT_YET = (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.COORDINATOR_NOT_AVAILABLE)


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Group]:
    members = Group(tmp_path, **{"rockafka.cluster.lease.ttl.ms": str(LEASE_TTL_MS)})
    try:
        yield members.start()
    finally:
        members.close()


def _lose_the_leader_and_what_only_it_held(group: Group) -> int:
    """SIGKILL node 1 and the paused followers (what they had not read goes with them), start the followers once
    every registration is gone: one of them is elected. Its node id."""
    for node in (1, 2, 3):
        group.brokers[node].kill()
    group.wait(lambda s: not s.brokers, "every registration gone")
    for node in (2, 3):
        group.brokers[node].start()
    return _leader(group.wait(lambda s: _leader(s) in (2, 3), "node 2 or 3 elected"))


class Commit:
    """``commit_transaction`` on its own thread, called again while it fails retriably (as an application does)."""

    def __init__(self, producer: Producer) -> None:
        self.answered = threading.Event()
        self.errors: list[str] = []
        self._producer = producer
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for _ in range(10):
            try:
                self._producer.commit_transaction(WAIT_S)
            except KafkaException as exc:
                self.errors.append(str(exc))
                if exc.args[0].retriable():
                    continue
                return
            self.answered.set()
            return

    def join(self) -> None:
        self._thread.join(WAIT_S * 3)
        assert not self._thread.is_alive(), "commit_transaction never returned"


def _read_committed(bootstrap: str) -> list[bytes]:
    """The records a read_committed consumer reads from the start, until it has ``RECORDS`` or ``WAIT_S``."""
    consumer = Consumer({
        "bootstrap.servers": bootstrap, "group.id": "reader", "enable.auto.commit": False,
        "isolation.level": "read_committed",
    })  # fmt: skip
    consumer.assign([TopicPartition(TOPIC, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
    values: list[bytes] = []
    deadline = time.monotonic() + WAIT_S
    try:
        while len(values) < RECORDS and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                values.append(message.value())
    finally:
        consumer.close()
    return values


def test_a_commit_answered_before_a_failover_is_committed_after_it(group: Group) -> None:
    _create_topic(group.bootstrap())
    producer = Producer({"bootstrap.servers": group.bootstrap(), "transactional.id": "acked-commit"})
    producer.init_transactions(WAIT_S)
    producer.begin_transaction()
    for n in range(RECORDS):
        producer.produce(TOPIC, b"%d" % n, partition=n % PARTITIONS)
    assert producer.flush(WAIT_S) == 0  # acks=all: every member holds the records and the transaction's partitions

    for node in (2, 3):
        group.brokers[node].pause()
    commit = Commit(producer)
    commit.answered.wait(2.0)  # an answer before the followers hold the commit comes at once
    _lose_the_leader_and_what_only_it_held(group)
    commit.join()

    assert commit.answered.is_set(), f"the commit failed: {commit.errors}"
    assert sorted(_read_committed(group.bootstrap(2, 3))) == sorted(b"%d" % n for n in range(RECORDS))


def _join(client: RawClient, member: str) -> tuple[str, int]:
    request = JoinGroupRequest(
        group_id=CONSUMER_GROUP, session_timeout_ms=60_000, rebalance_timeout_ms=30_000, member_id=member,
        protocol_type="consumer", protocols=[JoinGroupRequestProtocol(name="range", metadata=b"subscription")],
    )  # fmt: skip
    joined = client.request(request, 3)  # v3: no MEMBER_ID_REQUIRED round
    deadline = time.monotonic() + WAIT_S
    while joined.error_code in _NOT_YET and time.monotonic() < deadline:  # the leader takes the groups on
        time.sleep(0.2)
        joined = client.request(request, 3)
    assert joined.error_code == ErrorCode.NONE and joined.leader == joined.member_id
    return joined.member_id, joined.generation_id


def _sync(client: RawClient, member: str, generation: int, assignment: bytes) -> ErrorCode:
    request = SyncGroupRequest(
        group_id=CONSUMER_GROUP, generation_id=generation, member_id=member,
        assignments=[SyncGroupRequestAssignment(member_id=member, assignment=assignment)],
    )  # fmt: skip
    return ErrorCode(client.request(request, 3).error_code)


def test_an_assignment_is_answered_once_replicated_and_survives_a_failover(group: Group) -> None:
    with RawClient(group.bootstrap(1)) as client:
        member, generation = _join(client, "")
        for node in (2, 3):
            group.brokers[node].pause()
        unreplicated = _sync(client, member, generation, b"first")
        for node in (2, 3):
            group.brokers[node].resume()
        assert unreplicated == ErrorCode.COORDINATOR_NOT_AVAILABLE

        member, generation = _join(client, member)  # the failed assignment sent the group back to rebalance
        assert _sync(client, member, generation, b"second") == ErrorCode.NONE

    group.brokers[1].kill()
    new_leader = _leader(group.wait(lambda s: _leader(s) in (2, 3), "node 2 or 3 elected"))

    def described() -> DescribeGroupsResponse | None:
        try:
            with RawClient(group.bootstrap(new_leader)) as client:
                answer = client.request(DescribeGroupsRequest(groups=[CONSUMER_GROUP]), 0)
        except OSError:
            return None
        return answer if answer.groups[0].error_code == ErrorCode.NONE else None

    _wait(lambda: described() is not None, f"node {new_leader} coordinates {CONSUMER_GROUP}")
    state = described()
    assert state is not None
    held = state.groups[0]
    assert (held.group_state, [(m.member_id, m.member_assignment) for m in held.members]) == (
        "Stable",
        [(member, b"second")],
    )
