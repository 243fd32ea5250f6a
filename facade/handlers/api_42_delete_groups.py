"""DeleteGroups v0-2: delete groups that have no members, with their committed offsets and metadata (a share
group with its share-partitions' state).

Version notes: v2 is the first flexible version. Per group: NON_EMPTY_GROUP while it has members,
GROUP_ID_NOT_FOUND when it has neither members nor offsets; in a cluster NOT_COORDINATOR for a group this
broker does not coordinate (``coordination.py``).

Authorization: DELETE on each group (GROUP_AUTHORIZATION_FAILED for that group).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.delete_groups import (
    DeletableGroupResult,
    DeleteGroupsRequest,
    DeleteGroupsResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import group_error
from .registry import register


def _error(request: DeleteGroupsRequest, code: ErrorCode) -> DeleteGroupsResponse:
    return DeleteGroupsResponse(
        results=[DeletableGroupResult(group_id=g, error_code=code) for g in request.groups_names]
    )


@register(42, 0, 2, _error)
def handle(ctx: RequestContext, request: DeleteGroupsRequest) -> DeleteGroupsResponse:
    results = []
    for group_id in request.groups_names:
        if not ctx.authorize(AclOperation.DELETE, ResourceType.GROUP, group_id):
            error = ErrorCode.GROUP_AUTHORIZATION_FAILED
        elif (error := group_error(ctx, group_id)) is ErrorCode.NONE:
            ((_, error),) = ctx.broker.groups.delete_groups([group_id])
        results.append(DeletableGroupResult(group_id=group_id, error_code=error))
    return DeleteGroupsResponse(results=results)
