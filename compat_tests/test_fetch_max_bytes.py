"""The request-level Fetch ``max_bytes`` bounds the whole response (KIP-74), as Kafka applies it.

Partitions are filled in request order, each up to its own ``partition_max_bytes`` and what remains of
the request's ``max_bytes``; only the first batch of the first partition with data may exceed either
limit (so a consumer always progresses); once the response is full, later partitions come back without
records but with their high watermark. A consumer configured with ``fetch.max.bytes`` 1 MiB and
``max.partition.fetch.bytes`` 20 MiB was once sent a 19 MiB response, which librdkafka refuses
("Invalid response size") when its ``receive.message.max.bytes`` is the least it accepts,
``fetch.max.bytes`` + 512: that consumer never progressed.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition

from rockafka.facade.protocol.framing import decode_response
from rockafka.facade.protocol.messages.fetch import (
    FetchPartition,
    FetchRequest,
    FetchResponse,
    FetchTopic,
    PartitionData,
)
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import Rec, unique_topic
from .clients.scenarios import create_topic
from .clients.wire import RawClient, record_batch

broker = module_broker(**{"message.max.bytes": str(4 << 20)})
FETCH_MAX = 1 << 20
PARTITION_MAX = 20 << 20
FETCH_VERSION = 12
#: What a Fetch response holds besides its records, for a few partitions of one topic (generously).
OVERHEAD = 512
#: One timestamp for every raw batch, so a batch built twice is the same bytes.
STAMP = int(time.time() * 1000)


@pytest.fixture
def client(broker: BrokerProcess) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as raw:
        yield raw


def value(partition: int, index: int, size: int) -> bytes:
    head = f"{partition}:{index}:".encode()
    return head + bytes([index % 251]) * (size - len(head))


def produce_confluent(bootstrap: str, topic: str, partitions: int, per_partition: int, size: int) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 50, "acks": "all"})
    failures: list[KafkaError] = []
    for index in range(per_partition):
        for partition in range(partitions):
            producer.produce(
                topic, value(partition, index, size), partition=partition,
                on_delivery=lambda err, _msg: failures.append(err) if err is not None else None,
            )  # fmt: skip
            producer.poll(0)
    assert producer.flush(30) == 0
    assert failures == []


def test_librdkafka_consumer_with_a_small_fetch_max_receives_everything(broker: BrokerProcess) -> None:
    """8 MiB over four partitions, read by librdkafka with fetch.max.bytes 1 MiB, partition max 20 MiB
    and receive.message.max.bytes at the least librdkafka accepts (fetch.max.bytes + 512)."""
    topic, partitions, per_partition, size = unique_topic("fetch-max"), 4, 80, 25_000
    create_topic(broker.bootstrap, topic, partitions)
    produce_confluent(broker.bootstrap, topic, partitions, per_partition, size)
    consumer = Consumer({
        "bootstrap.servers": broker.bootstrap, "group.id": f"g-{topic}", "enable.auto.commit": False,
        "fetch.max.bytes": FETCH_MAX, "max.partition.fetch.bytes": PARTITION_MAX,
        "receive.message.max.bytes": FETCH_MAX + 512, "fetch.wait.max.ms": 100,
    })  # fmt: skip
    consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
    received: dict[int, list[bytes]] = {p: [] for p in range(partitions)}
    errors: list[str] = []
    try:
        for _ in range(300):
            for message in consumer.consume(100, timeout=0.2):
                if message.error() is not None:
                    errors.append(str(message.error()))
                else:
                    received[message.partition()].append(message.value())
            if sum(map(len, received.values())) >= partitions * per_partition or errors:
                break
    finally:
        consumer.close()
    assert errors == []
    for partition in range(partitions):
        assert received[partition] == [value(partition, i, size) for i in range(per_partition)], partition


def produce_batches(client: RawClient, topic: str, partition: int, batches: list[bytes]) -> None:
    for batch in batches:
        data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])
        answer = client.request(ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[data]), 9, ProduceResponse)
        assert answer.responses[0].partition_responses[0].error_code == 0


def batch_of(size: int, tag: int) -> bytes:
    """One batch of one record whose value is ``size`` bytes."""
    return record_batch([Rec(b"k", bytes([tag]) * size, (), STAMP)])


def fetch(
    client: RawClient, topic: str, partitions: int, max_bytes: int, partition_max: int
) -> tuple[int, list[PartitionData]]:
    """One Fetch from offset 0 of each partition: (the response frame's size, its partitions in order)."""
    request = FetchRequest(
        max_wait_ms=0, min_bytes=1, max_bytes=max_bytes, topics=[FetchTopic(topic=topic, topic_id=uuid.UUID(int=0),
        partitions=[FetchPartition(partition=p, fetch_offset=0, partition_max_bytes=partition_max)
                    for p in range(partitions)])],
    )  # fmt: skip
    correlation_id, data = client.frame(request, FETCH_VERSION)
    client.send(data)
    frame = client.read_frame()
    answered, answer = decode_response(frame, FetchResponse, FETCH_VERSION)
    assert answered == correlation_id and answer.error_code == 0
    return len(frame), answer.responses[0].partitions


def records_size(part: PartitionData) -> int:
    return len(bytes(part.records or b""))


def test_the_response_stays_within_max_bytes_and_later_partitions_keep_their_watermark(
    broker: BrokerProcess, client: RawClient
) -> None:
    """Three partitions of ten 100 KB batches each, fetched with max_bytes 450 KB and partition max 20 MiB:
    four batches of partition 0, nothing of the others (no room), every high watermark."""
    topic = unique_topic("fetch-max-wire")
    create_topic(broker.bootstrap, topic, 3)
    for partition in range(3):
        produce_batches(client, topic, partition, [batch_of(100_000, i) for i in range(10)])
    one = len(batch_of(100_000, 0))
    frame_size, parts = fetch(client, topic, 3, 450_000, PARTITION_MAX)
    assert frame_size <= 450_000 + OVERHEAD
    assert [records_size(p) for p in parts] == [4 * one, 0, 0]
    assert [(p.error_code, p.high_watermark) for p in parts] == [(0, 10)] * 3


def test_later_partitions_fill_what_remains_within_their_own_limit(broker: BrokerProcess, client: RawClient) -> None:
    """max_bytes 450 KB, partition max 250 KB: two batches from each of the first two partitions, none
    from the third (one more batch would pass max_bytes)."""
    topic = unique_topic("fetch-max-fill")
    create_topic(broker.bootstrap, topic, 3)
    for partition in range(3):
        produce_batches(client, topic, partition, [batch_of(100_000, i) for i in range(5)])
    one = len(batch_of(100_000, 0))
    frame_size, parts = fetch(client, topic, 3, 450_000, 250_000)
    assert frame_size <= 450_000 + OVERHEAD
    assert [records_size(p) for p in parts] == [2 * one, 2 * one, 0]


def test_an_oversized_first_batch_is_returned_alone(broker: BrokerProcess, client: RawClient) -> None:
    """The first batch (2 MB) exceeds both limits and comes back whole; nothing else joins it, not even
    a small batch of a later partition."""
    topic = unique_topic("fetch-max-big")
    create_topic(broker.bootstrap, topic, 2)
    produce_batches(client, topic, 0, [batch_of(2_000_000, 1), batch_of(1000, 2)])
    produce_batches(client, topic, 1, [batch_of(1000, 3)])
    frame_size, parts = fetch(client, topic, 2, 100_000, 50_000)
    big = batch_of(2_000_000, 1)
    assert [records_size(p) for p in parts] == [len(big), 0]
    assert bytes(parts[0].records)[12:] == big[12:]
    assert frame_size <= len(big) + OVERHEAD
    assert [p.high_watermark for p in parts] == [2, 1]


def test_an_empty_first_partition_passes_the_first_batch_rule_on(broker: BrokerProcess, client: RawClient) -> None:
    """Partition 0 has nothing from the fetch offset: partition 1's oversized first batch is the first data."""
    topic = unique_topic("fetch-max-next")
    create_topic(broker.bootstrap, topic, 2)
    produce_batches(client, topic, 1, [batch_of(300_000, 1)])
    _, parts = fetch(client, topic, 2, 100_000, 50_000)
    assert [records_size(p) for p in parts] == [0, len(batch_of(300_000, 1))]


def test_a_later_partition_whose_first_batch_passes_its_limit_returns_nothing(
    broker: BrokerProcess, client: RawClient
) -> None:
    """Only the first partition with data may exceed a limit: partition 1's 60 KB batch fits what remains
    of max_bytes but not its partition max (50 KB), so it waits to be first."""
    topic = unique_topic("fetch-max-part")
    create_topic(broker.bootstrap, topic, 2)
    produce_batches(client, topic, 0, [batch_of(10_000, 1)])
    produce_batches(client, topic, 1, [batch_of(60_000, 2)])
    _, parts = fetch(client, topic, 2, 1 << 20, 50_000)
    assert [records_size(p) for p in parts] == [len(batch_of(10_000, 1)), 0]


def test_a_parked_fetch_woken_by_appends_keeps_the_bound(broker: BrokerProcess, client: RawClient) -> None:
    """A fetch parked for min_bytes 250 KB with max_bytes 250 KB: 100 KB arrive (not enough, it parks
    again), then 200 KB (which would pass max_bytes): at max_wait it answers the first 100 KB only."""
    topic = unique_topic("fetch-max-parked")
    create_topic(broker.bootstrap, topic, 1)
    request = FetchRequest(
        max_wait_ms=1500, min_bytes=250_000, max_bytes=250_000, topics=[FetchTopic(topic=topic,
        partitions=[FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=PARTITION_MAX)])],
    )  # fmt: skip
    correlation_id, data = client.frame(request, FETCH_VERSION)
    client.send(data)
    with RawClient(broker.bootstrap) as producer:
        time.sleep(0.2)
        produce_batches(producer, topic, 0, [batch_of(100_000, 1)])
        time.sleep(0.2)
        produce_batches(producer, topic, 0, [batch_of(200_000, 2)])
    frame = client.read_frame()
    answered, answer = decode_response(frame, FetchResponse, FETCH_VERSION)
    assert answered == correlation_id
    part = answer.responses[0].partitions[0]
    assert (part.high_watermark, records_size(part)) == (2, len(batch_of(100_000, 1)))
    assert len(frame) <= 250_000 + OVERHEAD


def test_an_offset_out_of_range_is_reported_in_a_full_response(broker: BrokerProcess, client: RawClient) -> None:
    topic = unique_topic("fetch-max-range")
    create_topic(broker.bootstrap, topic, 2)
    produce_batches(client, topic, 0, [batch_of(100_000, 1)])
    request = FetchRequest(
        max_wait_ms=0, min_bytes=1, max_bytes=50_000, topics=[FetchTopic(topic=topic, partitions=[
            FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=PARTITION_MAX),
            FetchPartition(partition=1, fetch_offset=5, partition_max_bytes=PARTITION_MAX),
        ])],
    )  # fmt: skip
    parts = client.request(request, FETCH_VERSION, FetchResponse).responses[0].partitions
    assert [(p.error_code, records_size(p) > 0) for p in parts] == [(0, True), (1, False)]  # OFFSET_OUT_OF_RANGE
