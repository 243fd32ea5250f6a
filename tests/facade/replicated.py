"""Building blocks for tests of a coordinator on a replicated leader (``CoordinatorWrites``): a leader and a
follower store joined through a relay, what the coordinator reads of a broker, and a bounded wait on the loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from rockafka.cluster.replication.follower import ReplicationFollower
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.facade.replication import Replication
from rockafka.store import MessageStore

from ..cluster.replication.relay import Relay

R = TypeVar("R", bound=Relay)

WAIT_S = 30.0


@dataclass
class BrokerHolder:
    """What ``CoordinatorWrites`` reads of a broker: its replication role and its store."""

    replication: Replication | None
    store: MessageStore


async def until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` on the running loop for at most ``WAIT_S``; fail naming ``what`` if it never held."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not condition():
        assert loop.time() < deadline, f"not within {WAIT_S}s: {what}"
        await asyncio.sleep(0.02)


async def replicate(
    leader_store: MessageStore, follower_store: MessageStore, relay_type: Callable[[int], R]
) -> tuple[ReplicationLeader, R, ReplicationFollower]:
    """A ``ReplicationLeader`` of ``leader_store`` on 127.0.0.1 (a follower leaves its in-sync set only after a
    minute of lag) and a follower (node 2) copying into ``follower_store`` through a relay of ``relay_type``."""
    leader = ReplicationLeader(leader_store, lag_time_ms=60_000)
    await leader.start("127.0.0.1", 0)
    relay = relay_type(leader.port)
    follower = ReplicationFollower(2, "127.0.0.1", await relay.start())
    follower_store.replica.follow()
    follower.follow(follower_store, None)
    return leader, relay, follower
