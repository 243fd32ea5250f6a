"""A share group's offsets as an administrator sees them (KIP-932's admin APIs): each share-partition's start
offset (SPSO) described, set, or its whole state deleted.

- **Describe** answers the SPSO of each share-partition the group has state for, ``-1`` for one it has none for
  (never fetched, or deleted).
- **Alter** sets the SPSO of share-partitions: the partition's state starts afresh there (no record in flight;
  the next fetch reads from it). Only while the group is **empty** (NON_EMPTY_GROUP): members would hold
  records of the state it replaces.
- **Delete** removes the state of whole topics, only while the group is empty; the next fetch of a partition
  starts it again from ``share.auto.offset.reset``.

Both changes are saved with the group's document (``persistence.py``), so a restart keeps them. A group id that
is not a share group's (unknown, or a classic or consumer group's) is GROUP_ID_NOT_FOUND, as Kafka answers.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping

from rockafka.facade.protocol.error_codes import ErrorCode

from .coordinator import Durable, ShareGroupCoordinator
from .inflight import SharePartition
from .model import PartitionKey, ShareGroup

#: The start offset answered for a share-partition without state.
NO_START_OFFSET = -1


class ShareOffsetsError(Exception):
    """A share group whose offsets cannot be described or changed: ``error_code`` says why (Kafka's code)."""

    def __init__(self, error_code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.error_code = error_code
        self.message = message


def share_group(coordinator: ShareGroupCoordinator, group_id: str) -> ShareGroup:
    """The share group of that id (``ShareOffsetsError`` GROUP_ID_NOT_FOUND when there is none)."""
    group = coordinator.groups.get(group_id)
    if group is not None:
        return group
    if coordinator.held_elsewhere(group_id):
        raise ShareOffsetsError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
    raise ShareOffsetsError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")


def empty_share_group(coordinator: ShareGroupCoordinator, group_id: str) -> ShareGroup:
    """The share group of that id, which must have no members (``ShareOffsetsError`` NON_EMPTY_GROUP)."""
    group = share_group(coordinator, group_id)
    if group.members:
        message = f"Share group {group_id} has {len(group.members)} members: its offsets change only when empty."
        raise ShareOffsetsError(ErrorCode.NON_EMPTY_GROUP, message)
    return group


def start_offset(group: ShareGroup, key: PartitionKey) -> int:
    partition = group.partitions.get(key)
    return NO_START_OFFSET if partition is None else partition.start


def partitions_with_state(group: ShareGroup) -> dict[uuid.UUID, list[int]]:
    """The share-partitions the group has state for: topic id -> sorted partition indexes."""
    found: dict[uuid.UUID, list[int]] = {}
    for topic_id, index in sorted(group.partitions):
        found.setdefault(topic_id, []).append(index)
    return found


def alter_start_offsets(
    coordinator: ShareGroupCoordinator, group: ShareGroup, offsets: Mapping[PartitionKey, int]
) -> Durable:
    """Start each share-partition afresh at its new SPSO and save the group (``StoreError`` if it cannot be)."""
    for key, offset in offsets.items():
        group.partitions[key] = SharePartition(offset)
    return coordinator.save(group) if offsets else None


def delete_topics(coordinator: ShareGroupCoordinator, group: ShareGroup, topic_ids: Iterable[uuid.UUID]) -> Durable:
    """Remove the state of every share-partition of these topics and save the group (``StoreError``)."""
    doomed = set(topic_ids)
    keys = [key for key in group.partitions if key[0] in doomed]
    for key in keys:
        del group.partitions[key]
    return coordinator.save(group) if keys else None
