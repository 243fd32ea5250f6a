"""Where new partitions go: spread over the broker groups, each to the group holding the fewest partitions.

Pure functions over counts; the cluster's counts come from ``ClusterSnapshot.partition_counts``. Ties go to
the group whose name sorts first, so the same inputs always place the same way (a topic of N partitions over
G equally loaded groups lands round-robin: partition i on group i mod G).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from .errors import NoBrokerGroupsError


def place_partitions(count: int, groups: Iterable[str], load: Mapping[str, int]) -> tuple[str, ...]:
    """The group of each of ``count`` new partitions, over ``groups`` (the live ones), given each group's
    current ``load`` (partitions held; absent means 0). Each partition goes to the least loaded group."""
    if count <= 0:
        return ()
    heap = [(load.get(name, 0), name) for name in set(groups)]
    if not heap:
        raise NoBrokerGroupsError("no broker group has a live leader: start a broker before creating topics")
    heapq.heapify(heap)
    placed: list[str] = []
    for _ in range(count):
        held, name = heapq.heappop(heap)
        placed.append(name)
        heapq.heappush(heap, (held + 1, name))
    return tuple(placed)
