"""The round-trip ceiling's responder: a real aiokafka producer gets the answers a broker would give."""

from __future__ import annotations

import asyncio
import os

import pytest
from aiokafka import AIOKafkaProducer

from bench.suite.ceiling import Responder
from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
from rockafka.facade.protocol.messages.list_offsets import ListOffsetsRequest, ListOffsetsResponse
from rockafka.wire_client import WireClient, WireClientError


@pytest.fixture(scope="module")
def responder():  # type: ignore[no-untyped-def]
    with Responder() as running:
        yield running


def test_each_answer_carries_the_partition_s_next_offset(responder: Responder) -> None:
    async def produce() -> list[tuple[int, int]]:
        client = AIOKafkaProducer(bootstrap_servers=responder.bootstrap, enable_idempotence=False, linger_ms=20)
        await client.start()
        try:
            answers = [await client.send_and_wait("offsets", b"x", partition=seq % 2) for seq in range(6)]
            batch = [await client.send("offsets", b"y", partition=1) for _ in range(3)]  # one batch of three (linger)
            last = await asyncio.gather(*batch)
            answers.append(await client.send_and_wait("offsets", b"z", partition=1))
        finally:
            await client.stop()
        return [(a.partition, a.offset) for a in answers] + [(m.partition, m.offset) for m in last]

    answers = asyncio.run(produce())
    assert answers[:6] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    assert answers[6] == (1, 6), "the batch of three took offsets 3-5, not one"
    assert answers[7:] == [(1, 3), (1, 4), (1, 5)]


def test_it_advertises_the_versions_rockafka_serves(responder: Responder) -> None:
    with WireClient(responder.bootstrap) as client:
        answer = client.request(ApiVersionsRequest(), 3, ApiVersionsResponse)
    served = {key: (h.min_version, h.max_version) for key, h in HANDLERS.items()}
    assert {a.api_key: (a.min_version, a.max_version) for a in answer.api_keys} == served


def test_a_request_it_does_not_serve_closes_the_connection(responder: Responder) -> None:
    with WireClient(responder.bootstrap) as client, pytest.raises(WireClientError):
        client.request(ListOffsetsRequest(), 1, ListOffsetsResponse)


def test_stopping_ends_the_process() -> None:
    with Responder() as running:
        pid = running.pid
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
