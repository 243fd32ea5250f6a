"""The leader and follower in one process (``cluster/replication/leader.py``, ``follower.py``): real stores in
temporary directories, a real socket on 127.0.0.1. A follower copies appends made while it follows; a peer that
sends bytes of no message, or a follower of another segment size, is refused and the leader goes on serving."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import uvloop

from rockafka.cluster.etcd import Etcd
from rockafka.cluster.group_writes import InSyncWriter
from rockafka.cluster.layout import GroupState, KeyLayout, decode_group, encode_group
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.replication import leader as leader_module
from rockafka.cluster.replication.follower import FollowerRefusedError, ReplicationFollower
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.store import MessageStore, OffsetCommit, TopicPartition

from ...store.helpers import append, build_batch, small_config
from .relay import Relay

TOPIC_ID = uuid.UUID(int=0x77)
WAIT_S = 30.0


async def _until(condition: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not condition():  # type: ignore[operator]
        assert loop.time() < deadline, f"not within {WAIT_S}s: {what}"
        await asyncio.sleep(0.02)


async def _streaming(
    leader_store: MessageStore, follower_store: MessageStore
) -> tuple[ReplicationLeader, ReplicationFollower]:
    """A leader over ``leader_store`` with topic ``t`` (one partition), and a follower copying it into
    ``follower_store``."""
    leader_store.topics.create("t", 1, topic_id=TOPIC_ID)
    leader = ReplicationLeader(leader_store, lag_time_ms=10_000)
    await leader.start("127.0.0.1", 0)
    follower = ReplicationFollower(2, "127.0.0.1", leader.port)
    follower_store.replica.follow()
    follower.follow(follower_store, None)
    return leader, follower


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


def test_the_in_sync_set_is_written_to_etcd_and_never_shrinks_here_unless_etcd_did(
    tmp_path: Path, etcd: LocalEtcd, cluster_name: str
) -> None:
    """The leader's hook over a real etcd (``InSyncWriter``): a follower that joins is written, one that leaves is
    written out before the confirm offset moves on without it; once etcd names another leader the write is
    refused, the leader learns it is deposed, and the follower that left keeps holding the confirm offset."""

    async def scenario() -> None:
        layout = KeyLayout(cluster_name)
        connection = await Etcd.connect([etcd.endpoint])
        await connection.swap([], [connection.txn.put(layout.group("g1"), encode_group(GroupState("g1", 1, 0)))])

        async def in_sync() -> tuple[int, ...]:
            entry = await connection.get(layout.group("g1"))
            assert entry is not None
            return decode_group("g1", entry.value).in_sync

        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader_store.topics.create("t", 1, topic_id=TOPIC_ID)
            leader = ReplicationLeader(leader_store, lag_time_ms=10_000)
            leader.record_in_sync = InSyncWriter(connection, layout, "g1", node_id=1, epoch=0)
            await leader.start("127.0.0.1", 0)
            follower_store.replica.follow()
            for round_ in range(2):
                follower = ReplicationFollower(2, "127.0.0.1", leader.port)
                follower.follow(follower_store, None)
                append(leader_store, "t", 0, build_batch([(b"k", b"round %d" % round_)]))
                await _until(lambda: leader.in_sync.size == 2, "the follower joined the in-sync set")
                await _until_async(lambda: in_sync(), (1, 2), "etcd lists the follower")
                if round_ == 0:
                    await follower.stop()
                    await _until(lambda: leader.in_sync.size == 1, "the stopped follower left the set")
                    assert await in_sync() == (1,)  # etcd first
            elected = GroupState("g1", 2, 1)  # an election while the follower is in sync
            await connection.swap([], [connection.txn.put(layout.group("g1"), encode_group(elected))])
            await follower.stop()
            append(leader_store, "t", 0, build_batch([(b"k", b"after the election")]))
            await _until(lambda: leader.deposed, "the leader learned it is deposed")
            assert leader.in_sync.size == 2  # the follower etcd listed at this epoch still holds it back
            assert leader.in_sync.confirm_offset < leader_store.replica.published_end
            assert await in_sync() == (2,)
            await leader.stop()
        await connection.close()

    asyncio.run(scenario())


async def _until_async(read: Callable[[], Awaitable[object]], wanted: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while (found := await read()) != wanted:
        assert loop.time() < deadline, f"not within {WAIT_S}s: {what} (found {found})"
        await asyncio.sleep(0.05)


def test_a_follower_takes_the_leaders_internal_topic_ids_and_a_promoted_one_replays_them(tmp_path: Path) -> None:
    """Committed offsets ride the stream: the follower's own ``__consumer_offsets`` (another id) is replaced by the
    leader's, the copied records are dispatched, and once promoted (``lead()``) it replays them and appends."""
    partition = TopicPartition("t", 0)

    async def scenario() -> None:
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader_store.topics.create("t", 1, topic_id=TOPIC_ID)
            follower_store.group_partitions.create_topic()  # its own id, as a group coordinator starting makes it
            leader_store.offsets.commit("g1", [OffsetCommit("t", 0, 42)])
            leader = ReplicationLeader(leader_store, lag_time_ms=10_000)
            await leader.start("127.0.0.1", 0)
            follower = ReplicationFollower(2, "127.0.0.1", leader.port)
            follower_store.replica.follow()
            follower.follow(follower_store, None)
            end = leader_store.replica.published_end
            await _until(lambda: follower_store.replica.end == end, "the follower holds the commit")
            assert {t.name: t.topic_id for t in follower_store.replica.internal_topics()} == {
                t.name: t.topic_id for t in leader_store.replica.internal_topics()
            }
            follower.cancel()
            await follower.stop()
            await leader.stop()
            assert follower_store.replica.following
            follower_store.replica.lead()
            assert not follower_store.replica.following
            offsets = follower_store.group_partitions
            offsets.load(offsets.partition_of("g1"))
            assert follower_store.offsets.fetch("g1")[partition].offset == 42
            follower_store.offsets.commit("g1", [OffsetCommit("t", 0, 43)])  # a leader's own append again
            assert follower_store.offsets.fetch("g1")[partition].offset == 43

    asyncio.run(scenario())


def test_a_topic_created_on_the_leader_reaches_a_caught_up_follower_without_an_append(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parked stream is woken by the leader's topic table changing, not only by appends: with heartbeats an hour
    apart, a topic created, grown and deleted on the leader reaches the follower (the upstream suites create a
    topic on the leader and describe it on a follower at once)."""
    monkeypatch.setattr(leader_module, "HEARTBEAT_S", 3600.0)

    async def scenario() -> None:
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader, follower = await _streaming(leader_store, follower_store)

            def partitions_there() -> dict[str, int]:
                return {topic.name: topic.partitions for topic in follower_store.topics.list()}

            await _until(lambda: partitions_there() == {"t": 1}, "the follower holds the first topic")
            leader_store.topics.create("created-later", 2)
            await _until(lambda: partitions_there() == {"t": 1, "created-later": 2}, "the new topic is there")
            leader_store.topics.create_partitions("created-later", 3)
            await _until(lambda: partitions_there() == {"t": 1, "created-later": 3}, "the grown topic is there")
            leader_store.topics.delete("t")
            await _until(lambda: partitions_there() == {"created-later": 3}, "the deleted topic is gone")
            follower.cancel()
            await follower.stop()
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


def test_a_follower_whose_leader_goes_silent_reconnects_after_its_silence_limit(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The leader sends a frame every half second even with nothing new: a stream silent past ``silence_ms`` is a
    leader gone without closing, and the follower connects again (one WARNING line)."""

    async def scenario() -> None:
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader = ReplicationLeader(leader_store, lag_time_ms=60_000)
            await leader.start("127.0.0.1", 0)
            relay = Relay(leader.port)
            follower = ReplicationFollower(2, "127.0.0.1", await relay.start(), silence_ms=1500)
            follower_store.replica.follow()
            follower.follow(follower_store, None)
            try:
                await _until(lambda: leader.in_sync.size == 2, "the follower joined the in-sync set")
                relay.muted = True
                await _until(lambda: relay.connections == 2, "the follower connected again")
            finally:
                await follower.stop()
                await relay.stop()
                await leader.stop()

    with caplog.at_level("WARNING", logger="rockafka.cluster.replication.follower"):
        asyncio.run(scenario())
    assert "nothing from the leader for 1500 ms; retrying" in caplog.text


def test_a_write_to_a_follower_gone_is_an_eof_not_uvloops_runtime_error() -> None:
    """uvloop (the broker's loop) raises RuntimeError for a write to a closed transport; the leader's stream takes
    it for the follower gone (EOFError: one WARNING line, ``_serve``), not a traceback."""

    async def scenario() -> None:
        closed = asyncio.Event()

        async def serve(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.transport.abort()  # the follower's connection, gone
            await _until(lambda: writer.transport.is_closing(), "the transport closed")
            await asyncio.sleep(0.05)  # connection_lost has run: uvloop's handler is closed
            with pytest.raises(RuntimeError):
                writer.write(b"x")
            with pytest.raises(EOFError, match="the follower's connection closed"):
                leader_module._send(writer, b"header", b"chunk")
            closed.set()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        _, writer = await asyncio.open_connection("127.0.0.1", server.sockets[0].getsockname()[1])
        await asyncio.wait_for(closed.wait(), WAIT_S)
        writer.close()
        server.close()

    asyncio.Runner(loop_factory=uvloop.new_event_loop).run(scenario())


def test_a_leader_stops_even_when_its_in_sync_hook_swallows_the_cancel(tmp_path: Path) -> None:
    """A demoted leader's ``stop`` once waited for ever on its in-sync-set task: the etcd write it was in returned
    normally although cancelled (``grpc.aio`` ends a call whose answer is in as the cancel lands with that answer),
    so the cancel was lost, and the broker never followed its new leader (seed 21 of the fault suite)."""

    async def scenario() -> None:
        with MessageStore.open(small_config(tmp_path / "leader")) as store:
            writing = asyncio.Event()

            async def answered_anyway() -> None:
                writing.set()
                with contextlib.suppress(asyncio.CancelledError):  # what grpc.aio's call task does
                    await asyncio.sleep(WAIT_S)

            async def record(followers: frozenset[int]) -> None:
                await asyncio.get_running_loop().create_task(answered_anyway())

            leader = ReplicationLeader(store, lag_time_ms=60_000)
            leader.keep_in_etcd(record)
            await leader.start("127.0.0.1", 0)
            await asyncio.wait_for(writing.wait(), WAIT_S)
            stopping = asyncio.create_task(leader.stop())  # not wait_for: stop() swallows its cancel, returning
            await asyncio.wait({stopping}, timeout=WAIT_S)
            assert stopping.done(), f"the leader did not stop within {WAIT_S}s: its in-sync-set task loops on"

    asyncio.run(scenario())


def test_a_leader_stopped_while_a_follower_streams_logs_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Python 3.11's ``asyncio.start_server`` asks a finished connection task for its exception, and a cancelled
    one raises there, logged by asyncio as an ERROR with a traceback: a leader stopping (demoted, or the broker
    shutting down) while a follower streams ended each stream that way, in the fault suite's broker logs."""

    async def scenario() -> None:
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader, follower = await _streaming(leader_store, follower_store)
            append(leader_store, "t", 0, build_batch([(b"k", b"v")]))
            end = leader_store.replica.published_end
            await _until(lambda: follower_store.replica.end == end, "the follower holds the append")
            await leader.stop()
            await asyncio.sleep(0.2)  # the server's done-callbacks of the ended streams run
            await follower.stop()

    with caplog.at_level("ERROR"):
        asyncio.Runner(loop_factory=uvloop.new_event_loop).run(scenario())
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
