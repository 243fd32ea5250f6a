"""AddOffsetsToTxn v0-4: add a consumer group to a producer's ongoing transaction, so that TxnOffsetCommit may
hold that group's offsets until the transaction ends (``rockafka.facade.transactions``).

Version notes: v2 may answer PRODUCER_FENCED (v0-1 get INVALID_PRODUCER_EPOCH instead); v3 is the first
flexible version; v4 only widens the errors (TRANSACTION_ABORTABLE, never answered here). Errors as
AddPartitionsToTxn: INVALID_REQUEST for an empty transactional id, INVALID_PRODUCER_ID_MAPPING,
PRODUCER_FENCED, CONCURRENT_TRANSACTIONS, COORDINATOR_NOT_AVAILABLE; NONE once the transaction is saved.
Authorization: WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), READ on the group
(GROUP_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.add_offsets_to_txn import AddOffsetsToTxnRequest, AddOffsetsToTxnResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import check_transaction_coordinator
from .registry import register

PRODUCER_FENCED_FROM = 2


def _error(request: AddOffsetsToTxnRequest, code: ErrorCode) -> AddOffsetsToTxnResponse:
    return AddOffsetsToTxnResponse(error_code=code)


@register(25, 0, 4, _error)
async def handle(ctx: RequestContext, request: AddOffsetsToTxnRequest) -> AddOffsetsToTxnResponse:
    if not request.transactional_id:
        return _error(request, ErrorCode.INVALID_REQUEST)
    ctx.check(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    check_transaction_coordinator(ctx, request.transactional_id)
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    error = await ctx.broker.transactions.add_offsets(
        request.transactional_id, request.producer_id, request.producer_epoch, request.group_id
    )
    if error is ErrorCode.PRODUCER_FENCED and ctx.api_version < PRODUCER_FENCED_FROM:
        error = ErrorCode.INVALID_PRODUCER_EPOCH
    return AddOffsetsToTxnResponse(error_code=error)
