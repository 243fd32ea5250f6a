"""Leader epochs as clients see them in a 2-group cluster (``rockafka.testing.Cluster``): one epoch everywhere,
``current_leader_epoch`` checks, Fetch's ``diverging_epoch``, KIP-951 leader hints, and librdkafka riding over
epoch changes.

An election is what raises a group's epoch in etcd; here the test raises it by writing the group's state with the
same leader and the next epoch (what the controller writes at an election, leaving the data where it is), so the
data survives and every answer can be checked exactly. The raw tests speak the wire with the project's client at
every version that has the field they check.
"""

from __future__ import annotations

import asyncio
import struct
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from uuid import UUID

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.cluster.etcd import Etcd
from rockafka.cluster.layout import GroupState, KeyLayout, decode_group, encode_group
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.fetch import (
    FetchPartition,
    FetchRequest,
    FetchResponse,
    FetchTopic,
    PartitionData,
)
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.offset_for_leader_epoch import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)
from rockafka.testing import Cluster

from .clients.cluster import wait_known_everywhere
from .clients.records import Rec, unique_topic
from .clients.wire import RawClient, record_batch

pytestmark = pytest.mark.slow

DEADLINE_S = 60.0
FENCED, UNKNOWN = ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.UNKNOWN_LEADER_EPOCH
#: The byte offset of partitionLeaderEpoch in a RecordBatch.
LEADER_EPOCH_AT = 12


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=2) as running:
        yield running


def _create(cluster: Cluster, partitions: int = 2) -> str:
    """A new topic, its partition i on group-(i % 2 + 1) (node i % 2 + 1 leads it), listed by every broker."""
    topic = unique_topic("epochs")
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(topic, partitions, replica_assignment=[[p % 2 + 1] for p in range(partitions)])])[
        topic
    ].result(DEADLINE_S)
    wait_known_everywhere(cluster, topic, DEADLINE_S)
    return topic


def _metadata(cluster: Cluster, topic: str, via: int) -> tuple[UUID, dict[int, tuple[int, int]]]:
    """The topic's id and partition -> (leader, leader epoch), as broker ``via`` answers Metadata v12."""
    with RawClient(cluster.brokers[via].bootstrap) as raw:
        request = MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False)
        [described] = raw.request(request, 12, MetadataResponse).topics
    return described.topic_id, {p.partition_index: (p.leader_id, p.leader_epoch) for p in described.partitions}


def _bump_epoch(cluster: Cluster, node: int) -> int:
    """Give group-<node> the next epoch in etcd, same leader (an election's write); wait until every broker's
    Metadata reports it. The new epoch."""

    async def write() -> int:
        etcd = await Etcd.connect([cluster.etcd.endpoint])
        try:
            key = KeyLayout(cluster.name).group(f"group-{node}")
            entry = await etcd.get(key)
            assert entry is not None
            state = decode_group(f"group-{node}", entry.value)
            assert state.leader == node
            raised = GroupState(state.name, node, state.epoch + 1)
            assert await etcd.swap([etcd.txn.mod(key) == entry.mod_revision], [etcd.txn.put(key, encode_group(raised))])
            return raised.epoch
        finally:
            await etcd.close()

    epoch = asyncio.run(write())
    probe = _create_probe(cluster, node)
    deadline = time.monotonic() + DEADLINE_S
    while any(_metadata(cluster, probe, via)[1][0][1] != epoch for via in cluster.brokers):
        assert time.monotonic() < deadline, f"the brokers never reported epoch {epoch} of group-{node}"
        time.sleep(0.05)
    return epoch


_probes: dict[int, str] = {}


def _create_probe(cluster: Cluster, node: int) -> str:
    """A one-partition topic on group-<node>, whose Metadata shows that group's epoch (made once per node)."""
    if node not in _probes:
        topic = unique_topic(f"probe{node}")
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        admin.create_topics([NewTopic(topic, 1, replica_assignment=[[node]])])[topic].result(DEADLINE_S)
        wait_known_everywhere(cluster, topic, DEADLINE_S)
        _probes[node] = topic
    return _probes[node]


def _produce(
    cluster: Cluster, topic: str, partition: int, count: int, *, via: int, timestamps: list[int] | None = None
) -> ProduceResponse:
    stamps = timestamps or [None] * count
    batch = record_batch([Rec(None, b"r%d" % n, (), stamps[n]) for n in range(count)])
    data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])
    with RawClient(cluster.brokers[via].bootstrap) as raw:
        return raw.request(ProduceRequest(acks=1, timeout_ms=5000, topic_data=[data]), 9, ProduceResponse)


def _fetch(
    cluster: Cluster, topic: str, partition: int, *, via: int, version: int = 12, offset: int = 0,
    current: int = -1, last_fetched: int = -1, topic_id: UUID | None = None,
) -> tuple[FetchResponse, PartitionData]:  # fmt: skip
    part = FetchPartition(
        partition=partition, current_leader_epoch=current, fetch_offset=offset,
        last_fetched_epoch=last_fetched if version >= 12 else -1, partition_max_bytes=1 << 20,
    )  # fmt: skip
    by_id = version >= 13
    fetched = FetchTopic(topic="" if by_id else topic, partitions=[part])
    if by_id:
        assert topic_id is not None
        fetched.topic_id = topic_id
    request = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, topics=[fetched])
    with RawClient(cluster.brokers[via].bootstrap) as raw:
        answer = raw.request(request, version, FetchResponse)
    [[data]] = [t.partitions for t in answer.responses]
    return answer, data


def _batch_epochs(records: bytes | None) -> list[int]:
    """The partitionLeaderEpoch of every batch in ``records``."""
    epochs, at, data = [], 0, records or b""
    while at + 61 <= len(data):
        length = struct.unpack_from(">i", data, at + 8)[0]
        epochs.append(struct.unpack_from(">i", data, at + LEADER_EPOCH_AT)[0])
        at += 12 + length
    return epochs


def test_the_leader_stamps_and_answers_the_epoch_metadata_reports(cluster: Cluster) -> None:
    topic = _create(cluster, 1)
    assert _produce(cluster, topic, 0, 2, via=1).responses[0].partition_responses[0].error_code == ErrorCode.NONE
    old = _metadata(cluster, topic, 2)[1][0][1]
    epoch = _bump_epoch(cluster, 1)
    assert epoch == old + 1
    assert _produce(cluster, topic, 0, 3, via=1).responses[0].partition_responses[0].error_code == ErrorCode.NONE
    _, data = _fetch(cluster, topic, 0, via=1, current=epoch)
    assert data.error_code == ErrorCode.NONE
    assert _batch_epochs(data.records) == [old, epoch]  # the store began etcd's new epoch (it used to stay at 0)
    asked = [OffsetForLeaderPartition(partition=0, current_leader_epoch=epoch, leader_epoch=e) for e in (old, epoch)]
    request = OffsetForLeaderEpochRequest(replica_id=-1, topics=[OffsetForLeaderTopic(topic=topic, partitions=asked)])
    with RawClient(cluster.brokers[1].bootstrap) as raw:
        answered = raw.request(request, 4, OffsetForLeaderEpochResponse).topics[0].partitions
    assert [(p.error_code, p.leader_epoch, p.end_offset) for p in answered] == [(0, old, 2), (0, epoch, 5)]


@pytest.mark.parametrize("version", [4, 7, 10])
def test_list_offsets_answers_the_epoch_each_offset_was_written_in(cluster: Cluster, version: int) -> None:
    """As Kafka: the current epoch with the latest offset, the log start's with the earliest, the found record's by
    timestamp (and by max timestamp, v7+), -1 when nothing is found."""
    topic = _create(cluster, 1)
    _produce(cluster, topic, 0, 2, via=1, timestamps=[1_000, 1_001])
    old = _metadata(cluster, topic, 1)[1][0][1]
    epoch = _bump_epoch(cluster, 1)
    _produce(cluster, topic, 0, 3, via=1, timestamps=[2_000, 2_001, 2_002])
    asked = {-2: (0, old), -1: (5, epoch), 500: (0, old), 1_001: (1, old), 1_500: (2, epoch), 3_000: (-1, -1)}
    if version >= 7:
        asked[-3] = (4, epoch)
    parts = [ListOffsetsPartition(partition_index=0, current_leader_epoch=epoch, timestamp=t) for t in asked]
    answers = {}
    for part in parts:  # one partition per request: a request names a partition once
        request = ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(name=topic, partitions=[part])])
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            [answer] = raw.request(request, version, ListOffsetsResponse).topics[0].partitions
        assert answer.error_code == ErrorCode.NONE
        answers[part.timestamp] = (answer.offset, answer.leader_epoch)
    assert answers == asked


@pytest.mark.parametrize("version", range(9, 18))
def test_fetch_checks_the_current_leader_epoch(cluster: Cluster, version: int) -> None:
    topic = _create(cluster, 1)
    topic_id, leaders = _metadata(cluster, topic, 1)
    epoch = leaders[0][1]
    answers = {
        current: _fetch(cluster, topic, 0, via=1, version=version, current=current, topic_id=topic_id)
        for current in (-1, epoch, epoch - 1, epoch + 1)
    }
    assert {current: data.error_code for current, (_, data) in answers.items()} == {
        -1: 0, epoch: 0, epoch - 1: FENCED, epoch + 1: UNKNOWN,
    }  # fmt: skip
    response, fenced = answers[epoch - 1]
    if version >= 16:  # KIP-951: the current leader, and its endpoint
        assert (fenced.current_leader.leader_id, fenced.current_leader.leader_epoch) == (1, epoch)
        assert [(n.node_id, n.port) for n in response.node_endpoints] == [(1, cluster.brokers[1].port)]
    else:
        assert fenced.current_leader.leader_id == -1 and not response.node_endpoints


@pytest.mark.parametrize("version", range(4, 11))
def test_list_offsets_checks_the_current_leader_epoch(cluster: Cluster, version: int) -> None:
    topic = _create(cluster, 1)
    epoch = _metadata(cluster, topic, 1)[1][0][1]
    found = {}
    for current in (-1, epoch, epoch - 1, epoch + 1):
        part = ListOffsetsPartition(partition_index=0, current_leader_epoch=current, timestamp=-1)
        request = ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(name=topic, partitions=[part])])
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            [answer] = raw.request(request, version, ListOffsetsResponse).topics[0].partitions
        found[current] = (answer.error_code, answer.leader_epoch if answer.error_code == 0 else None)
    assert found == {-1: (0, epoch), epoch: (0, epoch), epoch - 1: (FENCED, None), epoch + 1: (UNKNOWN, None)}


@pytest.mark.parametrize("version", range(9, 18))
def test_a_broker_that_does_not_lead_names_the_leader_in_fetch_from_v16(cluster: Cluster, version: int) -> None:
    topic = _create(cluster, 1)
    topic_id, leaders = _metadata(cluster, topic, 2)
    epoch = leaders[0][1]
    response, data = _fetch(cluster, topic, 0, via=2, version=version, current=epoch, topic_id=topic_id)
    assert data.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
    if version >= 16:
        assert (data.current_leader.leader_id, data.current_leader.leader_epoch) == (1, epoch)
        assert [(n.node_id, n.host, n.port) for n in response.node_endpoints] == [
            (1, "127.0.0.1", cluster.brokers[1].port)
        ]
    else:
        assert data.current_leader.leader_id == -1 and not response.node_endpoints


@pytest.mark.parametrize("version", [3, 9, 10, 11])
def test_a_broker_that_does_not_lead_names_the_leader_in_produce_from_v10(cluster: Cluster, version: int) -> None:
    topic = _create(cluster, 2)  # partition 0 on group-1, partition 1 on group-2
    epoch = _metadata(cluster, topic, 2)[1][0][1]
    batch = record_batch([Rec(None, b"v", (), None)])
    data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=p, records=batch) for p in (0, 1)])
    with RawClient(cluster.brokers[2].bootstrap) as raw:
        response = raw.request(ProduceRequest(acks=1, timeout_ms=5000, topic_data=[data]), version, ProduceResponse)
    refused, accepted = response.responses[0].partition_responses
    assert (refused.error_code, accepted.error_code) == (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.NONE)
    if version >= 10:
        assert (refused.current_leader.leader_id, refused.current_leader.leader_epoch) == (1, epoch)
        assert accepted.current_leader.leader_id == -1
        assert [(n.node_id, n.host, n.port) for n in response.node_endpoints] == [
            (1, "127.0.0.1", cluster.brokers[1].port)
        ]
    else:
        assert refused.current_leader.leader_id == -1 and not response.node_endpoints


def test_fetch_reports_where_a_fetchers_log_diverged(cluster: Cluster) -> None:
    """Partition 0 (group-1): offsets 0-2 in epoch e, then an epoch e+1 that wrote nothing, then 3-4 in e+2."""
    topic = _create(cluster, 1)
    topic_id = _metadata(cluster, topic, 1)[0]
    _produce(cluster, topic, 0, 3, via=1)
    e = _metadata(cluster, topic, 1)[1][0][1]
    _bump_epoch(cluster, 1)
    current = _bump_epoch(cluster, 1)
    assert current == e + 2
    _produce(cluster, topic, 0, 2, via=1)

    def fetch(version: int, offset: int, last_fetched: int) -> PartitionData:
        return _fetch(
            cluster, topic, 0, via=1, version=version, offset=offset, current=current, last_fetched=last_fetched,
            topic_id=topic_id,
        )[1]  # fmt: skip

    for version in range(12, 18):
        agrees = fetch(version, 3, e)  # e ends at 3: the fetcher is right, and reads on
        assert (agrees.error_code, agrees.diverging_epoch.epoch, _batch_epochs(agrees.records)) == (0, -1, [current])
        ahead = fetch(version, 5, e)  # it holds offsets 3-4 in epoch e: they diverge from 3
        assert (ahead.error_code, ahead.diverging_epoch.epoch, ahead.diverging_epoch.end_offset) == (0, e, 3)
        assert not ahead.records and ahead.high_watermark == 5
        missing = fetch(version, 4, e + 1)  # an epoch this log never wrote in: back to the end of e
        assert (missing.diverging_epoch.epoch, missing.diverging_epoch.end_offset) == (e, 3)
        at_end = fetch(version, 5, current)
        assert (at_end.error_code, at_end.diverging_epoch.epoch) == (0, -1)
        unknown = fetch(version, 5, current + 1)  # newer than any epoch here: no end known
        assert unknown.error_code == ErrorCode.OFFSET_OUT_OF_RANGE
    older = fetch(11, 5, e)  # no last_fetched_epoch before v12: nothing to compare, an empty answer at the end
    assert (older.error_code, older.diverging_epoch.epoch) == (0, -1)


def test_librdkafka_produces_and_consumes_across_epoch_changes_without_loss_or_duplicates(cluster: Cluster) -> None:
    """Records go to both groups in rounds; after each round has been read, both groups' epochs are raised. The
    consumer's next fetches, sent at the epoch it knew, are fenced: it refreshes its metadata, validates its
    position and reads on (and the producer keeps producing to the same leaders)."""
    topic = _create(cluster, 4)
    rounds, per_round = 5, 80
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True, "linger.ms": 5})
    consumer = Consumer(
        {"bootstrap.servers": cluster.bootstrap, "group.id": f"{topic}-g", "auto.offset.reset": "earliest",
         "topic.metadata.refresh.interval.ms": 60000}
    )  # fmt: skip
    consumer.subscribe([topic])
    received: dict[int, list[bytes]] = defaultdict(list)
    stop = threading.Event()

    def consume() -> None:
        while not stop.is_set():
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                received[message.partition()].append(message.value())

    reader = threading.Thread(target=consume)
    reader.start()
    try:
        for round_ in range(rounds):
            for n in range(round_ * per_round, (round_ + 1) * per_round):
                producer.produce(topic, value=b"%d" % n, partition=n % 4)
            assert producer.flush(DEADLINE_S) == 0
            deadline = time.monotonic() + DEADLINE_S
            while sum(map(len, received.values())) < (round_ + 1) * per_round:
                assert time.monotonic() < deadline, f"round {round_}: the consumer stopped at {dict(received)}"
                time.sleep(0.05)
            if round_ < rounds - 1:
                _bump_epoch(cluster, 1)
                _bump_epoch(cluster, 2)
    finally:
        stop.set()
        reader.join(DEADLINE_S)
        consumer.close()
    count = rounds * per_round
    assert dict(received) == {p: [b"%d" % n for n in range(p, count, 4)] for p in range(4)}
