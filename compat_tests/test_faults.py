"""Faults injected through ``broker.faults`` (rockafka.testing), each observed by a real client's reaction.

Every test checks both sides: the client did what Kafka clients do on that fault (retry, reconnect,
rejoin, find the coordinator again, give up with the error), and the broker's fault was used
(``faults.pending()`` shows it spent), so a fault that never fired fails the test.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from aiokafka import AIOKafkaProducer
from confluent_kafka import Consumer, KafkaError, Producer
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import KafkaStorageError

from rockafka.testing import Broker, BrokerError

from .groupscenario import Worker, python_worker
from .txnfence import assert_aborted_and_fenced

SETTLE_TIMEOUT_S = 60.0
NOTHING_PENDING: dict[str, list[object]] = {"errors": [], "delays": [], "moved_groups": []}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with Broker(data_dir=tmp_path / "data") as running:
        yield running


def _read_all(bootstrap: str, topic: str, expected: int) -> list[bytes]:
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"{topic}-reader", "auto.offset.reset": "earliest"}
    )
    consumer.subscribe([topic])
    values: list[bytes] = []
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    try:
        while len(values) < expected and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                values.append(message.value() or b"")
        time.sleep(0.5)  # anything beyond the expected count (a duplicate) would arrive now
        while (message := consumer.poll(0.2)) is not None:
            values.append(message.value() or b"")
    finally:
        consumer.close()
    return values


def _confluent_produce(bootstrap: str, topic: str, value: bytes, **config: object) -> KafkaError | None:
    """Produce one record with librdkafka and flush; the delivery error, or None."""
    reports: list[KafkaError | None] = []
    producer = Producer({"bootstrap.servers": bootstrap, "retry.backoff.ms": 50, **config})
    producer.produce(topic, value, on_delivery=lambda error, _: reports.append(error))
    producer.flush(SETTLE_TIMEOUT_S)
    assert len(reports) == 1, "no delivery report"
    return reports[0]


def test_an_idle_injector_is_not_on_the_request_path(broker: Broker) -> None:
    """While nothing is pending, a connection's ``handler.dispatch`` is the broker's dispatcher itself (white-box:
    the injector of the in-process BrokerApp); a fault swaps the checking path in until it is spent."""
    injector = broker._runner._app.faults  # type: ignore[union-attr]
    direct = injector._inner.dispatch
    assert injector.dispatch == direct
    broker.faults.fail("Produce", "NOT_LEADER_OR_FOLLOWER", times=1)
    assert injector.dispatch != direct
    assert _confluent_produce(broker.bootstrap, "idle", b"retried") is None
    assert injector.dispatch == direct
    broker.faults.move_coordinator("some-group")
    broker.faults.clear()
    assert injector.dispatch == direct


# --- errors pushed for the next requests ---


def test_confluent_retries_a_produce_answered_not_leader_and_writes_it_once(broker: Broker) -> None:
    _confluent_produce(broker.bootstrap, "retried", b"first")  # the topic exists, metadata is known
    broker.faults.fail("Produce", "NOT_LEADER_OR_FOLLOWER", times=3, topic="retried")
    assert broker.faults.pending()["errors"] == [[0, "NOT_LEADER_OR_FOLLOWER", 3]]
    assert _confluent_produce(broker.bootstrap, "retried", b"second", **{"enable.idempotence": True}) is None
    assert broker.faults.pending() == NOTHING_PENDING
    assert _read_all(broker.bootstrap, "retried", 2) == [b"first", b"second"]


def test_aiokafka_retries_a_retriable_error_and_gives_up_on_a_fatal_one(broker: Broker) -> None:
    async def scenario() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap, retry_backoff_ms=50)
        await producer.start()
        try:
            await producer.send_and_wait("aio-faults", b"warm-up")
            broker.faults.fail("Produce", "REQUEST_TIMED_OUT", times=2)
            await producer.send_and_wait("aio-faults", b"retried")
            assert broker.faults.pending() == NOTHING_PENDING
            broker.faults.fail("Produce", "TOPIC_AUTHORIZATION_FAILED", times=1, topic="aio-faults")
            with pytest.raises(Exception, match="TopicAuthorizationFailed"):
                await producer.send_and_wait("aio-faults", b"refused")
        finally:
            await producer.stop()

    asyncio.run(scenario())
    assert _read_all(broker.bootstrap, "aio-faults", 2) == [b"warm-up", b"retried"]


def test_a_fault_for_one_client_id_or_partition_leaves_the_others_alone(broker: Broker) -> None:
    broker.faults.fail("Produce", "INVALID_REQUIRED_ACKS", client_id="the-faulty-one")
    broker.faults.fail("Produce", "INVALID_REQUIRED_ACKS", topic="split", partition=5)
    assert _confluent_produce(broker.bootstrap, "split", b"fine", **{"client.id": "another"}) is None
    failed = _confluent_produce(broker.bootstrap, "split", b"refused", **{"client.id": "the-faulty-one"})
    assert failed is not None and failed.code() == KafkaError.INVALID_REQUIRED_ACKS
    assert broker.faults.pending()["errors"] == [[0, "INVALID_REQUIRED_ACKS", 1]]  # partition 5 was never named


def test_a_failed_store_answers_kafka_storage_error_until_a_restart(broker: Broker) -> None:
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, retries=0)
    try:
        producer.send("stored", b"before").get(timeout=30)
        broker.faults.fail_store()
        with pytest.raises(KafkaStorageError):
            producer.send("stored", b"lost").get(timeout=30)
    finally:
        producer.close()
    broker.restart()
    assert _confluent_produce(broker.bootstrap, "stored", b"after") is None
    assert _read_all(broker.bootstrap, "stored", 2) == [b"before", b"after"]


def test_a_timed_out_transaction_is_aborted_and_its_producer_fenced(broker: Broker) -> None:
    producer = Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": "timed-out"})
    producer.init_transactions(SETTLE_TIMEOUT_S)
    producer.begin_transaction()
    producer.produce("txn-faults", b"never committed")
    producer.flush(SETTLE_TIMEOUT_S)
    assert broker.faults.time_out_transaction("timed-out")
    assert not broker.faults.time_out_transaction("timed-out")  # nothing ongoing any more
    assert_aborted_and_fenced(producer, broker.bootstrap, "txn-faults")


# --- latency and connections ---


def test_a_delayed_api_answers_late(broker: Broker) -> None:
    async def scenario() -> float:
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap)
        await producer.start()
        try:
            await producer.send_and_wait("slow", b"warm-up")
            broker.faults.delay("Produce", 1.0, times=1)
            started = time.monotonic()
            await producer.send_and_wait("slow", b"late")
            return time.monotonic() - started
        finally:
            await producer.stop()

    assert asyncio.run(scenario()) >= 0.9  # a lower bound (less timer slack): no answer before the delay
    assert broker.faults.pending() == NOTHING_PENDING


def test_aiokafka_reconnects_after_its_connections_are_dropped(broker: Broker) -> None:
    async def scenario() -> int:
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap)
        await producer.start()
        try:
            await producer.send_and_wait("dropped", b"one")
            dropped = broker.faults.drop_connections()
            await producer.send_and_wait("dropped", b"two")
            return dropped
        finally:
            await producer.stop()

    assert asyncio.run(scenario()) >= 1
    assert _read_all(broker.bootstrap, "dropped", 2) == [b"one", b"two"]


@pytest.mark.parametrize("fault", ["stop_answering", "stop_reading"])
def test_kafka_python_times_out_a_half_closed_connection_and_retries_on_a_new_one(broker: Broker, fault: str) -> None:
    topic = f"half-closed-{fault}"
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, request_timeout_ms=2000, retries=5, linger_ms=0)
    try:
        producer.send(topic, b"one").get(SETTLE_TIMEOUT_S)
        assert getattr(broker.faults, fault)() >= 1  # the connections open now: the producer's among them
        started = time.monotonic()
        producer.send(topic, b"two").get(SETTLE_TIMEOUT_S)
        assert time.monotonic() - started >= 1.5  # a lower bound: the first attempt waited out request.timeout.ms
    finally:
        producer.close(timeout=SETTLE_TIMEOUT_S)
    assert _read_all(broker.bootstrap, topic, 2) == [b"one", b"two"]  # the unanswered attempt wrote nothing


def test_librdkafka_waits_out_refused_connections(broker: Broker) -> None:
    broker.faults.refuse_connections(1.5)
    started = time.monotonic()
    assert _confluent_produce(broker.bootstrap, "refused", b"eventually", **{"reconnect.backoff.ms": 100}) is None
    assert time.monotonic() - started >= 1.0  # no connection was taken before the refusal ended
    assert _read_all(broker.bootstrap, "refused", 1) == [b"eventually"]


# --- a stalled high watermark ---


def test_a_stalled_high_watermark_hides_new_records_from_a_consumer_until_released(broker: Broker) -> None:
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, linger_ms=0)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100)
    partition = TopicPartition("stalled", 0)
    try:
        producer.send("stalled", b"seen").get(SETTLE_TIMEOUT_S)
        assert broker.faults.stall_high_watermark("stalled", 0) == 1
        for value in (b"held", b"back"):
            producer.send("stalled", value).get(SETTLE_TIMEOUT_S)  # appended and acknowledged (acks=1)
        consumer.assign([partition])
        consumer.seek_to_beginning(partition)
        seen = [r.value for _ in range(10) for records in consumer.poll(timeout_ms=200).values() for r in records]
        assert seen == [b"seen"]  # two seconds of polling: nothing past the stalled high watermark
        assert consumer.end_offsets([partition])[partition] == 1
        assert broker.faults.release_high_watermark("stalled", 0)
        for _ in range(50):
            seen += [r.value for records in consumer.poll(timeout_ms=200).values() for r in records]
            if len(seen) == 3:
                break
        assert seen == [b"seen", b"held", b"back"]
        assert not broker.faults.release_high_watermark("stalled", 0)  # released already
    finally:
        consumer.close()
        producer.close()
    with pytest.raises(BrokerError, match="cannot stall"):
        broker.faults.stall_high_watermark("no-such-topic", 0)


# --- groups: a forced rebalance, a moved coordinator ---


@contextmanager
def settled_consumer(client: str, broker: Broker, log_dir: Path, topic: str) -> Iterator[Worker]:
    """A group consumer of ``client`` (a child process) that owns the one partition of ``topic``."""
    _confluent_produce(broker.bootstrap, topic, b"x")
    settings = {
        "bootstrap": broker.bootstrap,
        "topic": topic,
        "group": f"{topic}-group",
        "assignor": "range",
        "session_timeout_ms": 10_000,
        "heartbeat_interval_ms": 300,
        "instance_id": None,
    }
    worker = python_worker(client, log_dir)(f"{client}-{topic}", settings).start()
    try:
        _wait_for("the consumer never got its partition", lambda: worker.assignment == frozenset({0}), worker)
        yield worker
    finally:
        worker.kill()


def _wait_for(what: str, done: Callable[[], bool], worker: Worker) -> None:
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while not done() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert done(), f"{what}:\n{worker.log_tail()}"


@pytest.mark.parametrize("client", ["aiokafka", "confluent"])
def test_a_forced_rebalance_makes_the_consumer_rejoin(client: str, broker: Broker, tmp_path: Path) -> None:
    topic = f"rebalanced-{client}"
    with settled_consumer(client, broker, tmp_path, topic) as worker:
        before = worker.assignment_events()
        assert broker.faults.rebalance(f"{topic}-group")
        _wait_for("the consumer did not rejoin", lambda: worker.assignment_events() > before, worker)
        _wait_for("the consumer lost its partition", lambda: worker.assignment == frozenset({0}), worker)
    assert not broker.faults.rebalance("no-such-group")


@pytest.mark.parametrize("client", ["aiokafka", "confluent"])
def test_a_moved_coordinator_is_found_again(client: str, broker: Broker, tmp_path: Path) -> None:
    topic = f"moved-{client}"
    with settled_consumer(client, broker, tmp_path, topic) as worker:
        broker.faults.move_coordinator(f"{topic}-group")
        # its next heartbeat is answered NOT_COORDINATOR; the client asks FindCoordinator again, which ends the move
        _wait_for("the client never looked the coordinator up again",
                  lambda: broker.faults.pending()["moved_groups"] == [], worker)  # fmt: skip
        _confluent_produce(broker.bootstrap, topic, b"after the move")
        _wait_for("the consumer stopped consuming", lambda: (0, 1) in worker.consumed(), worker)


# --- misuse, and the subprocess broker's fault channel ---


def test_misused_faults_are_one_clear_error(broker: Broker) -> None:
    with pytest.raises(BrokerError, match="no API is named 'Nope'"):
        broker.faults.fail("Nope", "NOT_LEADER_OR_FOLLOWER")
    with pytest.raises(BrokerError, match="no Kafka error code 'NOT_AN_ERROR'"):
        broker.faults.fail("Produce", "NOT_AN_ERROR")
    with pytest.raises(BrokerError, match="times must be at least 1"):
        broker.faults.fail("Produce", 6, times=0)
    assert broker.faults.pending() == NOTHING_PENDING


def test_a_subprocess_broker_takes_faults_through_its_channel(tmp_path: Path) -> None:
    with Broker(subprocess=True, faults=True, data_dir=tmp_path / "data") as broker:
        _confluent_produce(broker.bootstrap, "channel", b"first")
        broker.faults.fail("Produce", "NOT_LEADER_OR_FOLLOWER", times=2)
        assert _confluent_produce(broker.bootstrap, "channel", b"second") is None
        assert broker.faults.pending() == NOTHING_PENDING
        with pytest.raises(BrokerError, match="no API is named 'Nope'"):
            broker.faults.fail("Nope", 6)
        assert _read_all(broker.bootstrap, "channel", 2) == [b"first", b"second"]


def _listening_sockets(pid: int) -> list[str]:
    """Every socket ``pid`` listens on: ``tcp:<port>`` and ``unix:<path>`` (from /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd) if fd.is_symlink() else ""
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(f"tcp:{int(fields[1].rsplit(':', 1)[1], 16)}")
    for line in Path(f"/proc/{pid}/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[6] in inodes and int(fields[3], 16) & 0x10000:  # __SO_ACCEPTCON: a listening socket
            found.append(f"unix:{fields[7] if len(fields) > 7 else ''}")
    return sorted(found)


def test_rockafka_serve_has_no_fault_channel(tmp_path: Path) -> None:
    with Broker(subprocess=True, data_dir=tmp_path / "serve") as served:
        process = served._runner._process  # type: ignore[union-attr]
        assert process is not None and list(process.args)[1:4] == ["-m", "rockafka", "serve"]  # type: ignore[arg-type]
        assert _listening_sockets(process.pid) == [f"tcp:{served.port}"]
        with pytest.raises(BrokerError, match="only when started with Broker"):
            served.faults.fail("Produce", 6)
    with Broker(subprocess=True, faults=True, data_dir=tmp_path / "test-mode") as test_mode:
        process = test_mode._runner._process  # type: ignore[union-attr]
        assert process is not None
        sockets = _listening_sockets(process.pid)
        assert sockets[0] == f"tcp:{test_mode.port}" and sockets[1].startswith("unix:/") and len(sockets) == 2
