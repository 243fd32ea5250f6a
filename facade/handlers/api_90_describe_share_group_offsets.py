"""DescribeShareGroupOffsets v0: the start offset (SPSO) of a share group's share-partitions (KIP-932).

Version notes: v0 is the version Kafka 4.1 released (v1's lag, KIP-1226, is not implemented). Each group is
answered on its own: GROUP_AUTHORIZATION_FAILED, INVALID_GROUP_ID (an empty id), NOT_COORDINATOR (a group this
broker does not coordinate, in a cluster), COORDINATOR_NOT_AVAILABLE (its coordinator not started),
GROUP_ID_NOT_FOUND (no share group of that id: unknown, or a classic or consumer group's). Null topics: every
share-partition the group has state for. Named topics: each partition's SPSO and its leader epoch, or -1 and -1
for a partition the group has no state for; UNKNOWN_TOPIC_OR_PARTITION for a topic or partition that does not
exist. The rules are in ``facade/group/share/offsets.py``.

Authorization: DESCRIBE on the group; DESCRIBE on each topic (TOPIC_AUTHORIZATION_FAILED for its partitions;
a denied topic is left out of a null-topics answer).
"""

from __future__ import annotations

from collections.abc import Sequence

from rockafka.facade.group.share import ShareGroup
from rockafka.facade.group.share.offsets import (
    NO_START_OFFSET,
    ShareOffsetsError,
    partitions_with_state,
    share_group,
    start_offset,
)
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_share_group_offsets import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsResponse,
    DescribeShareGroupOffsetsResponseGroup,
    DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import group_error
from .registry import register
from .share_offsets import NO_TOPIC_ID, topic_named, topic_with_id

Answer = DescribeShareGroupOffsetsResponseGroup


def _error(request: DescribeShareGroupOffsetsRequest, code: ErrorCode) -> DescribeShareGroupOffsetsResponse:
    return DescribeShareGroupOffsetsResponse(
        groups=[Answer(group_id=g.group_id, error_code=code) for g in request.groups]
    )


@register(90, 0, 0, _error)
def handle(ctx: RequestContext, request: DescribeShareGroupOffsetsRequest) -> DescribeShareGroupOffsetsResponse:
    return DescribeShareGroupOffsetsResponse(groups=[_describe(ctx, asked) for asked in request.groups])


def _describe(ctx: RequestContext, asked: DescribeShareGroupOffsetsRequestGroup) -> Answer:
    group_id = asked.group_id
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
        return Answer(group_id=group_id, error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED)
    if not group_id:
        return Answer(group_id=group_id, error_code=ErrorCode.INVALID_GROUP_ID, error_message="GroupId can't be empty.")
    error = group_error(ctx, group_id)
    if error is not ErrorCode.NONE:
        return Answer(group_id=group_id, error_code=error)
    share = ctx.broker.groups.share
    if not share.active:
        return Answer(group_id=group_id, error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE)
    try:
        group = share_group(share, group_id)
    except ShareOffsetsError as exc:
        return Answer(group_id=group_id, error_code=exc.error_code, error_message=exc.message)
    if asked.topics is None:
        topics = _all_with_state(ctx, group)
    else:
        topics = [_topic(ctx, group, t.topic_name, t.partitions) for t in asked.topics]
    return Answer(group_id=group_id, topics=topics)


def _all_with_state(ctx: RequestContext, group: ShareGroup) -> list[DescribeShareGroupOffsetsResponseTopic]:
    answered = []
    for topic_id, partitions in partitions_with_state(group).items():
        info = topic_with_id(ctx, topic_id)
        if info is not None and ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, info.name):
            answered.append(_topic(ctx, group, info.name, partitions))
    return sorted(answered, key=lambda t: t.topic_name)


def _topic(
    ctx: RequestContext, group: ShareGroup, name: str, partitions: Sequence[int]
) -> DescribeShareGroupOffsetsResponseTopic:
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name):
        return _failed(name, partitions, ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    info = topic_named(ctx, name)
    if info is None:
        return _failed(name, partitions, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    answered = []
    for index in partitions:
        if not 0 <= index < info.partitions:
            answered.append(_partition_error(index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION))
            continue
        start = start_offset(group, (info.topic_id, index))
        epoch = NO_START_OFFSET if start == NO_START_OFFSET else _leader_epoch(ctx, name, index)
        answered.append(
            DescribeShareGroupOffsetsResponsePartition(partition_index=index, start_offset=start, leader_epoch=epoch)
        )
    return DescribeShareGroupOffsetsResponseTopic(topic_name=name, topic_id=info.topic_id, partitions=answered)


def _leader_epoch(ctx: RequestContext, topic: str, index: int) -> int:
    return ctx.broker.topology.place(topic, index, ctx.broker.node_id).epoch


def _failed(name: str, partitions: Sequence[int], code: ErrorCode) -> DescribeShareGroupOffsetsResponseTopic:
    answered = [_partition_error(index, code) for index in partitions]
    return DescribeShareGroupOffsetsResponseTopic(topic_name=name, topic_id=NO_TOPIC_ID, partitions=answered)


def _partition_error(index: int, code: ErrorCode) -> DescribeShareGroupOffsetsResponsePartition:
    return DescribeShareGroupOffsetsResponsePartition(
        partition_index=index, start_offset=NO_START_OFFSET, leader_epoch=NO_START_OFFSET, error_code=code
    )
