"""The coordinator's JoinGroup/SyncGroup/Heartbeat/LeaveGroup flows on a real event loop and store.

Timeouts are short (tens to hundreds of milliseconds) and every wait is bounded.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from rockafka.facade.clock import ManualClock
from rockafka.facade.group import GroupCoordinator, GroupState, LeavingMember
from rockafka.facade.protocol.error_codes import ErrorCode

from .helpers import elapse, join, join_request, run, settle, sync

BOTH = (("range", b"r"), ("roundrobin", b"rr"))


def test_an_unknown_member_gets_member_id_required_then_joins_and_leads(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = await coordinator.join(join_request(client="app"))
        assert first.error is ErrorCode.MEMBER_ID_REQUIRED and first.member_id.startswith("app-")
        joined = await coordinator.join(join_request(member=first.member_id))
        assert joined.error is ErrorCode.NONE
        assert (joined.generation_id, joined.leader_id, joined.member_id) == (1, first.member_id, first.member_id)
        assert (joined.protocol_type, joined.protocol_name) == ("consumer", "range")
        assert [(m.member_id, m.metadata) for m in joined.members] == [(first.member_id, b"range-subscription")]
        assigned = await sync(coordinator, joined, assignments={first.member_id: b"all"})
        assert (assigned.error, assigned.assignment) == (ErrorCode.NONE, b"all")
        assert coordinator.groups["g"].state is GroupState.STABLE

    run(tmp_path, scenario)


def test_before_v4_an_unknown_member_joins_at_once(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        joined = await coordinator.join(join_request(known=False))
        assert joined.error is ErrorCode.NONE and joined.generation_id == 1 and joined.member_id

    run(tmp_path, scenario)


def test_requests_outside_the_rules_are_refused(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        assert (await coordinator.join(join_request(session_ms=5))).error is ErrorCode.INVALID_SESSION_TIMEOUT
        assert (await coordinator.join(join_request(session_ms=70_000))).error is ErrorCode.INVALID_SESSION_TIMEOUT
        assert (await coordinator.join(join_request(group=""))).error is ErrorCode.INVALID_GROUP_ID
        assert (await coordinator.join(join_request(member="ghost"))).error is ErrorCode.UNKNOWN_MEMBER_ID
        leader = await join(coordinator)
        other_type = await coordinator.join(join_request(protocol_type="connect"))
        assert other_type.error is ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        other_protocol = await coordinator.join(join_request(protocols=(("sticky", b""),)))
        assert other_protocol.error is ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        assert coordinator.heartbeat("g", "ghost", None, 1) is ErrorCode.UNKNOWN_MEMBER_ID
        assert coordinator.heartbeat("nope", "ghost", None, 1) is ErrorCode.UNKNOWN_MEMBER_ID
        assert coordinator.heartbeat("g", leader.member_id, None, 7) is ErrorCode.ILLEGAL_GENERATION
        stale = await sync(coordinator, leader, assignments={})
        assert stale.error is ErrorCode.NONE  # the leader's sync completes the generation
        assert coordinator.heartbeat("g", leader.member_id, None, 1) is ErrorCode.NONE

    run(tmp_path, scenario)


def test_two_members_share_a_generation_and_the_followers_wait_for_the_leaders_assignment(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, protocols=BOTH, client="a"))
        b_join = asyncio.ensure_future(join(coordinator, protocols=(("roundrobin", b"b-rr"),), client="b"))
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        assert a.generation_id == b.generation_id == 1 and a.protocol_name == b.protocol_name == "roundrobin"
        leader, follower = (a, b) if a.leader_id == a.member_id else (b, a)
        assert {m.member_id for m in leader.members} == {a.member_id, b.member_id} and follower.members == ()
        assert dict((m.member_id, m.metadata) for m in leader.members)[b.member_id] == b"b-rr"
        follower_sync = asyncio.ensure_future(sync(coordinator, follower))
        await settle()
        assert not follower_sync.done()  # waits for the leader
        assignments = {leader.member_id: b"p0", follower.member_id: b"p1"}
        assert (await sync(coordinator, leader, assignments=assignments)).assignment == b"p0"
        assert (await asyncio.wait_for(follower_sync, 5)).assignment == b"p1"

    run(tmp_path, scenario, initial_rebalance_delay_ms=100)


def test_a_new_member_makes_the_group_rebalance_and_existing_members_learn_by_heartbeat(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = await join(coordinator)
        await sync(coordinator, first, assignments={first.member_id: b"everything"})
        second_join = asyncio.ensure_future(join(coordinator, client="second"))
        await settle()
        assert coordinator.groups["g"].state is GroupState.PREPARING_REBALANCE
        assert coordinator.heartbeat("g", first.member_id, None, 1) is ErrorCode.REBALANCE_IN_PROGRESS
        assert (await sync(coordinator, first)).error is ErrorCode.REBALANCE_IN_PROGRESS
        rejoined = await join(coordinator, member=first.member_id)
        second = await asyncio.wait_for(second_join, 5)
        assert rejoined.generation_id == second.generation_id == 2
        assert rejoined.leader_id == first.member_id and len(rejoined.members) == 2

    run(tmp_path, scenario)


def test_leaving_rebalances_the_rest_and_the_last_leave_empties_the_group(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, client="a"))
        b_join = asyncio.ensure_future(join(coordinator, client="b"))
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        leader = a if a.leader_id == a.member_id else b
        other = b if leader is a else a
        await asyncio.gather(sync(coordinator, other), sync(coordinator, leader, assignments={}))
        result = coordinator.leave("g", [LeavingMember(leader.member_id, reason="bye")])
        assert result.error is ErrorCode.NONE and result.members == ((leader.member_id, None, ErrorCode.NONE),)
        assert coordinator.heartbeat("g", other.member_id, None, 1) is ErrorCode.REBALANCE_IN_PROGRESS
        alone = await join(coordinator, member=other.member_id)
        assert (alone.generation_id, alone.leader_id) == (2, other.member_id)
        await sync(coordinator, alone, assignments={})
        again = coordinator.leave("g", [LeavingMember(other.member_id), LeavingMember("ghost")])
        assert [error for _, _, error in again.members] == [ErrorCode.NONE, ErrorCode.UNKNOWN_MEMBER_ID]
        group = coordinator.groups["g"]
        assert group.state is GroupState.EMPTY and group.generation_id == 3 and not group.members
        missing = coordinator.leave("other-group", [LeavingMember("x")])
        assert missing.error is ErrorCode.NONE and missing.members[0][2] is ErrorCode.UNKNOWN_MEMBER_ID

    run(tmp_path, scenario)


def test_a_member_that_stops_heartbeating_is_removed_after_its_session_timeout(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, client="a", session_ms=300))
        b_join = asyncio.ensure_future(join(coordinator, client="b", session_ms=300))
        await elapse(clock, 0.1)  # the initial rebalance delay, twice: b arrived during the first
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        await asyncio.gather(sync(coordinator, a, assignments={}), sync(coordinator, b, assignments={}))
        await elapse(clock, 0.2)  # a heartbeats, b does not
        assert coordinator.heartbeat("g", a.member_id, None, 1) is ErrorCode.NONE  # b's 300 ms have not run out
        await elapse(clock, 0.2)
        assert coordinator.heartbeat("g", a.member_id, None, 1) is ErrorCode.REBALANCE_IN_PROGRESS
        assert b.member_id not in coordinator.groups["g"].members
        assert coordinator.heartbeat("g", b.member_id, None, 1) is ErrorCode.UNKNOWN_MEMBER_ID

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, initial_rebalance_delay_ms=50)


def test_members_that_do_not_rejoin_within_the_rebalance_timeout_are_dropped(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, client="a", rebalance_ms=200))
        b_join = asyncio.ensure_future(join(coordinator, client="b", rebalance_ms=200))
        await elapse(clock, 0.1)  # the initial rebalance delay, twice: b arrived during the first
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        await asyncio.gather(sync(coordinator, a, assignments={}), sync(coordinator, b, assignments={}))
        rejoining = asyncio.ensure_future(join(coordinator, member=a.member_id, rebalance_ms=200))
        await elapse(clock, 0.15)
        assert not rejoining.done()  # waits for b until the rebalance timeout
        await elapse(clock, 0.05)
        rejoined = await asyncio.wait_for(rejoining, 5)
        assert rejoined.generation_id == 2 and [m.member_id for m in rejoined.members] == [a.member_id]

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, initial_rebalance_delay_ms=50)


def test_a_member_that_never_syncs_is_dropped_after_the_rebalance_timeout(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, client="a", rebalance_ms=200))
        b_join = asyncio.ensure_future(join(coordinator, client="b", rebalance_ms=200))
        await elapse(clock, 0.1)  # the initial rebalance delay, twice: b arrived during the first
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        leader, silent = (a, b) if a.leader_id == a.member_id else (b, a)
        await sync(coordinator, leader, assignments={})
        await elapse(clock, 0.15)
        assert silent.member_id in coordinator.groups["g"].members  # within the rebalance timeout
        await elapse(clock, 0.1)
        assert silent.member_id not in coordinator.groups["g"].members
        assert coordinator.heartbeat("g", leader.member_id, None, 1) is ErrorCode.REBALANCE_IN_PROGRESS

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, initial_rebalance_delay_ms=50)


def test_the_initial_delay_gathers_members_that_arrive_one_after_another(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = asyncio.ensure_future(join(coordinator, client="a"))
        await elapse(clock, 0.1)
        second = asyncio.ensure_future(join(coordinator, client="b"))
        await elapse(clock, 0.1)
        third = asyncio.ensure_future(join(coordinator, client="c"))
        await elapse(clock, 0.1)
        assert not first.done()  # each newcomer made the delay wait once more
        await elapse(clock, 0.5)
        results = await asyncio.wait_for(asyncio.gather(first, second, third), 5)
        assert {r.generation_id for r in results} == {1}
        assert len(next(r for r in results if r.members).members) == 3

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, initial_rebalance_delay_ms=150)


def test_group_max_size_refuses_members_beyond_it(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, client="a"))
        b_join = asyncio.ensure_future(join(coordinator, client="b"))
        c_join = asyncio.ensure_future(join(coordinator, client="c"))
        results = await asyncio.wait_for(asyncio.gather(a_join, b_join, c_join), 5)
        errors = sorted(r.error.value for r in results)
        assert errors == [0, 0, ErrorCode.GROUP_MAX_SIZE_REACHED.value]
        assert len(coordinator.groups["g"].members) == 2

    run(tmp_path, scenario, initial_rebalance_delay_ms=100, max_group_size=2)


def test_an_unanswered_member_id_is_forgotten_after_the_session_timeout(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = await coordinator.join(join_request(session_ms=100))
        assert first.error is ErrorCode.MEMBER_ID_REQUIRED
        assert first.member_id in coordinator.groups["g"].pending_members
        await elapse(clock, 0.1)
        assert "g" not in coordinator.groups  # nothing else referred to the group
        late = await coordinator.join(join_request(member=first.member_id, session_ms=100))
        assert late.error is ErrorCode.UNKNOWN_MEMBER_ID

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock)


def test_a_restarted_static_member_gets_its_assignment_back_without_a_rebalance(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, instance="i-a", client="a"))
        b_join = asyncio.ensure_future(join(coordinator, instance="i-b", client="b"))
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        assert a.error is b.error is ErrorCode.NONE  # static members get no MEMBER_ID_REQUIRED
        assignments = {a.member_id: b"A", b.member_id: b"B"}
        leader = a if a.leader_id == a.member_id else b
        follower = b if leader is a else a
        await asyncio.gather(
            sync(coordinator, follower, instance="i-b" if follower is b else "i-a"),
            sync(coordinator, leader, assignments=assignments, instance="i-a" if leader is a else "i-b"),
        )
        # the leader restarts: a new JoinGroup with no member id and the same instance id
        back = await asyncio.wait_for(coordinator.join(join_request(instance="i-a" if leader is a else "i-b")), 5)
        assert back.error is ErrorCode.NONE and back.generation_id == 1 and back.member_id != leader.member_id
        assert back.leader_id == leader.member_id and back.members == ()  # the old id: it must not assign again
        group = coordinator.groups["g"]
        assert group.state is GroupState.STABLE and group.generation_id == 1
        instance = "i-a" if leader is a else "i-b"
        again = await sync(coordinator, back, instance=instance)
        assert again.assignment == assignments[leader.member_id]
        fenced = coordinator.heartbeat("g", leader.member_id, instance, 1)
        assert fenced is ErrorCode.FENCED_INSTANCE_ID
        assert coordinator.heartbeat("g", follower.member_id, None, 1) is ErrorCode.NONE

    run(tmp_path, scenario, initial_rebalance_delay_ms=100)


def test_a_static_leader_rejoining_with_v9_is_told_to_skip_the_assignment(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = await join(coordinator, instance="i-1", skip=True)
        await sync(coordinator, first, assignments={first.member_id: b"X"}, instance="i-1")
        back = await coordinator.join(join_request(instance="i-1", skip=True))
        assert back.skip_assignment and back.leader_id == back.member_id and len(back.members) == 1
        assert (await sync(coordinator, back, instance="i-1")).assignment == b"X"

    run(tmp_path, scenario)


def test_a_duplicate_static_instance_fences_the_older_one_waiting_in_a_join(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, instance="same", rebalance_ms=300))
        d_join = asyncio.ensure_future(join(coordinator, client="d", rebalance_ms=300))
        a, d = await asyncio.wait_for(asyncio.gather(a_join, d_join), 5)
        await asyncio.gather(sync(coordinator, a, instance="same"), sync(coordinator, d, assignments={}))
        newcomer = asyncio.ensure_future(join(coordinator, client="n", rebalance_ms=300))  # starts a rebalance
        await settle()
        waiting = asyncio.ensure_future(coordinator.join(join_request(member=a.member_id, instance="same")))
        await settle()
        duplicate = asyncio.ensure_future(coordinator.join(join_request(instance="same")))
        assert (await asyncio.wait_for(waiting, 5)).error is ErrorCode.FENCED_INSTANCE_ID
        replaced, new = await asyncio.wait_for(asyncio.gather(duplicate, newcomer), 5)
        assert replaced.error is new.error is ErrorCode.NONE and replaced.generation_id == new.generation_id == 2
        assert set(coordinator.groups["g"].members) == {replaced.member_id, new.member_id}  # d did not rejoin

    run(tmp_path, scenario, initial_rebalance_delay_ms=50)


def test_shutdown_answers_waiting_members_not_coordinator(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = await join(coordinator)
        await sync(coordinator, first, assignments={})
        waiting = asyncio.ensure_future(join(coordinator, client="late"))  # waits for first to rejoin
        await settle()
        assert not waiting.done()
        coordinator.shutdown()
        assert (await waiting).error is ErrorCode.NOT_COORDINATOR
        assert coordinator.heartbeat("g", first.member_id, None, 1) is ErrorCode.COORDINATOR_NOT_AVAILABLE

    run(tmp_path, scenario)


def test_a_join_abandoned_by_a_closed_connection_still_counts_as_rejoined(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        a_join = asyncio.ensure_future(join(coordinator, client="a", rebalance_ms=5_000))
        b_join = asyncio.ensure_future(join(coordinator, client="b", rebalance_ms=5_000))
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        await asyncio.gather(sync(coordinator, a, assignments={}), sync(coordinator, b, assignments={}))
        changed = (("range", b"new subscription"),)
        abandoned = asyncio.ensure_future(coordinator.join(join_request(member=b.member_id, protocols=changed)))
        await settle()
        abandoned.cancel()  # b's connection closed while it waited; Kafka still counts b as rejoined
        rejoined = await asyncio.wait_for(join(coordinator, member=a.member_id, rebalance_ms=5_000), 1)
        assert rejoined.generation_id == 2 and len(coordinator.groups["g"].members) == 2
        assert coordinator.groups["g"].state is GroupState.COMPLETING_REBALANCE

    run(tmp_path, scenario, initial_rebalance_delay_ms=50)


def test_a_full_group_still_takes_back_its_static_members(tmp_path: Path) -> None:
    async def scenario(coordinator: GroupCoordinator) -> None:
        first = await join(coordinator, instance="only")
        await sync(coordinator, first, assignments={first.member_id: b"mine"}, instance="only")
        assert (await join(coordinator, client="extra")).error is ErrorCode.GROUP_MAX_SIZE_REACHED
        back = await coordinator.join(join_request(instance="only"))
        assert back.error is ErrorCode.NONE and back.generation_id == 1
        assert (await sync(coordinator, back, instance="only")).assignment == b"mine"

    run(tmp_path, scenario, max_group_size=1)
