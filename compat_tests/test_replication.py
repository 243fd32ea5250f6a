"""A broker group of two real broker processes: a leader serving ``rockafka.replication.listener`` and a follower
started with ``rockafka.replication.leader`` (``cluster/replication/``). Records produced to the leader by
confluent-kafka end up in the follower's store byte for byte (the same CommitLog bytes at the same offsets) and
read back the same through ``StoreReader`` (records, offsets, headers, transactions); a follower killed and
restarted catches up from its end; one whose log diverged is cut back and follows; acks=all waits for the
follower (and, once a paused follower leaves the in-sync set, answers without it, as Kafka does); so does a
transaction marker (WriteTxnMarkers), as Kafka appends markers with acks=all."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from kafka import KafkaProducer
from kafka.errors import NotLeaderForPartitionError

from rockafka.facade.interbroker import BrokerConnection
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.offset_commit import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
    OffsetCommitResponse,
)
from rockafka.facade.protocol.messages.write_txn_markers import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
    WriteTxnMarkersResponse,
)
from rockafka.store import MessageStore, StoreConfig
from rockafka.store.reader import StoreReader

from .brokerproc import BrokerProcess, free_port

SEGMENT_BYTES = 1 << 20  # small segments: the stream crosses several, BLANKs included
WAIT_S = 60.0


def _pair(root: Path, **leader_settings: str) -> tuple[BrokerProcess, BrokerProcess]:
    address = f"127.0.0.1:{free_port()}"
    common = {"log.segment.bytes": str(SEGMENT_BYTES)}
    leader = BrokerProcess(
        root / "leader", {**common, "node.id": "1", "rockafka.replication.listener": address, **leader_settings}
    )
    follower = BrokerProcess(root / "follower", {**common, "node.id": "2", "rockafka.replication.leader": address})
    return leader, follower


@pytest.fixture
def group(tmp_path: Path) -> Iterator[tuple[BrokerProcess, BrokerProcess]]:
    leader, follower = _pair(tmp_path)
    leader.start()
    follower.start()
    try:
        yield leader, follower
    finally:
        for process in (follower, leader):
            _resume(process)
            process.kill()


def _resume(process: BrokerProcess) -> None:
    if process.process is not None and process.process.poll() is None:
        os.kill(process.process.pid, signal.SIGCONT)


def _create(bootstrap: str, topic: str, partitions: int, **configs: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1, config=configs)])[topic].result(30)


def _produce(bootstrap: str, topic: str, count: int, *, first: int = 0, **settings: object) -> list[int | None]:
    """Produce ``count`` records; each one's delivery error code (None: delivered)."""
    errors: list[int | None] = []
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, **settings})
    for n in range(first, first + count):
        producer.produce(
            topic, b"value-%d-" % n + b"x" * (n % 700), key=b"k%d" % (n % 7), partition=n % 2,
            headers=[("n", str(n).encode()), ("h", None)],
            on_delivery=lambda err, _msg: errors.append(err and err.code()),
        )  # fmt: skip
        producer.poll(0)
    assert producer.flush(60) == 0
    return errors


def _until_in_sync(bootstrap: str) -> None:
    """Return once the follower is in the leader's in-sync set: an acks=all record to a topic that needs 2 in-sync
    members is acknowledged (librdkafka retries NOT_ENOUGH_REPLICAS meanwhile). "connected" in the leader's log is
    not enough: a follower joins the set only once it reaches the confirm offset, and a test that paused it before
    (a loaded machine) saw the leader, alone in the set, answer at once."""
    _create(bootstrap, "two-in-sync", 1, **{"min.insync.replicas": "2"})
    assert _produce(bootstrap, "two-in-sync", 1, acks="all") == [None]


def _high_watermark(bootstrap: str, topic: str) -> int:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "watermarks"})
    try:
        return int(consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=30)[1])
    finally:
        consumer.close()


def _transactions(bootstrap: str, topic: str) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "replicated-txn"})
    producer.init_transactions(30)
    for commit in (True, False, True):
        producer.begin_transaction()
        for n in range(5):
            producer.produce(topic, b"txn-%s-%d" % (str(commit).encode(), n), partition=n % 2)
        producer.flush(30)  # an abort drops what is still queued: the aborted records are sent first
        (producer.commit_transaction if commit else producer.abort_transaction)(30)


def _commitlog(data_dir: Path) -> bytes:
    """The CommitLog's bytes, its files in order, without the zeros past the written end."""
    files = sorted(path for path in (data_dir / "commitlog").iterdir() if path.name.isdigit())
    return b"".join(path.read_bytes() for path in files).rstrip(b"\0")


def _contents(data_dir: Path) -> tuple[object, ...]:
    with StoreReader(data_dir) as reader:
        topics = sorted((t.name, t.topic_id, t.partitions) for t in reader.topics() if not t.name.startswith("__"))
        records = {(name, p): list(reader.records(name, p, 0)) for name, _, count in topics for p in range(count)}
        transactions = {(name, p): reader.transactions(name, p) for name, _, count in topics for p in range(count)}
    return topics, records, transactions


def _wait(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {WAIT_S}s: {what}")


def _same_log(leader: BrokerProcess, follower: BrokerProcess) -> bool:
    return _commitlog(leader.data_dir) == _commitlog(follower.data_dir)


def test_the_follower_holds_the_leaders_bytes_and_reads_them_back_the_same(
    group: tuple[BrokerProcess, BrokerProcess],
) -> None:
    leader, follower = group
    _create(leader.bootstrap, "orders", 2)
    _create(leader.bootstrap, "compressed", 2, **{"compression.type": "producer"})
    assert _produce(leader.bootstrap, "orders", 3000) == [None] * 3000  # ~1 MB: several 1 MiB segments
    _produce(leader.bootstrap, "compressed", 500, **{"compression.type": "zstd"})
    _transactions(leader.bootstrap, "orders")
    _wait(lambda: _same_log(leader, follower), "the follower's CommitLog equals the leader's")
    assert len([p for p in (follower.data_dir / "commitlog").iterdir() if p.name.isdigit()]) >= 3
    contents = _contents(leader.data_dir)
    assert _contents(follower.data_dir) == contents
    _, records, transactions = contents
    assert sum(len(r) for r in records.values()) == 3000 + 500 + 15 + 6  # 3 transactions: a marker a partition
    assert any(t.aborted for t in transactions.values())  # type: ignore[attr-defined]
    producer = KafkaProducer(bootstrap_servers=follower.bootstrap, retries=0)
    try:  # a follower takes no produce (librdkafka would wait for a leader forever: kafka-python says why)
        with pytest.raises(NotLeaderForPartitionError):
            producer.send("orders", b"to-the-follower", partition=0).get(timeout=30)
    finally:
        producer.close()
    admin = AdminClient({"bootstrap.servers": follower.bootstrap})
    refused = admin.create_topics([NewTopic("not-here", 1, 1)])["not-here"]
    with pytest.raises(KafkaException, match="follows its group's leader"):  # its topics are the leader's alone
        refused.result(30)
    metadata = AdminClient({"bootstrap.servers": follower.bootstrap}).list_topics("auto", timeout=30)
    assert metadata.topics["auto"].error is not None  # nor does Metadata auto-create one there
    assert "auto" not in AdminClient({"bootstrap.servers": leader.bootstrap}).list_topics(timeout=30).topics
    assert _same_log(leader, follower)


def test_a_broker_that_would_lead_and_follow_does_not_start(tmp_path: Path) -> None:
    both = BrokerProcess(
        tmp_path, {"rockafka.replication.listener": f"127.0.0.1:{free_port()}", "rockafka.replication.leader": "x:1"}
    )
    with pytest.raises(RuntimeError, match="broker exited with 1") as failure:
        both.start()
    assert "a broker leads its group or follows it" in str(failure.value)
    assert "Traceback" not in str(failure.value)


def test_a_follower_killed_and_restarted_catches_up_from_its_end(group: tuple[BrokerProcess, BrokerProcess]) -> None:
    leader, follower = group
    _create(leader.bootstrap, "events", 2)
    _produce(leader.bootstrap, "events", 500)
    _wait(lambda: _same_log(leader, follower), "the first copy")
    follower.kill()
    _produce(leader.bootstrap, "events", 2500, first=500)  # meanwhile the leader rolls over segments
    follower.start()
    _wait(lambda: _same_log(leader, follower), "the restarted follower caught up")
    assert "following 127.0.0.1" in follower.log_text()
    assert _contents(follower.data_dir) == _contents(leader.data_dir)


def test_a_follower_whose_log_diverged_is_cut_back_and_follows(tmp_path: Path) -> None:
    leader, follower = _pair(tmp_path)
    leader.start()
    follower.start()
    try:
        _create(leader.bootstrap, "t", 2)
        _produce(leader.bootstrap, "t", 300)
        _wait(lambda: _same_log(leader, follower), "the first copy")
        shared = _commitlog(leader.data_dir)
        leader.stop()
        follower.stop()
        # the follower led on alone in epoch 0 (as an old leader that was not replicated), ...
        alone = BrokerProcess(follower.workdir, {"log.segment.bytes": str(SEGMENT_BYTES), "node.id": "2"})
        alone.port = follower.port
        alone.start()
        _produce(alone.bootstrap, "t", 200, first=10_000)
        alone.stop()
        assert _commitlog(follower.data_dir).startswith(shared) and len(_commitlog(follower.data_dir)) > len(shared)
        # ... while the leader was elected for epoch 1 and wrote on
        config = StoreConfig(leader.data_dir, commitlog_segment_bytes=SEGMENT_BYTES, preallocate=False)
        with MessageStore.open(config) as store:
            store.epochs.begin(1)
        leader.start()
        _produce(leader.bootstrap, "t", 100, first=20_000)
        follower.start()
        _wait(lambda: _same_log(leader, follower), "the diverged follower cut back and copied the leader")
        assert f"parts from the leader's at offset {len(shared)}" in follower.log_text()
        _, records, _ = _contents(follower.data_dir)
        numbers = {int(r.value.split(b"-")[1]) for rs in records.values() for r in rs}  # type: ignore[attr-defined]
        assert numbers.isdisjoint(range(10_000, 10_200)) and numbers >= {*range(300), *range(20_000, 20_100)}
        assert _contents(follower.data_dir) == _contents(leader.data_dir)
    finally:
        follower.kill()
        leader.kill()


def test_acks_all_waits_for_the_follower_and_a_paused_one_leaves_the_in_sync_set(tmp_path: Path) -> None:
    leader, follower = _pair(tmp_path, **{"replica.lag.time.max.ms": "6000"})
    leader.start()
    follower.start()
    try:
        _create(leader.bootstrap, "acked", 2)
        _create(leader.bootstrap, "two-needed", 2, **{"min.insync.replicas": "2"})
        _wait(lambda: "follower 2" in leader.log_text() and "connected" in leader.log_text(), "the follower joined")
        assert _produce(leader.bootstrap, "acked", 50, acks="all") == [None] * 50
        assert _produce(leader.bootstrap, "two-needed", 5, acks="all") == [None] * 5
        assert follower.process is not None
        os.kill(follower.process.pid, signal.SIGSTOP)
        high = _high_watermark(leader.bootstrap, "acked")
        assert _produce(leader.bootstrap, "acked", 1, acks=1) == [None]  # answered without the follower, ...
        assert _high_watermark(leader.bootstrap, "acked") == high  # ... but consumers do not see it yet
        errors: list[KafkaError | None] = []
        producer = Producer({"bootstrap.servers": leader.bootstrap, "acks": "all", "request.timeout.ms": 30000})
        producer.produce("acked", b"while-paused", partition=0, on_delivery=lambda err, _m: errors.append(err))
        assert producer.flush(1) == 1 and errors == []  # the paused follower holds the answer back
        assert producer.flush(30) == 0 and errors == [None]  # answered once the follower left the in-sync set
        assert "out of the in-sync set" in leader.log_text()
        assert _high_watermark(leader.bootstrap, "acked") == high + 2  # the set is the leader alone now
        refused = _produce(leader.bootstrap, "two-needed", 2, acks="all", retries=0)
        assert refused == [KafkaError.NOT_ENOUGH_REPLICAS] * 2
        assert _produce(leader.bootstrap, "two-needed", 2, acks=1) == [None] * 2  # acks=1 needs no follower
    finally:
        _resume(follower)
        follower.kill()
        leader.kill()


def test_a_transaction_marker_is_answered_once_the_in_sync_follower_holds_it(tmp_path: Path) -> None:
    """A marker only the leader held would be cut by a failover, leaving the transaction open for the producer's next
    COMMIT to commit (the fault suite saw aborted records read that way): the leader answers it as acks=all."""
    leader, follower = _pair(tmp_path, **{"replica.lag.time.max.ms": "6000"})
    leader.start()
    follower.start()
    try:
        _create(leader.bootstrap, "marked", 2)
        _until_in_sync(leader.bootstrap)
        assert _produce(leader.bootstrap, "marked", 50, acks="all") == [None] * 50
        assert follower.process is not None
        os.kill(follower.process.pid, signal.SIGSTOP)
        held, answer = asyncio.run(_abort_marker(leader.port))
        assert held  # the paused follower holds the answer back
        assert answer == ErrorCode.NONE  # answered once the follower left the in-sync set
        assert "out of the in-sync set" in leader.log_text()
    finally:
        _resume(follower)
        follower.kill()
        leader.kill()


async def _abort_marker(port: int) -> tuple[bool, ErrorCode]:
    """Send an ABORT marker for partition 0 of ``marked``: (whether it was unanswered after a second, its answer)."""
    marker = WritableTxnMarker(
        producer_id=7, producer_epoch=0, transaction_result=False,
        topics=[WritableTxnMarkerTopic(name="marked", partition_indexes=[0])],
    )  # fmt: skip
    connection = BrokerConnection("127.0.0.1", port, WAIT_S)
    try:
        sent = asyncio.ensure_future(
            connection.request(WriteTxnMarkersRequest(markers=[marker]), 1, WriteTxnMarkersResponse)
        )
        done, _ = await asyncio.wait({sent}, timeout=1.0)
        response = await asyncio.wait_for(sent, WAIT_S)
    finally:
        connection.close()
    return not done, ErrorCode.of(response.markers[0].topics[0].partitions[0].error_code)


def test_an_offset_commit_is_answered_once_the_in_sync_follower_holds_it(tmp_path: Path) -> None:
    """A commit only the leader held would be cut by a failover and a consumer's committed offset would go back (the
    fault suite saw it): while the in-sync follower is paused the commit is answered COORDINATOR_NOT_AVAILABLE after
    Kafka's offsets.commit.timeout.ms (the client retries), and once it runs again the commit succeeds."""
    leader, follower = _pair(tmp_path)  # replica.lag.time.max.ms 30 s: the paused follower stays in sync
    leader.start()
    follower.start()
    try:
        _create(leader.bootstrap, "committed", 1)
        _until_in_sync(leader.bootstrap)
        assert asyncio.run(_commit(leader.port, 5)) == ErrorCode.NONE
        assert follower.process is not None
        os.kill(follower.process.pid, signal.SIGSTOP)
        assert asyncio.run(_commit(leader.port, 6)) == ErrorCode.COORDINATOR_NOT_AVAILABLE
        _resume(follower)
        assert asyncio.run(_commit(leader.port, 7)) == ErrorCode.NONE
    finally:
        _resume(follower)
        follower.kill()
        leader.kill()


async def _commit(port: int, offset: int) -> ErrorCode:
    """An admin OffsetCommit (v8, no member) of ``offset`` for committed-0 in group ``keeper``: its answer."""
    topic = OffsetCommitRequestTopic(
        name="committed", partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=offset)]
    )
    request = OffsetCommitRequest(group_id="keeper", generation_id_or_member_epoch=-1, member_id="", topics=[topic])
    connection = BrokerConnection("127.0.0.1", port, WAIT_S)
    try:
        response = await asyncio.wait_for(connection.request(request, 8, OffsetCommitResponse), WAIT_S)
    finally:
        connection.close()
    return ErrorCode.of(response.topics[0].partitions[0].error_code)
