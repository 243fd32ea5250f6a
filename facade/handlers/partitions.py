"""How a topic's partitions are laid out, as Metadata and DescribeTopicPartitions describe them, and which
topics a principal may see listed.

The leader, leader epoch and replicas of each partition come from the broker's topology (``facade/topology.py``):
on a single broker, every partition has one replica, on this broker, which leads it and is its whole ISR at
epoch 0 (there is no other replica to fail over to); in a cluster, the leader of the partition's broker group.
``__consumer_offsets`` and ``__transaction_state`` are the internal topics.
"""

from __future__ import annotations

from typing import TypedDict

from rockafka.facade.internal_topics import INTERNAL_TOPICS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import TopicInfo

from .context import RequestContext
from .replicas import all_topics


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
    """Partitions ``start`` up to (not including) ``stop`` (the last one by default), each with its leader,
    leader epoch and replicas from the broker's topology (the replicas are the whole ISR; none offline)."""
    node = ctx.broker.node_id
    topology = ctx.broker.topology
    end = info.partitions if stop is None else min(stop, info.partitions)
    fields = []
    for index in range(max(start, 0), end):
        place = topology.place(info.name, index, node)
        fields.append(
            PartitionFields(
                error_code=ErrorCode.NONE if place.leader >= 0 else ErrorCode.LEADER_NOT_AVAILABLE,
                partition_index=index,
                leader_id=place.leader,
                leader_epoch=place.epoch,
                replica_nodes=list(place.replicas),
                isr_nodes=list(place.isr),
                offline_replicas=[],
            )
        )
    return fields


def describable_topics(ctx: RequestContext) -> list[TopicInfo]:
    """Every topic (the internal one once shown) that the principal may DESCRIBE: Kafka lists no other."""
    return [info for info in all_topics(ctx) if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, info.name)]
