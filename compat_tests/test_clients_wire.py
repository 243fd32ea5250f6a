"""Every advertised version of the data-path APIs, over a raw socket (kafkajs ignores minVersion, and
clients pick any version up to their own maximum, so each one must really work).

Produce, Fetch, ListOffsets and Metadata at each version the broker advertises: a real request, a
response that decodes at that version, no error, and the same records and offsets at every version.
Every other advertised API must at least answer its default (empty) request at every version
rather than close the connection.
"""

from __future__ import annotations

import struct
import time
import uuid
from collections.abc import Iterator

import pytest

from rockafka.facade.protocol.messages import api_spec
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchResponse, FetchTopic
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import Rec, unique_topic
from .clients.wire import RawClient, legacy_message_set, legacy_messages, record_batch

broker = module_broker()
EARLIEST, LATEST = -2, -1


@pytest.fixture(scope="module")
def advertised(broker: BrokerProcess) -> dict[int, tuple[int, int]]:
    with RawClient(broker.bootstrap) as client:
        answer = client.request(ApiVersionsRequest(), 0, ApiVersionsResponse)
    assert answer.error_code == 0
    return {entry.api_key: (entry.min_version, entry.max_version) for entry in answer.api_keys}


@pytest.fixture
def client(broker: BrokerProcess) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as raw:
        yield raw


def versions(advertised: dict[int, tuple[int, int]], api_key: int) -> range:
    low, high = advertised[api_key]
    return range(low, high + 1)


def create_topic(client: RawClient, name: str) -> uuid.UUID:
    """Auto-create ``name`` through Metadata and return its topic id."""
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=True)
    for _ in range(20):
        topic = client.request(request, 12, MetadataResponse).topics[0]
        if topic.error_code == 0:
            assert topic.topic_id != uuid.UUID(int=0)
            return topic.topic_id
    raise AssertionError(f"topic {name} was not created")


def produce(client: RawClient, topic: str, records: list[Rec], version: int) -> int:
    """Produce ``records`` at ``version``: a RecordBatch v2 from v3, else a MessageSet (format v1 at v2, v0 before)."""
    encoded = record_batch(records) if version >= 3 else legacy_message_set(records, magic=1 if version == 2 else 0)
    data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=encoded)])
    answer = client.request(ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[data]), version, ProduceResponse)
    partition = answer.responses[0].partition_responses[0]
    assert (answer.responses[0].name, partition.index, partition.error_code) == (topic, 0, 0), partition
    return partition.base_offset


def test_api_versions_every_version(client: RawClient, advertised: dict[int, tuple[int, int]]) -> None:
    assert advertised[18] == (0, 4)
    for version in versions(advertised, 18):
        answer = client.request(ApiVersionsRequest(), version, ApiVersionsResponse)
        assert answer.error_code == 0
        assert {e.api_key: (e.min_version, e.max_version) for e in answer.api_keys} == advertised


def test_produce_every_version(client: RawClient, advertised: dict[int, tuple[int, int]]) -> None:
    topic = unique_topic("wire-produce")
    create_topic(client, topic)
    expected = 0
    for version in versions(advertised, 0):
        assert produce(client, topic, [Rec(b"k", f"v{version}".encode()), Rec(None, b"x")], version) == expected
        expected += 2


def test_fetch_every_version_returns_the_same_bytes(client: RawClient, advertised: dict[int, tuple[int, int]]) -> None:
    topic = unique_topic("wire-fetch")
    topic_id = create_topic(client, topic)
    batch = record_batch([Rec(b"key", b"value", (("h", b"1"),), 1_700_000_000_000)] * 3)
    assert produce(client, topic, [Rec(b"key", b"value", (("h", b"1"),), 1_700_000_000_000)] * 3, 7) == 0
    for version in versions(advertised, 1):
        by_id = version >= 13
        request = FetchRequest(
            max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, isolation_level=1 if version % 2 else 0,
            topics=[FetchTopic(
                topic="" if by_id else topic, topic_id=topic_id if by_id else uuid.UUID(int=0),
                partitions=[FetchPartition(partition=0, fetch_offset=1, partition_max_bytes=1 << 20)],
            )],
        )  # fmt: skip
        answer = client.request(request, version, FetchResponse)
        assert answer.error_code == 0
        part = answer.responses[0].partitions[0]
        if version < 4:  # down-converted: the records from the fetch offset, headers dropped, v2+ with timestamps
            assert (part.error_code, part.high_watermark) == (0, 3)
            magic, stamp = (1, 1_700_000_000_000) if version >= 2 else (0, None)
            messages = legacy_messages(bytes(part.records or b""))
            assert messages == [(magic, offset, stamp, b"key", b"value") for offset in (1, 2)], f"Fetch v{version}"
            continue
        assert (part.error_code, part.high_watermark, part.last_stable_offset) == (0, 3, 3)
        if version >= 5:
            assert part.log_start_offset == 0
        stored = bytes(part.records or b"")
        # the whole batch, from its base offset, though the fetch asked for offset 1; CRC and payload unchanged
        assert stored[:8] == b"\0" * 8 and stored[12:] == batch[12:], f"Fetch v{version}"


def test_list_offsets_every_version(client: RawClient, advertised: dict[int, tuple[int, int]]) -> None:
    """Earliest, latest and by time at each version (v1-3 carry no leader epoch: a v2 answer once
    failed to encode, closing kcat's and aiokafka's connections)."""
    topic = unique_topic("wire-offsets")
    create_topic(client, topic)
    base = 1_700_000_000_000
    produce(client, topic, [Rec(b"a", b"1", (), base), Rec(b"b", b"2", (), base + 10)], 7)
    for version in versions(advertised, 2):
        for timestamp, offset in ((EARLIEST, 0), (LATEST, 2), (base + 5, 1), (base + 11, -1)):
            if version == 0 and timestamp >= 0:
                continue
            request = ListOffsetsRequest(
                replica_id=-1,
                topics=[
                    ListOffsetsTopic(
                        name=topic, partitions=[ListOffsetsPartition(partition_index=0, timestamp=timestamp)]
                    )
                ],
            )
            part = client.request(request, version, ListOffsetsResponse).topics[0].partitions[0]
            assert part.error_code == 0, (version, timestamp)
            if version == 0:
                assert part.old_style_offsets == [offset]
            else:
                assert part.offset == offset, (version, timestamp)
                assert part.timestamp == {base + 5: base + 10}.get(timestamp, -1), (version, timestamp)
                assert part.leader_epoch == (0 if version >= 4 and offset >= 0 else -1)  # -1: nothing found


def test_metadata_every_version(
    client: RawClient, advertised: dict[int, tuple[int, int]], broker: BrokerProcess
) -> None:
    topic = unique_topic("wire-metadata")
    topic_id = create_topic(client, topic)
    for version in versions(advertised, 3):
        answer = client.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), version, MetadataResponse)
        assert [(b.node_id, b.host, b.port) for b in answer.brokers] == [(0, "127.0.0.1", broker.port)]
        (found,) = answer.topics
        assert (found.error_code, found.name, len(found.partitions)) == (0, topic, 1)
        assert found.topic_id == (topic_id if version >= 10 else uuid.UUID(int=0))
        if version >= 2:
            assert answer.cluster_id
        if version >= 1:
            assert answer.controller_id == 0


def test_every_other_api_answers_its_empty_request(client: RawClient, advertised: dict[int, tuple[int, int]]) -> None:
    """Whatever else is advertised answers a default request at every version (an error code is fine;
    closing the connection is not)."""
    for api_key in sorted(set(advertised) - {0, 1, 2, 3, 18}):
        spec = api_spec(api_key)
        for version in versions(advertised, api_key):
            answer = client.request(spec.request(), version, spec.response)
            assert isinstance(answer, spec.response), (spec.name, version)


def test_fetch_out_of_range_and_unknown_topic_id(client: RawClient) -> None:
    """Below the log start or past the high watermark: OFFSET_OUT_OF_RANGE with both bounds filled in
    (the client resets by auto.offset.reset); an unknown topic id (v13+): UNKNOWN_TOPIC_ID."""
    topic = unique_topic("wire-range")
    topic_id = create_topic(client, topic)
    produce(client, topic, [Rec(b"k", b"v")], 9)
    for offset, code in ((-5, 1), (2, 1), (1, 0)):
        partition = FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=1 << 20)
        request = FetchRequest(max_wait_ms=0, min_bytes=1, topics=[FetchTopic(topic=topic, partitions=[partition])])
        part = client.request(request, 12, FetchResponse).responses[0].partitions[0]
        assert (part.error_code, part.high_watermark, part.log_start_offset) == (code, 1, 0), offset
    unknown = FetchTopic(topic_id=uuid.uuid4(), partitions=[FetchPartition(partition=0, partition_max_bytes=1024)])
    answer = client.request(FetchRequest(max_wait_ms=0, topics=[unknown]), 13, FetchResponse)
    assert answer.responses[0].partitions[0].error_code == 100
    assert topic_id != unknown.topic_id


def test_metadata_without_auto_creation_reports_unknown_topic(client: RawClient) -> None:
    """librdkafka consumers and kafkajs admin ask with allow_auto_topic_creation=false."""
    name = unique_topic("wire-absent")
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=False)
    assert client.request(request, 9, MetadataResponse).topics[0].error_code == 3
    assert client.request(request, 9, MetadataResponse).topics[0].error_code == 3  # and it was not created


def test_pipelined_requests_are_answered_in_order(client: RawClient) -> None:
    """A parked fetch, then ApiVersions and Metadata on the same connection without waiting: the answers
    come back in request order (clients match them by position), the fetch's after its max wait."""
    topic = unique_topic("wire-order")
    create_topic(client, topic)
    partition = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
    parked = FetchRequest(max_wait_ms=300, min_bytes=1, topics=[FetchTopic(topic=topic, partitions=[partition])])
    frames = [
        client.frame(parked, 11),
        client.frame(ApiVersionsRequest(), 2),
        client.frame(MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), 9),
    ]
    started = time.monotonic()
    client.send(b"".join(data for _, data in frames))
    answered = [struct.unpack_from(">i", client.read_frame())[0] for _ in frames]
    assert answered == [correlation for correlation, _ in frames]
    assert time.monotonic() - started >= 0.25
