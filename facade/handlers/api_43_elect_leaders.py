"""ElectLeaders v0-2: elect partition leaders; on one broker every leader is already the preferred one.

Each existing partition answers ELECTION_NOT_NEEDED ("Leader election not needed for topic partition."),
for both election types (PREFERRED 0: the leader is the preferred replica; UNCLEAN 1: the partition has
a leader); an unknown topic or partition answers UNKNOWN_TOPIC_OR_PARTITION ("No such topic as T" /
"No such partition as T-P"). A null topic list elects for every partition and, as Kafka's controller
does, leaves out the partitions whose election was not needed: every topic is listed with no partition
results. An election type other than 0 or 1 fails the whole request with INVALID_REQUEST.

Version notes: v1 adds ``election_type`` to the request and the top-level ``error_code`` to the
response; v2 is flexible.
Not implemented: ACL checks (CLUSTER ALTER); ``timeout_ms`` is moot (nothing is elected).
"""

from __future__ import annotations

from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.elect_leaders import (
    ElectLeadersRequest,
    ElectLeadersResponse,
    PartitionResult,
    ReplicaElectionResult,
)

from .context import ApiError, RequestContext
from .registry import register
from .replicas import all_topics, known_topic

PREFERRED, UNCLEAN = 0, 1
NOT_NEEDED: Final = "Leader election not needed for topic partition."


def _error(request: ElectLeadersRequest, code: ErrorCode) -> ElectLeadersResponse:
    results = [
        ReplicaElectionResult(
            topic=topic.topic,
            partition_result=[
                PartitionResult(partition_id=partition, error_code=code, error_message=code.name)
                for partition in topic.partitions
            ],
        )
        for topic in request.topic_partitions or []
    ]
    return ElectLeadersResponse(error_code=code, replica_election_results=results)


@register(43, 0, 2, _error)
def handle(ctx: RequestContext, request: ElectLeadersRequest) -> ElectLeadersResponse:
    if request.election_type not in (PREFERRED, UNCLEAN):
        raise ApiError(ErrorCode.INVALID_REQUEST, f"Unknown election type {request.election_type}")
    if request.topic_partitions is None:
        results = [ReplicaElectionResult(topic=topic.name, partition_result=[]) for topic in all_topics(ctx)]
    else:
        results = [
            ReplicaElectionResult(
                topic=topic.topic, partition_result=[_elect(ctx, topic.topic, p) for p in topic.partitions]
            )
            for topic in request.topic_partitions
        ]
    return ElectLeadersResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, replica_election_results=results)


def _elect(ctx: RequestContext, topic: str, partition: int) -> PartitionResult:
    info = known_topic(ctx, topic)
    if info is None:
        code, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {topic}"
    elif not 0 <= partition < info.partitions:
        code, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such partition as {topic}-{partition}"
    else:
        code, message = ErrorCode.ELECTION_NOT_NEEDED, NOT_NEEDED
    return PartitionResult(partition_id=partition, error_code=code, error_message=message)
