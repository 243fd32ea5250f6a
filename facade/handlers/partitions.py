"""How a topic's partitions are laid out on this one-broker cluster, as Metadata and DescribeTopicPartitions
describe them, and which topics a principal may see listed.

Every partition has one replica, on this broker, which leads it and is its whole ISR; leader epochs
start at 0 and never change (there is no other replica to fail over to). ``__consumer_offsets`` is the
one internal topic.
"""

from __future__ import annotations

from typing import Final, TypedDict

from rockafka.facade.group import OFFSETS_TOPIC
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import TopicInfo

from .context import RequestContext
from .replicas import all_topics

INTERNAL_TOPICS: Final = frozenset({OFFSETS_TOPIC})
#: The leader epoch of every partition (ListOffsets v4+ reports it too).
LEADER_EPOCH: Final = 0


class PartitionFields(TypedDict):
    """One partition as Metadata and DescribeTopicPartitions answer it (keyword arguments of both messages)."""

    error_code: int
    partition_index: int
    leader_id: int
    leader_epoch: int
    replica_nodes: list[int]
    isr_nodes: list[int]
    offline_replicas: list[int]


def is_internal(name: str) -> bool:
    return name in INTERNAL_TOPICS


def partition_fields(
    ctx: RequestContext, info: TopicInfo, start: int = 0, stop: int | None = None
) -> list[PartitionFields]:
    """Partitions ``start`` up to (not including) ``stop`` (the last one by default): led by this broker, its
    only replica and whole ISR, none offline."""
    node = ctx.broker.node_id
    end = info.partitions if stop is None else min(stop, info.partitions)
    return [
        PartitionFields(
            error_code=ErrorCode.NONE,
            partition_index=index,
            leader_id=node,
            leader_epoch=LEADER_EPOCH,
            replica_nodes=[node],
            isr_nodes=[node],
            offline_replicas=[],
        )
        for index in range(max(start, 0), end)
    ]


def describable_topics(ctx: RequestContext) -> list[TopicInfo]:
    """Every topic (the internal one once shown) that the principal may DESCRIBE: Kafka lists no other."""
    return [info for info in all_topics(ctx) if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, info.name)]
