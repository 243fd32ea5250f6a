"""The load a fault run puts on the cluster, every client on its own thread, every outcome in a
:class:`~compat_tests.jepsen.history.History`.

Writers (each to its own topic, value ``"<topic>:<seq>"``, partition ``seq % partitions``, acks=all):

- :class:`ConfluentWriter` ``plain`` (retries, no idempotence, one request in flight: at least once, in order)
  and ``idempotent`` (``enable.idempotence``: exactly once, in order);
- :class:`TransactionalWriter`: confluent-kafka transactions of a few records, every fourth one aborted;
- :class:`AiokafkaWriter`: aiokafka's producer, plain, idempotent or transactional (the same rules).

Readers: :class:`GroupMember` (a confluent-kafka consumer group member that commits its positions itself),
:class:`ReadCommittedReader` (read_committed, assigned every partition of the transactional topics), and
:class:`OffsetSampler`, which asks the broker for a group's committed offsets every second.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaError as AiokafkaError
from aiokafka.errors import OutOfOrderSequenceNumber
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

from .history import Ack, CommittedSample, History, Read, value_of

#: Bound of every wait: a flush, a commit, a drain.
WAIT_S: Final = 60.0
#: How long an abort may wait for messages to flush before the transactional writer empties its local queue.
ABORT_FLUSH_S: Final = 1.0
#: No thread runs longer than this, stopped or not.
LIFETIME_S: Final = 3600.0


class Worker:
    """A thread that calls :meth:`step` until stopped (or :data:`LIFETIME_S` passed); :meth:`stop` joins it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopping = threading.Event()
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> Worker:
        self._thread.start()
        return self

    def _run(self) -> None:
        deadline = time.monotonic() + LIFETIME_S
        try:
            while not self.stopping.is_set() and time.monotonic() < deadline:
                self.step()
        except Exception as exc:  # the run reports it: a worker that died is a finding, not a hang
            self.error = f"{self.name}: {type(exc).__name__}: {exc}"
        finally:
            self.finish()

    def step(self) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        """Called on the worker's thread after its last step."""

    def stop(self) -> None:
        self.stopping.set()
        self._thread.join(WAIT_S * 2)


class Writer(Worker):
    """Writes ``topic:0``, ``topic:1``, ... at about ``rate`` records a second."""

    def __init__(self, history: History, bootstrap: str, topic: str, partitions: int, rate: float) -> None:
        super().__init__(f"writer-{topic}")
        self.history, self.bootstrap, self.topic, self.partitions = history, bootstrap, topic, partitions
        self.interval = 1 / rate
        self.sent = 0

    def next_record(self) -> tuple[str, int]:
        seq, self.sent = self.sent, self.sent + 1
        return value_of(self.topic, seq), seq % self.partitions


def _confluent_config(bootstrap: str) -> dict[str, Any]:
    return {"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5, "message.timeout.ms": int(WAIT_S * 1000)}


class ConfluentWriter(Writer):
    def __init__(self, *args: Any, idempotent: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        config = _confluent_config(self.bootstrap) | {"enable.idempotence": idempotent}
        if not idempotent:
            config["max.in.flight.requests.per.connection"] = 1  # in order, but for a leader change (history.py)
        self.producer = Producer(config)

    def _report(self, error: KafkaError | None, message: Message) -> None:
        if error is None:
            value = message.value().decode()
            self.history.add(Ack(self.topic, message.partition(), message.offset(), value))
        else:
            self.history.add_unacknowledged(self.topic)

    def step(self) -> None:
        value, partition = self.next_record()
        while not self.stopping.is_set():
            try:
                self.producer.produce(self.topic, value.encode(), partition=partition, on_delivery=self._report)
                break
            except BufferError:  # the local queue is full while a leader is away
                self.producer.poll(0.1)
        self.producer.poll(0)
        time.sleep(self.interval)

    def finish(self) -> None:
        left = self.producer.flush(WAIT_S)
        if left:
            self.history.add_unacknowledged(self.topic, left)


class TransactionalWriter(Writer):
    """Transactions of ``size`` records; every ``abort_every``-th is aborted on purpose."""

    def __init__(self, *args: Any, size: int = 4, abort_every: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size, self.abort_every, self.transactions = size, abort_every, 0
        self.pending: list[Ack] = []
        self.producer = self._new_producer()

    def _new_producer(self) -> Producer:
        config = _confluent_config(self.bootstrap) | {
            "transactional.id": f"{self.topic}-writer",
            "transaction.timeout.ms": int(WAIT_S * 1000),
        }
        if debug := os.environ.get("ROCKAFKA_JEPSEN_TXN_DEBUG"):  # librdkafka's debug contexts, e.g. "eos,msg"
            config["debug"] = debug
        producer = Producer(config)
        producer.init_transactions(WAIT_S)
        return producer

    def _report(self, error: KafkaError | None, message: Message) -> None:
        if error is None:
            self.pending.append(Ack(self.topic, message.partition(), message.offset(), message.value().decode()))

    def step(self) -> None:
        self.transactions += 1
        values = []
        self.pending = []
        try:
            self.producer.begin_transaction()
            for _ in range(self.size):
                value, partition = self.next_record()
                values.append(value)
                self.producer.produce(self.topic, value.encode(), partition=partition, on_delivery=self._report)
                time.sleep(self.interval)
            if self.transactions % self.abort_every == 0:
                self._abort()
                self.history.add_aborted(values)
            else:
                self._commit(values)
        except KafkaException as exc:
            self._failed(values, exc.args[0])

    def _abort(self) -> None:
        """``abort_transaction``, emptying the local queue each time its flush still waits after
        :data:`ABORT_FLUSH_S` (for :data:`WAIT_S` in all).

        librdkafka sends nothing while it aborts, yet waits for every message to be delivered or purged first;
        it purges its queues once, when the abort begins. A produce in flight then that fails with a retriable
        error (NOT_LEADER_OR_FOLLOWER from a leader just deposed, or a connection the leader closed) goes back to
        its partition's queue after that purge and stays there until ``message.timeout.ms``: the abort, and the
        writer, hang for that long (confluentinc/librdkafka#3779; a broker of Kafka answers the same). The fault
        suite saw it as a writer silent after a fault. An application calls ``purge`` and the abort again, as
        here; again after every wait, since a request still in flight may fail, and requeue, later."""
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                self.producer.abort_transaction(ABORT_FLUSH_S)
                return
            except KafkaException as exc:
                if not exc.args[0].retriable() or time.monotonic() > deadline:
                    raise
                self.producer.purge(in_queue=True, in_flight=False)

    def _commit(self, values: list[str]) -> None:
        for _ in range(3):
            try:
                self.producer.commit_transaction(WAIT_S)
            except KafkaException as exc:
                if exc.args[0].retriable():
                    continue
                raise
            for ack in self.pending:
                self.history.add(ack)
            return
        self.history.add_unacknowledged(self.topic, len(values))  # outcome unknown
        self.producer = self._new_producer()  # its init_transactions settles the open transaction either way

    def _failed(self, values: list[str], error: KafkaError) -> None:
        if error.txn_requires_abort():
            with contextlib.suppress(KafkaException):
                self._abort()
                self.history.add_aborted(values)
                return
        self.history.add_unacknowledged(self.topic, len(values))
        if error.fatal() or not error.txn_requires_abort():
            self.producer = self._new_producer()  # fences the old one

    def finish(self) -> None:
        with contextlib.suppress(KafkaException):
            self.producer.flush(WAIT_S)


def _failed(outcomes: list[Any]) -> bool:
    return any(isinstance(outcome, BaseException) for outcome in outcomes)


class AiokafkaWriter(Writer):
    """aiokafka's producer on its own event loop, ``mode`` ``plain``, ``idempotent`` or ``transactional``: each
    step sends ``batch`` records and awaits them together (transactional: one transaction, every
    ``abort_every``-th aborted on purpose, and any that failed aborted too)."""

    def __init__(self, *args: Any, mode: str, batch: int = 4, abort_every: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mode, self.batch, self.abort_every, self.transactions = mode, batch, abort_every, 0
        self.failures: set[str] = set()  # the kinds of failed sends printed so far (each once)
        self.loop = asyncio.new_event_loop()
        self.producer = self.loop.run_until_complete(self._new_producer())

    async def _new_producer(self) -> AIOKafkaProducer:
        options: dict[str, Any] = {"acks": "all", "request_timeout_ms": 30000}
        if self.mode == "transactional":
            options["transactional_id"] = f"{self.topic}-writer"
        elif self.mode == "idempotent":
            options["enable_idempotence"] = True
        producer = AIOKafkaProducer(bootstrap_servers=self.bootstrap, **options)
        await producer.start()
        return producer

    def step(self) -> None:
        self.loop.run_until_complete(self._send_batch())

    async def _send_batch(self) -> None:
        records = [self.next_record() for _ in range(self.batch)]
        values = [value for value, _ in records]
        if self.mode != "transactional":
            outcomes = await self._send(records)
            self._note_sequence_refusals(records, outcomes)
            for value, outcome in zip(values, outcomes, strict=True):
                if isinstance(outcome, BaseException):
                    self.history.add_unacknowledged(self.topic)
                else:
                    self.history.add(Ack(self.topic, outcome.partition, outcome.offset, value))
            if self.mode == "idempotent" and _failed(outcomes):
                await self._renew()
            return
        self.transactions += 1
        try:
            await self.producer.begin_transaction()
            outcomes = await self._send(records)
            self._note_sequence_refusals(records, outcomes)
            self._print_new_failures(outcomes)
            if self.transactions % self.abort_every == 0 or _failed(outcomes):
                await self.producer.abort_transaction()
                self.history.add_aborted(values)
                if _failed(outcomes):
                    await self._renew()
                return
            await self.producer.commit_transaction()
        except AiokafkaError:  # outcome unknown: a new producer (its id's epoch fences this one)
            self.history.add_unacknowledged(self.topic, len(values))
            await self._renew()
            return
        for value, outcome in zip(values, outcomes, strict=True):
            self.history.add(Ack(self.topic, outcome.partition, outcome.offset, value))

    async def _renew(self) -> None:
        """A new producer in place of this one, after a send failed. aiokafka spends a batch's sequence number when
        it first sends it and never takes it back (``compat_tests/test_aiokafka_sequence_gap.py``): after a batch
        refused unwritten (INVALID_TXN_STATE, or expired while its partition had no leader) the broker answers every
        later batch OUT_OF_ORDER_SEQUENCE_NUMBER, as Kafka does. The Java client bumps its epoch then (KIP-360);
        aiokafka does not, so the writer does it for it: a new producer's InitProducerId bumps the transactional
        id's epoch (or hands an idempotent producer a new id), and its sequences start at 0."""
        await self.producer.stop()
        self.producer = await self._new_producer()

    def _note_sequence_refusals(self, records: list[tuple[str, int]], outcomes: list[Any]) -> None:
        """OUT_OF_ORDER_SEQUENCE_NUMBER on a partition none of this step's earlier sends failed on: this producer
        skipped no sequence there (it is renewed after any failed send), so the broker disagrees with it."""
        failed: set[int] = set()
        for (_, partition), outcome in zip(records, outcomes, strict=True):
            if isinstance(outcome, OutOfOrderSequenceNumber) and partition not in failed:
                self.history.add_sequence_refusal(f"{self.topic}-{partition}")
            if isinstance(outcome, BaseException):
                failed.add(partition)

    def _print_new_failures(self, outcomes: list[Any]) -> None:
        """Print each kind of failed send once: a transaction aborted for it is counted, not acknowledged."""
        for outcome in outcomes:
            kind = type(outcome).__name__
            if isinstance(outcome, BaseException) and kind not in self.failures:
                self.failures.add(kind)
                print(f"jepsen: {self.name}: a send failed ({outcome!r}): its transaction is aborted", flush=True)

    async def _send(self, records: list[tuple[str, int]]) -> list[Any]:
        futures = []
        for value, partition in records:
            futures.append(await self.producer.send(self.topic, value.encode(), partition=partition))
            await asyncio.sleep(self.interval)
        return list(await asyncio.gather(*futures, return_exceptions=True))

    def finish(self) -> None:
        self.loop.run_until_complete(self.producer.stop())
        self.loop.close()


class Reader(Worker):
    """A confluent-kafka consumer recording every record it is handed as a :class:`Read`."""

    def __init__(self, history: History, name: str, config: dict[str, Any]) -> None:
        super().__init__(name)
        self.history = history
        self.consumer = Consumer({"enable.auto.commit": False, "auto.offset.reset": "earliest", **config})

    def step(self) -> None:
        for message in self.consumer.consume(100, 0.2):
            if message.error() is None:
                self.history.add(
                    Read(self.name, message.topic(), message.partition(), message.offset(), message.value().decode())
                )
            elif not message.error().retriable() and message.error().code() != KafkaError._PARTITION_EOF:
                self.error = f"{self.name}: {message.error()}"
        self.after_poll()

    def after_poll(self) -> None:
        pass

    def finish(self) -> None:
        self.consumer.close()


class GroupMember(Reader):
    """Member ``member`` of ``group`` (reader name ``<group>/<member>``), committing its positions every
    ``commit_s``."""

    def __init__(self, history: History, bootstrap: str, group: str, member: int, topics: list[str]) -> None:
        super().__init__(history, f"{group}/{member}", {"bootstrap.servers": bootstrap, "group.id": group})
        self.consumer.subscribe(topics)
        self.commit_s = 0.5
        self.last_commit = time.monotonic()

    def after_poll(self) -> None:
        if time.monotonic() - self.last_commit < self.commit_s:
            return
        self.last_commit = time.monotonic()
        with contextlib.suppress(KafkaException):  # a rebalance or a coordinator away: the next one commits
            self.consumer.commit(asynchronous=False)


class ReadCommittedReader(Reader):
    """read_committed, assigned every partition of ``topics`` from the start."""

    def __init__(self, history: History, bootstrap: str, topics: list[str], partitions: int) -> None:
        config = {"bootstrap.servers": bootstrap, "group.id": "unused", "isolation.level": "read_committed"}
        super().__init__(history, "read-committed", config)
        history.read_committed_readers.add(self.name)
        self.consumer.assign(
            [TopicPartition(topic, p, OFFSET_BEGINNING) for topic in topics for p in range(partitions)]
        )


class OffsetSampler(Worker):
    """Asks the broker for ``group``'s committed offsets of ``topics`` every second."""

    def __init__(self, history: History, bootstrap: str, group: str, topics: list[str], partitions: int) -> None:
        super().__init__(f"offsets-{group}")
        self.history, self.group = history, group
        self.partitions = [TopicPartition(topic, p) for topic in topics for p in range(partitions)]
        self.consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})

    def step(self) -> None:
        self.sample()
        self.stopping.wait(1.0)

    def sample(self) -> None:
        try:
            committed = self.consumer.committed(self.partitions, timeout=10)
        except KafkaException:
            return  # the coordinator is away: no sample
        for tp in committed:
            if tp.error is None and tp.offset >= 0:
                self.history.add(CommittedSample(self.group, tp.topic, tp.partition, tp.offset))

    def finish(self) -> None:
        self.consumer.close()


def read_final_log(history: History, bootstrap: str, topic: str, partitions: int, *, read_committed: bool) -> None:
    """Read ``topic`` from the start to its end into ``history.final_log`` (bounded by :data:`WAIT_S`)."""
    isolation = "read_committed" if read_committed else "read_uncommitted"
    config = {"bootstrap.servers": bootstrap, "group.id": "unused", "isolation.level": isolation}
    consumer = Consumer({**config, "enable.auto.commit": False, "enable.partition.eof": True})
    try:
        ends = {
            p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=WAIT_S)[1] for p in range(partitions)
        }
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        logs: dict[int, list[tuple[int, str]]] = {p: [] for p in range(partitions)}
        done: set[int] = {p for p, end in ends.items() if end == 0}
        deadline = time.monotonic() + WAIT_S
        while len(done) < partitions and time.monotonic() < deadline:
            for message in consumer.consume(500, 0.2):
                error = message.error()
                if error is None:
                    logs[message.partition()].append((message.offset(), message.value().decode()))
                elif error.code() == KafkaError._PARTITION_EOF and message.offset() >= ends[message.partition()]:
                    done.add(message.partition())
        for partition, records in logs.items():
            history.final_log[topic, partition] = records
    finally:
        consumer.close()


def wait_until(condition: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()
