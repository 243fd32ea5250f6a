"""Waiting, through a watch, until a cluster serves (or any state of it): for ``rockafka cluster up`` and
``rockafka.testing.Cluster``.

A cluster serves when the wanted brokers are registered, each leads a group (the controller gave it the
leadership) and a controller is elected. The wait watches etcd (no polling) and is bounded by a timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .etcd import Etcd
from .layout import KeyLayout
from .snapshot import ClusterSnapshot
from .view import ClusterView


def serving(snapshot: ClusterSnapshot, nodes: Sequence[int]) -> bool:
    """Whether every node of ``nodes`` is registered and leads its group, and a controller is elected."""
    leaders = {state.leader for state in snapshot.groups.values()}
    return snapshot.controller is not None and all(node in snapshot.brokers and node in leaders for node in nodes)


async def wait_until_serving(endpoint: str, cluster_name: str, nodes: Sequence[int], timeout_s: float) -> None:
    """Return once :func:`serving` holds (TimeoutError after ``timeout_s``)."""
    await wait_for_snapshot(endpoint, cluster_name, lambda snapshot: serving(snapshot, nodes), timeout_s)


async def wait_for_snapshot(
    endpoint: str, cluster_name: str, predicate: Callable[[ClusterSnapshot], bool], timeout_s: float
) -> ClusterSnapshot:
    """The cluster's snapshot once ``predicate`` holds for it (TimeoutError after ``timeout_s``): a broker's
    registration gone (its lease expired), a partition's leader known."""
    etcd = await Etcd.connect([endpoint])
    view = ClusterView(etcd, KeyLayout(cluster_name))
    try:
        await view.start()
        await view.wait_for(predicate, timeout_s)
        return view.snapshot
    finally:
        await view.stop()
        await etcd.close()
