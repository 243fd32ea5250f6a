"""DescribeQuorum v0-2: the KRaft metadata quorum, as a combined-mode (broker and controller) single Kafka
node answers it.

The quorum is this node alone: it is the one voter and the leader of ``__cluster_metadata`` partition 0,
and there are no observers (a combined node's own broker shares the controller's log; no other broker
fetches it). Rockafka keeps no metadata log (topic and config changes go straight to the store's config
files), so the node is described as a single voter right after the only election it ever holds: leader
epoch 1, and a log at offset 0 (high watermark = the leader's log end offset = 0). As Kafka reports the
leader's own replica, its last fetch and last caught-up timestamps are the current wall-clock time.

Requests: the one topic ``__cluster_metadata`` with the one partition 0; any other request (another
topic or partition, more than one, none) is answered UNKNOWN_TOPIC_OR_PARTITION on each partition asked
for, as Kafka's raft client answers it.

Version notes: v1 adds the replicas' last fetch and last caught-up timestamps; v2 adds error messages
(null on success), the replicas' directory ids (the zero id here: no log directory carries one) and
``nodes``: this node with the listeners it advertises (a Kafka controller lists its controller
listeners; a Rockafka node serves both roles on the same ones).

Authorization: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED for the whole request.
"""

from __future__ import annotations

import time
from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_quorum import (
    DescribeQuorumRequest,
    DescribeQuorumResponse,
    DescribeQuorumResponsePartitionData,
    DescribeQuorumResponseTopicData,
    Listener,
    Node,
    ReplicaState,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .registry import register

METADATA_TOPIC: Final = "__cluster_metadata"
METADATA_PARTITION: Final = 0
#: The epoch a single voter leads from after its first (and only) election.
LEADER_EPOCH: Final = 1
#: The metadata log's end offset: Rockafka has no metadata log records.
LOG_END_OFFSET: Final = 0


def _error(request: DescribeQuorumRequest, code: ErrorCode) -> DescribeQuorumResponse:
    return DescribeQuorumResponse(error_code=code, error_message=code.name)


@register(55, 0, 2, _error)
def handle(ctx: RequestContext, request: DescribeQuorumRequest) -> DescribeQuorumResponse:
    ctx.check(AclOperation.DESCRIBE, ResourceType.CLUSTER)
    if not _asks_for_metadata_partition(request):
        return _unknown_partitions(request)
    node_id = ctx.broker.node_id
    now_ms = int(time.time() * 1000)
    leader = ReplicaState(
        replica_id=node_id,
        log_end_offset=LOG_END_OFFSET,
        last_fetch_timestamp=now_ms,
        last_caught_up_timestamp=now_ms,
    )
    partition = DescribeQuorumResponsePartitionData(
        partition_index=METADATA_PARTITION,
        error_code=ErrorCode.NONE,
        error_message=None,
        leader_id=node_id,
        leader_epoch=LEADER_EPOCH,
        high_watermark=LOG_END_OFFSET,
        current_voters=[leader],
        observers=[],
    )
    listeners = [
        Listener(name=item.name, host=item.host, port=item.port) for item in ctx.broker.config.advertised_listeners
    ]
    return DescribeQuorumResponse(
        error_code=ErrorCode.NONE,
        error_message=None,
        topics=[DescribeQuorumResponseTopicData(topic_name=METADATA_TOPIC, partitions=[partition])],
        nodes=[Node(node_id=node_id, listeners=listeners)] if ctx.api_version >= 2 else [],
    )


def _asks_for_metadata_partition(request: DescribeQuorumRequest) -> bool:
    """Kafka's check: exactly one topic, the metadata topic, with exactly one partition, partition 0."""
    if len(request.topics) != 1 or request.topics[0].topic_name != METADATA_TOPIC:
        return False
    partitions = request.topics[0].partitions
    return len(partitions) == 1 and partitions[0].partition_index == METADATA_PARTITION


def _unknown_partitions(request: DescribeQuorumRequest) -> DescribeQuorumResponse:
    return DescribeQuorumResponse(
        error_code=ErrorCode.NONE,
        error_message=None,
        topics=[
            DescribeQuorumResponseTopicData(
                topic_name=topic.topic_name,
                partitions=[
                    DescribeQuorumResponsePartitionData(
                        partition_index=partition.partition_index,
                        error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                        error_message=None,
                    )
                    for partition in topic.partitions
                ],
            )
            for topic in request.topics
        ],
    )
