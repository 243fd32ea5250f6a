"""DeleteShareGroupOffsets v0: remove an empty share group's state of whole topics (KIP-932).

Version notes: v0 is the version Kafka 4.1 released; it names topics, not partitions. The whole request fails
(its top-level error code, repeated on every topic) with GROUP_AUTHORIZATION_FAILED, INVALID_GROUP_ID,
NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, GROUP_ID_NOT_FOUND (no share group of that id), NON_EMPTY_GROUP (the
group has members) or KAFKA_STORAGE_ERROR (the change could not be saved). Each topic otherwise:
TOPIC_AUTHORIZATION_FAILED, UNKNOWN_TOPIC_OR_PARTITION (no such topic), else the state of all its share-partitions
is removed (none to remove is no error): their next fetch starts them again from ``share.auto.offset.reset``. The
answer waits until the change is durable under the sync flush policy; a restart keeps it. The rules are in
``facade/group/share/offsets.py``.

Authorization: DELETE on the group; READ on each topic (as Kafka's OffsetDelete).
"""

from __future__ import annotations

import uuid

from rockafka.facade.group.share.offsets import delete_topics
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.delete_share_group_offsets import (
    DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsResponse,
    DeleteShareGroupOffsetsResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .registry import register
from .share_offsets import NO_TOPIC_ID, changeable_group, saved, topic_named

Topic = DeleteShareGroupOffsetsResponseTopic


def _error(request: DeleteShareGroupOffsetsRequest, code: ErrorCode) -> DeleteShareGroupOffsetsResponse:
    topics = [Topic(topic_name=t.topic_name, topic_id=NO_TOPIC_ID, error_code=code) for t in request.topics]
    return DeleteShareGroupOffsetsResponse(error_code=code, responses=topics)


@register(92, 0, 0, _error)
async def handle(ctx: RequestContext, request: DeleteShareGroupOffsetsRequest) -> DeleteShareGroupOffsetsResponse:
    ctx.check(AclOperation.DELETE, ResourceType.GROUP, request.group_id)
    group = changeable_group(ctx, request.group_id)
    doomed: list[uuid.UUID] = []
    answers = [_topic(ctx, topic.topic_name, doomed) for topic in request.topics]
    if not await saved(request.group_id, lambda: delete_topics(ctx.broker.groups.share, group, doomed)):
        return _error(request, ErrorCode.KAFKA_STORAGE_ERROR)
    return DeleteShareGroupOffsetsResponse(responses=answers)


def _topic(ctx: RequestContext, name: str, doomed: list[uuid.UUID]) -> Topic:
    """One topic's answer; its id is added to ``doomed`` when its state is to be removed."""
    if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name):
        return Topic(topic_name=name, topic_id=NO_TOPIC_ID, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    info = topic_named(ctx, name)
    if info is None:
        message = f"Topic {name} does not exist."
        return Topic(
            topic_name=name,
            topic_id=NO_TOPIC_ID,
            error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            error_message=message,
        )
    doomed.append(info.topic_id)
    return Topic(topic_name=name, topic_id=info.topic_id)
