"""DescribeTopicPartitions v0 (KIP-966): the partitions of topics named (or of every topic), a page at a time.

As Kafka's broker answers it:

- topics are named in the request (duplicates count once), or an empty list means every topic; they are
  answered sorted by name, each with its id, ``is_internal``, its partitions (leader, leader epoch,
  replicas, ISR, empty eligible-leader and last-known-ELR lists, no offline replicas) and the principal's
  authorized operations on it;
- a page holds at most ``response_partition_limit`` partitions (at least 1, at most 2000, Kafka's
  ``max.request.partition.size.limit``). When a topic does not fit, the response ends with it and
  ``next_cursor`` names the topic and the first partition left out; the next request passes that as
  ``cursor``. When the page fills exactly at the end of a topic, the cursor names the next topic at
  partition 0 (or is null if the page ends with the last partition of the last topic);
- with a cursor, topics sorting before its topic are skipped, and its topic starts at its partition; a
  named-topic list that does not include the cursor's topic, or a negative cursor partition, fails the
  whole request with INVALID_REQUEST (each named topic answered with that code);
- a named topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION for an illegal
  name), no partitions, the zero id;
- authorization: topics the principal may not DESCRIBE are left out of an all-topics answer; a named one
  is answered TOPIC_AUTHORIZATION_FAILED with the zero id (listed after the authorized topics), so its
  existence is not disclosed. ``__consumer_offsets`` is listed once shown (see ``facade/group/service.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_topic_partitions import (
    Cursor,
    DescribeTopicPartitionsRequest,
    DescribeTopicPartitionsResponse,
    DescribeTopicPartitionsResponsePartition,
    DescribeTopicPartitionsResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import TopicInfo

from .admin import check_topic_name
from .context import ApiError, RequestContext
from .partitions import describable_topics, is_internal, partition_fields
from .registry import register
from .replicas import known_topic

#: Kafka's ``max.request.partition.size.limit`` default: the most partitions one response holds.
MAX_PARTITIONS_PER_RESPONSE: Final = 2000
ZERO_UUID: Final = uuid.UUID(int=0)


def _error(request: DescribeTopicPartitionsRequest, code: ErrorCode) -> DescribeTopicPartitionsResponse:
    return DescribeTopicPartitionsResponse(
        topics=[DescribeTopicPartitionsResponseTopic(error_code=code, name=topic.name) for topic in request.topics]
    )


@register(75, 0, 0, _error)
def handle(ctx: RequestContext, request: DescribeTopicPartitionsRequest) -> DescribeTopicPartitionsResponse:
    cursor = request.cursor
    first_topic = "" if cursor is None else cursor.topic_name
    if cursor is not None and cursor.partition_index < 0:
        raise ApiError(ErrorCode.INVALID_REQUEST, f"The cursor partition must be valid: {cursor.partition_index}")
    denied: list[DescribeTopicPartitionsResponseTopic] = []
    if not request.topics:
        names = sorted(info.name for info in describable_topics(ctx) if info.name >= first_topic)
    else:
        wanted = {topic.name for topic in request.topics if topic.name >= first_topic}
        if cursor is not None and cursor.topic_name not in wanted:
            raise ApiError(ErrorCode.INVALID_REQUEST, f"The topic list must contain the cursor topic {first_topic}")
        names = []
        for name in sorted(wanted):
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name):
                names.append(name)
            else:
                denied.append(_failed(ErrorCode.TOPIC_AUTHORIZATION_FAILED, name))
    limit = max(min(request.response_partition_limit, MAX_PARTITIONS_PER_RESPONSE), 1)
    start = {first_topic: cursor.partition_index} if cursor is not None else {}
    topics, next_cursor = _page(ctx, names, start, limit)
    return DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=topics + denied, next_cursor=next_cursor)


def _page(
    ctx: RequestContext, names: Iterable[str], start: dict[str, int], limit: int
) -> tuple[list[DescribeTopicPartitionsResponseTopic], Cursor | None]:
    """The topics that fit in ``limit`` partitions, and the cursor to the first partition left out."""
    topics: list[DescribeTopicPartitionsResponseTopic] = []
    remaining = limit
    for name in names:
        first = start.get(name, 0)
        if remaining <= 0:
            return topics, Cursor(topic_name=name, partition_index=first)
        info = known_topic(ctx, name)
        if info is None:
            topics.append(_unknown(name))
            continue
        shown = _describe(ctx, info, first, first + remaining)
        topics.append(shown)
        remaining -= len(shown.partitions)
        if first + len(shown.partitions) < info.partitions:
            return topics, Cursor(topic_name=name, partition_index=first + len(shown.partitions))
    return topics, None


def _describe(ctx: RequestContext, info: TopicInfo, first: int, stop: int) -> DescribeTopicPartitionsResponseTopic:
    partitions = [
        DescribeTopicPartitionsResponsePartition(**fields, eligible_leader_replicas=[], last_known_elr=[])
        for fields in partition_fields(ctx, info, first, stop)
    ]
    return DescribeTopicPartitionsResponseTopic(
        error_code=ErrorCode.NONE,
        name=info.name,
        topic_id=info.topic_id,
        is_internal=is_internal(info.name),
        partitions=partitions,
        topic_authorized_operations=ctx.authorized_operations(ResourceType.TOPIC, info.name),
    )


def _unknown(name: str) -> DescribeTopicPartitionsResponseTopic:
    try:
        check_topic_name(name)
    except ApiError as exc:
        return _failed(exc.error_code, name)
    return _failed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name)


def _failed(code: ErrorCode, name: str) -> DescribeTopicPartitionsResponseTopic:
    """A topic answered with an error: no partitions and the zero id (Kafka discloses no id)."""
    return DescribeTopicPartitionsResponseTopic(error_code=code, name=name, topic_id=ZERO_UUID, is_internal=False)
