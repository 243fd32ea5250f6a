"""Metadata v0-12: this broker, the cluster id, and the topics asked for (all of them for a null list).

Version notes: v0 asks for every topic with an empty list (v1+ with null). v4+ carries
``allow_auto_topic_creation``; before v4 auto-creation follows the broker setting alone. A topic
auto-created by this request is answered with LEADER_NOT_AVAILABLE and no partitions, as Kafka does;
clients retry and find it. v10+ carries topic ids; a request may name a topic by id only (v12).

Bad names, as Kafka's broker answers them: in v10 and v11 a topic with a null name or a non-zero topic
id fails the whole request with INVALID_REQUEST (every topic answered with it, a null name as ""); in
v12 a topic with neither a name nor an id is INVALID_TOPIC_EXCEPTION (Kafka's own broker fails that
request with UNKNOWN_SERVER_ERROR), and an id no topic has is UNKNOWN_TOPIC_ID.
The advertised address is that of the listener the request came in on. ``__consumer_offsets`` is
listed as an internal topic once group coordination has been used (see ``facade/group/service.py``).
Each broker's rack is its ``broker.rack`` (null when unset, as Kafka).
Not implemented: offline replicas (never any on one node).

The answer is the hot codec's ``MetadataResponse`` (``core_pyx/hotcodec``, generated from the specs);
the brokers, the controller and each partition's leader, epoch and replicas come from
``ctx.broker.topology`` (``facade/topology.py``): on a single broker every topic of N partitions shares one
tuple of N partition entries, so a topic of ten thousand partitions costs no per-partition Python work after
the first request; in a cluster the entries come from the cluster snapshot, cached until it changes.

Authorization, as Kafka: a list of every topic shows only the topics the principal may DESCRIBE; a topic
asked for by name (or id) without DESCRIBE is answered TOPIC_AUTHORIZATION_FAILED (no name for an id);
auto-creation needs CREATE on the cluster or the topic, else TOPIC_AUTHORIZATION_FAILED. The authorized
operations fields come from the principal's ACLs.
"""

from __future__ import annotations

import uuid

from rockafka.core_pyx import hotcodec as hot
from rockafka.core_pyx.hotcodec import MetadataResponse
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.metadata import MetadataRequest
from rockafka.facade.protocol.primitives import ZERO_UUID
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import InvalidTopicError, StoreError, TopicInfo, UnknownTopicIdError

from ..errors import store_error_code
from ..topology import BrokerAddress
from .admin import advertised_listener
from .authorized import check_create_topic, operations
from .context import ApiError, RequestContext
from .partitions import describable_topics, is_internal
from .registry import register


def _error(request: MetadataRequest, code: ErrorCode) -> MetadataResponse:
    """Every topic asked for, answered with ``code``; a null name becomes "" (not nullable before v12)."""
    topics = [hot.MetadataResponseTopic(code, t.name or "", t.topic_id) for t in request.topics or []]
    return MetadataResponse(topics=topics)


def _encode(version: int, response: MetadataResponse, correlation_id: int) -> list[bytes]:
    return [hot.encode_metadata_response(version, response, correlation_id)]


@register(3, *hot.METADATA_VERSIONS, _error, encode=_encode)
def handle(ctx: RequestContext, request: MetadataRequest) -> MetadataResponse:
    broker = ctx.broker
    listener = advertised_listener(ctx)
    wants_all = request.topics is None or (ctx.api_version == 0 and not request.topics)
    if not wants_all and ctx.api_version < 12 and _names_by_id(request):
        raise ApiError(ErrorCode.INVALID_REQUEST, "topic ids (and null names) need Metadata v12")
    topic_ops = request.include_topic_authorized_operations
    if wants_all:
        topics = [_describe(ctx, info, topic_ops) for info in describable_topics(ctx)]
    else:
        may_create = broker.config.bool("auto.create.topics.enable") and (
            ctx.api_version < 4 or request.allow_auto_topic_creation
        )
        topics = [_lookup(ctx, item.name, item.topic_id, may_create, topic_ops) for item in request.topics or []]
    own = BrokerAddress(broker.node_id, listener.host, listener.port, listener.name)
    listed = broker.topology.metadata_brokers(own)
    return MetadataResponse(
        brokers=[hot.MetadataResponseBroker(b.node_id, b.host, b.port, b.rack) for b in listed],
        topics=topics,
        cluster_id=broker.cluster_id,
        controller_id=broker.topology.controller_id(broker.node_id),
        cluster_authorized_operations=operations(
            ctx, request.include_cluster_authorized_operations, ResourceType.CLUSTER
        ),
    )


def _names_by_id(request: MetadataRequest) -> bool:
    """Whether a topic is asked for with a null name or a topic id (v12 only, as Kafka checks)."""
    return any(item.name is None or item.topic_id != ZERO_UUID for item in request.topics or [])


def _lookup(
    ctx: RequestContext, name: str | None, topic_id: uuid.UUID, may_create: bool, topic_ops: bool
) -> hot.MetadataResponseTopic:
    store = ctx.broker.store
    by_id = name is None
    if name is None:
        if topic_id == ZERO_UUID:
            return hot.MetadataResponseTopic(ErrorCode.INVALID_TOPIC_EXCEPTION, None, topic_id)
        try:
            name = store.topics.name_of(topic_id)
        except UnknownTopicIdError:
            return hot.MetadataResponseTopic(ErrorCode.UNKNOWN_TOPIC_ID, None, topic_id)
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name):
        denied = ErrorCode.TOPIC_AUTHORIZATION_FAILED
        return hot.MetadataResponseTopic(denied, None if by_id else name, topic_id)
    info = ctx.broker.internal_topics.show(name) or ctx.broker.topic_or_none(name)
    if info is not None:
        return _describe(ctx, info, topic_ops)
    if not may_create:
        return hot.MetadataResponseTopic(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name)
    try:
        check_create_topic(ctx, name)
        created = ctx.broker.auto_create_topic(name)
    except ApiError as exc:
        return hot.MetadataResponseTopic(exc.error_code, name)
    except InvalidTopicError:
        return hot.MetadataResponseTopic(ErrorCode.INVALID_TOPIC_EXCEPTION, name)
    except StoreError as exc:
        return hot.MetadataResponseTopic(store_error_code(exc), name)
    return hot.MetadataResponseTopic(
        ErrorCode.LEADER_NOT_AVAILABLE, name, ZERO_UUID if created is None else created.topic_id
    )


def _describe(ctx: RequestContext, info: TopicInfo, topic_ops: bool) -> hot.MetadataResponseTopic:
    return hot.MetadataResponseTopic(
        ErrorCode.NONE,
        info.name,
        info.topic_id,
        is_internal(info.name),
        ctx.broker.topology.metadata_partitions(info.name, info.partitions, ctx.broker.node_id),
        operations(ctx, topic_ops, ResourceType.TOPIC, info.name),
    )
