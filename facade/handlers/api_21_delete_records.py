"""DeleteRecords v0-2: move partitions' log start offsets up; records below them are gone for good.

Per partition, as Kafka answers: the offset becomes the new log start offset (its low watermark is
returned); -1 means the high watermark (delete everything); an offset below the current log start
changes nothing and returns the current one; an offset above the high watermark, or negative other
than -1 → OFFSET_OUT_OF_RANGE; an unknown topic or partition → UNKNOWN_TOPIC_OR_PARTITION; a topic
whose ``cleanup.policy`` lacks ``delete`` (and the compacted ``__consumer_offsets``) → POLICY_VIOLATION.
Failed partitions report low watermark -1.
The log start offset is persisted before the answer; fetches below it get OFFSET_OUT_OF_RANGE.
In a cluster only a partition's leader deletes its records: any other broker answers NOT_LEADER_OR_FOLLOWER
for it (as for Produce; admin clients send each partition to its leader and refresh their metadata on it).

Version notes: v1 is v0 (throttle behaviour only); v2+ flexible.
Not implemented: ACL checks; ``timeout_ms`` is moot (no replicas to wait for).

Authorization: DELETE on the topic (TOPIC_AUTHORIZATION_FAILED for its partitions).
"""

from __future__ import annotations

from rockafka.facade.config import format_value
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.delete_records import (
    DeleteRecordsPartitionResult,
    DeleteRecordsRequest,
    DeleteRecordsResponse,
    DeleteRecordsTopic,
    DeleteRecordsTopicResult,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError, TopicInfo

from ..errors import store_error_code
from ..internal_topics import INTERNAL_TOPICS
from .context import RequestContext
from .registry import register

INVALID_LOW_WATERMARK = -1


def _error(request: DeleteRecordsRequest, code: ErrorCode) -> DeleteRecordsResponse:
    return DeleteRecordsResponse(
        topics=[
            DeleteRecordsTopicResult(
                name=topic.name,
                partitions=[_failed(part.partition_index, code) for part in topic.partitions],
            )
            for topic in request.topics
        ]
    )


def _failed(partition: int, code: ErrorCode) -> DeleteRecordsPartitionResult:
    return DeleteRecordsPartitionResult(partition_index=partition, low_watermark=INVALID_LOW_WATERMARK, error_code=code)


@register(21, 0, 2, _error)
def handle(ctx: RequestContext, request: DeleteRecordsRequest) -> DeleteRecordsResponse:
    return DeleteRecordsResponse(throttle_time_ms=0, topics=[_delete(ctx, topic) for topic in request.topics])


def _delete(ctx: RequestContext, topic: DeleteRecordsTopic) -> DeleteRecordsTopicResult:
    if not ctx.authorize(AclOperation.DELETE, ResourceType.TOPIC, topic.name):
        denied = ErrorCode.TOPIC_AUTHORIZATION_FAILED
        return DeleteRecordsTopicResult(
            name=topic.name, partitions=[_failed(part.partition_index, denied) for part in topic.partitions]
        )
    info = ctx.broker.internal_topics.show(topic.name) or ctx.broker.topic_or_none(topic.name)
    if info is None or not _deletable(ctx, info):
        code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION if info is None else ErrorCode.POLICY_VIOLATION
        return DeleteRecordsTopicResult(
            name=topic.name, partitions=[_failed(part.partition_index, code) for part in topic.partitions]
        )
    led = ctx.broker.topology.led  # None on a single broker: it leads every partition
    here = None if led is None else led.get(topic.name, frozenset())
    results = []
    for part in topic.partitions:
        if here is not None and part.partition_index not in here and 0 <= part.partition_index < info.partitions:
            results.append(_failed(part.partition_index, ErrorCode.NOT_LEADER_OR_FOLLOWER))
            continue
        try:
            low_watermark = ctx.broker.store.records.delete_records(topic.name, part.partition_index, part.offset)
        except StoreError as exc:
            results.append(_failed(part.partition_index, store_error_code(exc)))
        else:
            results.append(
                DeleteRecordsPartitionResult(
                    partition_index=part.partition_index, low_watermark=low_watermark, error_code=ErrorCode.NONE
                )
            )
    return DeleteRecordsTopicResult(name=topic.name, partitions=results)


def _deletable(ctx: RequestContext, info: TopicInfo) -> bool:
    """Kafka deletes records only from topics whose cleanup.policy includes ``delete`` (not its compacted
    internal topics)."""
    if info.name in INTERNAL_TOPICS:
        return False
    policy = info.configs.get("cleanup.policy") or format_value(ctx.broker.config.get("log.cleanup.policy")) or ""
    return "delete" in policy.split(",")
