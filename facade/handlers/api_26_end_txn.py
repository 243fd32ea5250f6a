"""EndTxn v0-4: commit or abort a producer's ongoing transaction (``rockafka.facade.transactions``).

The transaction is saved as PrepareCommit/PrepareAbort (fsynced), a COMMIT or ABORT control batch is written to
every partition of the transaction, and on commit the offsets TxnOffsetCommit held become the group's committed
offsets (on abort they are dropped); then the answer. A retry of an EndTxn already completed answers NONE; one
still completing CONCURRENT_TRANSACTIONS; ending a transaction that was never begun, or with the other outcome,
INVALID_TXN_STATE; a stale epoch (the producer was fenced, or its transaction timed out and was aborted)
PRODUCER_FENCED.

Version notes: v2 may answer PRODUCER_FENCED (v0-1 get INVALID_PRODUCER_EPOCH instead); v3 is the first
flexible version; v4 only widens the errors (TRANSACTION_ABORTABLE, never answered here). v5 (KIP-890 part 2:
an epoch bump with every transaction) is not advertised; Kafka marks it unstable too. Authorization: WRITE on
the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.end_txn import EndTxnRequest, EndTxnResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import check_transaction_coordinator
from .registry import register

PRODUCER_FENCED_FROM = 2


def _error(request: EndTxnRequest, code: ErrorCode) -> EndTxnResponse:
    return EndTxnResponse(error_code=code)


@register(26, 0, 4, _error)
async def handle(ctx: RequestContext, request: EndTxnRequest) -> EndTxnResponse:
    if not request.transactional_id:
        return _error(request, ErrorCode.INVALID_REQUEST)
    ctx.check(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    check_transaction_coordinator(ctx, request.transactional_id)
    error = await ctx.broker.transactions.end_transaction(
        request.transactional_id, request.producer_id, request.producer_epoch, request.committed
    )
    if error is ErrorCode.PRODUCER_FENCED and ctx.api_version < PRODUCER_FENCED_FROM:
        error = ErrorCode.INVALID_PRODUCER_EPOCH
    return EndTxnResponse(error_code=error)
