"""Topics in etcd: compare-and-swap creation, balanced placement, growth, deletion, seen by every broker's watch."""

from __future__ import annotations

import asyncio

import pytest

from rockafka.cluster import NoBrokerGroupsError, TopicExistsError, UnknownTopicError
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.member import ClusterMember, MemberSettings

WAIT_S = 20.0


async def _three_groups(etcd: LocalEtcd, name: str) -> list[ClusterMember]:
    members = []
    for node in (1, 2, 3):
        member = ClusterMember(MemberSettings([etcd.endpoint], name, f"g{node}", node, "127.0.0.1", 9000 + node, 5))
        await member.start()
        members.append(member)
    assert members[0].view is not None
    await members[0].view.wait_for(lambda s: len(s.live_groups()) == 3, WAIT_S)
    return members


def test_topics_are_created_once_spread_grown_and_deleted_from_any_broker(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario() -> None:
        members = await _three_groups(etcd, cluster_name)
        first, other = members[0], members[2]
        assert first.metadata is not None and first.view is not None
        assert other.metadata is not None and other.view is not None
        try:
            record = await first.metadata.create_topic(first.snapshot, "orders", 12, {"retention.ms": "60000"})
            assert sorted(record.placement.count(g) for g in ("g1", "g2", "g3")) == [4, 4, 4]
            seen = await other.view.wait_for(lambda s: "orders" in s.topics, WAIT_S)
            assert seen.topics["orders"] == record
            with pytest.raises(TopicExistsError, match="Topic 'orders' already exists"):
                await other.metadata.create_topic(other.snapshot, "orders", 1, {})

            small = await other.metadata.create_topic(seen, "small", 2, {})
            assert small.placement == ("g1", "g2")
            seen = await first.view.wait_for(lambda s: "small" in s.topics, WAIT_S)
            grown = await first.metadata.add_partitions(seen, "small", 3)
            assert grown.placement == ("g1", "g2", "g3")  # g3 held the fewest partitions

            gone = await other.metadata.delete_topic("orders")
            assert gone.topic_id == record.topic_id
            await first.view.wait_for(lambda s: "orders" not in s.topics, WAIT_S)
            with pytest.raises(UnknownTopicError):
                await first.metadata.delete_topic("orders")
        finally:
            for member in members:
                await member.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_write_compared_with_a_stale_revision_is_not_applied(etcd: LocalEtcd, cluster_name: str) -> None:
    async def scenario() -> None:
        members = await _three_groups(etcd, cluster_name)
        metadata = members[0].metadata
        assert metadata is not None
        try:
            await metadata.create_topic(members[0].snapshot, "t", 1, {})
            entry = await metadata.etcd.get(metadata.layout.topic("t"))
            assert entry is not None
            await metadata.add_partitions(members[0].snapshot, "t", 2)
            txn = metadata.etcd.txn
            key = metadata.layout.topic("t")
            applied, _ = await metadata.etcd.transaction([txn.mod(key) == entry.mod_revision], [txn.delete(key)])
            assert not applied
        finally:
            for member in members:
                await member.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_partitions_go_only_to_groups_with_as_many_members_as_the_replication_factor(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    """Groups g1 (nodes 1, 2), g2 (node 3) and g3 (nodes 4, 5, 6): a factor of 2 places on g1 and g3 only, 3 on g3
    only, and 1 anywhere; a factor no group reaches has nowhere to go."""

    async def scenario() -> None:
        members = []
        for node, group in ((1, "g1"), (2, "g1"), (3, "g2"), (4, "g3"), (5, "g3"), (6, "g3")):
            settings = MemberSettings([etcd.endpoint], cluster_name, group, node, "127.0.0.1", 9000 + node, 5)
            member = ClusterMember(settings)
            await member.start()
            members.append(member)
        first = members[0]
        assert first.metadata is not None and first.view is not None
        try:
            snapshot = await first.view.wait_for(lambda s: len(s.brokers) == 6 and len(s.live_groups()) == 3, WAIT_S)
            two = await first.metadata.create_topic(snapshot, "two", 4, {}, replicas=2)
            assert sorted(set(two.placement)) == ["g1", "g3"]
            three = await first.metadata.create_topic(snapshot, "three", 2, {}, replicas=3)
            assert three.placement == ("g3", "g3")
            one = await first.metadata.create_topic(snapshot, "one", 3, {}, replicas=1)
            assert "g2" in one.placement  # a group of one member takes a factor of 1
            with pytest.raises(NoBrokerGroupsError):
                await first.metadata.create_topic(snapshot, "four", 1, {}, replicas=4)
        finally:
            for member in members:
                await member.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))
