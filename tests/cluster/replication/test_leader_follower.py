"""The leader and follower in one process (``cluster/replication/leader.py``, ``follower.py``): real stores in
temporary directories, a real socket on 127.0.0.1. A follower copies appends made while it follows; a peer that
sends bytes of no message, or a follower of another segment size, is refused and the leader goes on serving."""

from __future__ import annotations

import asyncio
import socket
import struct
import uuid
from pathlib import Path

from rockafka.cluster.replication.follower import FollowerRefusedError, ReplicationFollower
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.store import MessageStore

from ...store.helpers import append, build_batch, small_config

TOPIC_ID = uuid.UUID(int=0x77)
WAIT_S = 30.0


async def _until(condition: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not condition():  # type: ignore[operator]
        assert loop.time() < deadline, f"not within {WAIT_S}s: {what}"
        await asyncio.sleep(0.02)


def _raw_peer(port: int, data: bytes) -> bytes:
    """Send ``data`` to the leader and read until it closes the connection (what it answered)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as peer:
        peer.sendall(data)
        answer = b""
        while chunk := peer.recv(1 << 16):
            answer += chunk
    return answer


def test_a_follower_copies_appends_and_the_leader_survives_bad_peers(tmp_path: Path) -> None:
    async def scenario() -> None:
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader_store.topics.create("t", 2, topic_id=TOPIC_ID)
            leader = ReplicationLeader(leader_store, lag_time_ms=10_000)
            await leader.start("127.0.0.1", 0)
            loop = asyncio.get_running_loop()
            garbage = await loop.run_in_executor(None, _raw_peer, leader.port, struct.pack(">iB", 5, 9) + b"xxxx")
            assert garbage == b""  # not a HELLO: closed without an answer
            other = ReplicationFollower(3, "127.0.0.1", leader.port)
            with MessageStore.open(small_config(tmp_path / "other", commitlog_segment_bytes=16384)) as other_store:
                try:
                    await other.handshake(other_store)
                    raise AssertionError("a follower of another segment size was welcomed")
                except FollowerRefusedError as exc:
                    assert "segment sizes differ" in str(exc)
            follower = ReplicationFollower(2, "127.0.0.1", leader.port)
            follower_store.replica.follow()
            follower.follow(follower_store, None)
            for number in range(30):
                append(leader_store, "t", number % 2, build_batch([(b"k", b"v%d-" % number + b"x" * 500)]))
            end = leader_store.replica.published_end
            await _until(lambda: follower_store.replica.end == end, "the follower holds every append")
            await _until(lambda: leader.in_sync.size == 2, "the follower joined the in-sync set")
            await _until(lambda: leader.in_sync.confirm_offset == end, "the confirm offset reached the end")
            for partition in range(2):
                mine = follower_store.records.read("t", partition, 0, 1 << 20).batches
                assert [bytes(b) for b in mine] == [
                    bytes(b) for b in leader_store.records.read("t", partition, 0, 1 << 20).batches
                ]
            await follower.stop()
            await _until(lambda: leader.in_sync.size == 1, "the stopped follower left the set")
            await leader.stop()

    asyncio.run(scenario())


def test_an_acks_all_wait_times_out_or_ends_with_the_leader(tmp_path: Path) -> None:
    async def scenario() -> None:
        with MessageStore.open(small_config(tmp_path / "leader")) as store:
            store.topics.create("t", 1, topic_id=TOPIC_ID)
            leader = ReplicationLeader(store, lag_time_ms=60_000)
            await leader.start("127.0.0.1", 0)
            leader.in_sync.joined(2, store.replica.published_end, 0)  # a follower that joins and never acknowledges
            leader.in_sync.acknowledged(2, store.replica.published_end, store.replica.published_end, 0, 0)
            assert leader.in_sync.size == 2
            append(store, "t", 0, build_batch([(b"k", b"v")]))
            end = store.replica.published_end
            timing_out = leader.wait_confirmed(end, 50)
            ending = leader.wait_confirmed(end, 60_000)
            assert timing_out is not None and ending is not None
            assert await asyncio.wait_for(timing_out, WAIT_S) is None  # REQUEST_TIMED_OUT
            assert not ending.done()
            await leader.stop()
            assert ending.result() is False  # the leader stopped first
            assert leader.wait_confirmed(0, 50) is None  # held already: nothing to wait for

    asyncio.run(scenario())
