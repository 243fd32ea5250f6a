"""LeaveGroup v0-5: members leave a group at once (it rebalances without waiting for their session to end).

Version notes: v0-2 name one member and answer one error (the group's, else the member's); v3+ name
several members by member id and/or ``group.instance.id`` (an empty member id with an instance id
removes that static member, as admin tools do) and answer each; v5+ carry a reason per member (logged).

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

from rockafka.facade.group import LeavingMember
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.leave_group import LeaveGroupRequest, LeaveGroupResponse, MemberResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register


def _error(request: LeaveGroupRequest, code: ErrorCode) -> LeaveGroupResponse:
    return LeaveGroupResponse(error_code=code)


@register(13, 0, 5, _error)
def handle(ctx: RequestContext, request: LeaveGroupRequest) -> LeaveGroupResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    if ctx.api_version < 3:
        leaving = [LeavingMember(request.member_id)]
    else:
        leaving = [LeavingMember(m.member_id, m.group_instance_id, m.reason) for m in request.members]
    result = ctx.broker.groups.coordinator.leave(request.group_id, leaving)
    if ctx.api_version < 3:
        member_errors = [error for _, _, error in result.members if error is not ErrorCode.NONE]
        return LeaveGroupResponse(error_code=result.error or (member_errors[0] if member_errors else ErrorCode.NONE))
    members = [
        MemberResponse(member_id=member_id, group_instance_id=instance_id, error_code=error)
        for member_id, instance_id, error in result.members
    ]
    return LeaveGroupResponse(error_code=result.error, members=members)
