"""A share group (KIP-932) as its coordinator holds it: members, their assignments, and the share-partitions.

A share group's members do not own partitions: several may be assigned the same partition, and the records
of a partition are handed out one acquisition at a time (``inflight.py``). So there is no reconciliation:
each change of the membership, of a subscription or of the subscribed topics' partitions bumps the
**group epoch** and computes a new assignment at once, and a member's epoch is the group epoch it was last
told (a heartbeat at an older epoch than its own is fenced).
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from rockafka.facade.clock import Timer

from .inflight import SharePartition

#: A member's partitions: topic id -> partition indexes.
Assignment = Mapping[uuid.UUID, frozenset[int]]
#: A share-partition's key: the topic's id and the partition.
PartitionKey = tuple[uuid.UUID, int]

LEAVE_EPOCH = -1


class ShareGroupState(enum.Enum):
    """Kafka's share group states (ListGroups, ShareGroupDescribe)."""

    EMPTY = "Empty"
    STABLE = "Stable"


@dataclass(slots=True, eq=False)
class ShareMember:
    member_id: str
    client_id: str
    client_host: str
    rack_id: str | None
    subscribed_topic_names: tuple[str, ...]
    member_epoch: int = 0
    assignment: Assignment = field(default_factory=dict)
    session_timer: Timer | None = None


@dataclass(slots=True, eq=False)
class ShareGroup:
    group_id: str
    group_epoch: int = 0
    assignment_epoch: int = 0
    members: dict[str, ShareMember] = field(default_factory=dict)
    #: The subscribed topics as last assigned: name -> (topic id, partition count).
    topics: dict[str, tuple[uuid.UUID, int]] = field(default_factory=dict)
    partitions: dict[PartitionKey, SharePartition] = field(default_factory=dict)

    @property
    def state(self) -> ShareGroupState:
        return ShareGroupState.STABLE if self.members else ShareGroupState.EMPTY


def assign(group: ShareGroup) -> None:
    """Kafka's simple share assignor, in spirit: every partition of a subscribed topic goes to at least one of
    its subscribers; with more subscribers than partitions, the subscribers are spread over the partitions
    (so several members share a partition), otherwise the partitions over the subscribers."""
    assignments: dict[str, dict[uuid.UUID, set[int]]] = {m: {} for m in group.members}
    for name, (topic_id, count) in sorted(group.topics.items()):
        subscribers = sorted(m.member_id for m in group.members.values() if name in m.subscribed_topic_names)
        if not subscribers or count <= 0:
            continue
        for index in range(max(count, len(subscribers))):
            member_id = subscribers[index % len(subscribers)]
            assignments[member_id].setdefault(topic_id, set()).add(index % count)
    for member_id, member in group.members.items():
        member.assignment = {topic: frozenset(parts) for topic, parts in assignments[member_id].items()}
    group.assignment_epoch = group.group_epoch
