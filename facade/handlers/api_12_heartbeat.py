"""Heartbeat v0-4: a member renews its session; REBALANCE_IN_PROGRESS tells it to rejoin.

Version notes: v3+ carry ``group.instance.id`` (a static member whose id was taken over gets
FENCED_INSTANCE_ID); v4 is the first flexible version. Errors: UNKNOWN_MEMBER_ID (the member must
join from scratch), ILLEGAL_GENERATION (rejoin), REBALANCE_IN_PROGRESS (rejoin), as ``facade/group`` decides.

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.heartbeat import HeartbeatRequest, HeartbeatResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register


def _error(request: HeartbeatRequest, code: ErrorCode) -> HeartbeatResponse:
    return HeartbeatResponse(error_code=code)


@register(12, 0, 4, _error)
def handle(ctx: RequestContext, request: HeartbeatRequest) -> HeartbeatResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    error = ctx.broker.groups.coordinator.heartbeat(
        request.group_id, request.member_id, request.group_instance_id, request.generation_id
    )
    return HeartbeatResponse(error_code=error)
