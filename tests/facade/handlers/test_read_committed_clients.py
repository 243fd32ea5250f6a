"""Real consumers (aiokafka, confluent-kafka) reading transactions the store wrote: read_committed sees committed
records only and stops at an open transaction; read_uncommitted sees every record and no control record.

The broker runs in-process on the test's event loop (``test_transactional_reads.run``); transactional batches and
markers go straight through the store API, as the transaction coordinator writes them.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from aiokafka import AIOKafkaConsumer, TopicPartition
from confluent_kafka import Consumer, KafkaError

from rockafka.facade.broker import Broker
from rockafka.store import MessageStore
from tests.store.helpers import build_batch
from tests.store.txn_helpers import txn_batch

from .test_transactional_reads import Connection, marker, put, run

ABORTED, COMMITTED, OPEN = 5, 6, 7
DEADLINE_S = 10.0


def write_transactions(store: MessageStore) -> None:
    put(store, txn_batch(ABORTED, 2))  # 0-1, aborted at 5
    put(store, build_batch([(b"plain", b"plain")]))  # 2
    put(store, txn_batch(COMMITTED, 1))  # 3, committed at 6
    put(store, txn_batch(ABORTED, 1, sequence=2))  # 4
    marker(store, ABORTED, commit=False)  # 5
    marker(store, COMMITTED, commit=True)  # 6
    put(store, build_batch([(b"after", b"after")]))  # 7
    put(store, txn_batch(OPEN, 1))  # 8, open: the LSO
    put(store, build_batch([(b"late", b"late")]))  # 9, above the LSO


def values_of(pid: int, count: int) -> list[bytes]:
    return [b"v-%d-%d" % (pid, n) for n in range(count)]


COMMITTED_VALUES = [b"plain", *values_of(COMMITTED, 1), b"after"]
EVERY_VALUE = [*values_of(ABORTED, 2), b"plain", *values_of(COMMITTED, 1), *values_of(ABORTED, 1), b"after"]
EVERY_VALUE += [*values_of(OPEN, 1), b"late"]


async def aiokafka_read(bootstrap: str, isolation: str, expected: int) -> list[bytes]:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, isolation_level=isolation, enable_auto_commit=False)
    await consumer.start()
    try:
        consumer.assign([TopicPartition("t", 0)])
        await consumer.seek_to_beginning()
        values: list[bytes] = []
        deadline = time.monotonic() + DEADLINE_S
        while len(values) < expected and time.monotonic() < deadline:
            batches = await consumer.getmany(timeout_ms=200)
            values += [record.value for records in batches.values() for record in records if record.value is not None]
        await asyncio.sleep(0.3)  # anything past the expected would show now
        batches = await consumer.getmany(timeout_ms=300)
        values += [record.value for records in batches.values() for record in records if record.value is not None]
        return values
    finally:
        await consumer.stop()


def confluent_read(bootstrap: str, isolation: str, expected: int) -> list[bytes]:
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"txn-reads-{isolation}",
            "isolation.level": isolation,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    try:
        consumer.subscribe(["t"])
        values: list[bytes] = []
        deadline = time.monotonic() + DEADLINE_S
        settle_until = None
        while time.monotonic() < deadline and (settle_until is None or time.monotonic() < settle_until):
            message = consumer.poll(0.2)
            if message is not None and message.error() is None and message.partition() == 0:
                values.append(message.value())
            elif message is not None and message.error() is not None:
                assert message.error().code() == KafkaError._PARTITION_EOF, message.error()
            if len(values) >= expected and settle_until is None:
                settle_until = time.monotonic() + 0.5
        return values
    finally:
        consumer.close()


def test_aiokafka_reads_committed_records_only(tmp_path: Path) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        write_transactions(broker.store)
        bootstrap = f"127.0.0.1:{conn.port}"
        assert await aiokafka_read(bootstrap, "read_committed", len(COMMITTED_VALUES)) == COMMITTED_VALUES
        assert await aiokafka_read(bootstrap, "read_uncommitted", len(EVERY_VALUE)) == EVERY_VALUE
        marker(broker.store, OPEN, commit=True)  # the open transaction commits: the rest becomes readable
        expected = [*COMMITTED_VALUES, *values_of(OPEN, 1), b"late"]
        assert await aiokafka_read(bootstrap, "read_committed", len(expected)) == expected

    run(tmp_path, scenario)


def test_confluent_kafka_reads_committed_records_only(tmp_path: Path) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        write_transactions(broker.store)
        bootstrap = f"127.0.0.1:{conn.port}"
        committed = await asyncio.to_thread(confluent_read, bootstrap, "read_committed", len(COMMITTED_VALUES))
        assert committed == COMMITTED_VALUES
        every = await asyncio.to_thread(confluent_read, bootstrap, "read_uncommitted", len(EVERY_VALUE))
        assert every == EVERY_VALUE
        marker(broker.store, OPEN, commit=False)  # aborted: read_committed skips it, reads the record after
        expected = [*COMMITTED_VALUES, b"late"]
        assert await asyncio.to_thread(confluent_read, bootstrap, "read_committed", len(expected)) == expected

    run(tmp_path, scenario)
