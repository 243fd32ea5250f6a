"""OffsetForLeaderEpoch (API 23) against a live broker: every version over a raw socket, and librdkafka's offset
validation (KIP-320), which asks it before fetching from a position that carries a leader epoch; and the same
epochs checked by Fetch and ListOffsets (``current_leader_epoch``) and by Fetch v12+ (``diverging_epoch``).

The raw tests use a store prepared before the broker starts, with three epochs (a single broker stays at epoch
0; a cluster leader begins new ones through ``store.epochs.begin``): partition 0 holds offsets 0-2 in epoch 0,
3-4 in epoch 2 and 5 in epoch 5; partition 1 only offset 0, in epoch 5. So every shape of the answer shows:
the current epoch, an older one, one the partition never had, one older than every epoch it had, a newer one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
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
from rockafka.facade.protocol.messages.offset_for_leader_epoch import (
    EpochEndOffset,
    OffsetForLeaderEpochRequest,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from rockafka.store import MessageStore, StoreConfig

from .brokerproc import TEST_SEGMENT_BYTES, BrokerProcess
from .clients.records import Rec
from .clients.wire import RawClient, record_batch

TOPIC = "epochs"
CURRENT = 5
#: (partition, requested epoch) -> (epoch, end offset) answered
EXPECTED = {
    **{(0, epoch): answer for epoch, answer in {
        -1: (-1, -1), 0: (0, 3), 1: (0, 3), 2: (2, 5), 3: (2, 5), 4: (2, 5), 5: (5, 6), 6: (-1, -1),
    }.items()},
    **{(1, epoch): answer for epoch, answer in {
        -1: (-1, -1), 0: (0, 0), 1: (1, 0), 4: (4, 0), 5: (5, 1), 6: (-1, -1),
    }.items()},
}  # fmt: skip
WAIT_S = 30.0


def _append(store: MessageStore, partition: int, count: int) -> None:
    batch = record_batch([Rec(None, b"v%d" % n) for n in range(count)])
    store.records.append(TOPIC, partition, batch, validate_batches(batch))


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path_factory.mktemp("broker"))
    config = StoreConfig(Path(process.data_dir), commitlog_segment_bytes=TEST_SEGMENT_BYTES, preallocate=False)
    with MessageStore.open(config) as store:
        store.topics.create(TOPIC, 2)
        _append(store, 0, 3)
        store.epochs.begin(2)
        _append(store, 0, 2)
        store.epochs.begin(CURRENT)
        _append(store, 1, 1)
        _append(store, 0, 1)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def ask(
    client: RawClient, version: int, asked: list[tuple[int, int]], *, topic: str = TOPIC, current: int = -1
) -> list[EpochEndOffset]:
    partitions = [OffsetForLeaderPartition(partition=p, leader_epoch=e, current_leader_epoch=current) for p, e in asked]
    topics = [OffsetForLeaderTopic(topic=topic, partitions=partitions)]
    request = OffsetForLeaderEpochRequest(replica_id=-1, topics=topics)
    answer = client.request(request, version, OffsetForLeaderEpochResponse)
    assert [t.topic for t in answer.topics] == [topic]
    return answer.topics[0].partitions


def test_api_versions_advertises_v0_to_v4(broker: BrokerProcess) -> None:
    with RawClient(broker.bootstrap) as client:
        answer = client.request(ApiVersionsRequest(), 3, ApiVersionsResponse)
    assert {(k.min_version, k.max_version) for k in answer.api_keys if k.api_key == 23} == {(0, 4)}


@pytest.mark.parametrize("version", range(5))
def test_every_epoch_shape_at_every_version(broker: BrokerProcess, version: int) -> None:
    asked = sorted(EXPECTED)
    with RawClient(broker.bootstrap) as client:
        found = ask(client, version, asked)
    assert [(p.partition, p.error_code) for p in found] == [(p, 0) for p, _ in asked]
    # v0 has no epoch in its answer (it decodes as -1)
    expected = [EXPECTED[key] if version else (-1, EXPECTED[key][1]) for key in asked]
    assert [(p.leader_epoch, p.end_offset) for p in found] == expected


def test_current_leader_epoch_fences_stale_and_early_callers(broker: BrokerProcess) -> None:
    with RawClient(broker.bootstrap) as client:
        for current, code in [(CURRENT, 0), (CURRENT - 1, 74), (CURRENT + 1, 75)]:
            found = ask(client, 4, [(0, 2)], current=current)
            assert [p.error_code for p in found] == [code], current
            if code:
                assert (found[0].leader_epoch, found[0].end_offset) == (-1, -1)


def test_unknown_topics_and_partitions_are_answered_per_partition(broker: BrokerProcess) -> None:
    with RawClient(broker.bootstrap) as client:
        assert [p.error_code for p in ask(client, 4, [(0, 0)], topic="no-such-topic")] == [
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        ]
        assert [p.error_code for p in ask(client, 2, [(7, 0), (0, 0)])] == [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 0]


# --- librdkafka validates a position that carries an epoch ---


def first_offset_after_seek(bootstrap: str, position: TopicPartition) -> int:
    """The offset of the first record a consumer reads after seeking to ``position`` (auto.offset.reset=earliest).

    librdkafka validates a position with an epoch on ``seek`` (not on ``assign``): the consumer is assigned the end
    of partition 0 (nothing to read there), then seeks once the partition's fetcher has started."""
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"g-{time.monotonic_ns()}", "enable.auto.commit": False,
         "auto.offset.reset": "earliest"}
    )  # fmt: skip
    try:
        consumer.assign([TopicPartition(TOPIC, 0, 6)])
        deadline = time.monotonic() + WAIT_S
        while not _seeked(consumer, position):
            assert time.monotonic() < deadline, "the consumer never started fetching"
            consumer.poll(0.2)
        while time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is None:
                continue
            error = message.error()
            if error is not None:
                assert error.code() in (KafkaError._PARTITION_EOF, KafkaError._LOG_TRUNCATION), error
                continue
            offset: int = message.offset()
            return offset
        raise AssertionError(f"no record read within {WAIT_S}s")
    finally:
        consumer.close()


def _seeked(consumer: Consumer, position: TopicPartition) -> bool:
    try:
        consumer.seek(position)
    except KafkaException:  # the fetcher has not started yet
        return False
    return True


@pytest.mark.parametrize(
    ("epoch", "first"),
    [
        (2, 4),  # epoch 2 ends at 5: offset 4 is valid
        (5, 4),  # the current epoch
        (0, 3),  # epoch 0 ended at 3: the consumer goes back to 3 (without the API it would read 4)
        (6, 0),  # newer than any epoch: no answer, so auto.offset.reset (without the API it would read 4)
    ],
)
def test_librdkafka_validates_a_position_by_its_epoch(broker: BrokerProcess, epoch: int, first: int) -> None:
    assert first_offset_after_seek(broker.bootstrap, TopicPartition(TOPIC, 0, 4, leader_epoch=epoch)) == first


# --- Fetch and ListOffsets check the same epochs on a single broker (its store's epoch, 5 here) ---


@pytest.mark.parametrize("current", [-1, CURRENT, CURRENT - 1, CURRENT + 1])
def test_fetch_and_list_offsets_check_the_current_leader_epoch(broker: BrokerProcess, current: int) -> None:
    expected = {CURRENT - 1: ErrorCode.FENCED_LEADER_EPOCH, CURRENT + 1: ErrorCode.UNKNOWN_LEADER_EPOCH}.get(current, 0)
    offsets = ListOffsetsRequest(
        replica_id=-1,
        topics=[ListOffsetsTopic(name=TOPIC, partitions=[ListOffsetsPartition(current_leader_epoch=current)])],
    )
    with RawClient(broker.bootstrap) as client:
        fetched = fetch_partition_0(client, 11, fetch_offset=0, current=current)
        [listed] = client.request(offsets, 4, ListOffsetsResponse).topics[0].partitions
    assert (fetched.error_code, listed.error_code) == (expected, expected)
    assert bool(fetched.records) == (expected == 0)


@pytest.mark.parametrize(
    ("fetch_offset", "last_fetched", "diverging"),
    [
        (3, 0, (-1, -1)),  # epoch 0 ended at 3: the fetcher agrees and reads on
        (4, 0, (0, 3)),  # it wrote offset 3 in epoch 0: diverged from 3
        (6, 4, (2, 5)),  # epoch 4 was never here: the newest below it, 2, ends at 5
        (6, CURRENT, (-1, -1)),
    ],
)
def test_fetch_reports_a_diverging_epoch(
    broker: BrokerProcess, fetch_offset: int, last_fetched: int, diverging: tuple[int, int]
) -> None:
    with RawClient(broker.bootstrap) as client:
        fetched = fetch_partition_0(client, 12, fetch_offset=fetch_offset, last_fetched=last_fetched)
        unknown = fetch_partition_0(client, 12, fetch_offset=fetch_offset, last_fetched=CURRENT + 1)
    assert fetched.error_code == ErrorCode.NONE
    assert (fetched.diverging_epoch.epoch, fetched.diverging_epoch.end_offset) == diverging
    assert bool(fetched.records) == (diverging == (-1, -1) and fetch_offset < 6)
    assert unknown.error_code == ErrorCode.OFFSET_OUT_OF_RANGE


def fetch_partition_0(
    client: RawClient, version: int, *, fetch_offset: int, current: int = -1, last_fetched: int = -1
) -> PartitionData:
    partition = FetchPartition(
        partition=0,
        current_leader_epoch=current,
        fetch_offset=fetch_offset,
        last_fetched_epoch=last_fetched,
        partition_max_bytes=1 << 20,
    )
    request = FetchRequest(
        replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20,
        topics=[FetchTopic(topic=TOPIC, partitions=[partition])],
    )  # fmt: skip
    [[answer]] = [t.partitions for t in client.request(request, version, FetchResponse).responses]
    return answer
