"""Zombie producers with real clients: a transaction left open past its timeout is aborted by the broker (its
producer fenced), and a second producer with the same transactional.id fences the first (aiokafka and
confluent-kafka). Visibility is read by kafka-python: aborted records never reach read_committed consumers and
do reach read_uncommitted ones; DescribeTransactions (on the wire) shows the abort and the bumped epoch."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaError as AiokafkaError
from confluent_kafka import KafkaException, Producer

from rockafka.facade.protocol.messages import describe_transactions as dt

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import unique_topic
from .clients.wire import RawClient
from .txnscenario import TXN_BROKER_SETTINGS, create_topics, end_offsets, read_all

broker = module_broker(**TXN_BROKER_SETTINGS)
WAIT_S = 15.0


def describe(bootstrap: str, transactional_id: str) -> dt.TransactionState:
    with RawClient(bootstrap) as client:
        answer = client.request(dt.DescribeTransactionsRequest(transactional_ids=[transactional_id]), 0,
                                dt.DescribeTransactionsResponse)  # fmt: skip
    (state,) = answer.transaction_states
    return state


def wait_until_stable(bootstrap: str, topic: str, partitions: int) -> None:
    """Until the read_committed end of every partition is its high watermark (no transaction open), bounded."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if end_offsets(bootstrap, topic, partitions, committed=True) == end_offsets(
            bootstrap, topic, partitions, committed=False
        ):
            return
        time.sleep(0.2)
    raise AssertionError(f"{topic} kept an open transaction for {WAIT_S}s")


def test_a_transaction_past_its_timeout_is_aborted_and_its_producer_fenced(broker: BrokerProcess) -> None:
    topic = unique_topic("txn-timeout")
    create_topics(broker.bootstrap, **{topic: 1})

    async def scenario() -> BaseException | None:
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap, transactional_id="slow-poke",
                                    transaction_timeout_ms=1500)  # fmt: skip
        await producer.start()
        try:
            await producer.begin_transaction()
            for index in range(5):
                await producer.send_and_wait(topic, b"late-%d" % index)
            started = describe(broker.bootstrap, "slow-poke")
            assert (started.transaction_state, started.transaction_timeout_ms) == ("Ongoing", 1500)
            assert end_offsets(broker.bootstrap, topic, 1, committed=True) == [0]
            await asyncio.to_thread(wait_until_stable, broker.bootstrap, topic, 1)
            aborted = describe(broker.bootstrap, "slow-poke")
            assert (aborted.transaction_state, aborted.producer_epoch) == ("CompleteAbort", started.producer_epoch + 1)
            try:
                await producer.commit_transaction()
            except AiokafkaError as exc:
                return exc
            return None
        finally:
            await producer.stop()

    refusal = asyncio.run(scenario())
    assert refusal is not None and type(refusal).__name__ in ("ProducerFenced", "InvalidProducerEpoch"), refusal
    assert read_all(broker.bootstrap, topic, 1, committed=True) == []
    assert read_all(broker.bootstrap, topic, 1, committed=False) == [b"late-%d" % i for i in range(5)]


@pytest.mark.parametrize("client", ["aiokafka", "confluent-kafka"])
def test_a_second_producer_with_the_same_transactional_id_fences_the_first(broker: BrokerProcess, client: str) -> None:
    topic, name = unique_topic(f"txn-fence-{client}"), f"fenced-{client}"
    create_topics(broker.bootstrap, **{topic: 2})
    fenced = (_fence_aiokafka if client == "aiokafka" else _fence_confluent)(broker.bootstrap, topic, name)
    assert fenced, "the first producer's commit was not refused"
    assert sorted(read_all(broker.bootstrap, topic, 2, committed=True)) == [b"second-%d" % i for i in range(3)]
    assert sorted(read_all(broker.bootstrap, topic, 2, committed=False)) == sorted(
        [b"first-%d" % i for i in range(4)] + [b"second-%d" % i for i in range(3)]
    )
    assert describe(broker.bootstrap, name).transaction_state == "CompleteCommit"


def _fence_aiokafka(bootstrap: str, topic: str, name: str) -> bool:
    async def scenario() -> bool:
        first = AIOKafkaProducer(bootstrap_servers=bootstrap, transactional_id=name)
        second = AIOKafkaProducer(bootstrap_servers=bootstrap, transactional_id=name)
        await first.start()
        try:
            await first.begin_transaction()
            for index in range(4):
                await first.send_and_wait(topic, b"first-%d" % index, partition=index % 2)
            await second.start()  # its InitProducerId aborts the first's transaction and fences it
            async with second.transaction():
                for index in range(3):
                    await second.send(topic, b"second-%d" % index, partition=index % 2)
            try:
                await first.commit_transaction()
            except AiokafkaError:
                return True
            return False
        finally:
            await second.stop()
            await first.stop()

    return asyncio.run(scenario())


def _fence_confluent(bootstrap: str, topic: str, name: str) -> bool:
    settings = {"bootstrap.servers": bootstrap, "transactional.id": name, "linger.ms": 5}
    first, second = Producer(settings), Producer(settings)
    try:
        first.init_transactions(20)
        first.begin_transaction()
        for index in range(4):
            first.produce(topic, b"first-%d" % index, partition=index % 2)
        assert first.flush(10) == 0
        second.init_transactions(20)  # aborts the first's transaction and fences it
        second.begin_transaction()
        for index in range(3):
            second.produce(topic, b"second-%d" % index, partition=index % 2)
        second.commit_transaction(20)
        try:
            first.commit_transaction(20)
        except KafkaException as exc:
            return bool(exc.args[0].fatal())
        return False
    finally:
        second.flush(5)
        with contextlib.suppress(KafkaException):  # the fenced producer's flush reports its fatal error again
            first.flush(1)
