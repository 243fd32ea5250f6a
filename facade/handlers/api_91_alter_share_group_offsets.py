"""AlterShareGroupOffsets v0: set the start offset (SPSO) of an empty share group's share-partitions (KIP-932).

Version notes: v0 is the version Kafka 4.1 released. The whole request fails (its top-level error code, repeated
on every partition) with GROUP_AUTHORIZATION_FAILED, INVALID_GROUP_ID, NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
GROUP_ID_NOT_FOUND (no share group of that id), NON_EMPTY_GROUP (the group has members) or KAFKA_STORAGE_ERROR
(the change could not be saved). Each partition otherwise: TOPIC_AUTHORIZATION_FAILED,
UNKNOWN_TOPIC_OR_PARTITION (no such topic or partition), INVALID_REQUEST (a negative offset), else its
share-partition starts afresh at the offset given. The answer waits until the change is durable under the sync
flush policy; a restart keeps it. The rules are in ``facade/group/share/offsets.py``.

Authorization: READ on the group; READ on each topic.
"""

from __future__ import annotations

from rockafka.facade.group.share import PartitionKey
from rockafka.facade.group.share.offsets import alter_start_offsets
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_share_group_offsets import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestTopic,
    AlterShareGroupOffsetsResponse,
    AlterShareGroupOffsetsResponsePartition,
    AlterShareGroupOffsetsResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .registry import register
from .share_offsets import NO_TOPIC_ID, changeable_group, saved, topic_named

Partition = AlterShareGroupOffsetsResponsePartition


def _error(request: AlterShareGroupOffsetsRequest, code: ErrorCode) -> AlterShareGroupOffsetsResponse:
    topics = [
        AlterShareGroupOffsetsResponseTopic(
            topic_name=t.topic_name,
            topic_id=NO_TOPIC_ID,
            partitions=[Partition(partition_index=p.partition_index, error_code=code) for p in t.partitions],
        )
        for t in request.topics
    ]
    return AlterShareGroupOffsetsResponse(error_code=code, responses=topics)


@register(91, 0, 0, _error)
async def handle(ctx: RequestContext, request: AlterShareGroupOffsetsRequest) -> AlterShareGroupOffsetsResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    group = changeable_group(ctx, request.group_id)
    offsets: dict[PartitionKey, int] = {}
    answers = [_topic(ctx, topic, offsets) for topic in request.topics]
    if not await saved(request.group_id, lambda: alter_start_offsets(ctx.broker.groups.share, group, offsets)):
        return _error(request, ErrorCode.KAFKA_STORAGE_ERROR)
    return AlterShareGroupOffsetsResponse(responses=answers)


def _topic(
    ctx: RequestContext, topic: AlterShareGroupOffsetsRequestTopic, offsets: dict[PartitionKey, int]
) -> AlterShareGroupOffsetsResponseTopic:
    """One topic's answer; the partitions to alter are added to ``offsets``."""
    name = topic.topic_name
    info = topic_named(ctx, name)
    denied = not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name)
    answered = []
    for part in topic.partitions:
        index = part.partition_index
        if denied:
            answered.append(Partition(partition_index=index, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED))
        elif info is None or not 0 <= index < info.partitions:
            message = f"Topic {name} has no partition {index}."
            answered.append(
                Partition(partition_index=index, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, error_message=message)
            )
        elif part.start_offset < 0:
            message = f"Start offset {part.start_offset} is negative."
            answered.append(
                Partition(partition_index=index, error_code=ErrorCode.INVALID_REQUEST, error_message=message)
            )
        else:
            offsets[(info.topic_id, index)] = part.start_offset
            answered.append(Partition(partition_index=index))
    topic_id = NO_TOPIC_ID if info is None or denied else info.topic_id
    return AlterShareGroupOffsetsResponseTopic(topic_name=name, topic_id=topic_id, partitions=answered)
