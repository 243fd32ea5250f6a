"""The in-sync set's rules (``cluster/replication/insync.py``): who is in sync, when a follower leaves and
rejoins, and the confirm offset every member holds. Time is passed in, so nothing here waits."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rockafka.cluster.replication.insync import InSyncSet

LAG_MS = 1000


def test_a_lone_leader_confirms_what_it_appends() -> None:
    members = InSyncSet(LAG_MS, leader_end=100)
    members.appended(250)
    assert members.confirm_offset == 250 and members.size == 1


def test_a_follower_joins_once_it_reaches_the_confirm_offset_and_then_holds_it_back() -> None:
    members = InSyncSet(LAG_MS, leader_end=100)
    members.joined(2, end=40, now_ms=0)
    assert members.size == 1
    members.acknowledged(2, 80, leader_end=100, leader_end_when_sent=100, now_ms=10)
    assert members.size == 1 and members.confirm_offset == 100  # behind the confirm offset: not in sync yet
    members.acknowledged(2, 100, leader_end=100, leader_end_when_sent=100, now_ms=20)
    assert members.size == 2 and members.confirm_offset == 100
    members.appended(180)  # the leader's log grew: the follower holds the confirm offset back now
    assert members.confirm_offset == 100
    members.acknowledged(2, 150, leader_end=180, leader_end_when_sent=180, now_ms=30)
    assert members.confirm_offset == 150
    members.acknowledged(2, 180, leader_end=180, leader_end_when_sent=180, now_ms=40)
    assert members.confirm_offset == 180


def test_a_follower_not_caught_up_for_the_lag_time_leaves_and_the_confirm_offset_moves_on() -> None:
    members = InSyncSet(LAG_MS, leader_end=0)
    members.joined(2, end=0, now_ms=0)
    members.acknowledged(2, 0, leader_end=0, leader_end_when_sent=0, now_ms=0)
    members.appended(500)
    assert members.due_to_leave(500, now_ms=LAG_MS) == frozenset()  # exactly the lag time: still in
    assert members.confirm_offset == 0
    due = members.due_to_leave(500, now_ms=LAG_MS + 1)
    assert due == {2} and members.size == 2 and members.confirm_offset == 0  # due, but held until removed
    members.remove(due, 500)
    assert members.size == 1 and members.confirm_offset == 500


def test_a_follower_caught_up_stays_however_long_the_leader_is_idle() -> None:
    members = InSyncSet(LAG_MS, leader_end=300)
    members.joined(2, end=300, now_ms=0)
    members.acknowledged(2, 300, leader_end=300, leader_end_when_sent=300, now_ms=0)
    assert members.due_to_leave(300, now_ms=10 * LAG_MS) == frozenset() and members.size == 2


def test_acknowledgements_of_a_catch_up_behind_the_leader_do_not_count_as_caught_up() -> None:
    members = InSyncSet(LAG_MS, leader_end=0)
    members.joined(2, end=0, now_ms=0)
    members.acknowledged(2, 0, leader_end=0, leader_end_when_sent=0, now_ms=0)
    members.appended(10_000)
    for now in range(100, 3 * LAG_MS, 100):  # progress, but never up to the end the leader had when sending
        members.acknowledged(2, now, leader_end=10_000, leader_end_when_sent=10_000, now_ms=now)
        members.remove(members.due_to_leave(10_000, now), 10_000)
    assert members.size == 1


def test_a_follower_that_disconnects_is_due_to_leave_at_once_and_holds_the_confirm_offset_until_removed() -> None:
    members = InSyncSet(LAG_MS, leader_end=0)
    members.joined(2, end=0, now_ms=0)
    assert members.acknowledged(2, 0, leader_end=0, leader_end_when_sent=0, now_ms=0)  # joined
    members.appended(70)
    members.left(2)
    assert members.due_to_leave(70, now_ms=1) == {2} and members.confirm_offset == 0
    members.remove(frozenset({2}), 70)
    assert members.size == 1 and members.confirm_offset == 70 and members.followers() == ()


def test_a_follower_that_reconnects_before_it_is_removed_keeps_its_place() -> None:
    members = InSyncSet(LAG_MS, leader_end=0)
    members.joined(2, end=0, now_ms=0)
    members.acknowledged(2, 0, leader_end=0, leader_end_when_sent=0, now_ms=0)
    members.left(2)
    members.joined(2, end=0, now_ms=5)
    assert members.due_to_leave(0, now_ms=5) == frozenset() and members.in_sync_followers() == {2}


def test_a_follower_out_of_the_set_is_forgotten_when_it_disconnects() -> None:
    members = InSyncSet(LAG_MS, leader_end=100)
    members.joined(3, end=10, now_ms=0)
    members.left(3)
    assert members.followers() == () and members.due_to_leave(100, 0) == frozenset()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["append", "ack", "shrink", "join", "leave"]), st.integers(1, 3),
                          st.integers(0, 400)), max_size=60))  # fmt: skip
def test_the_confirm_offset_never_moves_back_nor_past_what_an_in_sync_follower_holds(
    steps: list[tuple[str, int, int]],
) -> None:
    members, leader_end, now, confirmed = InSyncSet(LAG_MS, leader_end=0), 0, 0, 0
    for action, node, amount in steps:
        now += amount
        if action == "append":
            leader_end += amount
            members.appended(leader_end)
        elif action == "ack" and node in {f.node_id for f in members.followers()}:
            held = next(f.end for f in members.followers() if f.node_id == node)
            members.acknowledged(node, min(leader_end, held + amount), leader_end, leader_end, now)
        elif action == "shrink":
            members.remove(members.due_to_leave(leader_end, now), leader_end)
        elif action == "join" and node not in {f.node_id for f in members.followers()}:
            members.joined(node, end=0, now_ms=now)
        elif action == "leave":
            members.left(node)
        assert confirmed <= members.confirm_offset <= leader_end
        in_sync = [f.end for f in members.followers() if f.in_sync]
        assert members.confirm_offset <= min(in_sync, default=leader_end)
        assert members.size == 1 + len(in_sync)
        confirmed = members.confirm_offset


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["append", "copy", "copy", "ack", "ack", "begin", "commit", "join", "leave",
                                           "wait"]),
                          st.integers(2, 3), st.integers(0, 1500)), min_size=30, max_size=120))  # fmt: skip
# a follower in etcd's set falls behind past the lag time: dropping it here before etcd would break the rule
@example([("join", 2, 0), ("ack", 2, 0), ("begin", 2, 0), ("commit", 2, 0), ("append", 2, 500), ("wait", 2, 1500),
          ("begin", 2, 0), ("ack", 2, 0), ("commit", 2, 0)])  # fmt: skip
def test_the_confirm_offset_never_passes_a_member_etcd_still_lists(steps: list[tuple[str, int, int]]) -> None:
    """The leader's order (``ReplicationLeader.update_in_sync_set``): plan the set (``due_to_leave``), write
    ``in_sync_followers() - due`` to etcd (an awaited write: anything may happen before it lands), then
    ``remove(due)``. Whatever interleaves, for every member etcd lists: confirm offset <= what it holds. (Long
    step lists: with Hypothesis's short default lists the search missed a leader that drops a member before etcd's
    write, which this test, run against such a leader, finds.)"""
    members, leader_end, now = InSyncSet(LAG_MS, leader_end=0), 0, 0
    held: dict[int, int] = {}  # what each connected follower's log really holds
    etcd: frozenset[int] = frozenset()  # the followers etcd's in-sync set lists (the leader is always in it)
    ever_held: dict[int, int] = {}  # a follower etcd lists keeps its log while away
    writing: tuple[frozenset[int], frozenset[int]] | None = None  # (written, due) while the write is in flight
    for action, node, amount in steps:
        now += amount
        if action == "append":
            leader_end += amount
            members.appended(leader_end)
        elif action == "copy" and node in held:
            held[node] = min(leader_end, held[node] + amount)
            ever_held[node] = held[node]
        elif action == "ack" and node in held:
            members.acknowledged(node, held[node], leader_end, leader_end, now)
        elif action == "begin" and writing is None:
            due = members.due_to_leave(leader_end, now)
            writing = (members.in_sync_followers() - due, due)
        elif action == "commit" and writing is not None:
            etcd, due = writing
            members.remove(due, leader_end)
            writing = None
        elif action == "join" and node not in held:
            held[node] = ever_held.get(node, 0)
            members.joined(node, end=held[node], now_ms=now)
        elif action == "leave" and node in held:
            del held[node]
            members.left(node)
        assert set(etcd) <= members.in_sync_followers()
        for member in etcd:
            assert members.confirm_offset <= ever_held.get(member, 0)
