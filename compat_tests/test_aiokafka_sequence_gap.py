"""aiokafka's transactional producer spends the sequence number of a batch the broker refused unwritten.

The cause of the 3-member Jepsen runs' OutOfOrderSequenceNumber on every send of aiokafka's transactional writer
(docs/replication.md, "How it is tested under faults"). aiokafka 0.14 gives a batch its sequence when it first
drains it (``MessageAccumulator._pop_batch``: the partition's sequence is increased there, once) and fails it
on any error its ``retriable`` flag says is final (``SendProduceReqHandler.handle_response``), INVALID_TXN_STATE
among them; it never takes the sequence back, and it does not implement KIP-360 (no epoch bump on such an error,
nor on abort). The broker kept what it stored, so it expects the refused sequence again and answers every later
batch OUT_OF_ORDER_SEQUENCE_NUMBER, as Kafka's ``ProducerAppendInfo`` does (same epoch, first sequence not the
last + 1). Kafka 3.6+ refuses a transactional batch with INVALID_TXN_STATE before appending it when its partition
is not in the transaction (KIP-890 verification), so a Kafka cluster leaves aiokafka stuck the same way.

Here the refusal is injected (``broker.faults.fail``: answered before the Produce handler, nothing stored), and
the broker's own DEBUG line shows what it expected and what the client sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.errors import InvalidTxnState, OutOfOrderSequenceNumber

from rockafka.testing import Broker

from .txnscenario import read_all

TOPIC = "gap"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with Broker(data_dir=tmp_path / "data") as running:
        yield running


async def _started(bootstrap: str) -> AIOKafkaProducer:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, transactional_id="gap-writer", retry_backoff_ms=50)
    await producer.start()
    return producer


async def _send_in_transaction(producer: AIOKafkaProducer, value: bytes, commit: bool) -> None:
    """One record in its own transaction, committed or (after the send raised) aborted."""
    await producer.begin_transaction()
    try:
        await producer.send_and_wait(TOPIC, value, partition=0)
    except BaseException:
        await producer.abort_transaction()
        raise
    if commit:
        await producer.commit_transaction()


def test_aiokafka_skips_the_sequence_of_a_refused_batch_and_is_refused_out_of_order_from_then_on(
    broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="rockafka.facade.producers")

    async def scenario() -> None:
        producer = await _started(broker.bootstrap)
        try:
            await _send_in_transaction(producer, b"first", commit=True)  # sequence 0
            broker.faults.fail("Produce", "INVALID_TXN_STATE", times=1, topic=TOPIC)
            with pytest.raises(InvalidTxnState):
                await _send_in_transaction(producer, b"refused", commit=False)  # sequence 1, never stored
            for attempt in (b"after-1", b"after-2"):  # sequences 2 and 3: the broker still expects 1
                with pytest.raises(OutOfOrderSequenceNumber):
                    await _send_in_transaction(producer, attempt, commit=False)
        finally:
            await producer.stop()
        renewed = await _started(broker.bootstrap)  # InitProducerId bumps the epoch: sequences start at 0 again
        try:
            await _send_in_transaction(renewed, b"renewed", commit=True)
        finally:
            await renewed.stop()

    asyncio.run(scenario())
    refusals = [r.getMessage() for r in caplog.records if "refused producer" in r.getMessage()]
    assert len(refusals) == 2, refusals
    assert "epoch 0 sequence 2 " in refusals[0] and "sent sequence 2 after 0" in refusals[0], refusals
    assert "epoch 0 sequence 3 " in refusals[1] and "sent sequence 3 after 0" in refusals[1], refusals
    assert read_all(broker.bootstrap, TOPIC, 1, committed=True) == [b"first", b"renewed"]  # auto-created: 1
