"""The in-sync set in etcd and elections from it, against a real etcd: the leader's fenced write
(``group_writes.InSyncWriter``), the controller's election from the set (``controller.py`` over
``election.py``), unclean election from published log ends, and the operator's elections (ElectLeaders).
Brokers are fake registrations (keys put directly), so each rule is shown without broker processes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from rockafka.cluster import NO_LEADER, GroupState, NotControllerError
from rockafka.cluster.controller import Controller
from rockafka.cluster.election import Outcome, elect
from rockafka.cluster.errors import FencedLeaderError
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.group_writes import (
    InSyncWriter,
    LagReporter,
    LogEndPublisher,
    keep_leader_in_etcd,
    publish_log_end,
)
from rockafka.cluster.layout import (
    BrokerInfo,
    KeyLayout,
    LogEnd,
    decode_group,
    encode_broker,
    encode_configs,
    encode_group,
)
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.cluster.snapshot import ClusterSnapshot, snapshot_from_keys
from rockafka.store import MessageStore

from ..store.helpers import small_config

Scenario = Callable[[Etcd, KeyLayout], Awaitable[None]]


def _run(etcd: LocalEtcd, name: str, scenario: Scenario) -> None:
    async def main() -> None:
        connection = await Etcd.connect([etcd.endpoint])
        try:
            await scenario(connection, KeyLayout(name))
        finally:
            await connection.close()

    asyncio.run(asyncio.wait_for(main(), 60))


async def _put(connection: Etcd, key: bytes, value: bytes) -> None:
    assert await connection.swap([], [connection.txn.put(key, value)]) is not None


async def _register(connection: Etcd, layout: KeyLayout, group: str, *nodes: int) -> None:
    for node in nodes:
        await _put(connection, layout.broker(node), encode_broker(BrokerInfo(node, group, "127.0.0.1", 9000 + node)))


async def _snapshot(connection: Etcd, layout: KeyLayout) -> ClusterSnapshot:
    entries, revision = await connection.get_prefix(layout.prefix)
    return snapshot_from_keys(layout, ((entry.key, entry.value) for entry in entries), revision)


async def _group(connection: Etcd, layout: KeyLayout, group: str = "g1") -> GroupState:
    entry = await connection.get(layout.group(group))
    assert entry is not None
    return decode_group(group, entry.value)


async def _controller(connection: Etcd, layout: KeyLayout, *, unclean: bool = False) -> Controller:
    controller = Controller(connection, layout, node_id=99, unclean=unclean)
    assert await controller.campaign(await connection.grant_lease(30))
    return controller


# --- the rules alone ---


def test_an_old_group_value_without_an_in_sync_set_reads_as_its_leader() -> None:
    assert decode_group("g1", b'{"leader":2,"epoch":7}') == GroupState("g1", 2, 7, (2,))
    assert decode_group("g1", b'{"leader":-1,"epoch":7}').in_sync == ()
    assert decode_group("g1", encode_group(GroupState("g1", 2, 8, (3, 2)))).in_sync == (2, 3)


def test_the_lowest_live_in_sync_member_is_elected_and_leads_a_set_of_itself() -> None:
    state = GroupState("g1", 1, 4, (1, 3, 4))
    choice = elect("g1", state, live=[2, 4, 3], log_ends={}, unclean=False)
    assert (choice.leader, choice.in_sync, choice.unclean) == (3, (3,), False)


def test_no_live_in_sync_member_means_no_leader_unless_unclean_then_the_most_advanced() -> None:
    state = GroupState("g1", 1, 4, (1,))
    ends = {
        2: LogEnd(2, "g1", 4, 900),
        3: LogEnd(3, "g1", 5, 100),
        4: LogEnd(4, "g1", 5, 100),
        5: LogEnd(5, "g2", 9, 9),
    }
    clean = elect("g1", state, live=[2, 3, 4, 5], log_ends=ends, unclean=False)
    assert (clean.leader, clean.in_sync) == (NO_LEADER, (1,))  # the set is kept for its members' return
    unclean = elect("g1", state, live=[2, 3, 4, 5], log_ends=ends, unclean=True)
    assert (unclean.leader, unclean.in_sync, unclean.unclean) == (3, (3,), True)  # newest epoch, then lowest id
    assert elect("g1", state, live=[2], log_ends={}, unclean=True).leader == NO_LEADER  # no end published yet


def test_a_group_with_no_record_of_a_set_lets_any_live_member_lead() -> None:
    assert elect("g1", None, live=[5, 4], log_ends={}, unclean=False).leader == 4
    assert elect("g1", GroupState("g1", NO_LEADER, 3), live=[5, 4], log_ends={}, unclean=False).leader == 4


# --- the leader's write ---


def test_the_leader_writes_its_in_sync_set_at_its_epoch_and_a_deposed_leader_is_refused(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3)))
        writer = InSyncWriter(connection, layout, "g1", node_id=1, epoch=3)
        await writer(frozenset({2, 3}))
        assert await _group(connection, layout) == GroupState("g1", 1, 3, (1, 2, 3))
        await writer(frozenset({3}))  # a shrink
        assert (await _group(connection, layout)).in_sync == (1, 3)
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 3, 4)))  # an election
        with pytest.raises(FencedLeaderError, match="etcd names leader 3 at epoch 4, not node 1 at epoch 3"):
            await writer(frozenset())
        assert await _group(connection, layout) == GroupState("g1", 3, 4, (3,))
        stale_epoch = InSyncWriter(connection, layout, "g1", node_id=3, epoch=2)
        with pytest.raises(FencedLeaderError):
            await stale_epoch(frozenset({1}))

    _run(etcd, cluster_name, scenario)


def test_an_election_between_the_leaders_read_and_its_swap_wins(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3, (1, 2))))
        real_get = connection.get

        async def get_then_elect(key: bytes) -> object:
            entry = await real_get(key)
            if key == layout.group("g1") and decode_group("g1", entry.value).leader == 1:  # type: ignore[union-attr]
                await _put(connection, key, encode_group(GroupState("g1", 2, 4)))  # lands before the swap
            return entry

        connection.get = get_then_elect  # type: ignore[method-assign]
        with pytest.raises(FencedLeaderError, match="leader 2 at epoch 4"):
            await InSyncWriter(connection, layout, "g1", node_id=1, epoch=3)(frozenset())
        connection.get = real_get  # type: ignore[method-assign]
        assert await _group(connection, layout) == GroupState("g1", 2, 4, (2,))

    _run(etcd, cluster_name, scenario)


def test_log_ends_and_lag_reports_live_under_their_lease(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        lease = await connection.grant_lease(30)
        await publish_log_end(connection, layout, LogEnd(2, "g1", 4, 4096), lease)
        await LagReporter(connection, layout, "g1", lambda: lease)(9000, 8192, {2: 4096, 3: 8192})
        snapshot = await _snapshot(connection, layout)
        assert snapshot.log_ends[2] == LogEnd(2, "g1", 4, 4096)
        lag = snapshot.replica_lag["g1"]
        assert (lag.end, lag.confirm, dict(lag.ends)) == (9000, 8192, {2: 4096, 3: 8192}) and lag.at_ms > 0
        await connection.revoke_lease(lease)
        after = await _snapshot(connection, layout)
        assert not after.log_ends and not after.replica_lag

    _run(etcd, cluster_name, scenario)


# --- the controller ---


def test_the_controller_elects_the_lowest_live_in_sync_member_with_the_next_epoch(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3, (1, 3, 4))))
        await _register(connection, layout, "g1", 2, 3, 4)  # 1 is dead; 2 is live but not in sync
        controller = await _controller(connection, layout)
        written = await controller.reconcile_groups(await _snapshot(connection, layout))
        assert written == [GroupState("g1", 3, 4, (3,))] == [await _group(connection, layout)]
        assert await controller.reconcile_groups(await _snapshot(connection, layout)) == []  # 3 lives: nothing

    _run(etcd, cluster_name, scenario)


def test_no_live_in_sync_member_leaves_the_group_leaderless_until_one_returns(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3, (1, 2))))
        await _register(connection, layout, "g1", 3)
        controller = await _controller(connection, layout)
        await controller.reconcile_groups(await _snapshot(connection, layout))
        assert await _group(connection, layout) == GroupState("g1", NO_LEADER, 4, (1, 2))
        assert await controller.reconcile_groups(await _snapshot(connection, layout)) == []  # no second write
        await _register(connection, layout, "g1", 2)
        await controller.reconcile_groups(await _snapshot(connection, layout))
        assert await _group(connection, layout) == GroupState("g1", 2, 5, (2,))

    _run(etcd, cluster_name, scenario)


def test_unclean_election_picks_the_most_advanced_published_member_when_the_cluster_enables_it(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3, (1,))))
        await _register(connection, layout, "g1", 2, 3)
        controller = await _controller(connection, layout)  # its own setting: false
        lease = await connection.grant_lease(30)
        await publish_log_end(connection, layout, LogEnd(2, "g1", 3, 5000), lease)
        await publish_log_end(connection, layout, LogEnd(3, "g1", 3, 7000), lease)
        await controller.reconcile_groups(await _snapshot(connection, layout))
        assert (await _group(connection, layout)).leader == NO_LEADER
        configs = encode_configs({"unclean.leader.election.enable": "true"})
        await _put(connection, layout.broker_default_configs(), configs)
        await controller.reconcile_groups(await _snapshot(connection, layout))
        assert await _group(connection, layout) == GroupState("g1", 3, 5, (3,))

    _run(etcd, cluster_name, scenario)


def test_operator_elections_answer_as_kafka_does(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 2, 3, (2, 3))))
        await _register(connection, layout, "g1", 1, 2, 3)
        controller = await _controller(connection, layout)
        snapshot = await _snapshot(connection, layout)
        # the preferred member (1, the lowest id) lives but is not in sync
        assert await controller.elect_leaders(snapshot, "g1", preferred=True) is Outcome.PREFERRED_NOT_AVAILABLE
        assert await controller.elect_leaders(snapshot, "g1", preferred=False) is Outcome.NOT_NEEDED  # 2 leads
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 2, 3, (1, 2, 3))))
        assert await controller.elect_leaders(snapshot, "g1", preferred=True) is Outcome.ELECTED
        assert await _group(connection, layout) == GroupState("g1", 1, 4, (1,))
        assert await controller.elect_leaders(snapshot, "g1", preferred=True) is Outcome.NOT_NEEDED
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 7, 5, (7,))))
        assert await controller.elect_leaders(snapshot, "g1", preferred=False) is Outcome.NO_ELIGIBLE_MEMBER
        lease = await connection.grant_lease(30)
        await publish_log_end(connection, layout, LogEnd(3, "g1", 4, 10), lease)
        snapshot = await _snapshot(connection, layout)
        assert await controller.elect_leaders(snapshot, "g1", preferred=False) is Outcome.ELECTED
        assert await _group(connection, layout) == GroupState("g1", 3, 6, (3,))

    _run(etcd, cluster_name, scenario)


def test_an_operator_election_by_a_deposed_controller_is_refused(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 2, 3, (1, 2))))
        await _register(connection, layout, "g1", 1, 2)
        stale = Controller(connection, layout, node_id=5)
        stale.term = 1
        with pytest.raises(NotControllerError):
            await stale.elect_leaders(await _snapshot(connection, layout), "g1", preferred=True)
        assert await _group(connection, layout) == GroupState("g1", 2, 3, (1, 2))

    _run(etcd, cluster_name, scenario)


def test_a_member_publishes_its_log_end_only_while_its_group_has_no_live_leader(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        lease = await connection.grant_lease(30)
        publisher = LogEndPublisher(connection, layout, node_id=2, group="g1", lease=lambda: lease)
        await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3, (1, 2))))
        await _register(connection, layout, "g1", 1, 2)
        assert not await publisher.update(await _snapshot(connection, layout), end=100, epoch=3)  # 1 leads
        await connection.swap([], [connection.txn.delete(layout.broker(1))])  # the leader's lease expired
        assert await publisher.update(await _snapshot(connection, layout), end=100, epoch=3)
        snapshot = await _snapshot(connection, layout)
        assert snapshot.log_ends[2] == LogEnd(2, "g1", 3, 100)
        assert not await publisher.update(snapshot, end=100, epoch=3)  # unchanged: no write
        await _register(connection, layout, "g1", 1)  # a leader again: the end is withdrawn
        assert await publisher.update(await _snapshot(connection, layout), end=100, epoch=3)
        assert 2 not in (await _snapshot(connection, layout)).log_ends

    _run(etcd, cluster_name, scenario)


def test_keeping_a_leader_in_etcd_writes_its_whole_set_at_its_new_epoch(
    etcd: LocalEtcd, cluster_name: str, tmp_path: Path
) -> None:
    async def scenario(connection: Etcd, layout: KeyLayout) -> None:
        lease = await connection.grant_lease(30)
        with MessageStore.open(small_config(tmp_path)) as store:
            leader = ReplicationLeader(store, lag_time_ms=10_000)
            await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 3, (1, 2))))
            keep_leader_in_etcd(leader, connection, layout, GroupState("g1", 1, 3), lambda: lease)
            await leader.update_in_sync_set()  # no follower in sync here: etcd's set becomes the leader alone
            assert await _group(connection, layout) == GroupState("g1", 1, 3, (1,))
            await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 2, 4, (2,))))
            await leader.update_in_sync_set()
            assert not leader.deposed  # nothing to write, so nothing refused
            leader.in_sync.joined(5, 0, 0)
            leader.in_sync.acknowledged(5, store.replica.published_end, store.replica.published_end, 0, 0)
            await leader.update_in_sync_set()
            assert leader.deposed and leader.in_sync.in_sync_followers() == {5}
            await _put(connection, layout.group("g1"), encode_group(GroupState("g1", 1, 5)))  # elected again
            keep_leader_in_etcd(leader, connection, layout, GroupState("g1", 1, 5), lambda: lease)
            await leader.update_in_sync_set()
            assert not leader.deposed and await _group(connection, layout) == GroupState("g1", 1, 5, (1, 5))

    _run(etcd, cluster_name, scenario)
