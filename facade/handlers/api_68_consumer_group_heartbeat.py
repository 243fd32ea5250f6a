"""ConsumerGroupHeartbeat v0-1: a KIP-848 consumer group member joins, heartbeats, reconciles and leaves.

Version notes: both versions are flexible. v0: a member joining with an empty member id is given one by the
broker; v1 (KIP-1082): the client makes its member id (an empty one is INVALID_REQUEST) and may subscribe by
``SubscribedTopicRegex``, evaluated by the broker (``facade/group/consumer_protocol/subscriptions.py`` says
which regex dialect). Partitions travel as topic ids. The coordinator's rules and errors are in
``facade/group/consumer_protocol/coordinator.py``; the answer waits until the group's change is durable under
the sync flush policy.

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED); DESCRIBE on each topic subscribed by name
(TOPIC_AUTHORIZATION_FAILED if any is denied; a regex subscription matches only topics the principal may
DESCRIBE is not checked: every matching topic is assigned).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Sequence

from rockafka.facade.group.consumer_protocol import Assignment, HeartbeatRequest, HeartbeatResult
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.consumer_group_heartbeat import (
    Assignment as WireAssignment,
)
from rockafka.facade.protocol.messages.consumer_group_heartbeat import (
    ConsumerGroupHeartbeatRequest,
    ConsumerGroupHeartbeatResponse,
    TopicPartitions,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError

from ..replication import UnconfirmedWrite, write_error
from .api_11_join_group import client_host
from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register

log = logging.getLogger(__name__)


def _error(request: ConsumerGroupHeartbeatRequest, code: ErrorCode) -> ConsumerGroupHeartbeatResponse:
    return ConsumerGroupHeartbeatResponse(error_code=code)


@register(68, 0, 1, _error)
async def handle(ctx: RequestContext, request: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    names = request.subscribed_topic_names
    if names and not all(ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name) for name in names):
        return ConsumerGroupHeartbeatResponse(error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    heartbeat = HeartbeatRequest(
        group_id=request.group_id,
        member_id=request.member_id,
        member_epoch=request.member_epoch,
        instance_id=request.instance_id,
        rack_id=request.rack_id,
        rebalance_timeout_ms=request.rebalance_timeout_ms,
        subscribed_topic_names=None if names is None else tuple(names),
        subscribed_topic_regex=request.subscribed_topic_regex if ctx.api_version >= 1 else None,
        server_assignor=request.server_assignor,
        owned=None if request.topic_partitions is None else _assignment(request.topic_partitions),
        client_id=ctx.client_id or "",
        client_host=client_host(ctx.connection.peer),
        client_makes_member_id=ctx.api_version >= 1,
    )
    result, durable = ctx.broker.groups.consumer.heartbeat(heartbeat)
    if durable is not None:
        try:
            await asyncio.wrap_future(durable)
        except (StoreError, UnconfirmedWrite) as exc:
            log.error("consumer group %s was not made durable: %s", request.group_id, exc)
            return ConsumerGroupHeartbeatResponse(error_code=write_error(exc, ErrorCode.COORDINATOR_NOT_AVAILABLE))
    return _response(result)


def _assignment(owned: Sequence[TopicPartitions]) -> Assignment:
    by_topic: dict[uuid.UUID, frozenset[int]] = {}
    for item in owned:
        by_topic[item.topic_id] = by_topic.get(item.topic_id, frozenset()) | frozenset(item.partitions)
    return by_topic


def _response(result: HeartbeatResult) -> ConsumerGroupHeartbeatResponse:
    assignment = None
    if result.assignment is not None:
        assignment = WireAssignment(
            topic_partitions=[
                TopicPartitions(topic_id=topic_id, partitions=sorted(partitions))
                for topic_id, partitions in sorted(result.assignment.items())
            ]
        )
    return ConsumerGroupHeartbeatResponse(
        error_code=result.error,
        error_message=result.message,
        member_id=result.member_id,
        member_epoch=result.member_epoch,
        heartbeat_interval_ms=result.heartbeat_interval_ms,
        assignment=assignment,
    )
