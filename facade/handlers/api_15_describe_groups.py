"""DescribeGroups v0-5: state, protocol, and members of groups.

Version notes: v3+ may ask for the authorized operations (the principal's, from its ACLs);
v4+ answer the members' ``group.instance.id``; v5 is the first flexible version. Members' subscription
and assignment bytes are given while the group is Stable, empty otherwise, as Kafka does; a group that
does not exist is answered as Dead with no error; a KIP-848 consumer group or a KIP-932 share group as Dead with
GROUP_ID_NOT_FOUND (Kafka 4's answer: clients describe them with ConsumerGroupDescribe, ShareGroupDescribe). In
a cluster, a group this broker does not coordinate is answered NOT_COORDINATOR (``coordination.py``).

Authorization: DESCRIBE on each group (GROUP_AUTHORIZATION_FAILED for that group).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_groups import (
    DescribedGroup,
    DescribedGroupMember,
    DescribeGroupsRequest,
    DescribeGroupsResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .authorized import operations
from .context import RequestContext
from .coordination import group_error
from .registry import register


def _error(request: DescribeGroupsRequest, code: ErrorCode) -> DescribeGroupsResponse:
    return DescribeGroupsResponse(groups=[DescribedGroup(error_code=code, group_id=g) for g in request.groups])


@register(15, 0, 5, _error)
def handle(ctx: RequestContext, request: DescribeGroupsRequest) -> DescribeGroupsResponse:
    described = []
    for group_id in request.groups:
        if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
            described.append(DescribedGroup(error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, group_id=group_id))
            continue
        error = group_error(ctx, group_id)
        if error is not ErrorCode.NONE:
            described.append(DescribedGroup(error_code=error, group_id=group_id))
            continue
        requested = request.include_authorized_operations and ctx.api_version >= 3
        group = ctx.broker.groups.describe_group(group_id)
        if group.error is ErrorCode.GROUP_ID_NOT_FOUND:  # a KIP-848 consumer group: not described here, as Kafka 4
            described.append(DescribedGroup(error_code=group.error, group_id=group_id, group_state="Dead"))
            continue
        members = [
            DescribedGroupMember(
                member_id=m.member_id,
                group_instance_id=m.group_instance_id if ctx.api_version >= 4 else None,
                client_id=m.client_id,
                client_host=m.client_host,
                member_metadata=m.metadata,
                member_assignment=m.assignment,
            )
            for m in group.members
        ]
        described.append(
            DescribedGroup(
                error_code=group.error,
                group_id=group.group_id,
                group_state=group.state,
                protocol_type=group.protocol_type,
                protocol_data=group.protocol,
                members=members,
                authorized_operations=operations(ctx, requested, ResourceType.GROUP, group_id),
            )
        )
    return DescribeGroupsResponse(groups=described)
