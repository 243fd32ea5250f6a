"""Offsets and administration through the group service: commits, fetches, deletes, listing, retention."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from rockafka.facade.clock import REAL_CLOCK, ManualClock
from rockafka.facade.config import load_broker_config
from rockafka.facade.group import (
    CommitRequest,
    GroupService,
    GroupState,
    LeavingMember,
)
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from rockafka.store import OffsetCommit, TopicPartition

from .helpers import elapse, join, open_store, sync

T = TypeVar("T")
SIMPLE = CommitRequest("g", -1, "", None)
TP0, TP1 = TopicPartition("t", 0), TopicPartition("t", 1)


def run(
    root: Path, scenario: Callable[[GroupService], Awaitable[T]], *, flush: str = "async",
    clock: ManualClock | None = None, **settings: str,
) -> T:  # fmt: skip
    """``scenario`` against a started service over a fresh store; with ``clock``, both run on it."""
    overrides = [
        f"log.dirs={root}",
        "group.initial.rebalance.delay.ms=0",
        "group.min.session.timeout.ms=10",
        *(f"{key}={value}" for key, value in settings.items()),
    ]
    config = load_broker_config(overrides=overrides)

    async def main() -> T:
        timers = clock or REAL_CLOCK
        store = open_store(root / "store", flush_mode=flush, clock=timers)
        store.topics.create("t", 2)
        store.topics.create("other", 1)
        service = GroupService(config, store, timers=timers)
        service.start()
        try:
            return await scenario(service)
        finally:
            service.shutdown()
            store.close()

    return asyncio.run(main())


def subscription(*topics: str) -> bytes:
    return b"\x00\x00" + ConsumerProtocolSubscription(topics=list(topics)).encode(0)


def test_simple_commits_round_trip_metadata_and_leader_epoch(tmp_path: Path) -> None:
    async def scenario(service: GroupService) -> None:
        commits = [OffsetCommit("t", 0, 42, 7, "meta ✓"), OffsetCommit("t", 1, 5, None, "")]
        assert await service.offsets.commit(SIMPLE, commits) == {TP0: ErrorCode.NONE, TP1: ErrorCode.NONE}
        error, fetched = service.offsets.fetch("g", [TP0, TP1, TopicPartition("other", 0)], require_stable=True)
        assert error is ErrorCode.NONE
        assert [(f.offset, f.leader_epoch, f.metadata, f.error) for f in fetched] == [
            (42, 7, "meta ✓", ErrorCode.NONE),
            (5, -1, "", ErrorCode.NONE),
            (-1, -1, "", ErrorCode.NONE),
        ]
        _, everything = service.offsets.fetch("g", None, require_stable=False)
        assert [(f.topic, f.partition) for f in everything] == [("t", 0), ("t", 1)]
        assert [(g.group_id, g.state, g.protocol_type) for g in service.list_groups()] == [("g", "Empty", "")]

    run(tmp_path, scenario)


def test_commit_errors_follow_kafkas_checks(tmp_path: Path) -> None:
    async def scenario(service: GroupService) -> None:
        offsets = service.offsets
        unknown_topic = await offsets.commit(SIMPLE, [OffsetCommit("missing", 0, 1)])
        assert unknown_topic == {TopicPartition("missing", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}
        too_long = await offsets.commit(SIMPLE, [OffsetCommit("t", 0, 1, None, "é" * 51)])  # 102 bytes
        assert too_long == {TP0: ErrorCode.OFFSET_METADATA_TOO_LARGE}
        assert (await offsets.commit(SIMPLE, [OffsetCommit("t", 0, 1, None, "é" * 50)]))[TP0] is ErrorCode.NONE
        no_group = CommitRequest("nobody", 3, "m", None)
        assert (await offsets.commit(no_group, [OffsetCommit("t", 0, 1)]))[TP0] is ErrorCode.ILLEGAL_GENERATION
        v9 = CommitRequest("nobody", 3, "m", None, group_not_found_error=True)
        assert (await offsets.commit(v9, [OffsetCommit("t", 0, 1)]))[TP0] is ErrorCode.GROUP_ID_NOT_FOUND
        member = await join(service.coordinator)
        # CompletingRebalance until the leader syncs
        in_rebalance = CommitRequest("g", 1, member.member_id, None)
        assert (await offsets.commit(in_rebalance, [OffsetCommit("t", 0, 1)]))[TP0] is ErrorCode.REBALANCE_IN_PROGRESS
        await sync(service.coordinator, member, assignments={})
        assert (await offsets.commit(in_rebalance, [OffsetCommit("t", 0, 9)]))[TP0] is ErrorCode.NONE
        stale = CommitRequest("g", 0, member.member_id, None)
        assert (await offsets.commit(stale, [OffsetCommit("t", 0, 1)]))[TP0] is ErrorCode.ILLEGAL_GENERATION
        stranger = CommitRequest("g", 1, "stranger", None)
        assert (await offsets.commit(stranger, [OffsetCommit("t", 0, 1)]))[TP0] is ErrorCode.UNKNOWN_MEMBER_ID
        memberless = await offsets.commit(SIMPLE, [OffsetCommit("t", 0, 1)])  # the group has members now
        assert memberless[TP0] is ErrorCode.UNKNOWN_MEMBER_ID
        assert service.offsets.fetch("g", [TP0], False)[1][0].offset == 9

    run(tmp_path, scenario, **{"offset.metadata.max.bytes": "100"})


def test_a_commit_not_yet_durable_is_unstable_to_require_stable_and_unseen_by_the_others(tmp_path: Path) -> None:
    """As Kafka's cache holds a commit back until its append is replicated: an OffsetFetch never answers an offset
    that a crash (or, on a replicated leader, a failover) could take back."""

    async def scenario(service: GroupService) -> None:
        pending = service.offsets.commit(SIMPLE, [OffsetCommit("t", 0, 3)])
        _, unstable = service.offsets.fetch("g", [TP0], require_stable=True)
        assert unstable[0].error is ErrorCode.UNSTABLE_OFFSET_COMMIT and unstable[0].offset == -1
        _, before = service.offsets.fetch("g", [TP0], require_stable=False)
        assert (before[0].error, before[0].offset) == (ErrorCode.NONE, -1)  # nothing was committed before
        assert await pending == {TP0: ErrorCode.NONE}
        _, stable = service.offsets.fetch("g", [TP0], require_stable=True)
        assert (stable[0].error, stable[0].offset) == (ErrorCode.NONE, 3)

        first = service.offsets.commit(SIMPLE, [OffsetCommit("t", 0, 5)])
        second = service.offsets.commit(SIMPLE, [OffsetCommit("t", 0, 7), OffsetCommit("t", 1, 1)])
        _, meanwhile = service.offsets.fetch("g", None, require_stable=False)
        assert [(f.partition, f.offset) for f in meanwhile] == [(0, 3)]  # the last durable ones
        assert await first == {TP0: ErrorCode.NONE} and await second == {TP0: ErrorCode.NONE, TP1: ErrorCode.NONE}
        _, after = service.offsets.fetch("g", None, require_stable=False)
        assert [(f.partition, f.offset) for f in after] == [(0, 7), (1, 1)]

    run(tmp_path, scenario, flush="sync")


def test_offset_delete_keeps_subscribed_topics_of_a_group_with_members(tmp_path: Path) -> None:
    async def scenario(service: GroupService) -> None:
        offsets = service.offsets
        assert offsets.delete("g", [TP0]) == (ErrorCode.GROUP_ID_NOT_FOUND, {})
        await offsets.commit(SIMPLE, [OffsetCommit("t", 0, 1), OffsetCommit("other", 0, 2)])
        member = await join(service.coordinator, protocols=(("range", subscription("t")),))
        await sync(service.coordinator, member, assignments={})
        error, errors = offsets.delete("g", [TP0, TopicPartition("other", 0), TopicPartition("gone", 0)])
        assert error is ErrorCode.NONE
        assert errors == {
            TP0: ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC,
            TopicPartition("other", 0): ErrorCode.NONE,
            TopicPartition("gone", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        }
        assert [(f.topic, f.offset) for f in offsets.fetch("g", None, False)[1]] == [("t", 1)]
        service.coordinator.leave("g", [LeavingMember(member.member_id)])
        assert offsets.delete("g", [TP0]) == (ErrorCode.NONE, {TP0: ErrorCode.NONE})
        connect = await join(service.coordinator, group="c", protocol_type="connect")
        await sync(service.coordinator, connect, group="c", assignments={})
        assert offsets.delete("c", [TP0])[0] is ErrorCode.NON_EMPTY_GROUP

    run(tmp_path, scenario)


def test_describe_list_and_delete_groups(tmp_path: Path) -> None:
    async def scenario(service: GroupService) -> None:
        member = await join(service.coordinator, protocols=(("range", subscription("t")),), client="app")
        await sync(service.coordinator, member, assignments={member.member_id: b"assigned"})
        await service.offsets.commit(CommitRequest("simple", -1, "", None), [OffsetCommit("t", 0, 1)])
        described = service.describe_group("g")
        assert (described.error, described.state, described.protocol_type, described.protocol) == (
            ErrorCode.NONE, "Stable", "consumer", "range",
        )  # fmt: skip
        (m,) = described.members
        assert (m.member_id, m.client_id, m.client_host, m.assignment) == (
            member.member_id, "app", "/127.0.0.1", b"assigned",
        )  # fmt: skip
        assert m.metadata == subscription("t")
        assert service.describe_group("missing").state == "Dead"
        assert service.describe_group("simple").state == "Empty"
        listed = [(g.group_id, g.state, g.protocol_type) for g in service.list_groups()]
        assert listed == [("g", "Stable", "consumer"), ("simple", "Empty", "")]
        assert [g.group_id for g in service.list_groups(["empty"])] == ["simple"]
        assert [g.group_id for g in service.list_groups(["Stable"], ["classic"])] == ["g"]
        assert service.list_groups(types_filter=["consumer"]) == []
        outcomes = dict(service.delete_groups(["g", "simple", "missing"]))
        assert outcomes == {
            "g": ErrorCode.NON_EMPTY_GROUP,
            "simple": ErrorCode.NONE,
            "missing": ErrorCode.GROUP_ID_NOT_FOUND,
        }
        service.coordinator.leave("g", [LeavingMember(member.member_id)])
        assert dict(service.delete_groups(["g"])) == {"g": ErrorCode.NONE}
        assert service.list_groups() == [] and service.describe_group("g").state == "Dead"
        assert service.offsets.fetch("simple", None, False)[1] == []

    run(tmp_path, scenario)


def test_retention_expires_offsets_of_groups_left_empty_and_forgets_them(tmp_path: Path) -> None:
    async def scenario(service: GroupService) -> None:
        active = await join(service.coordinator, group="active")
        await sync(service.coordinator, active, group="active", assignments={})
        await service.offsets.commit(CommitRequest("active", 1, active.member_id, None), [OffsetCommit("t", 0, 5)])
        await service.offsets.commit(SIMPLE, [OffsetCommit("t", 0, 5)])
        gone = await join(service.coordinator, group="gone")
        await sync(service.coordinator, gone, group="gone", assignments={})
        service.coordinator.leave("gone", [LeavingMember(gone.member_id)])
        assert service.offsets.expire(retention_ms=10) == 0  # committed just now
        await elapse(clock, 0.011)
        assert service.offsets.expire(retention_ms=10) == 1  # g's offset; active keeps its own
        assert service.offsets.fetch("active", [TP0], False)[1][0].offset == 5
        assert "gone" not in service.coordinator.groups  # Empty and without offsets: removed
        assert [g.group_id for g in service.list_groups()] == ["active"]

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock)


def test_the_group_service_has_state_once_a_group_has_committed(tmp_path: Path) -> None:
    async def scenario(service: GroupService) -> None:
        assert not service.has_state()
        await service.offsets.commit(CommitRequest("simple", -1, "", None), [OffsetCommit("t", 0, 1)])
        assert service.has_state()

    run(tmp_path, scenario)


def test_coordination_moving_away_unloads_a_group_and_moving_back_serves_it_as_it_was(tmp_path: Path) -> None:
    """What a cluster broker does when the leadership of a ``__consumer_offsets`` partition leaves it and returns."""

    async def scenario(service: GroupService) -> None:
        coordinator, state = service.coordinator, service.coordinator.store.group_partitions
        every = frozenset(range(state.count))
        stable = await join(coordinator, group="stable", rebalance_ms=60_000)
        await sync(coordinator, stable, group="stable", assignments={stable.member_id: b"a"})
        first = await join(coordinator, group="waiting", rebalance_ms=60_000)
        await sync(coordinator, first, group="waiting", assignments={})
        second = asyncio.ensure_future(join(coordinator, group="waiting", client="b", rebalance_ms=60_000))
        await elapse(clock, 4.9)
        assert not second.done()  # waits for the first member to rejoin (or its 5 s session to run out)
        assert await service.offsets.commit(SIMPLE, [OffsetCommit("t", 0, 7)]) == {TP0: ErrorCode.NONE}
        moved = frozenset({state.partition_of("stable"), state.partition_of("waiting"), state.partition_of("g")})
        service.coordinate(every - moved)
        assert (await asyncio.wait_for(second, 5)).error is ErrorCode.NOT_COORDINATOR
        assert "stable" not in coordinator.groups and "waiting" not in coordinator.groups
        assert service.offsets.fetch("g", [TP0], False)[1][0].offset == -1
        assert {listing.group_id for listing in service.list_groups()}.isdisjoint({"stable", "waiting", "g"})
        service.coordinate(every)
        group = coordinator.groups["stable"]
        assert group.state is GroupState.STABLE and group.generation_id == stable.generation_id
        assert group.members[stable.member_id].assignment == b"a"
        assert service.offsets.fetch("g", [TP0], False)[1][0].offset == 7

    clock = ManualClock()
    run(tmp_path, scenario, clock=clock, **{"offsets.topic.num.partitions": "10"})
