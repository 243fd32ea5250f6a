"""DeleteTopics v0-6: delete topics by name, or (v6+) by topic id.

Each topic succeeds or fails alone: an unknown name → UNKNOWN_TOPIC_OR_PARTITION, an unknown id →
UNKNOWN_TOPIC_ID; a name or id given twice → INVALID_REQUEST ("Duplicate topic name." / "Duplicate
topic id."); v6 entries with both a name and an id, or neither → INVALID_REQUEST; the broker's
internal ``__consumer_offsets`` → INVALID_REQUEST. With ``delete.topic.enable=false`` every topic gets
TOPIC_DELETION_DISABLED (INVALID_REQUEST before v3, which predates that code). A deleted topic's
partitions, log start offsets and committed offsets go; its records become unreachable at once (the
CommitLog space is reclaimed by retention).

Version notes: v1+ throttle time; v4+ flexible; v5+ error messages; v6+ ``topics`` (name or id) instead
of ``topic_names``, and results carry the topic id.
Not implemented: ACL checks; ``timeout_ms`` is moot (deletion is immediate).

Authorization: DELETE on the topic (TOPIC_AUTHORIZATION_FAILED for that topic).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Awaitable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.delete_topics import (
    DeletableTopicResult,
    DeleteTopicsRequest,
    DeleteTopicsResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError, TopicInfo, UnknownTopicIdError, UnknownTopicOrPartitionError

from .admin import check_not_internal, repeated, store_failure
from .context import ApiError, RequestContext
from .registry import register
from .topic_changes import TopicChanges

ZERO_UUID = uuid.UUID(int=0)


def _error(request: DeleteTopicsRequest, code: ErrorCode) -> DeleteTopicsResponse:
    results = [
        DeletableTopicResult(name=name, error_code=code, error_message=code.name) for name in request.topic_names
    ]
    results += [
        DeletableTopicResult(name=topic.name, topic_id=topic.topic_id, error_code=code, error_message=code.name)
        for topic in request.topics
    ]
    return DeleteTopicsResponse(responses=results)


@register(20, 0, 6, _error)
def handle(ctx: RequestContext, request: DeleteTopicsRequest) -> DeleteTopicsResponse | Awaitable[DeleteTopicsResponse]:
    wanted: list[tuple[str | None, uuid.UUID]] = [(name, ZERO_UUID) for name in request.topic_names]
    wanted += [(topic.name, topic.topic_id) for topic in request.topics]
    if not ctx.broker.config.bool("delete.topic.enable"):
        code = ErrorCode.TOPIC_DELETION_DISABLED if ctx.api_version >= 3 else ErrorCode.INVALID_REQUEST
        failure = ApiError(code, "Topic deletion is disabled.")
        return DeleteTopicsResponse(responses=[_failed(name, topic_id, failure) for name, topic_id in wanted])
    duplicate_names = repeated(name for name, topic_id in wanted if name is not None and topic_id == ZERO_UUID)
    duplicate_ids = repeated(str(topic_id) for name, topic_id in wanted if name is None and topic_id != ZERO_UUID)
    results: list[DeletableTopicResult] = []
    changes = TopicChanges()
    reported: set[tuple[str | None, uuid.UUID]] = set()
    for name, topic_id in wanted:
        if name in duplicate_names or str(topic_id) in duplicate_ids:
            if (name, topic_id) not in reported:
                reported.add((name, topic_id))
                what = "name" if topic_id == ZERO_UUID else "id"
                results.append(_failed(name, topic_id, ApiError(ErrorCode.INVALID_REQUEST, f"Duplicate topic {what}.")))
            continue
        result = DeletableTopicResult(name=name, topic_id=topic_id, error_code=ErrorCode.NONE, error_message=None)
        try:
            changes.add(_delete(ctx, name, topic_id), functools.partial(_settle, result))
        except ApiError as exc:
            _settle(result, exc)
        except StoreError as exc:
            _settle(result, store_failure(exc))
        results.append(result)
    return changes.answer(DeleteTopicsResponse(throttle_time_ms=0, responses=results))


def _settle(result: DeletableTopicResult, outcome: TopicInfo | ApiError) -> None:
    if isinstance(outcome, TopicInfo):
        result.name, result.topic_id = outcome.name, outcome.topic_id
    else:
        result.error_code, result.error_message = outcome.error_code, outcome.message


def _failed(name: str | None, topic_id: uuid.UUID, exc: ApiError) -> DeletableTopicResult:
    return DeletableTopicResult(name=name, topic_id=topic_id, error_code=exc.error_code, error_message=exc.message)


def _delete(ctx: RequestContext, name: str | None, topic_id: uuid.UUID) -> TopicInfo | Awaitable[TopicInfo]:
    store = ctx.broker.store
    if name is not None and topic_id != ZERO_UUID:
        raise ApiError(ErrorCode.INVALID_REQUEST, "You may not specify both topic name and topic id.")
    if name is None:
        if topic_id == ZERO_UUID:
            raise ApiError(ErrorCode.INVALID_REQUEST, "Neither topic name nor id were specified.")
        internal = ctx.broker.internal_topics.by_id(topic_id)
        try:
            name = internal.name if internal is not None else store.topics.name_of(topic_id)
        except UnknownTopicIdError:
            raise ApiError(ErrorCode.UNKNOWN_TOPIC_ID, f"Topic id {topic_id} does not exist.") from None
    ctx.check(AclOperation.DELETE, ResourceType.TOPIC, name)
    check_not_internal(name)
    try:
        return ctx.broker.topology.delete_topic(name)
    except UnknownTopicOrPartitionError:
        raise ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{name}' does not exist.") from None
    except StoreError as exc:
        raise store_failure(exc) from None
