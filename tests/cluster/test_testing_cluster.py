"""rockafka.testing.Cluster: brokers that are killed, restarted and paused leave and rejoin the cluster."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rockafka.cluster import NO_LEADER, ClusterSnapshot
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.layout import KeyLayout
from rockafka.cluster.view import ClusterView
from rockafka.testing import Cluster

WAIT_S = 30.0


def _wait(cluster: Cluster, predicate: Callable[[ClusterSnapshot], bool]) -> ClusterSnapshot:
    async def watch() -> ClusterSnapshot:
        etcd = await Etcd.connect([cluster.etcd.endpoint])
        view = ClusterView(etcd, KeyLayout(cluster.name))
        try:
            await view.start()
            return await view.wait_for(predicate, WAIT_S)
        finally:
            await view.stop()
            await etcd.close()

    return asyncio.run(watch())


def test_a_killed_broker_leaves_within_its_lease_and_rejoins_with_the_next_leader_epoch() -> None:
    with Cluster(groups=2, lease_ttl_ms=1000) as cluster:
        start = _wait(cluster, lambda s: s.groups["group-2"].leader == 2)
        assert start.groups["group-2"].epoch == 0
        cluster.kill(2)
        gone = _wait(cluster, lambda s: 2 not in s.brokers and s.groups["group-2"].leader == NO_LEADER)
        assert gone.groups["group-2"].epoch == 1
        cluster.start_broker(2)
        cluster.wait_ready()
        back = _wait(cluster, lambda s: s.groups["group-2"].leader == 2)
        assert back.groups["group-2"].epoch == 2


def test_a_paused_broker_is_dropped_when_its_lease_runs_out_and_registers_again_when_resumed() -> None:
    with Cluster(groups=2, lease_ttl_ms=1000) as cluster:
        cluster.pause(1)
        try:
            gone = _wait(cluster, lambda s: 1 not in s.brokers and s.groups["group-1"].leader == NO_LEADER)
        finally:
            cluster.resume(1)
        assert gone.controller == 2  # the paused controller's term ended with its lease
        back = _wait(cluster, lambda s: 1 in s.brokers and s.groups["group-1"].leader == 1)
        # every change of leader grows the epoch; with a 1 s lease a slow machine may see the resumed broker's
        # first lease run out once more before it refreshes, so "grew" is the invariant, not "grew by exactly one"
        assert back.groups["group-1"].epoch > gone.groups["group-1"].epoch > 0
        assert back.controller == 2


def test_a_group_of_two_members_starts_led_by_the_lowest_and_a_restarted_follower_rejoins_as_follower() -> None:
    with Cluster(groups=1, replicas=2, lease_ttl_ms=1000) as cluster:
        start = _wait(cluster, lambda s: s.groups["group-1"].leader == 1 and 2 in s.brokers)
        assert start.group_members("group-1") == [1, 2] and 1 in start.groups["group-1"].in_sync
        epoch = start.groups["group-1"].epoch
        cluster.restart(2)  # returns once 2 is registered again: it does not lead
        after = _wait(cluster, lambda s: 2 in s.brokers)
        assert (after.groups["group-1"].leader, after.groups["group-1"].epoch) == (1, epoch)
