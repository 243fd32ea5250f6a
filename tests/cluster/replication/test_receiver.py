"""The follower's frame reader (``cluster/replication/receiver.py``) over real sockets on 127.0.0.1, under
asyncio's own loop and uvloop (the broker's): the frames arrive whole, in order, once, however the writes split
them and whatever their size against the buffer's; a connection handed over after a handshake loses no byte the
StreamReader or its decoder held; a frame that breaks the spec, or the peer closing, ends the stream with why."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

import pytest
import uvloop

from rockafka.cluster.replication.receiver import FrameReceiver
from rockafka.cluster.replication.stream import (
    Ack,
    Data,
    Message,
    ReplicationProtocolError,
    StreamDecoder,
    Welcome,
    encode,
)

LOOPS = {"asyncio": asyncio.new_event_loop, "uvloop": uvloop.new_event_loop}
WAIT_S = 30.0


def _run(loop: str, scenario: Callable[[], Awaitable[None]]) -> None:
    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        runner.run(asyncio.wait_for(scenario(), WAIT_S))


def _frames(seed: int, count: int) -> list[Message]:
    rng = random.Random(seed)
    sizes = [rng.choice([0, 1, 100, 5000, 20_000, 70_000]) for _ in range(count)]
    return [Data(n * 1000, 3, n, rng.randbytes(size)) for n, size in enumerate(sizes)]


async def _serve(wire: bytes, seed: int) -> tuple[asyncio.Server, int, asyncio.Future[bytes]]:
    """A peer writing ``wire`` in random pieces, then closing; the future holds what it read back."""
    back: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        rng, position = random.Random(seed), 0
        while position < len(wire):
            size = rng.choice([1, 7, 300, 4096, 65_536, 300_000])
            writer.write(wire[position : position + size])
            position += size
            await writer.drain()
        writer.close()
        back.set_result(await reader.read())

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1], back


def _copies(messages: list[Message]) -> list[Message]:
    """The messages with their bytes copied out (the receiver's buffer is reused after the callback)."""
    return [Data(m.physical_offset, m.leader_epoch, m.confirm_offset, bytes(m.data)) if isinstance(m, Data) else m
            for m in messages]  # fmt: skip


@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_frames_arrive_whole_in_order_and_once(loop: str, seed: int) -> None:
    sent: list[Message] = [Welcome(0, 10), *_frames(seed, 60)]
    wire = b"".join(encode(m) for m in sent)

    async def scenario() -> None:
        server, port, back = await _serve(wire, seed)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        decoder = StreamDecoder()
        got = decoder.feed(await reader.read(3000))  # a handshake's read: the decoder holds part of a frame
        receiver = FrameReceiver(lambda ms: got.extend(_copies(ms)), capacity=8192, min_read=1024)
        await receiver.take_over(reader, writer, decoder)
        reason = await receiver.closed
        assert isinstance(reason, EOFError)
        assert got == sent
        writer.close()
        server.close()
        assert await back == b""

    _run(loop, scenario)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_bad_frame_ends_the_stream_and_closes_the_connection(loop: str) -> None:
    wire = encode(Data(0, 1, 0, b"x" * 10)) + b"\x00\x00\x00\x00\x06" + encode(Data(10, 1, 0, b"y"))

    async def scenario() -> None:
        server, port, back = await _serve(wire, 4)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        got: list[Message] = []
        receiver = FrameReceiver(lambda ms: got.extend(_copies(ms)))
        await receiver.take_over(reader, writer, StreamDecoder())
        reason = await receiver.closed
        assert isinstance(reason, ReplicationProtocolError) and "a frame of 0 bytes" in str(reason)
        assert got in ([], [Data(0, 1, 0, b"x" * 10)])  # the frame before it, when it came in an earlier read
        server.close()
        assert await back == b""

    _run(loop, scenario)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_an_error_applying_a_frame_ends_the_stream_with_it(loop: str) -> None:
    wire = encode(Data(0, 1, 0, b"x")) + encode(Ack(5))

    async def scenario() -> None:
        server, port, _ = await _serve(wire, 5)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)

        def refuse(messages: list[Message]) -> None:
            raise ValueError(f"refused {len(messages)}")

        receiver = FrameReceiver(refuse)
        await receiver.take_over(reader, writer, StreamDecoder())
        reason = await receiver.closed
        assert isinstance(reason, ValueError) and str(reason).startswith("refused")
        server.close()

    _run(loop, scenario)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_leader_that_closed_before_the_take_over_ends_the_stream(loop: str) -> None:
    sent: list[Message] = [Welcome(0, 10), *_frames(9, 5)]
    wire = b"".join(encode(m) for m in sent)

    async def scenario() -> None:
        server, port, _ = await _serve(wire, 9)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        decoder = StreamDecoder()
        got = decoder.feed(await reader.read(100))
        await asyncio.sleep(0.5)  # the rest and the leader's EOF reach the StreamReader before the take-over
        receiver = FrameReceiver(lambda ms: got.extend(_copies(ms)))
        await receiver.take_over(reader, writer, decoder)
        assert isinstance(await receiver.closed, EOFError)
        assert got == sent
        server.close()

    _run(loop, scenario)
