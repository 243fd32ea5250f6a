"""OffsetForLeaderEpoch v0-4: where a leader epoch ends in a partition, from the store's epoch file.

A consumer that fetched a record of epoch *e* asks, after a leader change, where *e* ends on the leader now
(KIP-320; librdkafka and the Java client do): an end offset below its position means the log was truncated
under it. A follower will ask the same to find where its log diverged. The answer (``store.epochs.end_offset``,
Kafka's rules): for the current epoch, the log end offset; for an older one, the start offset of the next newer
epoch the partition has, with the newest epoch at or below the one asked; for an unknown newer epoch (or -1),
epoch -1 and end offset -1, error NONE.

``current_leader_epoch`` (v2+) fences a stale or early caller (``handlers/leadership.py``), before leadership is
checked, as Kafka does: older than the partition's epoch (what Metadata reports: 0 on a single broker; in a
cluster, the group's), FENCED_LEADER_EPOCH; newer, UNKNOWN_LEADER_EPOCH; -1 skips the check. v0 answers without
the epoch (its response has no field for it); v3 adds ``replica_id``, which is not needed here (every caller
reads from the leader). Kafka 4.0 serves v2-4 only.

Authorization: CLUSTER_ACTION on the cluster (a broker), else DESCRIBE on each topic (TOPIC_AUTHORIZATION_FAILED
for its partitions). An unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION; in a cluster, a partition this
broker does not lead: NOT_LEADER_OR_FOLLOWER.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.offset_for_leader_epoch import (
    EpochEndOffset,
    OffsetForLeaderEpochRequest,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderPartition,
    OffsetForLeaderTopicResult,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError

from ..errors import store_error_code
from .context import RequestContext
from .leadership import epoch_error
from .registry import register


def _error(request: OffsetForLeaderEpochRequest, code: ErrorCode) -> OffsetForLeaderEpochResponse:
    return OffsetForLeaderEpochResponse(
        topics=[
            OffsetForLeaderTopicResult(
                topic=topic.topic,
                partitions=[EpochEndOffset(error_code=code, partition=p.partition) for p in topic.partitions],
            )
            for topic in request.topics
        ]
    )


@register(23, 0, 4, _error)
def handle(ctx: RequestContext, request: OffsetForLeaderEpochRequest) -> OffsetForLeaderEpochResponse:
    broker = ctx.broker
    cluster_action = ctx.authorize(AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER)
    led = broker.topology.led
    topics = []
    for topic in request.topics:
        if not (cluster_action or ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.topic)):
            partitions = [_refused(p, ErrorCode.TOPIC_AUTHORIZATION_FAILED) for p in topic.partitions]
        else:
            held = None if led is None else led.get(topic.topic, frozenset())
            partitions = [_answer(ctx, topic.topic, p, held) for p in topic.partitions]
        topics.append(OffsetForLeaderTopicResult(topic=topic.topic, partitions=partitions))
    return OffsetForLeaderEpochResponse(topics=topics)


def _refused(part: OffsetForLeaderPartition, code: ErrorCode) -> EpochEndOffset:
    return EpochEndOffset(error_code=code, partition=part.partition)


def _answer(
    ctx: RequestContext, topic: str, part: OffsetForLeaderPartition, held: frozenset[int] | None
) -> EpochEndOffset:
    """One partition's answer; ``held``: the topic's partitions this broker leads (None: every one)."""
    try:
        found = ctx.broker.store.epochs.end_offset(topic, part.partition, part.leader_epoch)
    except StoreError as exc:
        return _refused(part, store_error_code(exc))
    fenced = epoch_error(ctx.broker.topology, topic, part.partition, part.current_leader_epoch)
    if fenced:
        return _refused(part, fenced)
    if held is not None and part.partition not in held:
        return _refused(part, ErrorCode.NOT_LEADER_OR_FOLLOWER)
    return EpochEndOffset(
        error_code=ErrorCode.NONE, partition=part.partition, leader_epoch=found.epoch, end_offset=found.end_offset
    )
