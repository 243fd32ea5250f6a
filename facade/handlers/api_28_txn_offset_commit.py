"""TxnOffsetCommit v0-4: offsets a transaction commits for a group, held until the transaction ends.

The partitions are checked first (a topic the broker does not have answers UNKNOWN_TOPIC_OR_PARTITION, metadata
longer than ``offset.metadata.max.bytes`` OFFSET_METADATA_TOO_LARGE), then the group (v3+ carry the member id,
group instance id and generation: ``OffsetManager.check_txn_commit`` has Kafka's lenient rules), then the
transaction: the producer id must be the transactional id's (INVALID_PRODUCER_ID_MAPPING) at its epoch
(INVALID_PRODUCER_EPOCH), the transaction Ongoing with the group added by AddOffsetsToTxn (INVALID_TXN_STATE;
CONCURRENT_TRANSACTIONS while it completes). Accepted offsets are saved with the transaction (fsynced) and
answered NONE; they become the group's committed offsets when the transaction commits, and are dropped when it
aborts. Until then OffsetFetch with ``require_stable`` answers UNSTABLE_OFFSET_COMMIT for them.

Version notes: v2 adds the committed leader epoch; v3 is the first flexible version and adds the group fields;
v4 only widens the errors (TRANSACTION_ABORTABLE, never answered here). A null metadata string is kept as "".

Authorization, before anything else: WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED for
every partition) and READ on the group (GROUP_AUTHORIZATION_FAILED); then READ on each topic
(TOPIC_AUTHORIZATION_FAILED for its partitions).
"""

from __future__ import annotations

from collections.abc import Callable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.txn_offset_commit import (
    TxnOffsetCommitRequest,
    TxnOffsetCommitResponse,
    TxnOffsetCommitResponsePartition,
    TxnOffsetCommitResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import OffsetCommit, TopicPartition

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register

GROUP_FIELDS_FROM = 3


def _error(request: TxnOffsetCommitRequest, code: ErrorCode) -> TxnOffsetCommitResponse:
    return _response(request, lambda _: code)


@register(28, 0, 4, _error)
async def handle(ctx: RequestContext, request: TxnOffsetCommitRequest) -> TxnOffsetCommitResponse:
    ctx.check(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    offsets = ctx.broker.groups.offsets
    errors: dict[TopicPartition, ErrorCode] = {}
    accepted: list[OffsetCommit] = []
    for topic in request.topics:
        readable = ctx.authorize(AclOperation.READ, ResourceType.TOPIC, topic.name)
        for partition in topic.partitions:
            key = TopicPartition(topic.name, partition.partition_index)
            metadata = partition.committed_metadata or ""
            if not readable:
                errors[key] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif not offsets.topic_exists(topic.name):
                errors[key] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            elif offsets.metadata_too_large(metadata):
                errors[key] = ErrorCode.OFFSET_METADATA_TOO_LARGE
            else:
                epoch = partition.committed_leader_epoch
                accepted.append(OffsetCommit(key.topic, key.partition, partition.committed_offset,
                                             epoch if epoch >= 0 else None, metadata))  # fmt: skip
    if accepted:
        error = _group_error(ctx, request)
        if error is ErrorCode.NONE:
            error = await ctx.broker.transactions.commit_offsets(
                request.transactional_id, request.producer_id, request.producer_epoch, request.group_id, accepted
            )
        errors.update(dict.fromkeys((TopicPartition(c.topic, c.partition) for c in accepted), error))
    return _response(request, lambda key: errors.get(key, ErrorCode.NONE))


def _group_error(ctx: RequestContext, request: TxnOffsetCommitRequest) -> ErrorCode:
    if ctx.api_version < GROUP_FIELDS_FROM:
        return ctx.broker.groups.offsets.check_txn_commit(request.group_id, "", None, -1)
    return ctx.broker.groups.offsets.check_txn_commit(
        request.group_id, request.member_id, request.group_instance_id, request.generation_id
    )


def _response(
    request: TxnOffsetCommitRequest, error_of: Callable[[TopicPartition], ErrorCode]
) -> TxnOffsetCommitResponse:
    return TxnOffsetCommitResponse(
        topics=[
            TxnOffsetCommitResponseTopic(
                name=topic.name,
                partitions=[
                    TxnOffsetCommitResponsePartition(
                        partition_index=p.partition_index,
                        error_code=error_of(TopicPartition(topic.name, p.partition_index)),
                    )
                    for p in topic.partitions
                ],
            )
            for topic in request.topics
        ]
    )
