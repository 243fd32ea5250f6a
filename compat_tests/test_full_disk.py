"""A full disk under a real broker and real clients, on a small ext4 (loop device) and a small tmpfs that the
test mounts as root and always unmounts.

Oracle: confluent-kafka produces until the broker answers KAFKA_STORAGE_ERROR; meanwhile Metadata,
ListOffsets and Fetch work and every acknowledged record reads back, while an OffsetCommit (a record of
``__consumer_offsets`` in the CommitLog) is refused with the retriable COORDINATOR_NOT_AVAILABLE until appends
resume; deleting a topic frees its CommitLog segments at the next retention pass and appends (and commits)
resume without a restart; a restart on the completely full file system exits with one line and a non-zero
status (no traceback, no SIGBUS), one with just enough room recovers every acknowledged record and refuses
appends; the broker log holds one WARNING per change of state and no traceback.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer
from confluent_kafka import TopicPartition as ConfluentPartition
from confluent_kafka.admin import AdminClient, NewTopic

from .brokerproc import BrokerProcess
from .mounts import KINDS, fill, free_bytes, small_filesystem

MIB = 1 << 20
RESERVE = 16 * MIB  # above a tenth of the file system: the broker stops before retention's forced cleanup (90%)
SETTINGS = {
    "log.segment.bytes": str(MIB),
    "rockafka.consumequeue.units.per.file": "1024",
    "rockafka.index.slots": "1024",
    "rockafka.index.entries": "4096",
    "rockafka.free.space.reserve.bytes": str(RESERVE),
    "log.retention.check.interval.ms": "500",
    "auto.create.topics.enable": "false",
}
VALUE = b"r" * 1000
FULL = "appends are refused until space returns"
RESUMED = "appends resume"


@pytest.fixture(params=KINDS)
def mounted(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, BrokerProcess]]:
    """A mounted file system (ext4 96 MiB or tmpfs 80 MiB) holding the data directory of a broker whose log
    file is elsewhere (a full disk must not silence it)."""
    size = 96 if request.param == "ext4" else 80
    with small_filesystem(request.param, size, tmp_path) as mountpoint:
        broker = BrokerProcess(tmp_path / "broker", settings={**SETTINGS, "log.dirs": str(mountpoint / "data")})
        try:
            yield mountpoint, broker
        finally:
            broker.kill()


def _produce(bootstrap: str, topic: str, first: int, limit: int) -> tuple[dict[int, bytes], set[str]]:
    """Produce ``limit`` numbered records (stopping early at the first refusal); the acknowledged ones by offset,
    and the names of the errors the others got."""
    producer = Producer(
        {"bootstrap.servers": bootstrap, "acks": "1", "retries": 0, "linger.ms": 2, "enable.idempotence": False}
    )
    acked: dict[int, bytes] = {}
    errors: set[str] = set()

    def delivered(error: KafkaError | None, message: Message) -> None:
        if error is None:
            acked[message.offset()] = message.value()
        else:
            errors.add(error.name())

    for number in range(first, first + limit):
        producer.produce(topic, VALUE + str(number).encode(), on_delivery=delivered)
        if number % 50 == 49:
            producer.flush(30)
            if errors:
                break
    producer.flush(30)
    return acked, errors


def _fill_with_records(bootstrap: str, topic: str) -> dict[int, bytes]:
    acked: dict[int, bytes] = {}
    for _ in range(400):
        batch, errors = _produce(bootstrap, topic, len(acked), 2000)
        acked.update(batch)
        if errors:
            assert errors == {"KAFKA_STORAGE_ERROR"}, errors
            return acked
    raise AssertionError("the broker never refused an append")


def _read(bootstrap: str, topic: str, end: int) -> dict[int, bytes]:
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"read-{uuid.uuid4()}", "enable.auto.commit": False}
    )
    consumer.assign([ConfluentPartition(topic, 0, 0)])
    found: dict[int, bytes] = {}
    deadline = time.monotonic() + 60
    try:
        while len(found) < end and time.monotonic() < deadline:
            for message in consumer.consume(500, timeout=1):
                assert message.error() is None, message.error()
                found[message.offset()] = message.value()
    finally:
        consumer.close()
    return found


def _commit_and_fetch(bootstrap: str, topic: str, offset: int) -> int:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "full-disk", "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[ConfluentPartition(topic, 0, offset)], asynchronous=False)
        (committed,) = consumer.committed([ConfluentPartition(topic, 0)], timeout=10)
        assert committed.error is None
        return int(committed.offset)
    finally:
        consumer.close()


def _high_watermark(bootstrap: str, topic: str) -> int:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "watermarks"})
    try:
        return int(consumer.get_watermark_offsets(ConfluentPartition(topic, 0), timeout=10)[1])
    finally:
        consumer.close()


def _create(admin: AdminClient, *names: str) -> None:
    for future in admin.create_topics([NewTopic(name, 1, 1) for name in names]).values():
        future.result(30)


def _start_on_full_disk(broker: BrokerProcess) -> subprocess.CompletedProcess[bytes]:
    with broker.log_path.open("ab") as log:
        return subprocess.run(broker.command(), stdout=log, stderr=subprocess.STDOUT, timeout=60)


def test_a_full_disk_refuses_appends_only_and_recovers(mounted: tuple[Path, BrokerProcess]) -> None:
    mountpoint, broker = mounted
    broker.start()
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    _create(admin, "keep", "bulk")
    bulk = _fill_with_records(broker.bootstrap, "bulk")
    assert free_bytes(mountpoint) < RESERVE + 2 * MIB  # stopped at the reserve, not at a full disk

    # full: appends are refused, everything else works
    assert _produce(broker.bootstrap, "keep", 0, 1)[1] == {"KAFKA_STORAGE_ERROR"}
    assert {"keep", "bulk"} <= set(admin.list_topics(timeout=10).topics)
    assert _high_watermark(broker.bootstrap, "bulk") == max(bulk) + 1
    assert _read(broker.bootstrap, "bulk", max(bulk) + 1) == bulk
    with pytest.raises(KafkaException) as refused:  # a commit is a record of __consumer_offsets: it needs room
        _commit_and_fetch(broker.bootstrap, "bulk", len(bulk))
    assert refused.value.args[0].code() == KafkaError.COORDINATOR_NOT_AVAILABLE  # retriable, as Kafka's

    # deleting the topic frees its segments (the oldest) at the next retention pass: appends resume, no restart
    for future in admin.delete_topics(["bulk"]).values():
        future.result(30)
    deadline = time.monotonic() + 30
    keep: dict[int, bytes] = {}
    while not keep and time.monotonic() < deadline:
        keep = _produce(broker.bootstrap, "keep", 0, 1)[0]
        time.sleep(0.2)
    assert keep, "appends did not resume after the topic was deleted"
    more, errors = _produce(broker.bootstrap, "keep", 1, 299)
    assert len(more) == 299 and not errors
    keep.update(more)
    assert _read(broker.bootstrap, "keep", len(keep)) == keep
    assert _commit_and_fetch(broker.bootstrap, "keep", len(keep)) == len(keep)  # commits resume with appends

    # restart on a completely full file system: one line and a non-zero exit, then recovery once there is room
    broker.kill()
    filler = fill(mountpoint)
    refused = _start_on_full_disk(broker)
    assert refused.returncode == 1, refused.returncode  # not -7 (SIGBUS)
    assert "free some space and start again" in broker.log_text()
    filler.unlink()
    fill(mountpoint, leave=RESERVE // 2 + MIB)  # room to recover, not to append
    broker.start()
    assert _read(broker.bootstrap, "keep", len(keep)) == keep
    assert _produce(broker.bootstrap, "keep", 301, 1)[1] == {"KAFKA_STORAGE_ERROR"}
    assert _commit_and_fetch(broker.bootstrap, "keep", len(keep)) == len(keep)
    broker.stop()

    log = broker.log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]
    warnings = [line for line in log.splitlines() if " WARNING " in line and "rockafka.store.space" in line]
    assert [FULL in line for line in warnings] == [True, False, True], warnings  # full, resumed; full again
    assert RESUMED in warnings[1]


def test_an_offline_store_is_one_warning_not_a_traceback_per_request(mounted: tuple[Path, BrokerProcess]) -> None:
    """An I/O error other than a full disk (EPERM: the CommitLog directory made immutable) takes the store
    offline: requests get KAFKA_STORAGE_ERROR or an error answer, the broker logs it once, never a traceback."""
    mountpoint, broker = mounted
    broker.start()
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    _create(admin, "t")
    assert _produce(broker.bootstrap, "t", 0, 1)[0]  # the first segment, and the next, are allocated
    commitlog = mountpoint / "data" / "commitlog"
    subprocess.run(["chattr", "+i", str(commitlog)], check=True, capture_output=True, timeout=60)
    try:
        acked, errors = _produce(broker.bootstrap, "t", 1, 4000)  # on to the segment after the pre-allocated one
        assert errors == {"KAFKA_STORAGE_ERROR"} and acked
        for _ in range(50):  # answered (librdkafka calls the error answer a partial response), logged once
            with contextlib.suppress(KafkaException):
                admin.list_topics(timeout=5)
        assert broker.process is not None and broker.process.poll() is None
    finally:
        subprocess.run(["chattr", "-i", str(commitlog)], check=True, capture_output=True, timeout=60)
    broker.stop()
    log = broker.log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]
    refusals = [line for line in log.splitlines() if "the store refused" in line or "retention pass refused" in line]
    assert 1 <= len(refusals) <= 4, refusals
