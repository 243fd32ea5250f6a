"""KIP-848 consumer groups through the group service over a real store: joins, reconciliation (revoke before
assign), fencing, leaving, static members, regex subscriptions, commits with member epochs, restarts."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from rockafka.facade.clock import REAL_CLOCK, ManualClock
from rockafka.facade.config import load_broker_config
from rockafka.facade.group import CommitRequest, GroupService, JoinRequest
from rockafka.facade.group.consumer_protocol import Assignment, HeartbeatRequest, HeartbeatResult
from rockafka.facade.group.consumer_protocol.assignors import range_assignor, uniform
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, OffsetCommit, TopicPartition

from .helpers import open_store

T = TypeVar("T")
NOTHING: Assignment = {}


def run(
    root: Path, scenario: Callable[[GroupService, MessageStore], Awaitable[T]], *, clock: ManualClock | None = None,
    **settings: str,
) -> T:  # fmt: skip
    overrides = [f"log.dirs={root}", *(f"{key}={value}" for key, value in settings.items())]
    config = load_broker_config(overrides=overrides)

    async def main() -> T:
        timers = clock or REAL_CLOCK
        store = open_store(root / "store", clock=timers)
        if not store.topics.list():
            store.topics.create("t", 4)
        service = GroupService(config, store, timers=timers)
        service.start()
        try:
            return await scenario(service, store)
        finally:
            service.shutdown()
            store.close()

    return asyncio.run(main())


def beat(service: GroupService, member: str, epoch: int, **fields: Any) -> HeartbeatResult:
    request: dict[str, Any] = {
        "group_id": "g",
        "member_id": member,
        "member_epoch": epoch,
        "instance_id": None,
        "rack_id": None,
        "rebalance_timeout_ms": -1,
        "subscribed_topic_names": None,
        "subscribed_topic_regex": None,
        "server_assignor": None,
        "owned": None,
        "client_id": "client",
        "client_host": "/127.0.0.1",
    }
    if epoch == 0:
        request.update(rebalance_timeout_ms=30_000, subscribed_topic_names=("t",), owned={})
    request.update(fields)
    result, _ = service.consumer.heartbeat(HeartbeatRequest(**request))
    return result


def partitions(result: HeartbeatResult | Assignment | None) -> set[int]:
    assignment = result.assignment if isinstance(result, HeartbeatResult) else result
    assert assignment is not None
    return {index for indexes in assignment.values() for index in indexes}


def owned_by_two(service: GroupService) -> set[tuple[uuid.UUID, int]]:
    seen: set[tuple[uuid.UUID, int]] = set()
    twice = set()
    for member in service.consumer.groups["g"].members.values():
        for partition in member.owned():
            (twice if partition in seen else seen).add(partition)
    return twice


def test_uniform_balances_and_keeps_partitions_in_place() -> None:
    topic = uuid.uuid4()
    subscribed = frozenset({topic})
    first = uniform({"a": subscribed}, {topic: 6}, {})
    assert first == {"a": {topic: frozenset(range(6))}}
    second = uniform({"a": subscribed, "b": subscribed}, {topic: 6}, first)
    assert len(second["a"][topic]) == len(second["b"][topic]) == 3
    assert second["a"][topic] <= first["a"][topic]  # a keeps what it can
    third = uniform({"a": subscribed, "b": subscribed, "c": subscribed}, {topic: 6}, second)
    assert sorted(len(third[m][topic]) for m in "abc") == [2, 2, 2]
    assert third["a"][topic] <= second["a"][topic] and third["b"][topic] <= second["b"][topic]


def test_range_gives_contiguous_ranges_in_member_order() -> None:
    topic = uuid.uuid4()
    subscribed = frozenset({topic})
    target = range_assignor({"b": subscribed, "a": subscribed}, {topic: 5}, {})
    assert target == {"a": {topic: frozenset({0, 1, 2})}, "b": {topic: frozenset({3, 4})}}


def test_a_second_member_gets_partitions_only_after_the_first_revokes_them(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        joined = beat(service, "a", 0)
        assert (joined.error, joined.member_epoch, partitions(joined)) == (ErrorCode.NONE, 1, {0, 1, 2, 3})
        assert joined.heartbeat_interval_ms == 5000
        b = beat(service, "b", 0)
        assert (b.member_epoch, partitions(b)) == (2, set())  # all four still belong to a
        assert b.heartbeat_interval_ms == 100  # waiting for partitions: told to come back sooner (a fiftieth)
        a = beat(service, "a", 1)
        assert a.member_epoch == 1 and len(partitions(a)) == 2  # a must revoke two first, at its epoch
        kept = a.assignment
        assert beat(service, "b", 2).assignment is None  # not revoked yet: b waits
        assert not owned_by_two(service)
        a = beat(service, "a", 1, owned=kept)
        assert (a.member_epoch, a.assignment) == (2, None)  # revoked: a moves to the group's epoch
        b = beat(service, "b", 2)
        assert partitions(b) == {0, 1, 2, 3} - partitions(kept)
        assert b.heartbeat_interval_ms == 5000
        assert not owned_by_two(service)
        assert service.consumer.groups["g"].state.value == "Stable"

    run(tmp_path, scenario)


def test_fencing_and_refused_heartbeats(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "a", 0, instance_id="i-1")
        assert beat(service, "a", 7).error is ErrorCode.FENCED_MEMBER_EPOCH
        assert beat(service, "nobody", 1).error is ErrorCode.UNKNOWN_MEMBER_ID
        assert beat(service, "a", 1, instance_id="i-2").error is ErrorCode.FENCED_INSTANCE_ID
        assert beat(service, "b", 0, instance_id="i-1").error is ErrorCode.UNRELEASED_INSTANCE_ID
        assert beat(service, "b", 0, server_assignor="sticky").error is ErrorCode.UNSUPPORTED_ASSIGNOR
        refused = beat(service, "b", 0, subscribed_topic_regex="t(")
        assert refused.error is ErrorCode.INVALID_REGULAR_EXPRESSION and refused.message
        backreference = beat(service, "b", 0, subscribed_topic_regex=r"(t)\1")  # RE2, as Kafka's RE2/J: none
        assert backreference.error is ErrorCode.INVALID_REGULAR_EXPRESSION
        assert beat(service, "", 1).error is ErrorCode.INVALID_REQUEST
        assert beat(service, "b", 0, owned=None).error is ErrorCode.INVALID_REQUEST
        assert beat(service, "a", 1).error is ErrorCode.NONE

    run(tmp_path, scenario)


def test_leaving_and_a_static_member_coming_back(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "a", 0, instance_id="static-a")
        beat(service, "b", 0)
        a = beat(service, "a", 1)
        beat(service, "a", 1, owned=a.assignment)
        b = beat(service, "b", 2)
        a_partitions = {0, 1, 2, 3} - partitions(b)
        epoch = service.consumer.groups["g"].group_epoch
        assert beat(service, "a", -2).member_epoch == -2  # leaves for a while: keeps its partitions
        assert beat(service, "b", 2).assignment is None
        back = beat(service, "a2", 0, instance_id="static-a")
        assert (back.member_epoch, partitions(back)) == (2, a_partitions)
        assert service.consumer.groups["g"].group_epoch == epoch  # no new assignment
        assert beat(service, "a2", -2).member_epoch == -2
        again = beat(service, "a2", 0, instance_id="static-a")  # back under the same id this time
        assert (again.member_epoch, partitions(again)) == (2, a_partitions)
        assert beat(service, "a2", -1).member_epoch == -1
        assert service.consumer.groups["g"].group_epoch == epoch + 1
        assert partitions(beat(service, "b", 2)) == {0, 1, 2, 3}

    run(tmp_path, scenario)


def test_a_regex_subscription_picks_up_a_topic_created_later(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        joined = beat(service, "a", 0, subscribed_topic_names=(), subscribed_topic_regex="orders-.*")
        assert partitions(joined) == set()
        store.topics.create("orders-eu", 2)
        store.topics.create("xorders-eu", 2)
        await asyncio.sleep(0.01)  # topics are looked at again once a heartbeat interval (1 ms here) has passed
        picked = beat(service, "a", 1)
        assert (picked.member_epoch, partitions(picked)) == (2, {0, 1})
        assert set(service.consumer.groups["g"].topics) == {"orders-eu"}

    run(tmp_path, scenario, **{"group.consumer.heartbeat.interval.ms": "1"})


def test_a_silent_member_is_removed_after_the_session_timeout(tmp_path: Path) -> None:
    clock = ManualClock()

    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "a", 0)
        clock.advance(44.9)
        assert "a" in service.consumer.groups["g"].members
        clock.advance(0.2)  # past group.consumer.session.timeout.ms (45 s), with no real time passing
        assert service.consumer.groups["g"].members == {}

    run(tmp_path, scenario, clock=clock)


def test_commits_and_fetches_carry_the_member_epoch(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "a", 0)
        commit = [OffsetCommit("t", 0, 5, None, "")]

        async def committed(member: str, epoch: int, v9: bool = True) -> ErrorCode:
            errors = await service.offsets.commit(CommitRequest("g", epoch, member, None, v9), commit)
            (error,) = errors.values()
            return error

        assert await committed("a", 0) is ErrorCode.STALE_MEMBER_EPOCH
        assert await committed("b", 1) is ErrorCode.UNKNOWN_MEMBER_ID
        assert await committed("a", 1, v9=False) is ErrorCode.UNSUPPORTED_VERSION
        assert await committed("", -1) is ErrorCode.UNKNOWN_MEMBER_ID  # an admin commit while members are in
        assert await committed("a", 1) is ErrorCode.NONE
        assert service.consumer.check_fetch("g", "a", 0) is ErrorCode.STALE_MEMBER_EPOCH
        assert service.consumer.check_fetch("g", "a", 1) is ErrorCode.NONE
        assert service.offsets.fetch("g", None, False)[1][0].offset == 5

    run(tmp_path, scenario)


def test_listed_with_its_type_and_kept_apart_from_classic_groups(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "a", 0)
        (listing,) = service.list_groups(types_filter=["consumer"])
        assert (listing.group_id, listing.group_type, listing.state, listing.protocol_type) == (
            "g", "consumer", "Stable", "consumer",
        )  # fmt: skip
        assert service.list_groups(types_filter=["classic"]) == []
        described = service.describe_group("g")
        assert (described.error, described.state, len(described.members)) == (ErrorCode.GROUP_ID_NOT_FOUND, "Stable", 1)
        join = JoinRequest("g", "", None, "c", "/h", 10_000, 10_000, "consumer", (("range", b""),), False)
        assert (await service.coordinator.join(join)).error is ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        assert service.delete_groups(["g"]) == [("g", ErrorCode.NON_EMPTY_GROUP)]
        beat(service, "a", -1)
        assert service.delete_groups(["g"]) == [("g", ErrorCode.NONE)]
        assert service.list_groups() == []

    run(tmp_path, scenario)


def test_a_restarted_broker_serves_the_group_as_it_was(tmp_path: Path) -> None:
    async def first(service: GroupService, store: MessageStore) -> set[int]:
        beat(service, "a", 0)
        beat(service, "b", 0)
        a = beat(service, "a", 1)
        beat(service, "a", 1, owned=a.assignment)
        return partitions(beat(service, "b", 2))

    async def second(service: GroupService, store: MessageStore) -> None:
        group = service.consumer.groups["g"]
        assert (group.group_epoch, group.state.value) == (2, "Stable")
        assert partitions(group.members["b"].assigned) == b_partitions
        assert beat(service, "b", 2).error is ErrorCode.NONE
        assert beat(service, "a", 2).error is ErrorCode.NONE

    b_partitions = run(tmp_path, first)
    run(tmp_path, second)


def test_offsets_of_subscribed_topics_are_kept_and_an_empty_group_without_offsets_is_forgotten(
    tmp_path: Path,
) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        store.topics.create("u", 1)
        beat(service, "a", 0)
        commits = [OffsetCommit("t", 0, 5, None, ""), OffsetCommit("u", 0, 7, None, "")]
        await service.offsets.commit(CommitRequest("g", 1, "a", None, True), commits)
        t0, u0 = TopicPartition("t", 0), TopicPartition("u", 0)
        assert service.offsets.delete("g", [t0, u0]) == (
            ErrorCode.NONE, {t0: ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC, u0: ErrorCode.NONE},
        )  # fmt: skip
        beat(service, "a", -1)
        await asyncio.sleep(0.01)  # the commits are now older than a retention of 0
        service.offsets.expire(0)
        assert "g" not in service.consumer.groups

    run(tmp_path, scenario)


def test_the_assignor_most_members_ask_for_is_used(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "a", 0)
        assert service.consumer.groups["g"].assignor == "uniform"  # the first of group.consumer.assignors
        beat(service, "b", 0, server_assignor="range")
        group = service.consumer.groups["g"]
        assert group.assignor == "range"
        assert [partitions(group.target[m]) for m in ("a", "b")] == [{0, 1}, {2, 3}]

    run(tmp_path, scenario)


def test_coordination_moving_away_and_back_unloads_and_reloads_a_consumer_group(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        state = store.group_partitions
        every = frozenset(range(state.count))
        joined = beat(service, "a", 0)
        service.coordinate(every - {state.partition_of("g")})
        assert "g" not in service.consumer.groups
        assert service.list_groups() == []
        service.coordinate(every)
        group = service.consumer.groups["g"]
        assert (group.group_epoch, partitions(group.members["a"].assigned)) == (1, partitions(joined))
        assert beat(service, "a", 1).error is ErrorCode.NONE

    run(tmp_path, scenario, **{"offsets.topic.num.partitions": "10"})
