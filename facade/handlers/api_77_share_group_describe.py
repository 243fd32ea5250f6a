"""ShareGroupDescribe v1: KIP-932 share groups as their coordinator holds them.

Version notes: v1 has the fields of the early-access v0 (which Kafka 4.1 removed). Each group: its state
(Empty, Stable), group epoch, assignment epoch, the assignor (``simple``), and per member its epoch, client,
subscription and assignment (topic ids with their names). A group that does not exist, or is not a share
group, answers GROUP_ID_NOT_FOUND; an empty group id INVALID_GROUP_ID. In a cluster, a group this broker does
not coordinate is answered NOT_COORDINATOR.

Authorization: DESCRIBE on each group (GROUP_AUTHORIZATION_FAILED for that group).
"""

from __future__ import annotations

import uuid

from rockafka.facade.group.share import Assignment, ShareGroup
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.share_group_describe import (
    Assignment as WireAssignment,
)
from rockafka.facade.protocol.messages.share_group_describe import (
    DescribedGroup,
    Member,
    ShareGroupDescribeRequest,
    ShareGroupDescribeResponse,
    TopicPartitions,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .authorized import operations
from .context import RequestContext
from .coordination import group_error
from .registry import register

#: The assignor a share group uses (Kafka's name for its share group assignor).
ASSIGNOR = "simple"


def _error(request: ShareGroupDescribeRequest, code: ErrorCode) -> ShareGroupDescribeResponse:
    return ShareGroupDescribeResponse(groups=[DescribedGroup(error_code=code, group_id=g) for g in request.group_ids])


@register(77, 1, 1, _error)
def handle(ctx: RequestContext, request: ShareGroupDescribeRequest) -> ShareGroupDescribeResponse:
    return ShareGroupDescribeResponse(groups=[_describe(ctx, request, group_id) for group_id in request.group_ids])


def _describe(ctx: RequestContext, request: ShareGroupDescribeRequest, group_id: str) -> DescribedGroup:
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
        return DescribedGroup(error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, group_id=group_id)
    if not group_id:
        return DescribedGroup(error_code=ErrorCode.INVALID_GROUP_ID, group_id=group_id)
    error = group_error(ctx, group_id)
    if error is not ErrorCode.NONE:
        return DescribedGroup(error_code=error, group_id=group_id)
    share = ctx.broker.groups.share
    if not share.active:
        return DescribedGroup(error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE, group_id=group_id)
    group = share.groups.get(group_id)
    if group is None:
        message = f"Group {group_id} not found."
        return DescribedGroup(error_code=ErrorCode.GROUP_ID_NOT_FOUND, error_message=message, group_id=group_id)
    return DescribedGroup(
        group_id=group_id,
        group_state=group.state.value,
        group_epoch=group.group_epoch,
        assignment_epoch=group.assignment_epoch,
        assignor_name=ASSIGNOR,
        members=_members(group),
        authorized_operations=operations(ctx, request.include_authorized_operations, ResourceType.GROUP, group_id),
    )


def _members(group: ShareGroup) -> list[Member]:
    names = {topic_id: name for name, (topic_id, _) in group.topics.items()}
    return [
        Member(
            member_id=m.member_id,
            rack_id=m.rack_id,
            member_epoch=m.member_epoch,
            client_id=m.client_id,
            client_host=m.client_host,
            subscribed_topic_names=list(m.subscribed_topic_names),
            assignment=_wire(m.assignment, names),
        )
        for m in group.members.values()
    ]


def _wire(assignment: Assignment, names: dict[uuid.UUID, str]) -> WireAssignment:
    return WireAssignment(
        topic_partitions=[
            TopicPartitions(topic_id=topic_id, topic_name=names.get(topic_id, ""), partitions=sorted(partitions))
            for topic_id, partitions in sorted(assignment.items())
        ]
    )
