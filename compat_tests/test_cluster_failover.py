"""Failover inside a replicated broker group: one group of three broker processes and a real etcd (started here).

Every member sets ``rockafka.replication.listener``; its part comes from etcd's ``groups/<group>`` leader
(``facade/replication_roles.py``). Checked with confluent-kafka:

- SIGKILL of the leader while an idempotent producer sends with acks=all: a follower is elected and serves, the
  producer carries on (NOT_LEADER_OR_FOLLOWER, metadata refresh), every acknowledged record is read back exactly
  once and in order, a committed consumer offset survives, and the old leader, started again, follows the new one
  until it holds the same CommitLog bytes.
- SIGKILL of the leader, Metadata from a survivor: the answer that first names the new leader still lists the
  killed broker (librdkafka, given the move and the broker's removal in one answer, parks the partition until its
  next refresh), and a later answer no longer lists it.
- SIGSTOP of the leader past its lease, nothing unreplicated: on SIGCONT it is demoted in place (no restart) and
  follows the new leader.
- SIGSTOP of a leader past its lease that holds an unreplicated tail (acks=1 records appended while its
  followers were down, so etcd's in-sync set is the leader alone): the returning followers are not elected, the
  group waits leaderless, and the old leader, resumed, leads again with nothing lost; with
  ``unclean.leader.election.enable=true`` one of them is elected, and on SIGCONT the old leader is demoted, cuts
  the tail (it restarts in-process to cut its store) and follows until it holds the new leader's CommitLog bytes.

Elections are the controller's, from the in-sync set each leader keeps in etcd (``cluster/election.py``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.readiness import wait_for_snapshot
from rockafka.cluster.snapshot import ClusterSnapshot
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.testing import Broker

from .brokerproc import BrokerProcess, free_port
from .clients.wire import RawClient

NAME = "failover"
GROUP = "g"
LEASE_TTL_MS = 3000
WAIT_S = 60.0
TOPIC = "orders"
PARTITIONS = 2


class Group:
    """Three members of group ``g`` (nodes 1, 2, 3) in one cluster, over a local etcd."""

    def __init__(self, root: Path, per_node: Mapping[int, Mapping[str, str]] | None = None, **settings: str) -> None:
        self.etcd = LocalEtcd(root / "etcd")
        self.brokers: dict[int, Broker] = {}
        self.root = root
        self.settings = settings
        self.per_node = per_node or {}
        """Settings of one member only, by node id (its rack, its HTTP listener)."""

    def start(self) -> Group:
        self.etcd.start()
        for node in (1, 2, 3):
            settings = {
                "node.id": str(node),
                "rockafka.cluster.etcd.endpoints": self.etcd.endpoint,
                "rockafka.cluster.name": NAME,
                "rockafka.cluster.group": GROUP,
                "rockafka.cluster.lease.ttl.ms": str(LEASE_TTL_MS),
                "rockafka.replication.listener": f"127.0.0.1:{free_port()}",
                "log.segment.bytes": str(16 << 20),
                **self.settings,
                **self.per_node.get(node, {}),
            }
            broker = Broker(subprocess=True, settings=settings, data_dir=self.root / f"broker-{node}" / "data")
            self.brokers[node] = broker
            broker.start()
            if node == 1:  # the first member leads: the others follow it
                self.wait(lambda s: _leader(s) == 1, "node 1 leads the group")
        for node in (2, 3):
            _wait(lambda n=node: f"follower {n} " in _log(self.brokers[1]), f"follower {node} connected to node 1")
            # a member follows before it joins the cluster: until then it answers as a lone follower would
            _wait(lambda n=node: "joined cluster" in _log(self.brokers[n]), f"node {node} joined the cluster")
        return self

    def wait(self, predicate: Callable[[ClusterSnapshot], bool], what: str) -> ClusterSnapshot:
        try:
            return asyncio.run(wait_for_snapshot(self.etcd.endpoint, NAME, predicate, WAIT_S))
        except TimeoutError:
            raise AssertionError(f"etcd never showed: {what}") from None

    def bootstrap(self, *nodes: int) -> str:
        return ",".join(self.brokers[node].bootstrap for node in nodes or self.brokers)

    def close(self) -> None:
        for broker in self.brokers.values():
            if broker.running:
                broker.resume()  # a paused broker stops only once it runs again
            broker.close()
        self.etcd.close()


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Group]:
    members = Group(tmp_path)
    try:
        yield members.start()
    finally:
        members.close()


@pytest.fixture
def unclean_group(tmp_path: Path) -> Iterator[Group]:
    members = Group(tmp_path, **{"unclean.leader.election.enable": "true"})
    try:
        yield members.start()
    finally:
        members.close()


def _leader(snapshot: ClusterSnapshot) -> int:
    state = snapshot.groups.get(GROUP)
    return -1 if state is None or state.leader not in snapshot.brokers else state.leader


def _log(broker: Broker) -> str:
    return broker.log_path.read_text(errors="replace") if broker.log_path.exists() else ""


def _wait(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.1)


def _commitlog(broker: Broker) -> bytes:
    """The CommitLog's bytes, its files in order, without the zeros past the written end."""
    files = sorted(path for path in (broker.data_dir / "commitlog").iterdir() if path.name.isdigit())
    return b"".join(path.read_bytes() for path in files).rstrip(b"\0")


def _same_log(one: Broker, other: Broker) -> bool:
    return _commitlog(one) == _commitlog(other)


def _create_topic(bootstrap: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    topic = NewTopic(TOPIC, PARTITIONS, 1, config={"min.insync.replicas": "2"})
    admin.create_topics([topic])[TOPIC].result(30)


class AckedLoad:
    """An idempotent acks=all producer sending ``seq`` = 0, 1, ... on its own thread; every report kept."""

    def __init__(self, bootstrap: str) -> None:
        self.acked: list[tuple[int, int, int]] = []  # (partition, offset, seq)
        self.failed: list[str] = []
        self._producer = Producer({
            "bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 2,
            "message.timeout.ms": 60000, "topic.metadata.refresh.interval.ms": 1000,
        })  # fmt: skip
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _report(self, error: object, message: object) -> None:
        if error is not None:
            self.failed.append(str(error))
            return
        self.acked.append((message.partition(), message.offset(), int(message.value())))  # type: ignore[attr-defined]

    def _run(self) -> None:
        seq = 0
        while not self._stop.is_set() and seq < 20000:
            self._producer.produce(TOPIC, str(seq).encode(), partition=seq % PARTITIONS, on_delivery=self._report)
            seq += 1
            self._producer.poll(0.005)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
        assert self._producer.flush(WAIT_S) == 0


def _read_all(bootstrap: str) -> dict[int, list[tuple[int, int]]]:
    """Every record of the topic: per partition, (offset, seq) in log order. A read that stops short of the high
    watermarks fails with the watermarks and the errors the consumer met (an out-of-range fetch is one: it is not
    reset past the records)."""
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "checker",
            "enable.auto.commit": False,
            "auto.offset.reset": "error",
        }
    )
    found: dict[int, list[tuple[int, int]]] = {p: [] for p in range(PARTITIONS)}
    errors: list[str] = []
    try:
        ends = {p: _high_watermark(consumer, p, bootstrap) for p in found}
        print(f"high watermarks read: {ends}")  # shown with a failure
        consumer.assign([TopicPartition(TOPIC, p, OFFSET_BEGINNING) for p in found])
        deadline = time.monotonic() + WAIT_S
        while any((found[p][-1][0] + 1 if found[p] else 0) < ends[p] for p in found) and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is not None:
                errors.append(str(message.error()))
            elif message is not None:
                found[message.partition()].append((message.offset(), int(message.value())))
    finally:
        consumer.close()
    short = {p: len(found[p]) for p in found if (found[p][-1][0] + 1 if found[p] else 0) < ends[p]}
    assert not short, f"read {short} records of partitions whose high watermarks are {ends}; errors: {errors[-5:]}"
    return found


def _partition_leaders(group: Group, node: int) -> dict[int, int]:
    """partition -> leader, as broker ``node``'s Metadata says (empty while it does not list the topic)."""
    described = AdminClient({"bootstrap.servers": group.bootstrap(node)}).list_topics(TOPIC, timeout=10).topics
    topic = described.get(TOPIC)
    if topic is None or topic.error is not None:
        return {}
    return {index: partition.leader for index, partition in topic.partitions.items()}


def _isrs(group: Group, node: int) -> dict[int, list[int]]:
    """partition -> in-sync replicas, as broker ``node``'s Metadata says."""
    described = AdminClient({"bootstrap.servers": group.bootstrap(node)}).list_topics(TOPIC, timeout=10).topics
    return {index: sorted(partition.isrs) for index, partition in described[TOPIC].partitions.items()}


def _high_watermark(consumer: Consumer, partition: int, bootstrap: str) -> int:
    """The partition's high watermark, once a broker knows its leader (a leader just elected is seen by the brokers'
    watches a moment later: until then librdkafka calls the partition unknown). librdkafka looks the leader up in
    its metadata cache and, finding a partition there without a usable leader, fails at once without asking
    again, so each retry first asks for the topic's Metadata (``list_topics`` refreshes the cache). Failing, it
    says what the consumer and each broker's Metadata answer said then."""
    deadline = time.monotonic() + WAIT_S
    first = True
    while True:
        try:
            return int(consumer.get_watermark_offsets(TopicPartition(TOPIC, partition), timeout=10)[1])
        except KafkaException as exc:
            seen = _consumer_metadata(consumer)  # the refresh
            if first:  # shown with a failure
                print(f"partition {partition}: {exc}; then the consumer's Metadata: {seen}; each broker's: "
                      f"{_metadata_answers(bootstrap)}")  # fmt: skip
                first = False
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"no high watermark of partition {partition} in {WAIT_S} s: {exc}; the consumer's Metadata: "
                    f"{seen}; each broker's: {_metadata_answers(bootstrap)}"
                ) from None
            time.sleep(0.2)


def _consumer_metadata(consumer: Consumer) -> str:
    try:
        described = consumer.list_topics(TOPIC, timeout=10)
    except KafkaException as exc:
        return str(exc)
    topic = described.topics[TOPIC]
    leaders = {index: (p.leader, str(p.error)) for index, p in topic.partitions.items()}
    return f"brokers {sorted(described.brokers)}, topic error {topic.error}, partition leaders {leaders}"


def _metadata_answers(bootstrap: str) -> dict[str, str]:
    answers = {}
    for address in bootstrap.split(","):
        try:
            with RawClient(address) as raw:
                request = MetadataRequest(topics=[MetadataRequestTopic(name=TOPIC)], allow_auto_topic_creation=False)
                answer = raw.request(request, 12, MetadataResponse)
        except (OSError, TimeoutError) as exc:
            answers[address] = repr(exc)
            continue
        listed = sorted(b.node_id for b in answer.brokers)
        topics = {t.name: (t.error_code, {p.partition_index: (p.leader_id, p.leader_epoch, p.error_code)
                                          for p in t.partitions}) for t in answer.topics}  # fmt: skip
        answers[address] = f"brokers {listed}, topics {topics}"
    return answers


def _commit(bootstrap: str, offset: int) -> None:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "keeper", "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[TopicPartition(TOPIC, 0, offset)], asynchronous=False)
    finally:
        consumer.close()


def _committed(bootstrap: str) -> int:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "keeper", "enable.auto.commit": False})
    try:
        return int(consumer.committed([TopicPartition(TOPIC, 0)], timeout=30)[0].offset)
    finally:
        consumer.close()


def test_sigkill_of_the_leader_loses_no_acknowledged_record(group: Group) -> None:
    _create_topic(group.bootstrap())
    _commit(group.bootstrap(), 7)
    load = AckedLoad(group.bootstrap())
    _wait(lambda: len(load.acked) >= 300, "300 records acknowledged")
    group.brokers[1].kill()
    snapshot = group.wait(lambda s: _leader(s) in (2, 3), "a follower elected")
    new_leader = _leader(snapshot)
    before = len(load.acked)
    _wait(lambda: len(load.acked) >= before + 300, "300 more records acknowledged by the new leader")
    load.stop()

    assert load.failed == []
    log = _read_all(group.bootstrap(2, 3))
    for partition, records in log.items():
        seqs = [seq for _, seq in records]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), f"partition {partition}: order or duplicates"
        held = set(records)
        lost = [(o, s) for p, o, s in load.acked if p == partition and (o, s) not in held]
        assert lost == [], f"partition {partition}: acknowledged records lost: {lost[:5]}"
    assert _committed(group.bootstrap(2, 3)) == 7

    group.wait(lambda s: 1 not in s.brokers, "node 1's registration gone")
    group.brokers[1].start()
    _wait(lambda: _same_log(group.brokers[1], group.brokers[new_leader]), "node 1 holds the new leader's CommitLog")
    assert "following 127.0.0.1:" in _log(group.brokers[1])


def _metadata(raw: RawClient) -> tuple[set[int], dict[int, int]]:
    """The brokers one Metadata v12 answer lists, and each partition's leader in it."""
    request = MetadataRequest(topics=[MetadataRequestTopic(name=TOPIC)], allow_auto_topic_creation=False)
    answer = raw.request(request, 12, MetadataResponse)
    [topic] = answer.topics
    return {b.node_id for b in answer.brokers}, {p.partition_index: p.leader_id for p in topic.partitions}


def test_the_answer_moving_a_killed_leaders_partitions_still_lists_it(group: Group) -> None:
    _create_topic(group.bootstrap())
    group.brokers[1].kill()
    answers: list[tuple[set[int], dict[int, int]]] = []
    deadline = time.monotonic() + WAIT_S
    with RawClient(group.brokers[2].bootstrap) as raw:
        while time.monotonic() < deadline and (not answers or 1 in answers[-1][0]):
            answers.append(_metadata(raw))
            time.sleep(0.02)
    moved = [listed for listed, leaders in answers if set(leaders.values()) <= {2, 3}]
    assert moved, "no answer named a survivor leader of every partition"
    assert 1 in moved[0], "the answer that moved the partitions no longer listed the killed leader"
    assert 1 not in answers[-1][0], "the killed broker stayed listed"
    assert set(answers[-1][1].values()) <= {2, 3}


def _leader_alone_with_a_tail(group: Group) -> bytes:
    """50 records acknowledged by every member, then the followers killed and 30 acks=1 records appended by node 1
    alone (etcd's in-sync set is node 1 alone once it has dropped them), node 1 paused past its lease and the
    followers started again. The CommitLog every member held."""
    _create_topic(group.bootstrap())
    producer = Producer({"bootstrap.servers": group.bootstrap(), "acks": "all"})
    for n in range(50):
        producer.produce(TOPIC, b"%d" % n, partition=n % PARTITIONS)
    assert producer.flush(WAIT_S) == 0
    _wait(lambda: _same_log(group.brokers[1], group.brokers[2]), "node 2 holds the acknowledged records")
    _wait(lambda: _same_log(group.brokers[1], group.brokers[3]), "node 3 holds the acknowledged records")
    replicated = _commitlog(group.brokers[1])

    for node in (2, 3):  # the followers go: what node 1 appends now stays on node 1
        group.brokers[node].kill()
    group.wait(lambda s: s.groups[GROUP].in_sync == (1,), "node 1 dropped its followers from the in-sync set")
    _wait(lambda: _isrs(group, 1) == {0: [1], 1: [1]}, "Metadata's ISR is the in-sync set etcd holds")
    alone = Producer({"bootstrap.servers": group.bootstrap(1), "acks": "1"})
    for n in range(50, 80):
        alone.produce(TOPIC, b"%d" % n, partition=n % PARTITIONS)
    assert alone.flush(WAIT_S) == 0
    assert len(_commitlog(group.brokers[1])) > len(replicated)

    group.brokers[1].pause()
    group.wait(lambda s: not s.brokers, "every lease expired")
    for node in (2, 3):
        group.brokers[node].start()
    return replicated


def test_members_out_of_sync_are_not_elected_and_the_leader_returns_with_everything(group: Group) -> None:
    _leader_alone_with_a_tail(group)
    state = group.wait(lambda s: {2, 3} <= set(s.brokers) and s.groups[GROUP].leader == -1, "2 and 3 back, no leader")
    assert state.groups[GROUP].in_sync == (1,)
    group.brokers[1].resume()
    group.wait(lambda s: _leader(s) == 1, "node 1, the one in-sync member, leads again")
    for node in (1, 2, 3):
        _wait(lambda n=node: _partition_leaders(group, n) == {0: 1, 1: 1}, f"node {node} names node 1 the leader")
    log = _read_all(group.bootstrap(1, 2, 3))
    assert sorted(seq for records in log.values() for _, seq in records) == list(range(80))  # the tail too


def test_a_leader_paused_past_its_lease_is_demoted_and_cuts_its_unreplicated_tail(unclean_group: Group) -> None:
    group = unclean_group
    replicated = _leader_alone_with_a_tail(group)
    snapshot = group.wait(lambda s: _leader(s) in (2, 3), "a returning follower elected (unclean)")
    new_leader = _leader(snapshot)
    group.brokers[1].resume()

    _wait(lambda: "restarting the broker in this process" in _log(group.brokers[1]), "node 1 restarted to cut")
    _wait(lambda: _same_log(group.brokers[1], group.brokers[new_leader]), "node 1 holds the new leader's CommitLog")
    assert _commitlog(group.brokers[1]) == replicated
    log = _read_all(group.bootstrap(2, 3))
    assert sorted(seq for records in log.values() for _, seq in records) == list(range(50))


def test_a_paused_leader_holding_nothing_unreplicated_is_demoted_in_place(group: Group) -> None:
    """Nothing to cut: the demoted leader stops leading and follows the new one without restarting."""
    _create_topic(group.bootstrap())
    producer = Producer({"bootstrap.servers": group.bootstrap(), "acks": "all"})
    for n in range(40):
        producer.produce(TOPIC, b"%d" % n, partition=n % PARTITIONS)
    assert producer.flush(WAIT_S) == 0
    group.brokers[1].pause()
    snapshot = group.wait(lambda s: _leader(s) in (2, 3), "a follower elected")
    new_leader = _leader(snapshot)
    group.brokers[1].resume()
    group.wait(lambda s: 1 in s.brokers, "node 1 registered again")
    for n in range(40, 80):
        producer.produce(TOPIC, b"%d" % n, partition=n % PARTITIONS)
    assert producer.flush(WAIT_S) == 0
    _wait(lambda: _same_log(group.brokers[1], group.brokers[new_leader]), "node 1 holds the new leader's CommitLog")
    text = _log(group.brokers[1])
    assert f"node {new_leader} leads at epoch" in text and "restarting the broker in this process" not in text
    log = _read_all(group.bootstrap(2, 3))
    assert sorted(seq for records in log.values() for _, seq in records) == list(range(80))


def test_a_cluster_member_told_whom_to_follow_does_not_start(tmp_path: Path) -> None:
    """In a cluster the leader is the one etcd names: ``rockafka.replication.leader`` is refused in one line (before
    etcd is asked, so none runs here)."""
    member = BrokerProcess(tmp_path, {
        "rockafka.cluster.etcd.endpoints": f"127.0.0.1:{free_port()}", "rockafka.replication.leader": "x:1",
    })  # fmt: skip
    with pytest.raises(RuntimeError, match="broker exited with 1") as failure:
        member.start()
    assert "in a cluster a member's leader is the one etcd names" in str(failure.value)
    assert "Traceback" not in str(failure.value)
