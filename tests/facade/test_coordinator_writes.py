"""``CoordinatorWrites`` (``facade/replication.py``): a coordinator's write on a replicated leader is done once every
in-sync member holds it, else fails with the coordinator's error, as Kafka's GroupMetadataManager and
TransactionStateManager answer. A real leader and follower store, a real ``ReplicationLeader`` on 127.0.0.1, the
follower connected through a relay that can stop passing the leader's bytes (the follower stays in the in-sync set
and copies nothing)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable
from pathlib import Path

import pytest

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.replication import CoordinatorWrites, Replication, UnconfirmedWrite, as_written, write_error
from rockafka.store import MessageStore

from ..cluster.replication.relay import Relay
from ..store.helpers import append, build_batch, small_config
from .replicated import BrokerHolder, replicate, until


async def _failure(write: Awaitable[None]) -> ErrorCode:
    with pytest.raises(UnconfirmedWrite) as failed:
        await write
    return write_error(failed.value, ErrorCode.UNKNOWN_SERVER_ERROR)


def test_writes_wait_for_the_in_sync_members_and_fail_as_kafka_coordinators_answer(tmp_path: Path) -> None:
    async def scenario() -> None:
        with (
            MessageStore.open(small_config(tmp_path / "leader")) as leader_store,
            MessageStore.open(small_config(tmp_path / "follower")) as follower_store,
        ):
            leader_store.topics.create("t", 1, topic_id=uuid.UUID(int=0x78))
            single = CoordinatorWrites(BrokerHolder(None, leader_store))  # type: ignore[arg-type]
            assert single.confirmed(None) is None and as_written(None) is None  # a single broker: nothing added

            leader, relay, follower = await replicate(leader_store, follower_store, Relay)
            writes = CoordinatorWrites(BrokerHolder(Replication(leader=leader), leader_store), timeout_ms=300)  # type: ignore[arg-type]
            try:
                await until(lambda: leader.in_sync.size == 2, "the follower joined the in-sync set")
                append(leader_store, "t", 0, build_batch([(b"k", b"held by both")]))
                held = writes.confirmed(None)
                assert held is not None
                await asyncio.wrap_future(held)
                assert follower_store.replica.end == leader_store.replica.published_end
                holder = BrokerHolder(Replication(leader=leader), leader_store)
                two = CoordinatorWrites(holder, timeout_ms=300, min_insync=2)  # type: ignore[arg-type]
                three = CoordinatorWrites(holder, timeout_ms=300, min_insync=3)  # type: ignore[arg-type]
                append(leader_store, "t", 0, build_batch([(b"k", b"two members in sync")]))
                enough, too_few = two.confirmed(None), three.confirmed(None)
                assert enough is not None and too_few is not None
                await asyncio.wrap_future(enough)  # transaction.state.log.min.isr=2: both members hold it
                assert await _failure(asyncio.wrap_future(too_few)) == ErrorCode.COORDINATOR_NOT_AVAILABLE

                relay.muted = True  # the follower stays in the set and copies nothing more
                append(leader_store, "t", 0, build_batch([(b"k", b"on the leader alone")]))
                timed_out = writes.confirmed(None)
                assert timed_out is not None
                assert await _failure(asyncio.wrap_future(timed_out)) == ErrorCode.COORDINATOR_NOT_AVAILABLE

                writes.timeout_ms = 60_000
                append(leader_store, "t", 0, build_batch([(b"k", b"until the leader stops")]))
                waiting = writes.confirmed(None)
                assert waiting is not None
                await leader.stop()  # demoted: its waits end unconfirmed
                assert await _failure(asyncio.wrap_future(waiting)) == ErrorCode.NOT_COORDINATOR
            finally:
                await follower.stop()
                await relay.stop()
                await leader.stop()

    asyncio.run(scenario())
