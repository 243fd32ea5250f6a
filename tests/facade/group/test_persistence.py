"""Groups saved in the store come back after a restart: Stable with their members, or Empty."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rockafka.facade.clock import ManualClock
from rockafka.facade.group import GroupState, LeavingMember, SyncRequest
from rockafka.facade.group.group import ClassicGroup
from rockafka.facade.group.persistence import GroupDocumentError, group_document, load_group
from rockafka.facade.protocol.error_codes import ErrorCode

from .helpers import elapse, join, new_coordinator, open_store, sync

BOTH = (("range", b"\x00\x01r"), ("roundrobin", b"\xffrr"))


def test_a_stable_group_is_loaded_stable_and_its_members_carry_on(tmp_path: Path) -> None:
    async def before() -> tuple[str, str]:
        store = open_store(tmp_path, flush_mode="sync")
        coordinator = new_coordinator(store, initial_rebalance_delay_ms=50)
        coordinator.start()
        a_join = asyncio.ensure_future(join(coordinator, client="a", protocols=BOTH))
        b_join = asyncio.ensure_future(join(coordinator, client="b", instance="static-b", protocols=BOTH))
        a, b = await asyncio.wait_for(asyncio.gather(a_join, b_join), 5)
        leader = a if a.leader_id == a.member_id else b
        assignments = {a.member_id: b"\x00A", b.member_id: b"\x00B"}
        await asyncio.gather(
            sync(coordinator, a, assignments=assignments if leader is a else None),
            sync(coordinator, b, assignments=assignments if leader is b else None, instance="static-b"),
        )
        coordinator.shutdown()
        store.close()  # kill -9 is exercised against a broker process in compat_tests/test_groups_durability.py
        return a.member_id, b.member_id

    a_id, b_id = asyncio.run(before())

    async def after() -> None:
        store = open_store(tmp_path)
        coordinator = new_coordinator(store)
        coordinator.start()
        group = coordinator.groups["g"]
        assert group.state is GroupState.STABLE and group.generation_id == 1 and group.protocol_name == "range"
        assert set(group.members) == {a_id, b_id} and group.static_members == {"static-b": b_id}
        assert group.members[a_id].protocols == BOTH and group.members[a_id].client_id == "a"
        assert coordinator.heartbeat("g", a_id, None, 1) is ErrorCode.NONE
        assert coordinator.heartbeat("g", b_id, "static-b", 1) is ErrorCode.NONE
        stable = await coordinator.sync(SyncRequest("g", 1, a_id, None, None, None, {}))
        assert (stable.error, stable.assignment) == (ErrorCode.NONE, b"\x00A")
        coordinator.shutdown()
        store.close()

    asyncio.run(after())


def test_an_emptied_group_is_loaded_empty_and_members_that_never_return_expire(tmp_path: Path) -> None:
    async def before() -> None:
        store = open_store(tmp_path)
        coordinator = new_coordinator(store)
        coordinator.start()
        first = await join(coordinator, group="empty-later")
        await sync(coordinator, first, group="empty-later", assignments={})
        coordinator.leave("empty-later", [LeavingMember(first.member_id)])
        other = await join(coordinator, group="lost", session_ms=100)
        await sync(coordinator, other, group="lost", assignments={})
        coordinator.shutdown()
        store.close()

    asyncio.run(before())

    async def after() -> None:
        store = open_store(tmp_path)
        clock = ManualClock()
        coordinator = new_coordinator(store, timers=clock)
        coordinator.start()
        assert coordinator.groups["empty-later"].state is GroupState.EMPTY
        assert coordinator.groups["empty-later"].generation_id == 2
        assert coordinator.groups["lost"].state is GroupState.STABLE
        await elapse(clock, 0.09)
        assert coordinator.groups["lost"].members  # its 100 ms session, started at the load, still runs
        await elapse(clock, 0.02)  # its member does not come back within it
        lost = coordinator.groups["lost"]
        assert lost.state is GroupState.EMPTY and lost.generation_id == 2 and not lost.members
        coordinator.shutdown()
        store.close()

    asyncio.run(after())


def test_documents_round_trip_and_damaged_ones_are_refused() -> None:
    group = ClassicGroup("g", 123)
    assert load_group("g", group_document(group)).state is GroupState.EMPTY
    with pytest.raises(GroupDocumentError):
        load_group("g", {"version": 99})
    with pytest.raises(GroupDocumentError):
        load_group("g", {"version": 1, "generation": 1})
