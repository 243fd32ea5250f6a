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

Assignors are pure functions; the coordinator calls them on the event loop with the group's data.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Final

from .model import grouped

#: A member's partitions: topic id -> partition indexes.
Assignment = Mapping[uuid.UUID, frozenset[int]]
Partition = tuple[uuid.UUID, int]

#: (subscriptions: member id -> subscribed topic ids, partition counts: topic id -> count,
#:  current assignments: member id -> assignment) -> target assignments: member id -> assignment.
Assignor = Callable[
    [Mapping[str, frozenset[uuid.UUID]], Mapping[uuid.UUID, int], Mapping[str, Assignment]],
    dict[str, dict[uuid.UUID, frozenset[int]]],
]


def uniform(
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    partition_counts: Mapping[uuid.UUID, int],
    current: Mapping[str, Assignment],
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
    for partition in partitions:
        if partition in owner:
            continue
        eligible = [member for member in members if partition[0] in subscriptions[member]]
        if eligible:
            chosen[min(eligible, key=lambda member: (len(chosen[member]), member))].append(partition)
    return {member: grouped(set(chosen[member])) for member in members}


def range_assignor(
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    partition_counts: Mapping[uuid.UUID, int],
    current: Mapping[str, Assignment],
) -> dict[str, dict[uuid.UUID, frozenset[int]]]:
    chosen: dict[str, list[Partition]] = {member: [] for member in subscriptions}
    for topic in sorted({t for topics in subscriptions.values() for t in topics}):
        members = sorted(member for member, topics in subscriptions.items() if topic in topics)
        count = partition_counts.get(topic, 0)
        share, extra = divmod(count, len(members))
        start = 0
        for position, member in enumerate(members):
            size = share + (1 if position < extra else 0)
            chosen[member].extend((topic, index) for index in range(start, start + size))
            start += size
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
