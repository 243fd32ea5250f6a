"""Brokers joining a cluster in a real etcd: cluster id, lease-bound registration, watches, the controller."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from rockafka.cluster import NO_LEADER, EtcdUnavailableError, NodeIdTakenError, NotControllerError
from rockafka.cluster.controller import Controller
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.layout import BrokerInfo, KeyLayout
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.member import ClusterMember, MemberSettings
from rockafka.cluster.metadata import ClusterMetadata

WAIT_S = 20.0


def _member(etcd: LocalEtcd, name: str, node: int, group: str, ttl: int = 5) -> ClusterMember:
    settings = MemberSettings([etcd.endpoint], name, group, node, "127.0.0.1", 9000 + node, ttl)
    return ClusterMember(settings)


def _acting(member: ClusterMember) -> bool:
    return member.controller is not None and member.controller.term is not None


async def _settled(read: Callable[[], list[int]], timeout_s: float) -> list[int]:
    """``read()`` once it names exactly one node (or its last answer after ``timeout_s``); bounded polling of
    in-process state, which no watch reports."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while len(found := read()) != 1 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    return found


def _run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


def test_every_member_reads_the_one_cluster_id_the_first_created(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario() -> None:
        first, second = _member(etcd, cluster_name, 1, "g1"), _member(etcd, cluster_name, 2, "g2")
        await first.start("first-proposal-aaaaaa")
        await second.start("second-proposal-bbbbb")
        try:
            assert first.cluster_id == second.cluster_id == "first-proposal-aaaaaa"
        finally:
            await second.stop()
            await first.stop()

    _run(scenario)


def test_a_second_live_broker_with_the_same_node_id_is_refused(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario() -> None:
        first = _member(etcd, cluster_name, 1, "g1")
        await first.start()
        twin = _member(etcd, cluster_name, 1, "g2")
        with pytest.raises(NodeIdTakenError, match=r"node.id 1 is already registered by a live broker \(group g1"):
            await twin.start()
        await first.stop()
        again = _member(etcd, cluster_name, 1, "g2")
        await again.start()  # a stopped broker's lease is revoked: its node id is free at once
        await again.stop()

    _run(scenario)


def test_a_broker_that_stops_refreshing_its_lease_disappears_within_the_ttl(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario() -> None:
        observer = _member(etcd, cluster_name, 1, "g1")
        await observer.start()
        connection = await Etcd.connect([etcd.endpoint])
        try:
            lease = await connection.grant_lease(1)
            await ClusterMetadata(connection, KeyLayout(cluster_name)).register(
                BrokerInfo(7, "g7", "127.0.0.1", 9007), lease
            )
            assert observer.view is not None
            await observer.view.wait_for(lambda s: 7 in s.brokers, WAIT_S)
            await observer.view.wait_for(lambda s: 7 not in s.brokers, WAIT_S)
        finally:
            await connection.close()
            await observer.stop()

    _run(scenario)


def test_one_controller_gives_each_group_a_leader_and_a_successor_takes_over(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario() -> None:
        members = [_member(etcd, cluster_name, node, f"g{node}") for node in (1, 2, 3)]
        for member in members:
            await member.start()
        view = members[2].view
        assert view is not None
        try:
            snapshot = await view.wait_for(
                lambda s: s.controller is not None and all(s.groups.get(f"g{n}") for n in (1, 2, 3)), WAIT_S
            )
            assert {(g.name, g.leader, g.epoch) for g in snapshot.groups.values()} == {
                ("g1", 1, 0),
                ("g2", 2, 0),
                ("g3", 3, 0),
            }
            # the winner learns its term when its campaign returns, which may be after the watch showed the key
            acting = await _settled(lambda: [m.settings.node_id for m in members if _acting(m)], WAIT_S)
            assert acting == [snapshot.controller]
            old = next(m for m in members if m.settings.node_id == snapshot.controller)
            old_group = old.settings.group
            await old.stop()
            successor = next(m for m in members if m is not old)
            assert successor.view is not None
            after = await successor.view.wait_for(
                lambda s: s.controller not in (None, old.settings.node_id) and s.groups[old_group].leader == NO_LEADER,
                WAIT_S,
            )
            assert after.groups[old_group].epoch == 1
        finally:
            for member in members:
                await member.stop()

    _run(scenario)


def test_a_deposed_controller_cannot_write(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario() -> None:
        member = _member(etcd, cluster_name, 1, "g1")
        await member.start()
        connection = await Etcd.connect([etcd.endpoint])
        try:
            assert member.view is not None
            snapshot = await member.view.wait_for(lambda s: s.controller == 1 and "g1" in s.groups, WAIT_S)
            stale = Controller(connection, KeyLayout(cluster_name), node_id=1)
            stale.term = 1  # a term that ended long ago (the real one is a later revision)
            gone = snapshot.with_change(KeyLayout(cluster_name), KeyLayout(cluster_name).broker(1), None, 0)
            with pytest.raises(NotControllerError, match="term 1 has ended"):
                await stale.reconcile_groups(gone)
            unchanged = await connection.get(KeyLayout(cluster_name).group("g1"))
            assert unchanged is not None and b'"leader":1' in unchanged.value
        finally:
            await connection.close()
            await member.stop()

    _run(scenario)


def test_an_unreachable_etcd_is_one_clear_error() -> None:
    async def scenario() -> None:
        with pytest.raises(EtcdUnavailableError, match=r"etcd is not reachable at 127.0.0.1:1"):
            await Etcd.connect(["127.0.0.1:1"])

    _run(scenario)
