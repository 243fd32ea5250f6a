"""AlterPartitionReassignments v0: move partitions' replicas; in a cluster, move a partition to another broker group.

Each partition answers alone, as Kafka's controller does: an unknown topic → UNKNOWN_TOPIC_OR_PARTITION
("Unable to find a topic named T."), an unknown partition → UNKNOWN_TOPIC_OR_PARTITION ("Unable to find
partition T:P."); a replica list that is empty, names an unregistered broker, a broker twice, or more than one
broker (a group has one member today) → INVALID_REPLICA_ASSIGNMENT.

On one broker the only replica set is this broker: ``[this broker]`` is the current assignment → NONE
(nothing moves); null replicas cancel a reassignment, and none is ever in progress → NO_REASSIGNMENT_IN_PROGRESS
("No partition reassignment is in progress.").

In a cluster a replica list names the broker whose group is to hold the partition: another group's leader
starts a move (recorded in etcd, ``cluster/moves.py``; the copy and switch: ``partition_moves.py``), answered
NONE once recorded, as Kafka answers once the reassignment is accepted; the present leader cancels a move in
progress or changes nothing; null replicas cancel (NO_REASSIGNMENT_IN_PROGRESS when none is in progress);
a move already switching (its source stopped taking appends) can be neither cancelled nor redirected →
REASSIGNMENT_IN_PROGRESS. Internal topics do not move (INVALID_REPLICA_ASSIGNMENT).

Version notes: v0 only, flexible.
Authorization: ALTER on the cluster (``authorized.py``, before the handler runs).
Not implemented: ``timeout_ms`` is moot (the answer comes once etcd took the move and this broker saw it).
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
async def handle(
    ctx: RequestContext, request: AlterPartitionReassignmentsRequest
) -> AlterPartitionReassignmentsResponse:
    responses = [
        ReassignableTopicResponse(
            name=topic.name, partitions=[await _reassign(ctx, topic.name, partition) for partition in topic.partitions]
        )
        for topic in request.topics
    ]
    return AlterPartitionReassignmentsResponse(
        throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None, responses=responses
    )


async def _reassign(ctx: RequestContext, topic: str, partition: ReassignablePartition) -> ReassignablePartitionResponse:
    try:
        await _move(ctx, topic, partition)
    except ApiError as exc:
        return ReassignablePartitionResponse(
            partition_index=partition.partition_index, error_code=exc.error_code, error_message=exc.message
        )
    return ReassignablePartitionResponse(
        partition_index=partition.partition_index, error_code=ErrorCode.NONE, error_message=None
    )


async def _move(ctx: RequestContext, topic: str, partition: ReassignablePartition) -> None:
    info = known_topic(ctx, topic)
    if info is None:
        raise ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {topic}.")
    if not 0 <= partition.partition_index < info.partitions:
        raise ApiError(
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {topic}:{partition.partition_index}."
        )
    topology = ctx.broker.topology
    if partition.replicas is None:
        cancelled = topology.cancel_move(topic, partition.partition_index)
        if cancelled is False:
            raise ApiError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, "No partition reassignment is in progress.")
        if not isinstance(cancelled, bool):
            await cancelled
        return
    check_replicas(ctx, partition.replicas)
    moving = topology.move_partition(topic, partition.partition_index, partition.replicas[0])
    if moving is not None:
        await moving
