"""Rack-aware server-side assignment (KIP-848's ``uniform`` and ``range``): partitions go to members in their
replicas' racks when every member and partition has a rack, without changing how many each member gets."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path

from rockafka.facade.group import GroupService
from rockafka.facade.group.consumer_protocol.assignors import Racks, range_assignor, uniform
from rockafka.store import MessageStore

from .test_consumer_protocol import beat, partitions, run

TOPIC = uuid.uuid4()
SUBSCRIBED = frozenset({TOPIC})


def racks_of(layout: str, **members: str) -> Racks:
    """``layout``: partition i's rack is layout[i]."""
    return Racks(members, {(TOPIC, i): frozenset(rack) for i, rack in enumerate(layout)})


def indexes(target: Mapping[str, Mapping[uuid.UUID, frozenset[int]]], member: str) -> set[int]:
    return set(target[member].get(TOPIC, frozenset()))


def test_uniform_gives_partitions_to_members_of_their_racks() -> None:
    subscriptions = {"x": SUBSCRIBED, "y": SUBSCRIBED}
    plain = uniform(subscriptions, {TOPIC: 4}, {})
    assert (indexes(plain, "x"), indexes(plain, "y")) == ({0, 2}, {1, 3})
    aware = uniform(subscriptions, {TOPIC: 4}, {}, racks_of("aabb", x="a", y="b"))
    assert (indexes(aware, "x"), indexes(aware, "y")) == ({0, 1}, {2, 3})


def test_uniform_keeps_the_balance_when_the_racks_are_lopsided() -> None:
    subscriptions = {"x": SUBSCRIBED, "y": SUBSCRIBED, "z": SUBSCRIBED}
    target = uniform(subscriptions, {TOPIC: 7}, {}, racks_of("aaaaaaa", x="a", y="a", z="b"))
    assert sorted(len(indexes(target, m)) for m in "xyz") == [2, 2, 3]
    assert set().union(*(indexes(target, m) for m in "xyz")) == set(range(7))


def test_uniform_keeps_owned_partitions_before_matching_racks() -> None:
    subscriptions = {"x": SUBSCRIBED, "y": SUBSCRIBED}
    current = {"x": {TOPIC: frozenset({2, 3})}, "y": {TOPIC: frozenset({0, 1})}}
    target = uniform(subscriptions, {TOPIC: 4}, current, racks_of("aabb", x="a", y="b"))
    assert (indexes(target, "x"), indexes(target, "y")) == ({2, 3}, {0, 1})


def test_range_takes_its_racks_partitions_within_its_ranges_size() -> None:
    subscriptions = {"m1": SUBSCRIBED, "m2": SUBSCRIBED}
    plain = range_assignor(subscriptions, {TOPIC: 5}, {})
    assert (indexes(plain, "m1"), indexes(plain, "m2")) == ({0, 1, 2}, {3, 4})
    aware = range_assignor(subscriptions, {TOPIC: 5}, {}, racks_of("babab", m1="a", m2="b"))
    assert (indexes(aware, "m1"), indexes(aware, "m2")) == ({1, 3, 4}, {0, 2})  # 4 of 5 on their racks


def test_the_group_is_assigned_by_rack_only_when_every_member_and_partition_has_one(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        layout = "aabb"
        service.consumer.subscriptions.partition_racks = lambda topics: {
            (name, i): frozenset(layout[i]) for name, count in topics.items() for i in range(count)
        }
        x = beat(service, "x", 0, rack_id="b")
        assert partitions(x) == {0, 1, 2, 3}
        y = beat(service, "y", 0, rack_id="a")
        beat(service, "x", x.member_epoch, owned=x.assignment)  # x revokes what y is to get
        group = service.consumer.groups["g"]
        assert partitions(group.target["x"]) == {2, 3} and partitions(group.target["y"]) == {0, 1}
        assert y.error.value == 0 and partitions(y) == set()  # x has not revoked 0 and 1 yet
        beat(service, "z", 0)  # no rack: the assignment is no longer rack-aware
        assert sorted(len(partitions(group.target[m])) for m in "xyz") == [1, 1, 2]

    run(tmp_path, scenario)
