"""Metadata v0-12: this broker, the cluster id, and the topics asked for (all of them for a null list).

Version notes: v0 asks for every topic with an empty list (v1+ with null). v4+ carries
``allow_auto_topic_creation``; before v4 auto-creation follows the broker setting alone. A topic
auto-created by this request is answered with LEADER_NOT_AVAILABLE and no partitions, as Kafka does;
clients retry and find it. v10+ carries topic ids; a request may name a topic by id only (v12).
The advertised address is that of the listener the request came in on. ``__consumer_offsets`` is
listed as an internal topic once group coordination has been used (see ``facade/group/service.py``).
Not implemented: racks (always null), offline replicas (never any on one node).

Authorization, as Kafka: a list of every topic shows only the topics the principal may DESCRIBE; a topic
asked for by name (or id) without DESCRIBE is answered TOPIC_AUTHORIZATION_FAILED (no name for an id);
auto-creation needs CREATE on the cluster or the topic, else TOPIC_AUTHORIZATION_FAILED. The authorized
operations fields come from the principal's ACLs.
"""

from __future__ import annotations

import uuid

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.metadata import (
    MetadataRequest,
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import InvalidTopicError, StoreError, TopicInfo, UnknownTopicIdError

from ..errors import store_error_code
from .admin import advertised_listener
from .authorized import check_create_topic, operations
from .context import ApiError, RequestContext
from .partitions import describable_topics, is_internal, partition_fields
from .registry import register


def _error(request: MetadataRequest, code: ErrorCode) -> MetadataResponse:
    topics = [MetadataResponseTopic(error_code=code, name=t.name, topic_id=t.topic_id) for t in request.topics or []]
    return MetadataResponse(topics=topics)


@register(3, 0, 12, _error)
def handle(ctx: RequestContext, request: MetadataRequest) -> MetadataResponse:
    broker = ctx.broker
    listener = advertised_listener(ctx)
    wants_all = request.topics is None or (ctx.api_version == 0 and not request.topics)
    topic_ops = request.include_topic_authorized_operations
    if wants_all:
        topics = [_describe(ctx, info, topic_ops) for info in describable_topics(ctx)]
    else:
        may_create = broker.config.bool("auto.create.topics.enable") and (
            ctx.api_version < 4 or request.allow_auto_topic_creation
        )
        topics = [_lookup(ctx, item.name, item.topic_id, may_create, topic_ops) for item in request.topics or []]
    return MetadataResponse(
        brokers=[MetadataResponseBroker(node_id=broker.node_id, host=listener.host, port=listener.port)],
        cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        topics=topics,
        cluster_authorized_operations=operations(
            ctx, request.include_cluster_authorized_operations, ResourceType.CLUSTER
        ),
    )


def _lookup(
    ctx: RequestContext, name: str | None, topic_id: uuid.UUID, may_create: bool, topic_ops: bool
) -> MetadataResponseTopic:
    store = ctx.broker.store
    by_id = name is None
    if name is None:
        try:
            name = store.topic_name(topic_id)
        except UnknownTopicIdError:
            return MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_ID, name=None, topic_id=topic_id)
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name):
        denied = ErrorCode.TOPIC_AUTHORIZATION_FAILED
        return MetadataResponseTopic(error_code=denied, name=None if by_id else name, topic_id=topic_id)
    info = ctx.broker.groups.internal_topic(name) or ctx.broker.topic_or_none(name)
    if info is not None:
        return _describe(ctx, info, topic_ops)
    if not may_create:
        return MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name=name)
    try:
        check_create_topic(ctx, name)
        created = ctx.broker.auto_create_topic(name)
    except ApiError as exc:
        return MetadataResponseTopic(error_code=exc.error_code, name=name)
    except InvalidTopicError:
        return MetadataResponseTopic(error_code=ErrorCode.INVALID_TOPIC_EXCEPTION, name=name)
    except StoreError as exc:
        return MetadataResponseTopic(error_code=store_error_code(exc), name=name)
    return MetadataResponseTopic(error_code=ErrorCode.LEADER_NOT_AVAILABLE, name=name, topic_id=created.topic_id)


def _describe(ctx: RequestContext, info: TopicInfo, topic_ops: bool) -> MetadataResponseTopic:
    partitions = [MetadataResponsePartition(**fields) for fields in partition_fields(ctx, info)]
    return MetadataResponseTopic(
        error_code=ErrorCode.NONE,
        name=info.name,
        topic_id=info.topic_id,
        is_internal=is_internal(info.name),
        partitions=partitions,
        topic_authorized_operations=operations(ctx, topic_ops, ResourceType.TOPIC, info.name),
    )
