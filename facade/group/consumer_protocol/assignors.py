"""The server-side assignors of KIP-848 consumer groups: ``uniform`` and ``range`` (``group.consumer.assignors``).

An assignor maps the group's members to partitions of the topics they subscribe to, given each member's
subscribed topic ids, every subscribed topic's partition count, and the members' current assignments. It
runs on the coordinator whenever the group epoch moves past the assignment epoch; reconciliation
(``reconciliation.py``) then moves each member towards its target without ever handing a partition to
two members.

- **uniform** (Kafka's default): partitions spread as evenly as the subscriptions allow, each member keeping
  what it owns while it is within its share. Every member first keeps up to ``n // m`` of its current
  partitions (``n`` partitions, ``m`` members), then ``n % m`` members keep one more; the rest go one at a
  time to the eligible member holding fewest (ties: the smaller member id). With identical subscriptions
  the result is exactly balanced (counts differ by at most one); with differing ones it is a greedy balance.
- **range**: per topic, the subscribed members in member-id order each take a contiguous range of
  partitions, the first ``partitions % members`` one more (Kafka's range assignor, per topic). Not sticky.

**Rack awareness** (``Racks``): when every member names its rack (``client.rack`` / ``rack_id``) and every
subscribed partition's replicas have racks, both assignors prefer giving a partition to a member in one of its
replicas' racks, without changing how many partitions each member gets: in ``uniform`` a member keeps the
partitions it owns on its own rack before the others, then the partitions nobody keeps go first to members of a
matching rack still under their share, then the rest as before; ``range`` gives
each member, per topic, first the partitions of its rack within its range's size, then fills up from the
remaining partitions in order (ranges stay contiguous where racks do not interfere). Here a partition's
replicas are its broker group's members and their rack is the group (DescribeCluster shows it); a single
broker reports no rack (Metadata's racks are null), so rack awareness applies only in a cluster.

Assignors are pure functions; the coordinator calls them on the event loop with the group's data.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from .model import grouped

#: A member's partitions: topic id -> partition indexes.
Assignment = Mapping[uuid.UUID, frozenset[int]]
Partition = tuple[uuid.UUID, int]


@dataclass(frozen=True, slots=True)
class Racks:
    """Where the members and the partitions are: each member's rack, each partition's replicas' racks."""

    members: Mapping[str, str]
    partitions: Mapping[Partition, frozenset[str]]

    def matches(self, member: str, partition: Partition) -> bool:
        return self.members.get(member) in self.partitions.get(partition, frozenset())


#: (subscriptions: member id -> subscribed topic ids, partition counts: topic id -> count,
#:  current assignments: member id -> assignment, racks or None) -> target assignments: member id -> assignment.
Assignor = Callable[
    [Mapping[str, frozenset[uuid.UUID]], Mapping[uuid.UUID, int], Mapping[str, Assignment], Racks | None],
    dict[str, dict[uuid.UUID, frozenset[int]]],
]


def uniform(
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    partition_counts: Mapping[uuid.UUID, int],
    current: Mapping[str, Assignment],
    racks: Racks | None = None,
) -> dict[str, dict[uuid.UUID, frozenset[int]]]:
    members = sorted(subscriptions)
    if not members:
        return {}
    partitions = sorted(
        (topic, index)
        for topic in {t for topics in subscriptions.values() for t in topics}
        for index in range(partition_counts.get(topic, 0))
    )
    chosen: dict[str, list[Partition]] = {member: [] for member in members}
    owner: dict[Partition, str] = {}
    minimum, extra = divmod(len(partitions), len(members))
    kept_over: dict[str, list[Partition]] = {}
    for member in members:
        owned = [
            p for p in _partitions(current.get(member, {})) if _eligible(subscriptions, member, p, partition_counts)
        ]
        if racks is not None:
            owned.sort(key=lambda p: not racks.matches(member, p))  # its own rack's partitions are kept first
        for partition in owned[:minimum]:
            chosen[member].append(partition)
            owner[partition] = member
        kept_over[member] = owned[minimum:]
    for member in members:
        if extra == 0:
            break
        if kept_over[member]:
            partition = kept_over[member][0]
            chosen[member].append(partition)
            owner[partition] = member
            extra -= 1
    if racks is not None:
        extra = _place_by_rack(partitions, members, subscriptions, racks, chosen, owner, minimum, extra)
    for partition in partitions:
        if partition in owner:
            continue
        eligible = [member for member in members if partition[0] in subscriptions[member]]
        if eligible:
            chosen[min(eligible, key=lambda member: (len(chosen[member]), member))].append(partition)
    return {member: grouped(set(chosen[member])) for member in members}


def _place_by_rack(
    partitions: list[Partition],
    members: list[str],
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    racks: Racks,
    chosen: dict[str, list[Partition]],
    owner: dict[Partition, str],
    minimum: int,
    extra: int,
) -> int:
    """Give the partitions nobody keeps to members of a matching rack while they are under their share (``minimum``,
    or one more while ``extra`` such places remain); how many extra places remain."""
    for partition in partitions:
        if partition in owner:
            continue
        matching = [
            member
            for member in members
            if partition[0] in subscriptions[member]
            and racks.matches(member, partition)
            and (len(chosen[member]) < minimum or (len(chosen[member]) == minimum and extra > 0))
        ]
        if matching:
            member = min(matching, key=lambda m: (len(chosen[m]), m))
            if len(chosen[member]) == minimum:
                extra -= 1
            chosen[member].append(partition)
            owner[partition] = member
    return extra


def range_assignor(
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    partition_counts: Mapping[uuid.UUID, int],
    current: Mapping[str, Assignment],
    racks: Racks | None = None,
) -> dict[str, dict[uuid.UUID, frozenset[int]]]:
    chosen: dict[str, list[Partition]] = {member: [] for member in subscriptions}
    for topic in sorted({t for topics in subscriptions.values() for t in topics}):
        members = sorted(member for member, topics in subscriptions.items() if topic in topics)
        count = partition_counts.get(topic, 0)
        share, extra = divmod(count, len(members))
        sizes = {member: share + (1 if position < extra else 0) for position, member in enumerate(members)}
        remaining = [(topic, index) for index in range(count)]
        if racks is not None:
            for member in members:
                own_rack = [p for p in remaining if racks.matches(member, p)][: sizes[member]]
                chosen[member].extend(own_rack)
                remaining = [p for p in remaining if p not in own_rack]
        for member in members:
            missing = sizes[member] - sum(1 for p in chosen[member] if p[0] == topic)
            chosen[member].extend(remaining[:missing])
            remaining = remaining[missing:]
    return {member: grouped(set(partitions)) for member, partitions in chosen.items()}


ASSIGNORS: Final[dict[str, Assignor]] = {"uniform": uniform, "range": range_assignor}


def assignor_name(configured: str) -> str:
    """The short name of a configured assignor: ``uniform``, or Kafka's class name ``...UniformAssignor``."""
    simple = configured.strip().rsplit(".", 1)[-1]
    return simple.removesuffix("Assignor").lower()


def _eligible(
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    member: str,
    partition: Partition,
    partition_counts: Mapping[uuid.UUID, int],
) -> bool:
    topic, index = partition
    return topic in subscriptions[member] and index < partition_counts.get(topic, 0)


def _partitions(assignment: Assignment) -> list[Partition]:
    return sorted((topic, index) for topic, indexes in assignment.items() for index in indexes)
