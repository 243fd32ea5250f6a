"""Members whose connection closed while they waited in a JoinGroup or SyncGroup (the server cancels the
waiting future): the coordinator treats them as Kafka does, and nothing raises or is left behind.

Kafka keeps a departed member's JoinGroup as "awaiting join" (its answer goes nowhere), so the rebalance
completes with it; it then never syncs nor heartbeats, and its session expiry removes it, after which
the others rebalance without it. A cancelled SyncGroup is the same: the leader's assignment completes
the generation, and the departed member's session ends it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rockafka.facade.clock import ManualClock
from rockafka.facade.group import GroupCoordinator, GroupState
from rockafka.facade.protocol.error_codes import ErrorCode

from .helpers import elapse, join, join_request, run, settle, sync, sync_request


def collect_loop_errors() -> list[dict[str, Any]]:
    """Every error reported to the running loop's exception handler (an unretrieved exception in a
    callback, an InvalidStateError from answering a cancelled future, ...)."""
    errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    return errors


async def heartbeat_until_not_none(
    coordinator: GroupCoordinator, clock: ManualClock, member_id: str, generation: int
) -> ErrorCode:
    """Heartbeat every 50 ms of the coordinator's clock (bounded: 5 s of it) until the answer is not NONE."""
    for _ in range(100):
        error = coordinator.heartbeat("g", member_id, None, generation)
        if error is not ErrorCode.NONE:
            return error
        await elapse(clock, 0.05)
    return ErrorCode.NONE


def test_a_member_gone_mid_join_is_removed_at_its_session_expiry_and_the_rest_rebalance(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        errors = collect_loop_errors()
        stays = await asyncio.wait_for(join(coordinator, client="stays", session_ms=10_000), 5)
        await sync(coordinator, stays, assignments={stays.member_id: b"all"})
        first = await coordinator.join(join_request(client="leaves", session_ms=300, rebalance_ms=10_000))
        parked = coordinator.join(join_request(member=first.member_id, session_ms=300, rebalance_ms=10_000))
        await settle()
        parked.cancel()  # its connection closed
        await settle()
        group = coordinator.groups["g"]
        assert first.member_id in group.members and group.state is GroupState.PREPARING_REBALANCE
        assert coordinator.heartbeat("g", stays.member_id, None, 1) is ErrorCode.REBALANCE_IN_PROGRESS
        second = await asyncio.wait_for(join(coordinator, member=stays.member_id, session_ms=10_000), 1)
        assert second.generation_id == 2  # at once: the departed member's join still counts, as in Kafka
        assert sorted(m.member_id for m in second.members) == sorted([stays.member_id, first.member_id])
        await sync(coordinator, second, assignments={stays.member_id: b"half", first.member_id: b"half"})
        error = await heartbeat_until_not_none(coordinator, clock, stays.member_id, 2)
        assert error is ErrorCode.REBALANCE_IN_PROGRESS  # the departed member's session expired
        assert first.member_id not in group.members
        third = await asyncio.wait_for(join(coordinator, member=stays.member_id, session_ms=10_000), 1)
        assert third.generation_id == 3 and [m.member_id for m in third.members] == [stays.member_id]
        assert (await sync(coordinator, third, assignments={stays.member_id: b"all"})).error is ErrorCode.NONE
        assert group.state is GroupState.STABLE and group.pending_sync == set()
        assert errors == []

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock)


def test_a_member_gone_mid_sync_does_not_upset_the_leaders_assignment(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        errors = collect_loop_errors()
        a_join = asyncio.ensure_future(join(coordinator, client="a", session_ms=300))
        b_join = asyncio.ensure_future(join(coordinator, client="b", session_ms=300))
        await elapse(clock, 0.1)  # the initial rebalance delay, twice: b arrived during the first
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        leader, follower = (a, b) if a.leader_id == a.member_id else (b, a)
        parked = coordinator.sync(sync_request(follower))
        await settle()
        parked.cancel()  # the follower's connection closed while it waited for the leader's assignment
        assignments = {leader.member_id: b"one", follower.member_id: b"two"}
        led = await asyncio.wait_for(sync(coordinator, leader, assignments=assignments), 1)
        assert led.error is ErrorCode.NONE and led.assignment == b"one"
        group = coordinator.groups["g"]
        assert group.state is GroupState.STABLE and group.members[follower.member_id].sync_waiter is None
        error = await heartbeat_until_not_none(coordinator, clock, leader.member_id, 1)
        assert error is ErrorCode.REBALANCE_IN_PROGRESS and follower.member_id not in group.members
        assert errors == []

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, initial_rebalance_delay_ms=50)


def test_a_departed_members_timers_end_with_it(tmp_path: Path) -> None:
    """A group whose only member left mid-join empties at its session expiry, with no timer left armed."""

    async def scenario(coordinator: GroupCoordinator) -> None:
        errors = collect_loop_errors()
        first = await coordinator.join(join_request(client="leaves", session_ms=200, rebalance_ms=10_000))
        parked = coordinator.join(join_request(member=first.member_id, session_ms=200, rebalance_ms=10_000))
        await settle()
        parked.cancel()
        group = coordinator.groups["g"]
        for _ in range(100):  # bounded: 5 s of the coordinator's clock
            if group.state is GroupState.EMPTY and not group.members:
                break
            await elapse(clock, 0.05)
        assert group.state is GroupState.EMPTY and not group.members and not group.pending_members
        assert (group.join_timer, group.sync_timer) == (None, None)
        assert errors == []

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, initial_rebalance_delay_ms=50)
