"""AlterPartitionReassignments v0: move partitions' replicas; on one broker the only replica set is this broker.

Each partition answers alone, as Kafka's controller does: an unknown topic → UNKNOWN_TOPIC_OR_PARTITION
("Unable to find a topic named T."), an unknown partition → UNKNOWN_TOPIC_OR_PARTITION ("Unable to find
partition T:P."); null replicas cancel a reassignment, and none is ever in progress →
NO_REASSIGNMENT_IN_PROGRESS ("No partition reassignment is in progress."); a replica list that is not
exactly this broker → INVALID_REPLICA_ASSIGNMENT (empty list, unregistered broker, a broker twice);
``[this broker]`` is the current assignment → NONE (nothing moves). In a cluster the current assignment is
the partition's group leader: naming it → NONE; naming another registered broker → INVALID_REPLICA_ASSIGNMENT
(moving a partition between broker groups is not built: docs/cluster.md).

Version notes: v0 only, flexible.
Not implemented: ACL checks (CLUSTER ALTER); ``timeout_ms`` is moot (nothing is ever reassigned).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_partition_reassignments import (
    AlterPartitionReassignmentsRequest,
    AlterPartitionReassignmentsResponse,
    ReassignablePartition,
    ReassignablePartitionResponse,
    ReassignableTopicResponse,
)

from .admin import check_replicas
from .context import ApiError, RequestContext
from .registry import register
from .replicas import known_topic


def _error(request: AlterPartitionReassignmentsRequest, code: ErrorCode) -> AlterPartitionReassignmentsResponse:
    responses = [
        ReassignableTopicResponse(
            name=topic.name,
            partitions=[
                ReassignablePartitionResponse(
                    partition_index=partition.partition_index, error_code=code, error_message=code.name
                )
                for partition in topic.partitions
            ],
        )
        for topic in request.topics
    ]
    return AlterPartitionReassignmentsResponse(error_code=code, error_message=code.name, responses=responses)


@register(45, 0, 0, _error)
def handle(ctx: RequestContext, request: AlterPartitionReassignmentsRequest) -> AlterPartitionReassignmentsResponse:
    responses = [
        ReassignableTopicResponse(
            name=topic.name, partitions=[_reassign(ctx, topic.name, partition) for partition in topic.partitions]
        )
        for topic in request.topics
    ]
    return AlterPartitionReassignmentsResponse(
        throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None, responses=responses
    )


def _reassign(ctx: RequestContext, topic: str, partition: ReassignablePartition) -> ReassignablePartitionResponse:
    try:
        _check(ctx, topic, partition)
    except ApiError as exc:
        return ReassignablePartitionResponse(
            partition_index=partition.partition_index, error_code=exc.error_code, error_message=exc.message
        )
    return ReassignablePartitionResponse(
        partition_index=partition.partition_index, error_code=ErrorCode.NONE, error_message=None
    )


def _check(ctx: RequestContext, topic: str, partition: ReassignablePartition) -> None:
    info = known_topic(ctx, topic)
    if info is None:
        raise ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {topic}.")
    if not 0 <= partition.partition_index < info.partitions:
        raise ApiError(
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {topic}:{partition.partition_index}."
        )
    if partition.replicas is None:
        raise ApiError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, "No partition reassignment is in progress.")
    current = ctx.broker.topology.place(topic, partition.partition_index, ctx.broker.node_id).replicas
    check_replicas(ctx, partition.replicas, current)
