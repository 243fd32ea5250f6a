"""ConsumerGroupDescribe v0: KIP-848 consumer groups as their coordinator holds them.

Each group: its state (Empty, Assigning, Reconciling, Stable), group epoch, assignment epoch, the assignor
in use, and per member its epoch, client, subscription (names and regex), current assignment and target
assignment (topic ids with their names). A group that does not exist, or is a classic group, answers
GROUP_ID_NOT_FOUND (clients then fall back to DescribeGroups, as with Kafka); an empty group id
INVALID_GROUP_ID. In a cluster, a group this broker does not coordinate is answered NOT_COORDINATOR.

Authorization: DESCRIBE on each group (GROUP_AUTHORIZATION_FAILED for that group).
"""

from __future__ import annotations

import uuid

from rockafka.facade.group.consumer_protocol import Assignment, ConsumerGroup
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.consumer_group_describe import (
    Assignment as WireAssignment,
)
from rockafka.facade.protocol.messages.consumer_group_describe import (
    ConsumerGroupDescribeRequest,
    ConsumerGroupDescribeResponse,
    DescribedGroup,
    Member,
    TopicPartitions,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .authorized import operations
from .context import RequestContext
from .coordination import group_error
from .registry import register


def _error(request: ConsumerGroupDescribeRequest, code: ErrorCode) -> ConsumerGroupDescribeResponse:
    return ConsumerGroupDescribeResponse(
        groups=[DescribedGroup(error_code=code, group_id=g) for g in request.group_ids]
    )


@register(69, 0, 0, _error)
def handle(ctx: RequestContext, request: ConsumerGroupDescribeRequest) -> ConsumerGroupDescribeResponse:
    return ConsumerGroupDescribeResponse(groups=[_describe(ctx, request, group_id) for group_id in request.group_ids])


def _describe(ctx: RequestContext, request: ConsumerGroupDescribeRequest, group_id: str) -> DescribedGroup:
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
        return DescribedGroup(error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, group_id=group_id)
    if not group_id:
        return DescribedGroup(error_code=ErrorCode.INVALID_GROUP_ID, group_id=group_id)
    error = group_error(ctx, group_id)
    if error is not ErrorCode.NONE:
        return DescribedGroup(error_code=error, group_id=group_id)
    consumer = ctx.broker.groups.consumer
    if not consumer.active:
        return DescribedGroup(error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE, group_id=group_id)
    group = consumer.groups.get(group_id)
    if group is None:
        message = f"Group {group_id} not found."
        return DescribedGroup(error_code=ErrorCode.GROUP_ID_NOT_FOUND, error_message=message, group_id=group_id)
    names = {topic_id: name for name, (topic_id, _) in group.topics.items()}
    return DescribedGroup(
        group_id=group_id,
        group_state=group.state.value,
        group_epoch=group.group_epoch,
        assignment_epoch=group.assignment_epoch,
        assignor_name=group.assignor,
        members=_members(group, names),
        authorized_operations=operations(ctx, request.include_authorized_operations, ResourceType.GROUP, group_id),
    )


def _members(group: ConsumerGroup, names: dict[uuid.UUID, str]) -> list[Member]:
    return [
        Member(
            member_id=m.member_id,
            instance_id=m.instance_id,
            rack_id=m.rack_id,
            member_epoch=m.member_epoch,
            client_id=m.client_id,
            client_host=m.client_host,
            subscribed_topic_names=list(m.subscribed_topic_names),
            subscribed_topic_regex=m.subscribed_topic_regex,
            assignment=_wire(m.assigned, names),
            target_assignment=_wire(group.target.get(m.member_id, {}), names),
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
