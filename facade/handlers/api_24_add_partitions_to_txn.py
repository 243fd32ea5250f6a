"""AddPartitionsToTxn v0-5: add partitions to a producer's ongoing transaction (``rockafka.facade.transactions``).

Version notes: v0-3 carry one transaction (``v3_and_below_*``) and answer per topic and partition; v2 may
answer PRODUCER_FENCED (v0-1 get INVALID_PRODUCER_EPOCH instead); v3 is the first flexible version; v4+ batch
several transactions (``transactions``, a top-level error code and ``results_by_transaction``; Kafka sends them
between brokers) and add ``verify_only``: each partition answers NONE if it is in the ongoing transaction, else
INVALID_TXN_STATE, and nothing is added; v5 only widens the errors (TRANSACTION_ABORTABLE, never answered here).

Per-partition errors, as Kafka's request handler gives them: if any partition is of a topic the broker does not
have (or beyond its partition count), those answer UNKNOWN_TOPIC_OR_PARTITION, the others
OPERATION_NOT_ATTEMPTED, and nothing is added; otherwise every partition answers the coordinator's one error
(INVALID_PRODUCER_ID_MAPPING, PRODUCER_FENCED, CONCURRENT_TRANSACTIONS, COORDINATOR_NOT_AVAILABLE or NONE
once the transaction is saved). In a cluster, a transactional id this broker does not coordinate answers
NOT_COORDINATOR for each of its partitions (``coordination.py``), after the checks above, as Kafka's coordinator.

Authorization: v4+ (between brokers) needs CLUSTER_ACTION on the cluster (else the top-level
CLUSTER_AUTHORIZATION_FAILED); v0-3 need WRITE on the transactional id (else every partition answers
TRANSACTIONAL_ID_AUTHORIZATION_FAILED) and WRITE on each topic (else its partitions answer
TOPIC_AUTHORIZATION_FAILED, the others OPERATION_NOT_ATTEMPTED, and nothing is added).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.add_partitions_to_txn import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTopicResult,
    AddPartitionsToTxnTransaction,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import TopicPartition

from .context import RequestContext
from .coordination import transaction_error
from .registry import register

BATCHED_FROM = 4
PRODUCER_FENCED_FROM = 2

ErrorOf = Callable[[TopicPartition], ErrorCode]


def _error(request: AddPartitionsToTxnRequest, code: ErrorCode) -> AddPartitionsToTxnResponse:
    if request.transactions:
        return AddPartitionsToTxnResponse(error_code=code)
    return AddPartitionsToTxnResponse(
        results_by_topic_v3_and_below=_results(request.v3_and_below_topics, lambda _: code)
    )


@register(24, 0, 5, _error)
async def handle(ctx: RequestContext, request: AddPartitionsToTxnRequest) -> AddPartitionsToTxnResponse:
    if ctx.api_version >= BATCHED_FROM:
        ctx.check(AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER)
        results = [
            AddPartitionsToTxnResult(
                transactional_id=txn.transactional_id, topic_results=_results(txn.topics, await _one(ctx, txn))
            )
            for txn in request.transactions
        ]
        return AddPartitionsToTxnResponse(error_code=ErrorCode.NONE, results_by_transaction=results)
    single = AddPartitionsToTxnTransaction(
        transactional_id=request.v3_and_below_transactional_id,
        producer_id=request.v3_and_below_producer_id,
        producer_epoch=request.v3_and_below_producer_epoch,
        topics=request.v3_and_below_topics,
    )
    return AddPartitionsToTxnResponse(results_by_topic_v3_and_below=_results(single.topics, await _one(ctx, single)))


async def _one(ctx: RequestContext, txn: AddPartitionsToTxnTransaction) -> ErrorOf:
    """How each partition of one transaction is answered."""
    partitions = [TopicPartition(topic.name, index) for topic in txn.topics for index in topic.partitions]
    if not txn.transactional_id:
        return lambda _: ErrorCode.INVALID_REQUEST
    if ctx.api_version < BATCHED_FROM and not ctx.authorize(
        AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, txn.transactional_id
    ):
        return lambda _: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    refused = {tp: error for tp in partitions if (error := _refusal(ctx, tp)) is not None}
    if refused:
        return lambda tp: refused.get(tp, ErrorCode.OPERATION_NOT_ATTEMPTED)
    if (not_coordinator := transaction_error(ctx, txn.transactional_id)) is not ErrorCode.NONE:
        return lambda _: not_coordinator
    coordinator = ctx.broker.transactions
    if txn.verify_only:
        verdicts = coordinator.verify_partitions(txn.transactional_id, txn.producer_id, txn.producer_epoch, partitions)
        if isinstance(verdicts, dict):
            return lambda tp: verdicts.get(tp, ErrorCode.INVALID_TXN_STATE)
        error = verdicts
    else:
        error = await coordinator.add_partitions(txn.transactional_id, txn.producer_id, txn.producer_epoch, partitions)
    if error is ErrorCode.PRODUCER_FENCED and ctx.api_version < PRODUCER_FENCED_FROM:
        error = ErrorCode.INVALID_PRODUCER_EPOCH
    return lambda _: error


def _refusal(ctx: RequestContext, tp: TopicPartition) -> ErrorCode | None:
    """Why ``tp`` cannot be added (a topic it may not write, or a partition that does not exist), or None."""
    if ctx.api_version < BATCHED_FROM and not ctx.authorize(AclOperation.WRITE, ResourceType.TOPIC, tp.topic):
        return ErrorCode.TOPIC_AUTHORIZATION_FAILED
    topic = ctx.broker.topic_or_none(tp.topic)
    if topic is None or not 0 <= tp.partition < topic.partitions:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    return None


def _results(topics: Sequence[AddPartitionsToTxnTopic], error_of: ErrorOf) -> list[AddPartitionsToTxnTopicResult]:
    return [
        AddPartitionsToTxnTopicResult(
            name=topic.name,
            results_by_partition=[
                AddPartitionsToTxnPartitionResult(
                    partition_index=index, partition_error_code=error_of(TopicPartition(topic.name, index))
                )
                for index in topic.partitions
            ],
        )
        for topic in topics
    ]
