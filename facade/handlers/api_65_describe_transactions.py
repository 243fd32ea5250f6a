"""DescribeTransactions v0: each transactional id's state, producer id and epoch, timeout, start time and
partitions (a group added with AddOffsetsToTxn shows as its ``__consumer_offsets`` partition, as in Kafka).

An empty id answers INVALID_REQUEST, an unknown (or expired) one TRANSACTIONAL_ID_NOT_FOUND. v0 is flexible.
Authorization: DESCRIBE on each transactional id (else TRANSACTIONAL_ID_AUTHORIZATION_FAILED for it); topics the
principal may not DESCRIBE are left out of the partitions, as Kafka does.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_transactions import (
    DescribeTransactionsRequest,
    DescribeTransactionsResponse,
    TopicData,
    TransactionState,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .registry import register


def _error(request: DescribeTransactionsRequest, code: ErrorCode) -> DescribeTransactionsResponse:
    return DescribeTransactionsResponse(
        transaction_states=[
            TransactionState(error_code=code, transactional_id=name, transaction_state="", transaction_timeout_ms=0,
                             transaction_start_time_ms=-1, producer_id=-1, producer_epoch=-1)
            for name in request.transactional_ids
        ]
    )  # fmt: skip


@register(65, 0, 0, _error)
def handle(ctx: RequestContext, request: DescribeTransactionsRequest) -> DescribeTransactionsResponse:
    states = []
    for name in request.transactional_ids:
        if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, name):
            states.extend(_error(DescribeTransactionsRequest(transactional_ids=[name]),
                                 ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED).transaction_states)  # fmt: skip
            continue
        found = ctx.broker.transactions.describe(name)
        topics: dict[str, list[int]] = {}
        for tp in found.partitions:
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, tp.topic):
                topics.setdefault(tp.topic, []).append(tp.partition)
        states.append(
            TransactionState(
                error_code=found.error,
                transactional_id=name,
                transaction_state=found.state,
                transaction_timeout_ms=found.timeout_ms,
                transaction_start_time_ms=found.start_ms,
                producer_id=found.producer_id,
                producer_epoch=found.epoch,
                topics=[TopicData(topic=topic, partitions=partitions) for topic, partitions in topics.items()],
            )
        )
    return DescribeTransactionsResponse(transaction_states=states)
