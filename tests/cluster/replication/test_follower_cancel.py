"""A follower told to stop copying (``ReplicationFollower.cancel``: its broker was just promoted) copies nothing
more and acknowledges nothing more, even when the old leader's next frame is read in the same turn of the event
loop as the cancel, before the follower's task unwinds.

Before the fix the frame read then was appended to the promoted store and acknowledged to the old leader, whose
acks=all then confirmed a write the new leader's epoch did not account for (the fault suite's seed 23: an
EndTxn(ABORT) answered by a deposed leader, its ABORT markers cut by the failover, the aborted records committed
by the producer's next transaction). The old leader here is a raw socket on 127.0.0.1 speaking the replication
protocol, so the frame's arrival is exactly placed: written before the cancel, read in the loop turn after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import uuid
from pathlib import Path

from rockafka.cluster.replication.follower import ReplicationFollower
from rockafka.cluster.replication.stream import Ack, StreamDecoder, Welcome, data_header, encode, topic_specs
from rockafka.store import MessageStore

from ...store.helpers import append, build_batch, small_config

TOPIC_ID = uuid.UUID(int=0x78)
WAIT_S = 30.0


def _received_acks(peer: socket.socket, decoder: StreamDecoder) -> list[int]:
    """The ends the follower acknowledged on ``peer`` until it closed the connection."""
    ends = []
    try:
        while chunk := peer.recv(1 << 16):
            ends += [message.end for message in decoder.feed(chunk) if isinstance(message, Ack)]
    except ConnectionResetError:  # closed with the late frame unread: what it sent before is in ``ends``
        pass
    return ends


def test_a_cancelled_follower_applies_and_acknowledges_no_frame_read_after_the_cancel(tmp_path: Path) -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
            socket.create_server(("127.0.0.1", 0)) as listener,
        ):
            leader_store.topics.create("t", 1, topic_id=TOPIC_ID)
            append(leader_store, "t", 0, build_batch([(b"k", b"first")]))
            first_end = leader_store.replica.published_end
            append(leader_store, "t", 0, build_batch([(b"k", b"late")]))
            late = bytes(leader_store.replica.read_copy(first_end, 1 << 20))
            assert late, "the second batch is there to send"

            listener.settimeout(WAIT_S)
            follower = ReplicationFollower(2, "127.0.0.1", listener.getsockname()[1])
            follower_store.replica.follow()
            handshaking = asyncio.ensure_future(follower.handshake(follower_store))
            peer, _ = await loop.run_in_executor(None, listener.accept)
            with peer:
                peer.settimeout(WAIT_S)
                decoder = StreamDecoder()
                decoder.feed(await loop.run_in_executor(None, peer.recv, 1 << 16))  # the HELLO
                acks = loop.run_in_executor(None, _received_acks, peer, decoder)
                rows = [("t", TOPIC_ID, 1, {})]
                first = bytes(leader_store.replica.read_copy(0, first_end))
                peer.sendall(encode(Welcome(0, first_end)) + encode(topic_specs(rows)))
                follower.follow(follower_store, await handshaking)
                peer.sendall(data_header(0, 0, 0, len(first)) + first)
                deadline = loop.time() + WAIT_S
                while follower_store.replica.end != first_end:
                    assert loop.time() < deadline, "the follower did not copy the first batch"
                    await asyncio.sleep(0.01)

                # the old leader's next frame is in the follower's socket before the cancel runs; the loop reads
                # it in the same turn as the cancel, before the follower's task gets its CancelledError
                peer.sendall(data_header(first_end, 0, first_end, len(late)) + late)
                loop.call_soon(follower.cancel)
                await asyncio.sleep(0.1)  # the cancel's turn, the read's, then the task's unwinding
                await follower.stop()
                acknowledged = await acks

            assert follower_store.replica.end == first_end, "a frame read after the cancel was appended"
            assert max(acknowledged) == first_end, f"acknowledged after the cancel: {acknowledged}"

    asyncio.run(scenario())


def test_a_follower_stops_even_when_its_handshake_swallows_the_cancel(tmp_path: Path) -> None:
    """3.11's ``asyncio.wait_for`` (the handshake's) can lose a cancel that lands as the wait times out: the
    follower's loop then took the timeout for a failed handshake and retried for ever, and ``stop`` waited with it
    (a CI run: a follower behind a muted relay, stopped at the end of its test, 300 s until pytest's timeout)."""

    async def scenario() -> None:
        with MessageStore.open(small_config(tmp_path / "follower")) as store:
            follower = ReplicationFollower(2, "127.0.0.1", 9)  # never reached: the handshake below stands in
            handshakes = 0

            async def timed_out_swallowing_the_cancel(_store: MessageStore) -> None:
                nonlocal handshakes
                handshakes += 1
                if handshakes > 1:  # only the first cancel is lost (so that the test ends either way)
                    await asyncio.sleep(WAIT_S)
                with contextlib.suppress(asyncio.CancelledError):  # the lost cancel: 3.11's wait_for times out
                    await asyncio.sleep(WAIT_S)
                raise TimeoutError

            follower.handshake = timed_out_swallowing_the_cancel  # type: ignore[method-assign,assignment]
            store.replica.follow()
            follower.follow(store, None)
            await asyncio.sleep(0.1)
            stopping = asyncio.create_task(follower.stop())
            await asyncio.wait({stopping}, timeout=WAIT_S)
            assert stopping.done(), f"the follower did not stop within {WAIT_S}s (handshakes tried: {handshakes})"

    asyncio.run(scenario())
