"""ShareGroupHeartbeat v1: a KIP-932 share group member joins, heartbeats and leaves.

Version notes: v1 is the first stable version (Kafka 4.1 removed the early-access v0; v1 has v0's fields) and
the one librdkafka's share consumer sends. Partitions travel as topic ids; every answer carries the member's
whole assignment. The coordinator's rules and errors are in ``facade/group/share/coordinator.py``; the answer
waits until the group's change is durable under the sync flush policy.

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED); DESCRIBE on each subscribed topic
(TOPIC_AUTHORIZATION_FAILED if any is denied).
"""

from __future__ import annotations

import asyncio
import logging

from rockafka.facade.group.share import ShareHeartbeat, ShareHeartbeatResult
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.share_group_heartbeat import (
    Assignment,
    ShareGroupHeartbeatRequest,
    ShareGroupHeartbeatResponse,
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


def _error(request: ShareGroupHeartbeatRequest, code: ErrorCode) -> ShareGroupHeartbeatResponse:
    return ShareGroupHeartbeatResponse(error_code=code)


@register(76, 1, 1, _error)
async def handle(ctx: RequestContext, request: ShareGroupHeartbeatRequest) -> ShareGroupHeartbeatResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    names = request.subscribed_topic_names
    if names and not all(ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name) for name in names):
        return ShareGroupHeartbeatResponse(error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    share = ctx.broker.groups.share
    if not share.active:
        return ShareGroupHeartbeatResponse(error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE)
    heartbeat = ShareHeartbeat(
        group_id=request.group_id,
        member_id=request.member_id,
        member_epoch=request.member_epoch,
        rack_id=request.rack_id,
        subscribed_topic_names=None if names is None else tuple(dict.fromkeys(names)),
        client_id=ctx.client_id or "",
        client_host=client_host(ctx.connection.peer),
    )
    try:
        result, durable = share.heartbeat(heartbeat)
        if durable is not None:
            await asyncio.wrap_future(durable)
    except (StoreError, UnconfirmedWrite) as exc:
        log.error("share group %s was not made durable: %s", request.group_id, exc)
        return ShareGroupHeartbeatResponse(error_code=write_error(exc, ErrorCode.COORDINATOR_NOT_AVAILABLE))
    return _response(result)


def _response(result: ShareHeartbeatResult) -> ShareGroupHeartbeatResponse:
    assignment = None
    if result.assignment is not None:
        assignment = Assignment(
            topic_partitions=[
                TopicPartitions(topic_id=topic_id, partitions=sorted(partitions))
                for topic_id, partitions in sorted(result.assignment.items())
            ]
        )
    return ShareGroupHeartbeatResponse(
        error_code=result.error,
        error_message=result.message,
        member_id=result.member_id,
        member_epoch=result.member_epoch,
        heartbeat_interval_ms=result.heartbeat_interval_ms,
        assignment=assignment,
    )
