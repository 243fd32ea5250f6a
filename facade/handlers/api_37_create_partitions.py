"""CreatePartitions v0-3: grow topics to a new partition count (records keep their partitions).

Each topic succeeds or fails alone: a topic named twice → INVALID_REQUEST ("Duplicate topic name.");
an unknown topic → UNKNOWN_TOPIC_OR_PARTITION; ``__consumer_offsets`` → INVALID_REQUEST; a count that
does not grow the topic → INVALID_PARTITIONS; manual assignments must list one replica list per new
partition, each exactly this broker (in a cluster: one registered broker, and the new partition goes to its
group) → INVALID_REPLICA_ASSIGNMENT otherwise. Without assignments a cluster puts each new partition on the
least loaded live group (``cluster/placement.py``). More than 10,000 new
partitions in one request → POLICY_VIOLATION for every topic (the limit Kafka's controller sets on
CreateTopics). ``validate_only`` runs every check and changes nothing.

Version notes: v1 is v0 (throttle behaviour only); v2+ flexible; v3 is v2 (KIP-599 throttling only).
Not implemented: ACL checks; ``timeout_ms`` is moot (the partitions exist at once).

Authorization: ALTER on the topic (TOPIC_AUTHORIZATION_FAILED for that topic).
"""

from __future__ import annotations

from collections.abc import Awaitable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_partitions import (
    CreatePartitionsRequest,
    CreatePartitionsResponse,
    CreatePartitionsTopic,
    CreatePartitionsTopicResult,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError, TopicInfo

from .admin import (
    MAX_PARTITIONS_PER_REQUEST,
    TOO_MANY_PARTITIONS,
    answer_each,
    check_replicas,
    existing_topic,
    store_failure,
)
from .context import ApiError, RequestContext
from .registry import register
from .topic_changes import TopicChanges


def _error(request: CreatePartitionsRequest, code: ErrorCode) -> CreatePartitionsResponse:
    names = dict.fromkeys(topic.name for topic in request.topics)
    return CreatePartitionsResponse(
        results=[CreatePartitionsTopicResult(name=name, error_code=code, error_message=code.name) for name in names]
    )


@register(37, 0, 3, _error)
def handle(
    ctx: RequestContext, request: CreatePartitionsRequest
) -> CreatePartitionsResponse | Awaitable[CreatePartitionsResponse]:
    if sum(_added(ctx, topic) for topic in request.topics) > MAX_PARTITIONS_PER_REQUEST:
        refusal = ApiError(ErrorCode.POLICY_VIOLATION, TOO_MANY_PARTITIONS)
        names = dict.fromkeys(topic.name for topic in request.topics)
        return CreatePartitionsResponse(results=[_failed(CreatePartitionsTopic(name=name), refusal) for name in names])
    changes = TopicChanges()
    results = answer_each(
        request.topics,
        lambda topic: topic.name,
        lambda topic: _grow(ctx, topic, request.validate_only, changes),
        _failed,
        duplicate="Duplicate topic name.",
        one_result_per_duplicate=True,
    )
    return changes.answer(CreatePartitionsResponse(throttle_time_ms=0, results=results))


def _failed(topic: CreatePartitionsTopic, exc: ApiError) -> CreatePartitionsTopicResult:
    return CreatePartitionsTopicResult(name=topic.name, error_code=exc.error_code, error_message=exc.message)


def _added(ctx: RequestContext, topic: CreatePartitionsTopic) -> int:
    info = ctx.broker.topic_or_none(topic.name)
    return max(topic.count - info.partitions, 0) if info is not None else 0


def _grow(
    ctx: RequestContext, topic: CreatePartitionsTopic, validate_only: bool, changes: TopicChanges
) -> CreatePartitionsTopicResult:
    ctx.check(AclOperation.ALTER, ResourceType.TOPIC, topic.name)
    current = existing_topic(ctx, topic.name, to_change=True).partitions
    if topic.count < current:
        raise ApiError(
            ErrorCode.INVALID_PARTITIONS,
            f"The topic {topic.name} currently has {current} partition(s); {topic.count} would not be an increase.",
        )
    if topic.count == current:
        raise ApiError(ErrorCode.INVALID_PARTITIONS, f"Topic already has {current} partition(s).")
    if topic.assignments is not None:
        added = topic.count - current
        if len(topic.assignments) != added:
            raise ApiError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"Attempted to add {added} additional partition(s), but only {len(topic.assignments)} "
                "assignment(s) were specified.",
            )
        for assignment in topic.assignments:
            check_replicas(ctx, assignment.broker_ids)
    result = CreatePartitionsTopicResult(name=topic.name, error_code=ErrorCode.NONE, error_message=None)
    if not validate_only:
        try:
            changes.add(
                ctx.broker.topology.create_partitions(topic.name, topic.count, _leaders(topic)),
                lambda outcome: _settle(result, outcome),
            )
        except StoreError as exc:
            raise store_failure(exc) from None
    return result


def _leaders(topic: CreatePartitionsTopic) -> list[int]:
    """The broker a manual assignment names for each new partition (none without one)."""
    return [assignment.broker_ids[0] for assignment in topic.assignments or ()]


def _settle(result: CreatePartitionsTopicResult, outcome: TopicInfo | ApiError) -> None:
    if isinstance(outcome, ApiError):
        result.error_code, result.error_message = outcome.error_code, outcome.message
