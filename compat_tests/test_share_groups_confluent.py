"""KIP-932 share groups with confluent-kafka's ``ShareConsumer`` (librdkafka's share consumer): consumers sharing
one partition, released, rejected and over-the-limit records, a consumer killed mid-batch, a broker restart, and
the group's start offset described and altered (over a raw socket) between two consumers.

Each test uses a group and topic of its own on one broker started for the module (a short lock duration and
delivery limit 2, so redelivery happens within a test); the restart test starts its own. Share groups start
at the latest offset by default, so each group is first configured ``share.auto.offset.reset=earliest``
through IncrementalAlterConfigs, as an operator would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import AcknowledgeType, Message, Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import alter_share_group_offsets as alt
from rockafka.facade.protocol.messages import describe_share_group_offsets as dsc

from .brokerproc import BrokerProcess
from .clients.wire import RawClient

LOCK_MS = 1500
SETTINGS = {
    "group.share.record.lock.duration.ms": str(LOCK_MS),
    "group.share.delivery.count.limit": "2",
    "group.share.heartbeat.interval.ms": "500",
}
POLL_S = 0.5
WAIT_S = 30.0


@pytest.fixture(scope="module")
def share_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path_factory.mktemp("broker"), settings=dict(SETTINGS)).start()
    try:
        yield process
    finally:
        process.stop()


def prepare(broker: BrokerProcess, topic: str, group: str, count: int) -> None:
    """Create the topic (one partition), start the group at the earliest offset, produce ``count`` records."""
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    entry = ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=[entry])
    for future in admin.incremental_alter_configs([resource]).values():
        future.result(30)
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
    for i in range(count):
        producer.produce(topic, value=b"%d" % i)
        if i % 10 == 9:  # batches of 10: a share fetch acquires whole batches, and several consumers can take turns
            assert producer.flush(30) == 0
    assert producer.flush(30) == 0


def share_consumer(broker: BrokerProcess, group: str, topic: str, **conf: str) -> ShareConsumer:
    consumer = ShareConsumer({"bootstrap.servers": broker.bootstrap, "group.id": group, **conf})
    consumer.subscribe([topic])
    return consumer


def records(batch: list[Message] | None) -> list[Message]:
    return [m for m in batch or [] if m.error() is None]


def poll_until(consumer: ShareConsumer, wanted: int, seconds: float = WAIT_S) -> list[Message]:
    """Poll until ``wanted`` records came (or ``seconds`` passed); the records, in order of arrival."""
    got: list[Message] = []
    deadline = time.monotonic() + seconds
    while len(got) < wanted and time.monotonic() < deadline:
        got += records(consumer.poll(POLL_S))
    return got


def test_consumers_on_one_partition_each_get_disjoint_records(share_broker: BrokerProcess) -> None:
    prepare(share_broker, "share-disjoint", "g-disjoint", 300)
    consumers = [
        share_consumer(share_broker, "g-disjoint", "share-disjoint", **{"max.poll.records": "20"}) for _ in range(3)
    ]
    got: list[list[int]] = [[] for _ in consumers]
    deadline = time.monotonic() + 60
    while sum(map(len, got)) < 300 and time.monotonic() < deadline:
        for index, consumer in enumerate(consumers):
            got[index] += [m.offset() for m in records(consumer.poll(0.2))]
    for consumer in consumers:
        consumer.close()
    every = [offset for offsets in got for offset in offsets]
    assert sorted(every) == list(range(300))  # each record once, to one consumer
    assert sum(1 for offsets in got if offsets) >= 2  # the partition was shared


def test_a_released_record_is_delivered_again(share_broker: BrokerProcess) -> None:
    prepare(share_broker, "share-release", "g-release", 5)
    consumer = share_consumer(share_broker, "g-release", "share-release", **{"share.acknowledgement.mode": "explicit"})
    first = poll_until(consumer, 5)
    assert [m.offset() for m in first] == [0, 1, 2, 3, 4] and {m.delivery_count() for m in first} == {1}
    for message in first:
        consumer.acknowledge(message, AcknowledgeType.RELEASE if message.offset() == 2 else AcknowledgeType.ACCEPT)
    consumer.commit_sync(30)
    again = poll_until(consumer, 1)
    assert [(m.offset(), m.value(), m.delivery_count()) for m in again] == [(2, b"2", 2)]
    consumer.acknowledge(again[0], AcknowledgeType.ACCEPT)
    consumer.commit_sync(30)
    assert poll_until(consumer, 1, seconds=3 * LOCK_MS / 1000) == []
    consumer.close()


def test_a_rejected_record_and_one_past_the_delivery_limit_are_archived(share_broker: BrokerProcess) -> None:
    prepare(share_broker, "share-archive", "g-archive", 3)
    consumer = share_consumer(share_broker, "g-archive", "share-archive", **{"share.acknowledgement.mode": "explicit"})
    seen: list[tuple[int, int]] = []
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline and len(seen) < 4:
        for message in records(consumer.poll(POLL_S)):
            seen.append((message.offset(), message.delivery_count()))
            kind = {0: AcknowledgeType.REJECT, 1: AcknowledgeType.RELEASE}.get(message.offset(), AcknowledgeType.ACCEPT)
            consumer.acknowledge(message, kind)
        consumer.commit_sync(30)
    # offset 0 rejected at once; offset 1 released twice, then archived at the limit (2); offset 2 accepted
    assert sorted(seen) == [(0, 1), (1, 1), (1, 2), (2, 1)]
    assert poll_until(consumer, 1, seconds=3 * LOCK_MS / 1000) == []
    consumer.close()


CHILD = """
import json, sys, time
from confluent_kafka import ShareConsumer
consumer = ShareConsumer({"bootstrap.servers": sys.argv[1], "group.id": sys.argv[2],
                          "share.acknowledgement.mode": "explicit", "max.poll.records": "10"})
consumer.subscribe([sys.argv[3]])
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    got = [m.offset() for m in consumer.poll(0.5) or [] if m.error() is None]
    if got:
        print(json.dumps(got), flush=True)
        break
time.sleep(120)  # holds its records, unacknowledged, until killed
"""


def test_a_consumer_killed_mid_batch_has_its_records_delivered_again_after_the_lock(
    share_broker: BrokerProcess,
) -> None:
    prepare(share_broker, "share-killed", "g-killed", 10)
    args = [sys.executable, "-c", CHILD, share_broker.bootstrap, "g-killed", "share-killed"]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        held = json.loads(child.stdout.readline())
    finally:
        child.kill()
        child.wait(30)
    assert held and set(held) <= set(range(10))
    other = share_consumer(share_broker, "g-killed", "share-killed")
    got = poll_until(other, 10)
    other.close()
    assert sorted((m.offset(), m.delivery_count()) for m in got) == [(i, 2 if i in held else 1) for i in range(10)]


def test_nothing_acknowledged_is_delivered_again_after_a_broker_restart(tmp_path: Path) -> None:
    broker = BrokerProcess(tmp_path / "broker", settings=dict(SETTINGS)).start()
    try:
        prepare(broker, "share-restart", "g-restart", 20)
        consumer = share_consumer(broker, "g-restart", "share-restart", **{"share.acknowledgement.mode": "explicit"})
        first = poll_until(consumer, 20)
        for message in first:
            kind = AcknowledgeType.ACCEPT if message.offset() % 2 == 0 else AcknowledgeType.RELEASE
            consumer.acknowledge(message, kind)
        assert all(error is None for error in consumer.commit_sync(30).values())
        consumer.close()
        broker.restart(crash=True)
        after = share_consumer(broker, "g-restart", "share-restart")
        again = poll_until(after, 10)
        after.close()
    finally:
        broker.kill()
    assert sorted(m.offset() for m in first) == list(range(20))
    assert sorted((m.offset(), m.delivery_count()) for m in again) == [(i, 2) for i in range(1, 20, 2)]


def alter_start_offset(raw: RawClient, group: str, topic: str, offset: int) -> int:
    """AlterShareGroupOffsets of partition 0 over a raw socket; its top-level error code. The share consumer's
    leave is sent as it closes: while the broker has not had it, the group is not empty (NON_EMPTY_GROUP)."""
    partition = alt.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=offset)
    request = alt.AlterShareGroupOffsetsRequest(
        group_id=group, topics=[alt.AlterShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[partition])]
    )
    code = -1
    for _ in range(40):  # at most 40 tries, 0.25 s apart
        code = raw.request(request, 0, alt.AlterShareGroupOffsetsResponse).error_code
        if code != ErrorCode.NON_EMPTY_GROUP:
            break
        time.sleep(0.25)
    return code


def test_share_offsets_are_described_and_altered_over_the_wire(share_broker: BrokerProcess) -> None:
    """librdkafka has no share-group offset admin calls (confluent-kafka 2.16's AdminClient neither): the admin
    APIs are sent over a raw socket, between two ShareConsumers of the group."""
    prepare(share_broker, "share-admin", "g-admin", 10)
    consumer = share_consumer(share_broker, "g-admin", "share-admin", **{"share.acknowledgement.mode": "explicit"})
    first = poll_until(consumer, 10)
    for message in first:
        consumer.acknowledge(message, AcknowledgeType.ACCEPT)
    assert all(error is None for error in consumer.commit_sync(30).values())
    consumer.close()
    with RawClient(share_broker.bootstrap) as raw:
        asked = dsc.DescribeShareGroupOffsetsRequestGroup(group_id="g-admin", topics=None)
        request = dsc.DescribeShareGroupOffsetsRequest(groups=[asked])
        (group,) = raw.request(request, 0, dsc.DescribeShareGroupOffsetsResponse).groups
        assert alter_start_offset(raw, "g-admin", "share-admin", 4) == ErrorCode.NONE
        (altered,) = raw.request(request, 0, dsc.DescribeShareGroupOffsetsResponse).groups
    spso = [(t.topic_name, p.partition_index, p.start_offset) for t in group.topics for p in t.partitions]
    assert (group.error_code, spso) == (ErrorCode.NONE, [("share-admin", 0, 10)])  # all ten acknowledged
    assert [p.start_offset for t in altered.topics for p in t.partitions] == [4]
    again = share_consumer(share_broker, "g-admin", "share-admin")
    got = poll_until(again, 6)
    again.close()
    assert sorted((m.offset(), m.delivery_count()) for m in got) == [(i, 1) for i in range(4, 10)]
