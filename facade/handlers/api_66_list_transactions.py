"""ListTransactions v0-1: the transactional ids this coordinator knows, with their producer id and state.

Filters: states (Kafka's names: Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort,
PrepareEpochFence, Dead; names it does not know come back in ``unknown_state_filters``), producer ids, and from
v1 a duration (only transactions started at least that many milliseconds ago; negative: no filter). Every
filter left empty matches everything. v0 is flexible. Only the ids the principal may DESCRIBE are listed.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.list_transactions import (
    ListTransactionsRequest,
    ListTransactionsResponse,
    TransactionState,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .registry import register


def _error(request: ListTransactionsRequest, code: ErrorCode) -> ListTransactionsResponse:
    return ListTransactionsResponse(error_code=code)


@register(66, 0, 1, _error)
def handle(ctx: RequestContext, request: ListTransactionsRequest) -> ListTransactionsResponse:
    duration = request.duration_filter if ctx.api_version >= 1 else -1
    unknown, listings = ctx.broker.transactions.list_transactions(
        request.state_filters, request.producer_id_filters, duration
    )
    return ListTransactionsResponse(
        error_code=ErrorCode.NONE,
        unknown_state_filters=unknown,
        transaction_states=[
            TransactionState(transactional_id=item.transactional_id, producer_id=item.producer_id,
                             transaction_state=item.state)
            for item in listings
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, item.transactional_id)
        ],
    )  # fmt: skip
