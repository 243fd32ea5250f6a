"""Reads from followers (KIP-392) with confluent-kafka: one group of three members in racks a, b and c, over a
real etcd (started here), every member with ``replica.selector.class`` = the RackAwareReplicaSelector.

A consumer with ``client.rack=a`` (the leader's rack) reads from the leader alone. One with ``client.rack=b`` is
named node 2 (a follower in rack b) as its preferred read replica by the
leader (node 1, rack a): its fetches go to node 2 (node 2's fetch count for the topic grows, the leader's stays
flat after the first), it reads every acknowledged record exactly once and in order, and never an offset at or past
the leader's high watermark: with node 3 paused (still in sync, so the confirm offset stops) acks=1 records reach
node 2's CommitLog but not the consumer until node 3 resumes. Node 2 killed, the client goes back to the leader
and reads on. Metadata and
DescribeCluster report each broker's ``broker.rack``.
"""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, Message, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchTopic
from rockafka.facade.protocol.messages.list_offsets import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from rockafka.facade.protocol.messages.metadata import MetadataRequest
from rockafka.testing import Broker

from .brokerproc import free_port
from .clients.wire import RawClient
from .test_cluster_failover import WAIT_S, Group, _leader, _same_log, _wait

TOPIC = "reads"
RACKS = {1: "a", 2: "b", 3: "c"}
SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector"
BATCH = 200


class RackedGroup(Group):
    def __init__(self, root: Path) -> None:
        self.http = {node: f"127.0.0.1:{free_port()}" for node in RACKS}
        per_node = {
            node: {"broker.rack": rack, "rockafka.http.listener": self.http[node]} for node, rack in RACKS.items()
        }
        super().__init__(root, per_node, **{"replica.selector.class": SELECTOR})

    def fetches(self, node: int) -> int:
        """Fetch requests naming the topic that broker ``node`` answered (its /metrics)."""
        with urllib.request.urlopen(f"http://{self.http[node]}/metrics", timeout=10) as response:
            text = response.read().decode()
        found = re.search(
            r'^kafka_server_brokertopicmetrics_total_fetch_requests(?:_total)?\{topic="reads"\} (\S+)$', text, re.M
        )
        return 0 if found is None else int(float(found.group(1)))


@pytest.fixture
def racked(tmp_path: Path) -> Iterator[RackedGroup]:
    members = RackedGroup(tmp_path)
    try:
        members.start()
        yield members
    finally:
        members.close()


def _produce(bootstrap: str, first: int, count: int, acks: str = "all") -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "acks": acks, "linger.ms": 5, "max.in.flight": 1})
    failed: list[str] = []
    for seq in range(first, first + count):
        producer.produce(TOPIC, str(seq).encode(), partition=0, on_delivery=lambda e, _m: e and failed.append(str(e)))
    assert producer.flush(WAIT_S) == 0
    assert failed == []


class RackedReader:
    """A consumer in ``rack`` (b unless told) reading partition 0 from the beginning; each record can be checked
    against the leader's high watermark read after it arrived (it only grows while node 1 leads)."""

    def __init__(self, bootstrap: str, leader_bootstrap: str, rack: str = "b") -> None:
        self.consumer = Consumer({
            "bootstrap.servers": bootstrap, "group.id": "racked", "client.rack": rack, "enable.auto.commit": False,
            "fetch.wait.max.ms": 100, "topic.metadata.refresh.interval.ms": 1000,
        })  # fmt: skip
        self.consumer.assign([TopicPartition(TOPIC, 0, OFFSET_BEGINNING)])
        self.watcher = Consumer({"bootstrap.servers": leader_bootstrap, "group.id": "watcher"})
        self.seqs: list[int] = []
        self.offsets: list[int] = []

    def read_until(self, total: int, *, check_watermark: bool, linger_s: float = 0.0) -> None:
        """Read until ``total`` records arrived, then poll on for ``linger_s`` (records past it are kept too)."""
        deadline = time.monotonic() + WAIT_S
        lingering: float | None = None
        while time.monotonic() < deadline:
            if len(self.seqs) >= total:
                lingering = lingering or time.monotonic() + linger_s
                if time.monotonic() >= lingering:
                    break
            message: Message | None = self.consumer.poll(0.5)
            if message is None or message.error() is not None:
                continue
            offset = message.offset()
            assert offset is not None
            if check_watermark:
                _, high = self.watcher.get_watermark_offsets(TopicPartition(TOPIC, 0), timeout=10)
                assert offset < high, f"offset {offset} read at or past the leader's high watermark {high}"
            self.offsets.append(offset)
            self.seqs.append(int(message.value() or b"-1"))
        assert len(self.seqs) >= total, f"read {len(self.seqs)} of {total} records"

    def close(self) -> None:
        self.consumer.close()
        self.watcher.close()


def _racks_by_metadata(bootstrap: str, version: int) -> dict[int, str | None]:
    with RawClient(bootstrap) as client:
        return {b.node_id: b.rack for b in client.request(MetadataRequest(topics=[]), version).brokers}


def test_metadata_and_describe_cluster_report_each_brokers_rack(racked: RackedGroup) -> None:
    admin = AdminClient({"bootstrap.servers": racked.bootstrap(2)})
    described = admin.describe_cluster().result(30)
    assert {node.id: node.rack for node in described.nodes} == RACKS
    assert _racks_by_metadata(racked.bootstrap(2), 12) == _racks_by_metadata(racked.bootstrap(3), 1) == RACKS


def test_a_single_brokers_rack_is_its_setting_and_null_when_unset(tmp_path: Path) -> None:
    with Broker(settings={"broker.rack": "r1"}, data_dir=tmp_path / "racked") as broker:
        admin = AdminClient({"bootstrap.servers": broker.bootstrap})  # kept: the result needs the live handle
        described = admin.describe_cluster().result(30)
        assert [node.rack for node in described.nodes] == ["r1"]
        assert list(_racks_by_metadata(broker.bootstrap, 12).values()) == ["r1"]
        assert list(_racks_by_metadata(broker.bootstrap, 0).values()) == [None]  # v0 has no rack
    with Broker(data_dir=tmp_path / "plain") as broker:
        assert list(_racks_by_metadata(broker.bootstrap, 12).values()) == [None]


def _fetch(version: int, offset: int, replica_id: int = -1) -> FetchRequest:
    partition = FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=1 << 20)
    return FetchRequest(
        replica_id=replica_id,
        max_wait_ms=0,
        max_bytes=1 << 20,
        topics=[FetchTopic(topic=TOPIC, partitions=[partition])],
    )


def _check_follower_answers(follower: str, end: int) -> None:
    """Follower node 3 (every record confirmed, so its high watermark is ``end``) serves a consumer's Fetch v11+
    up to it; past its log end is OFFSET_OUT_OF_RANGE; the rest goes to the leader: older Fetch versions, a
    replica's fetch and ListOffsets are NOT_LEADER_OR_FOLLOWER."""
    deadline = time.monotonic() + WAIT_S
    with RawClient(follower) as client:
        while True:
            served = client.request(_fetch(12, end - 1), 12).responses[0].partitions[0]
            if served.high_watermark == end or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert (served.error_code, served.high_watermark, served.log_start_offset) == (0, end, 0)
        assert served.records, "the record below the high watermark is served"
        beyond = client.request(_fetch(12, end + 1000), 12).responses[0].partitions[0]
        assert (beyond.error_code, beyond.high_watermark) == (ErrorCode.OFFSET_OUT_OF_RANGE, end)
        for request, version in ((_fetch(10, 0), 10), (_fetch(12, 0, replica_id=7), 12)):
            refused = client.request(request, version).responses[0].partitions[0]
            assert refused.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        latest = ListOffsetsRequest(
            topics=[ListOffsetsTopic(name=TOPIC, partitions=[ListOffsetsPartition(timestamp=-1)])]
        )
        answered = client.request(latest, 7).topics[0].partitions[0]
        assert answered.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER


def test_a_consumer_reads_from_the_follower_in_its_rack_and_back_from_the_leader(racked: RackedGroup) -> None:
    admin = AdminClient({"bootstrap.servers": racked.bootstrap()})
    admin.create_topics([NewTopic(TOPIC, 1, 1, config={"min.insync.replicas": "2"})])[TOPIC].result(30)
    racked.wait(lambda s: _leader(s) == 1, "node 1 leads")
    _produce(racked.bootstrap(), 0, BATCH)
    in_leaders_rack = RackedReader(racked.bootstrap(), racked.bootstrap(1), rack="a")
    try:
        in_leaders_rack.read_until(BATCH, check_watermark=False)
    finally:
        in_leaders_rack.close()
    assert in_leaders_rack.seqs == list(range(BATCH))
    assert (racked.fetches(2), racked.fetches(3)) == (0, 0), "a consumer in the leader's rack reads from the leader"
    reader = RackedReader(racked.bootstrap(), racked.bootstrap(1))
    try:
        reader.read_until(BATCH, check_watermark=True)
        leader_fetches, follower_fetches = racked.fetches(1), racked.fetches(2)
        _produce(racked.bootstrap(), BATCH, BATCH)
        reader.read_until(2 * BATCH, check_watermark=True)
        assert racked.fetches(2) > follower_fetches, "the follower in rack b served the second batch"
        assert racked.fetches(1) == leader_fetches, "the leader served no fetch once it named the follower"
        assert racked.fetches(3) == 0, "the follower in rack c served nothing"

        racked.brokers[3].pause()  # in sync still: the confirm offset (the high watermark) stops where node 3 is
        try:
            _produce(racked.bootstrap(1), 2 * BATCH, BATCH, acks="1")
            _wait(lambda: _same_log(racked.brokers[1], racked.brokers[2]), "node 2 holds the leader's CommitLog")
            reader.read_until(2 * BATCH, check_watermark=True, linger_s=1.0)
            assert len(reader.seqs) == 2 * BATCH, "node 2 served records past the high watermark"
        finally:
            racked.brokers[3].resume()
        reader.read_until(3 * BATCH, check_watermark=True)

        _check_follower_answers(racked.bootstrap(3), end=3 * BATCH)

        racked.brokers[2].kill()
        _produce(racked.bootstrap(1, 3), 3 * BATCH, BATCH)
        reader.read_until(4 * BATCH, check_watermark=False)
        assert racked.fetches(1) > leader_fetches, "the leader served the client once the follower was gone"
    finally:
        reader.close()
    assert reader.seqs == list(range(4 * BATCH)), "every record once, in order"
    assert reader.offsets == list(range(4 * BATCH))
