"""ElectLeaders v0-2: elect partition leaders.

In a cluster (``Broker.leader_elections``, ``facade/leader_elections.py``) an election is of the partition's
broker group, run by the controller: every partition asked for is answered with its group's outcome (NONE when
elected, ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE, ELIGIBLE_LEADERS_NOT_AVAILABLE), and a null topic
list elects every group holding a partition and lists only the partitions not answered ELECTION_NOT_NEEDED, as
Kafka does. A broker that is not the controller answers NOT_CONTROLLER for the whole request.

On one broker every leader is already the preferred one: each existing partition answers ELECTION_NOT_NEEDED
("Leader election not needed for topic partition."), for both election types (PREFERRED 0: the leader is the
preferred replica; UNCLEAN 1: the partition has a leader); an unknown topic or partition answers
UNKNOWN_TOPIC_OR_PARTITION ("No such topic as T" / "No such partition as T-P"). A null topic list elects for every
partition and, as Kafka's controller does, leaves out the partitions whose election was not needed: every topic is
listed with no partition results. An election type other than 0 or 1 fails the whole request with INVALID_REQUEST.

Version notes: v1 adds ``election_type`` to the request and the top-level ``error_code`` to the
response; v2 is flexible.
Authorization: ALTER on the cluster (``authorized.py``, before the handler runs).
``timeout_ms`` is not used (an election is one etcd write, answered
once it is committed, before other brokers' watches have seen it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

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

if TYPE_CHECKING:
    from ..leader_elections import ClusterLeaderElections

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
async def handle(ctx: RequestContext, request: ElectLeadersRequest) -> ElectLeadersResponse:
    if request.election_type not in (PREFERRED, UNCLEAN):
        raise ApiError(ErrorCode.INVALID_REQUEST, f"Unknown election type {request.election_type}")
    elections = ctx.broker.leader_elections
    if elections is not None:
        if not elections.is_controller():
            return _not_controller(ctx, request)
        return await _elect_groups(ctx, request, elections)
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


async def _elect_groups(
    ctx: RequestContext, request: ElectLeadersRequest, elections: ClusterLeaderElections
) -> ElectLeadersResponse:
    """The cluster's answer: one election per group, each partition answered with its group's outcome."""
    preferred = request.election_type == PREFERRED
    if request.topic_partitions is None:
        asked = [(t.name, list(range(t.partitions))) for t in all_topics(ctx)]
    else:
        asked = [(t.topic, list(t.partitions)) for t in request.topic_partitions]
    outcomes: dict[str, ErrorCode] = {}
    results = []
    for topic, partitions in asked:
        answers = []
        for partition in partitions:
            group = elections.group_of(topic, partition)
            if group is None:
                answers.append(_elect(ctx, topic, partition))  # the unknown topic or partition's answer
                continue
            if group not in outcomes:
                outcomes[group] = await elections.elect(group, preferred=preferred)
            code = outcomes[group]
            if code == ErrorCode.NOT_CONTROLLER:
                return _not_controller(ctx, request)
            if request.topic_partitions is None and code == ErrorCode.ELECTION_NOT_NEEDED:
                continue
            answers.append(PartitionResult(partition_id=partition, error_code=code, error_message=_message(code)))
        results.append(ReplicaElectionResult(topic=topic, partition_result=answers))
    return ElectLeadersResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, replica_election_results=results)


def _message(code: ErrorCode) -> str | None:
    if code == ErrorCode.NONE:
        return None
    return NOT_NEEDED if code == ErrorCode.ELECTION_NOT_NEEDED else code.name


def _not_controller(ctx: RequestContext, request: ElectLeadersRequest) -> ElectLeadersResponse:
    """NOT_CONTROLLER on every partition asked for, and at the top from v1 (v0 has no top-level code)."""
    response = _error(request, ErrorCode.NOT_CONTROLLER)
    top = ErrorCode.NONE if ctx.api_version == 0 else ErrorCode.NOT_CONTROLLER
    return ElectLeadersResponse(error_code=top, replica_election_results=response.replica_election_results)
