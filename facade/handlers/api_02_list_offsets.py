"""ListOffsets v0-10: earliest, latest, by timestamp, max timestamp, per partition.

Special timestamps: -2 earliest (the log start offset), -1 latest (the high watermark; for isolation
level read_committed, v2+, the last stable offset: the first offset of the oldest open transaction), -3
the record with the largest timestamp (v7+), -4 the local log start (v8+; the log start here, nothing is
tiered), -5 the last tiered offset (v9+; none: offset -1). Any other timestamp finds the exact first record
whose timestamp is at or after it, inside its batch; when there is none the answer is offset -1 and
timestamp -1 (KIP-79). For read_committed, a record found by time (or -3) at or past the LSO is no answer.
v0 answers in ``old_style_offsets`` (at most ``max_num_offsets`` of them). v4+ reports a leader epoch with the
offset, as Kafka: the current one (the partition group's in a cluster, 0 on a single broker) with the latest
offset, otherwise the epoch in which the offset answered was written (``store.epochs.epoch_of_offset``; -1 with
no offset). v4+ ``current_leader_epoch`` is checked first (``handlers/leadership.py``: FENCED_LEADER_EPOCH,
UNKNOWN_LEADER_EPOCH, -1 skips it); then in a cluster a partition this broker does not lead is answered
NOT_LEADER_OR_FOLLOWER.
v10 (KIP-1075) adds ``timeout_ms``, how long a broker may wait for offsets read from remote (tiered)
storage; nothing is tiered here, so every answer is local and immediate, and v10 answers as v9 does.
kafka-python reads an advertised v10 as "Kafka 4.0".

Authorization: DESCRIBE on each topic (TOPIC_AUTHORIZATION_FAILED for its partitions).
"""

from __future__ import annotations

from collections.abc import Mapping

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsPartitionResponse,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopicResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import MessageStore, StoreError, TimestampOffset

from ..errors import store_error_code
from .context import RequestContext
from .leadership import epoch_error
from .registry import register

LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL, LATEST_TIERED = -1, -2, -3, -4, -5
READ_COMMITTED = 1
MIN_VERSION_FOR = {MAX_TIMESTAMP: 7, EARLIEST_LOCAL: 8, LATEST_TIERED: 9}


def _error(request: ListOffsetsRequest, code: ErrorCode) -> ListOffsetsResponse:
    return ListOffsetsResponse(
        topics=[
            ListOffsetsTopicResponse(
                name=topic.name,
                partitions=[
                    ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=code)
                    for p in topic.partitions
                ],
            )
            for topic in request.topics
        ]
    )


@register(2, 0, 10, _error)
def handle(ctx: RequestContext, request: ListOffsetsRequest) -> ListOffsetsResponse:
    led = ctx.broker.topology.led
    committed = ctx.api_version >= 2 and request.isolation_level == READ_COMMITTED
    topics = [
        ListOffsetsTopicResponse(
            name=topic.name,
            partitions=[_answer(ctx, led, topic.name, part, committed) for part in topic.partitions],
        )
        for topic in request.topics
    ]
    return ListOffsetsResponse(topics=topics)


def _answer(
    ctx: RequestContext,
    led: Mapping[str, frozenset[int]] | None,
    topic: str,
    part: ListOffsetsPartition,
    committed: bool,
) -> ListOffsetsPartitionResponse:
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic):
        return _refused(part, ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    fenced = epoch_error(ctx.broker.topology, topic, part.partition_index, part.current_leader_epoch)
    if fenced:
        return _refused(part, fenced)
    if led is not None and part.partition_index not in led.get(topic, ()):
        return _refused(part, ErrorCode.NOT_LEADER_OR_FOLLOWER)
    return _one(ctx, topic, part, committed)


def _refused(part: ListOffsetsPartition, code: ErrorCode) -> ListOffsetsPartitionResponse:
    """Not authorized, at another leader epoch, or (in a cluster) not led here: the client refreshes metadata and
    asks the leader."""
    return ListOffsetsPartitionResponse(partition_index=part.partition_index, error_code=code)


def _one(ctx: RequestContext, topic: str, part: ListOffsetsPartition, committed: bool) -> ListOffsetsPartitionResponse:
    store, version = ctx.broker.store, ctx.api_version
    answer = ListOffsetsPartitionResponse(partition_index=part.partition_index, error_code=ErrorCode.NONE)
    if part.timestamp in MIN_VERSION_FOR and version < MIN_VERSION_FOR[part.timestamp]:
        answer.error_code = ErrorCode.UNSUPPORTED_VERSION
        return answer
    try:
        found = _lookup(store, topic, part.partition_index, part.timestamp, committed)
    except StoreError as exc:
        answer.error_code = store_error_code(exc)
        return answer
    offset, timestamp = (-1, -1) if found is None else (found.offset, found.timestamp)
    if version == 0:
        answer.old_style_offsets = [offset][: max(part.max_num_offsets, 0)] if offset >= 0 else []
    else:
        answer.offset, answer.timestamp = offset, timestamp
        if version >= 4:  # the field exists from v4; v1-3 responses cannot carry it
            answer.leader_epoch = _epoch_of(ctx, topic, part.partition_index, part.timestamp, offset)
    return answer


def _epoch_of(ctx: RequestContext, topic: str, partition: int, timestamp: int, offset: int) -> int:
    """The leader epoch answered with ``offset``, as Kafka: the current one for the latest offset, else the epoch in
    which that offset was written (the log start's for the earliest, the found batch's by timestamp); -1 when no
    offset was found."""
    if timestamp == LATEST:
        return ctx.broker.topology.place(topic, partition, ctx.broker.node_id).epoch
    if offset < 0:
        return -1
    return ctx.broker.store.epochs.epoch_of_offset(topic, partition, offset)


def _lookup(store: MessageStore, topic: str, partition: int, timestamp: int, committed: bool) -> TimestampOffset | None:
    if timestamp == LATEST and committed:
        return TimestampOffset(store.records.last_stable_offset(topic, partition), -1)
    if timestamp in (LATEST, EARLIEST, EARLIEST_LOCAL):
        offsets = store.records.partition_offsets(topic, partition)
        offset = offsets.high_watermark if timestamp == LATEST else offsets.log_start_offset
        return TimestampOffset(offset, -1)
    if timestamp == LATEST_TIERED:
        return None
    if timestamp == MAX_TIMESTAMP:
        found = store.records.max_timestamp(topic, partition)
    else:
        found = store.records.offset_for_timestamp(topic, partition, timestamp)
    if found is not None and committed and found.offset >= store.records.last_stable_offset(topic, partition):
        return None  # read_committed: a record a consumer could not fetch yet is not an answer (as Kafka)
    return found
