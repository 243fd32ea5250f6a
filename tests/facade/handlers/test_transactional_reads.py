"""Fetch, ListOffsets and DescribeProducers over transactions, through a real broker on a loopback socket.

The broker runs in-process (``BrokerApp`` on the test's event loop); the test writes transactional batches and
markers straight through the store API on that same loop, and talks to the broker with encoded requests on a
real TCP connection, decoding the responses as a client does.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from rockafka.core_pyx.recordbatch import read_batch_header, validate_batches
from rockafka.facade.app import BrokerApp
from rockafka.facade.broker import Broker
from rockafka.facade.config import load_broker_config
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import describe_producers as dp
from rockafka.facade.protocol.messages import fetch as f
from rockafka.facade.protocol.messages import list_offsets as lo
from rockafka.facade.protocol.primitives import ZERO_UUID
from rockafka.store import MessageStore
from rockafka.testing import TEST_SETTINGS
from tests.store.helpers import build_batch
from tests.store.txn_helpers import txn_batch

M = TypeVar("M", bound=ApiMessage)
READ_UNCOMMITTED, READ_COMMITTED = 0, 1


class Connection:
    """One client connection: requests out, responses in, correlation ids checked."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, topic_id: uuid.UUID, port: int
    ) -> None:
        self._reader, self._writer = reader, writer
        self.topic_id = topic_id
        self.port = port
        self._correlation = 0

    async def call(self, request: ApiMessage, response: type[M], version: int) -> M:
        self._correlation += 1
        self._writer.write(encode_request(request, version, self._correlation, client_id="txn-reads"))
        (size,) = struct.unpack(">i", await self._reader.readexactly(4))
        correlation, body = decode_response(await self._reader.readexactly(size), response, version)
        assert correlation == self._correlation
        return body


Scenario = Callable[[Broker, Connection], Awaitable[None]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(tmp_path: Path, scenario: Scenario, settings: dict[str, str] | None = None) -> None:
    async def main() -> None:
        overrides = [f"{k}={v}" for k, v in TEST_SETTINGS.items()]
        port = free_port()  # advertised to clients, so not 0
        overrides += [f"listeners=PLAINTEXT://127.0.0.1:{port}", f"log.dirs={tmp_path / 'data'}", "num.partitions=1"]
        overrides += [f"{k}={v}" for k, v in (settings or {}).items()]
        app = BrokerApp(load_broker_config(None, overrides, environ={}))
        await app.start()
        try:
            assert app.broker is not None
            topic_id = app.broker.store.topics.create("t", 2).topic_id
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            try:
                await asyncio.wait_for(scenario(app.broker, Connection(reader, writer, topic_id, port)), 60)
            finally:
                writer.close()
        finally:
            await app.stop()

    asyncio.run(main())


async def parked_once(broker: Broker) -> None:
    """Wait (bounded: 10 s) until one fetch is parked on t-0."""
    for _ in range(1000):
        if broker.waiters.parked("t", 0) == 1:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no fetch parked on t-0")


def put(store: MessageStore, batch: bytes, partition: int = 0) -> int:
    return store.records.append("t", partition, batch, validate_batches(batch)).base_offset


def marker(store: MessageStore, pid: int, *, commit: bool, partition: int = 0, coordinator_epoch: int = 0) -> int:
    return store.records.write_transaction_marker(
        "t", partition, producer_id=pid, producer_epoch=0, coordinator_epoch=coordinator_epoch, commit=commit
    ).base_offset


def fetch_request(
    offset: int, isolation: int, *, max_wait_ms: int = 0, partition: int = 0, topic_id: uuid.UUID = ZERO_UUID
) -> f.FetchRequest:
    """A fetch of one partition of "t" (addressed by ``topic_id`` from v13)."""
    return f.FetchRequest(
        max_wait_ms=max_wait_ms,
        min_bytes=1,
        isolation_level=isolation,
        topics=[
            f.FetchTopic(
                topic="t",
                topic_id=topic_id,
                partitions=[f.FetchPartition(partition=partition, fetch_offset=offset, partition_max_bytes=1 << 20)],
            )
        ],
    )


async def fetch(conn: Connection, offset: int, isolation: int, version: int = 11) -> f.PartitionData:
    request = fetch_request(offset, isolation, topic_id=conn.topic_id if version >= 13 else ZERO_UUID)
    response = await conn.call(request, f.FetchResponse, version)
    (topic,) = response.responses
    (partition,) = topic.partitions
    assert partition.error_code == ErrorCode.NONE
    return partition


def base_offsets(records: object) -> list[int]:
    """The base offsets of the batches in a response's records."""
    data = bytes(records or b"")  # type: ignore[call-overload]
    found, pos = [], 0
    while pos < len(data):
        header = read_batch_header(data, pos)
        found.append(header.base_offset)
        pos += header.size
    return found


def aborted(partition: f.PartitionData) -> list[tuple[int, int]] | None:
    if partition.aborted_transactions is None:
        return None
    return [(t.producer_id, t.first_offset) for t in partition.aborted_transactions]


# --- Fetch ---


@pytest.mark.parametrize("version", [4, 5, 11, 12, 17])
def test_read_committed_stops_at_the_lso_and_read_uncommitted_does_not(tmp_path: Path, version: int) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        store = broker.store
        put(store, build_batch([(b"a", b"1")]))  # 0
        put(store, txn_batch(5, 2))  # 1-2, open
        put(store, build_batch([(b"b", b"2")]))  # 3
        committed = await fetch(conn, 0, READ_COMMITTED, version)
        assert base_offsets(committed.records) == [0]
        assert (committed.high_watermark, committed.last_stable_offset, aborted(committed)) == (4, 1, [])
        nothing = await fetch(conn, 1, READ_COMMITTED, version)  # at the LSO: nothing yet, no error
        assert base_offsets(nothing.records) == [] and nothing.last_stable_offset == 1
        uncommitted = await fetch(conn, 0, READ_UNCOMMITTED, version)
        assert base_offsets(uncommitted.records) == [0, 1, 3]
        assert (uncommitted.last_stable_offset, aborted(uncommitted)) == (1, None)  # LSO reported, no list

    run(tmp_path, scenario)


@pytest.mark.parametrize("version", [4, 12])
def test_aborted_transactions_overlapping_the_returned_range(tmp_path: Path, version: int) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        store = broker.store
        put(store, txn_batch(5, 2))  # 0-1
        put(store, txn_batch(6, 1))  # 2
        put(store, build_batch([(b"plain", b"x")]))  # 3
        assert marker(store, 5, commit=False) == 4
        assert marker(store, 6, commit=True) == 5
        put(store, txn_batch(7, 1))  # 6
        assert marker(store, 7, commit=False) == 7
        whole = await fetch(conn, 0, READ_COMMITTED, version)
        assert base_offsets(whole.records) == [0, 2, 3, 4, 5, 6, 7]
        assert (whole.last_stable_offset, whole.high_watermark) == (8, 8)
        assert aborted(whole) == [(5, 0), (7, 6)]
        from_marker = await fetch(conn, 4, READ_COMMITTED, version)  # [0, 4] still overlaps its marker
        assert aborted(from_marker) == [(5, 0), (7, 6)]
        past_the_first = await fetch(conn, 5, READ_COMMITTED, version)
        assert aborted(past_the_first) == [(7, 6)]
        at_the_end = await fetch(conn, 8, READ_COMMITTED, version)
        assert base_offsets(at_the_end.records) == [] and aborted(at_the_end) == []
        assert aborted(await fetch(conn, 0, READ_UNCOMMITTED, version)) is None

    run(tmp_path, scenario)


def test_a_parked_read_committed_fetch_wakes_when_the_marker_moves_the_lso(tmp_path: Path) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        store = broker.store
        put(store, txn_batch(5, 2))  # 0-1: LSO 0
        parked = asyncio.create_task(
            conn.call(fetch_request(0, READ_COMMITTED, max_wait_ms=30_000), f.FetchResponse, 11)
        )
        await parked_once(broker)
        put(store, txn_batch(5, 1, sequence=2))  # more of the open transaction: still nothing to read
        await parked_once(broker)  # woken by the append, read nothing, and parked again
        assert not parked.done()
        marker(store, 5, commit=True)
        response = await asyncio.wait_for(parked, 10)  # long before max_wait_ms
        (partition,) = response.responses[0].partitions
        assert base_offsets(partition.records) == [0, 2, 3]
        assert (partition.last_stable_offset, aborted(partition)) == (4, [])

    run(tmp_path, scenario)


# --- ListOffsets ---


@pytest.mark.parametrize("version", [0, 1, 2, 5, 9])
def test_list_offsets_latest_honours_the_isolation_level(tmp_path: Path, version: int) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        store = broker.store
        put(store, build_batch([(b"a", b"1")]))  # 0
        put(store, txn_batch(5, 2))  # 1-2, open
        answers = []
        for isolation in (READ_UNCOMMITTED, READ_COMMITTED) if version >= 2 else (READ_UNCOMMITTED,):
            partitions = [lo.ListOffsetsPartition(partition_index=0, timestamp=-1, max_num_offsets=1)]
            request = lo.ListOffsetsRequest(
                replica_id=-1, isolation_level=isolation, topics=[lo.ListOffsetsTopic(name="t", partitions=partitions)]
            )
            response = await conn.call(request, lo.ListOffsetsResponse, version)
            (partition,) = response.topics[0].partitions
            assert partition.error_code == ErrorCode.NONE
            answers.append(partition.old_style_offsets[0] if version == 0 else partition.offset)
        assert answers == ([3] if version < 2 else [3, 1])  # v0-1 have no isolation level: the high watermark

    run(tmp_path, scenario)


def test_list_offsets_by_time_for_read_committed_stays_below_the_lso(tmp_path: Path) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        put(broker.store, build_batch([(b"a", b"1")], timestamps=[500]))  # 0
        put(broker.store, txn_batch(5, 2))  # 1-2 at 1000 and 1001, open

        async def lookup(timestamp: int, isolation: int) -> int:
            partitions = [lo.ListOffsetsPartition(partition_index=0, timestamp=timestamp)]
            request = lo.ListOffsetsRequest(
                replica_id=-1, isolation_level=isolation, topics=[lo.ListOffsetsTopic(name="t", partitions=partitions)]
            )
            response = await conn.call(request, lo.ListOffsetsResponse, 7)
            (partition,) = response.topics[0].partitions
            assert partition.error_code == ErrorCode.NONE
            return partition.offset

        assert [await lookup(t, READ_UNCOMMITTED) for t in (400, 1001, -3)] == [0, 2, 2]
        assert [await lookup(t, READ_COMMITTED) for t in (400, 1001, -3, -2)] == [0, -1, -1, 0]
        marker(broker.store, 5, commit=True)
        assert [await lookup(t, READ_COMMITTED) for t in (1001, -3)] == [2, 3]  # the marker is the newest

    run(tmp_path, scenario)


# --- DescribeProducers ---


def _producer_fields(state: dp.ProducerState) -> tuple[int, ...]:
    return (
        state.producer_id, state.producer_epoch, state.last_sequence, state.last_timestamp, state.coordinator_epoch,
        state.current_txn_start_offset,
    )  # fmt: skip


def test_describe_producers_reports_idempotence_and_transaction_state(tmp_path: Path) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        store = broker.store
        batch = txn_batch(5, 3, epoch=2, sequence=10)  # timestamps 1000-1002
        base = put(store, build_batch([(b"a", b"1")]))
        base = put(store, batch)
        broker.producers.record("t", 0, read_batch_header(batch), base)  # what Produce does after the append
        put(store, txn_batch(8, 1, epoch=4), partition=1)  # open, with no idempotence state kept for it
        request = dp.DescribeProducersRequest(
            topics=[
                dp.TopicRequest(name="t", partition_indexes=[0, 1, 7]),
                dp.TopicRequest(name="missing", partition_indexes=[0]),
            ]
        )

        async def describe() -> dict[tuple[str, int], tuple[int, list[tuple[int, ...]]]]:
            response = await conn.call(request, dp.DescribeProducersResponse, 0)
            return {
                (topic.name, p.partition_index): (p.error_code, [_producer_fields(s) for s in p.active_producers])
                for topic in response.topics
                for p in topic.partitions
            }

        assert await describe() == {
            ("t", 0): (0, [(5, 2, 12, 1002, -1, 1)]),
            ("t", 1): (0, [(8, 4, -1, -1, -1, 0)]),
            ("t", 7): (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, []),
            ("missing", 0): (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, []),
        }
        marker(store, 5, commit=True, coordinator_epoch=3)
        marker(store, 8, commit=False, partition=1, coordinator_epoch=4)
        described = await describe()
        assert described[("t", 0)] == (0, [(5, 2, 12, 1002, 3, -1)])
        assert described[("t", 1)] == (0, [])  # no idempotence state and nothing open: not active

    run(tmp_path, scenario)


def test_describe_producers_needs_read_on_the_topic(tmp_path: Path) -> None:
    async def scenario(broker: Broker, conn: Connection) -> None:
        put(broker.store, txn_batch(5, 1))
        request = dp.DescribeProducersRequest(topics=[dp.TopicRequest(name="t", partition_indexes=[0, 1])])
        response = await conn.call(request, dp.DescribeProducersResponse, 0)
        assert [(p.partition_index, p.error_code, p.active_producers) for p in response.topics[0].partitions] == [
            (0, ErrorCode.TOPIC_AUTHORIZATION_FAILED, []),
            (1, ErrorCode.TOPIC_AUTHORIZATION_FAILED, []),
        ]

    run(tmp_path, scenario, {"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"})
