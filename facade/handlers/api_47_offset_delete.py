"""OffsetDelete v0: delete a group's committed offsets for some partitions (KIP-496).

A group with members keeps the offsets of the topics it subscribes to (GROUP_SUBSCRIBED_TO_TOPIC per
partition); GROUP_ID_NOT_FOUND for a group with neither members nor offsets; NON_EMPTY_GROUP for a
group with members whose subscriptions are not the consumer protocol's. See ``facade/group/offsets.py``.
In a cluster, a group this broker does not coordinate is NOT_COORDINATOR (``coordination.py``).

Authorization: DELETE on the group (GROUP_AUTHORIZATION_FAILED), READ on each topic (TOPIC_AUTHORIZATION_FAILED
for its partitions, whose offsets stay).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.offset_delete import (
    OffsetDeleteRequest,
    OffsetDeleteResponse,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import TopicPartition

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register


def _error(request: OffsetDeleteRequest, code: ErrorCode) -> OffsetDeleteResponse:
    return OffsetDeleteResponse(error_code=code)


@register(47, 0, 0, _error)
def handle(ctx: RequestContext, request: OffsetDeleteRequest) -> OffsetDeleteResponse:
    ctx.check(AclOperation.DELETE, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    denied = {t.name for t in request.topics if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, t.name)}
    partitions = [
        TopicPartition(t.name, p.partition_index) for t in request.topics if t.name not in denied for p in t.partitions
    ]
    error, errors = ctx.broker.groups.offsets.delete(request.group_id, partitions)
    errors = dict(errors)
    errors.update(
        (TopicPartition(t.name, p.partition_index), ErrorCode.TOPIC_AUTHORIZATION_FAILED)
        for t in request.topics
        if t.name in denied
        for p in t.partitions
    )
    if error is not ErrorCode.NONE:
        return OffsetDeleteResponse(error_code=error)
    topics = [
        OffsetDeleteResponseTopic(
            name=topic.name,
            partitions=[
                OffsetDeleteResponsePartition(
                    partition_index=p.partition_index,
                    error_code=errors[TopicPartition(topic.name, p.partition_index)],
                )
                for p in topic.partitions
            ],
        )
        for topic in request.topics
    ]
    return OffsetDeleteResponse(error_code=ErrorCode.NONE, topics=topics)
