"""SyncGroup v0-5: the leader hands in the assignments; every member gets its own when they are saved.

Version notes: v3+ carry ``group.instance.id``; v4 is the first flexible version; v5+ carry the protocol
type and name, which must match the group's (INCONSISTENT_GROUP_PROTOCOL otherwise), and the answer
repeats them (KIP-559). Assignments are opaque bytes passed through untouched (every assignor works,
cooperative-sticky included). The group logic is in ``facade/group``.

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

from rockafka.facade.group import SyncRequest
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.sync_group import SyncGroupRequest, SyncGroupResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register


def _error(request: SyncGroupRequest, code: ErrorCode) -> SyncGroupResponse:
    return SyncGroupResponse(error_code=code)


@register(14, 0, 5, _error, parks=True)
async def handle(ctx: RequestContext, request: SyncGroupRequest) -> SyncGroupResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    version = ctx.api_version
    sync = SyncRequest(
        group_id=request.group_id,
        generation_id=request.generation_id,
        member_id=request.member_id,
        group_instance_id=request.group_instance_id,
        protocol_type=request.protocol_type if version >= 5 else None,
        protocol_name=request.protocol_name if version >= 5 else None,
        assignments={item.member_id: item.assignment for item in request.assignments},
    )
    result = await ctx.broker.groups.coordinator.sync(sync)
    return SyncGroupResponse(
        error_code=result.error,
        protocol_type=result.protocol_type if version >= 5 else None,
        protocol_name=result.protocol_name if version >= 5 else None,
        assignment=result.assignment,
    )
