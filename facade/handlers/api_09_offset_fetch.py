"""OffsetFetch v0-9: a group's committed offsets (-1 where none), for given partitions or all of them.

Version notes: v0-1 name the partitions and carry errors per partition only; v2+ accept a null topic
list (every committed partition) and add a top-level error; v5+ answer the leader epoch; v6 is the
first flexible version; v7+ carry ``require_stable`` (a partition whose commit is not yet durable
answers UNSTABLE_OFFSET_COMMIT, which clients retry); v8+ ask for several groups at once (``groups``)
and answer each; v9's member id and epoch belong to KIP-848 groups: a member of a consumer group must ask at
its current epoch (STALE_MEMBER_EPOCH; UNKNOWN_MEMBER_ID for a member not in it); they are not checked for
classic groups, nor when no member is named (admin tools).

Authorization: DESCRIBE on the group (GROUP_AUTHORIZATION_FAILED), DESCRIBE on each topic: a topic the
principal may not describe is left out of an every-topic answer, TOPIC_AUTHORIZATION_FAILED when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rockafka.facade.group import FetchedOffset
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.offset_fetch import (
    OffsetFetchRequest,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import TopicPartition

from .context import RequestContext
from .coordination import check_group_coordinator, coordinates_group
from .registry import register


def _error(request: OffsetFetchRequest, code: ErrorCode) -> OffsetFetchResponse:
    if request.groups:
        return OffsetFetchResponse(
            groups=[OffsetFetchResponseGroup(group_id=group.group_id, error_code=code) for group in request.groups]
        )
    failed = [FetchedOffset(key.topic, key.partition, -1, -1, "", code) for key in _partitions(request.topics) or ()]
    return OffsetFetchResponse(topics=_topics(failed), error_code=code)


@register(9, 0, 9, _error)
def handle(ctx: RequestContext, request: OffsetFetchRequest) -> OffsetFetchResponse:
    offsets = ctx.broker.groups.offsets
    if ctx.api_version >= 8:
        groups = []
        for group in request.groups:
            if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group.group_id):
                denied = ErrorCode.GROUP_AUTHORIZATION_FAILED
                groups.append(OffsetFetchResponseGroup(group_id=group.group_id, error_code=denied))
                continue
            if not coordinates_group(ctx, group.group_id):
                elsewhere = ErrorCode.NOT_COORDINATOR
                groups.append(OffsetFetchResponseGroup(group_id=group.group_id, error_code=elsewhere))
                continue
            stale = ctx.broker.groups.consumer.check_fetch(group.group_id, group.member_id, group.member_epoch)
            if stale is not ErrorCode.NONE:
                groups.append(OffsetFetchResponseGroup(group_id=group.group_id, error_code=stale))
                continue
            error, fetched = offsets.fetch(group.group_id, _partitions(group.topics), request.require_stable)
            fetched = _authorized(ctx, fetched, group.topics is None)
            groups.append(
                OffsetFetchResponseGroup(group_id=group.group_id, topics=_topics_v8(fetched), error_code=error)
            )
        return OffsetFetchResponse(groups=groups)
    ctx.check(AclOperation.DESCRIBE, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    partitions = _partitions(request.topics)
    error, fetched = offsets.fetch(request.group_id, partitions, request.require_stable)
    fetched = _authorized(ctx, fetched, partitions is None)
    if error is not ErrorCode.NONE:
        fetched = [FetchedOffset(key.topic, key.partition, -1, -1, "", error) for key in partitions or ()]
    return OffsetFetchResponse(topics=_topics(fetched), error_code=error)


def _authorized(ctx: RequestContext, fetched: Sequence[FetchedOffset], every_topic: bool) -> list[FetchedOffset]:
    """Offsets of topics the principal may not DESCRIBE: left out of an every-topic answer, refused otherwise."""
    allowed = {
        topic: ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic) for topic in {f.topic for f in fetched}
    }
    denied = ErrorCode.TOPIC_AUTHORIZATION_FAILED
    return [
        item if allowed[item.topic] else FetchedOffset(item.topic, item.partition, -1, -1, "", denied)
        for item in fetched
        if allowed[item.topic] or not every_topic
    ]


def _partitions(
    topics: Sequence[OffsetFetchRequestTopic] | Sequence[OffsetFetchRequestTopics] | None,
) -> list[TopicPartition] | None:
    if topics is None:
        return None
    return [TopicPartition(topic.name, index) for topic in topics for index in topic.partition_indexes]


def _grouped(fetched: Sequence[FetchedOffset]) -> dict[str, list[FetchedOffset]]:
    by_topic: dict[str, list[FetchedOffset]] = {}
    for item in fetched:
        by_topic.setdefault(item.topic, []).append(item)
    return by_topic


def _topics(fetched: Sequence[FetchedOffset]) -> list[OffsetFetchResponseTopic]:
    return [
        OffsetFetchResponseTopic(name=topic, partitions=[OffsetFetchResponsePartition(**_fields(i)) for i in items])
        for topic, items in _grouped(fetched).items()
    ]


def _topics_v8(fetched: Sequence[FetchedOffset]) -> list[OffsetFetchResponseTopics]:
    return [
        OffsetFetchResponseTopics(name=topic, partitions=[OffsetFetchResponsePartitions(**_fields(i)) for i in items])
        for topic, items in _grouped(fetched).items()
    ]


def _fields(item: FetchedOffset) -> dict[str, Any]:
    """The partition fields, named alike in the v0-7 and v8+ response structs."""
    return {
        "partition_index": item.partition,
        "committed_offset": item.offset,
        "committed_leader_epoch": item.leader_epoch,
        "metadata": item.metadata,
        "error_code": item.error,
    }
