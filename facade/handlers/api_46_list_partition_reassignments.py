"""ListPartitionReassignments v0: the reassignments in progress (in a cluster, partitions moving between groups).

Null topics ask for every reassigning partition; named topics and partitions ask for those, and Kafka's
controller leaves out unknown topics and partitions and partitions without a reassignment alike, so they are
left out here too. On one broker there never is a reassignment: always an empty topic list with error NONE.

In a cluster each move in etcd (``cluster/moves.py``) is listed as Kafka lists a reassignment: ``replicas`` the
target's and the source's brokers (the target group's leader first), ``adding_replicas`` the target's,
``removing_replicas`` the source's.

Version notes: v0 only, flexible.
Authorization: DESCRIBE on the cluster (``authorized.py``, before the handler runs).
Not implemented: ``timeout_ms`` is moot (the answer is immediate).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.list_partition_reassignments import (
    ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse,
    OngoingPartitionReassignment,
    OngoingTopicReassignment,
)

from .context import RequestContext
from .registry import register


def _error(request: ListPartitionReassignmentsRequest, code: ErrorCode) -> ListPartitionReassignmentsResponse:
    return ListPartitionReassignmentsResponse(error_code=code, error_message=code.name)


@register(46, 0, 0, _error)
def handle(ctx: RequestContext, request: ListPartitionReassignmentsRequest) -> ListPartitionReassignmentsResponse:
    wanted = None if request.topics is None else {(t.name, p) for t in request.topics for p in t.partition_indexes}
    by_topic: dict[str, list[OngoingPartitionReassignment]] = {}
    for move in ctx.broker.topology.moves():
        if wanted is not None and (move.topic, move.partition) not in wanted:
            continue
        by_topic.setdefault(move.topic, []).append(
            OngoingPartitionReassignment(
                partition_index=move.partition,
                replicas=[move.target, move.source],
                adding_replicas=[move.target],
                removing_replicas=[move.source],
            )
        )
    topics = [OngoingTopicReassignment(name=name, partitions=partitions) for name, partitions in by_topic.items()]
    return ListPartitionReassignmentsResponse(
        throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None, topics=topics
    )
