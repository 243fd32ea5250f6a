"""InitProducerId v0-5: producer ids for idempotent producers, and epochs for transactional ids.

The rules are ``rockafka.facade.producers.ids``'s (Kafka's coordinator's): a transactional id of null gets
a new producer id with epoch 0 on every call (v3+ producer id/epoch are ignored for it, as Kafka does);
producer ids never repeat, across restarts and kill -9 (a new id block is fsynced before it is used).
A transactional id keeps its producer id; each InitProducerId bumps its epoch, which fences the previous
holder (PRODUCER_FENCED; INVALID_PRODUCER_EPOCH before v4, which older clients do not know), and the
mapping is saved (fsynced) before the answer. The timeout must be within ``transaction.max.timeout.ms``
(INVALID_TRANSACTION_TIMEOUT). v2 is the first flexible version; v3 adds the producer id and epoch the
producer already has (for a bump or a retry of one).

A transactional id with a transaction in progress is handled by the transaction coordinator
(``rockafka.facade.transactions``): an Ongoing transaction is aborted with a bumped epoch (fencing the producer
that holds it) and the request answered CONCURRENT_TRANSACTIONS, which clients retry; PrepareCommit/PrepareAbort
answer CONCURRENT_TRANSACTIONS.

Authorization (with an authorizer configured): a transactional id needs WRITE on it
(TRANSACTIONAL_ID_AUTHORIZATION_FAILED); an idempotent producer needs IDEMPOTENT_WRITE on the cluster or
WRITE on some topic (CLUSTER_AUTHORIZATION_FAILED), as Kafka checks it.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.init_producer_id import InitProducerIdRequest, InitProducerIdResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from ..producers import InitRefused
from .context import RequestContext
from .coordination import check_transaction_coordinator
from .registry import register

PRODUCER_FENCED_FROM = 4


def _error(request: InitProducerIdRequest, code: ErrorCode) -> InitProducerIdResponse:
    return InitProducerIdResponse(error_code=code, producer_id=-1, producer_epoch=-1)


@register(22, 0, 5, _error)
async def handle(ctx: RequestContext, request: InitProducerIdRequest) -> InitProducerIdResponse:
    if request.transactional_id:
        ctx.check(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
        check_transaction_coordinator(ctx, request.transactional_id)
    elif not (
        ctx.authorize(AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER)
        or ctx.authorize_any(AclOperation.WRITE, ResourceType.TOPIC)
    ):
        return _error(request, ErrorCode.CLUSTER_AUTHORIZATION_FAILED)
    outcome = await ctx.broker.transactions.init_producer_id(
        request.transactional_id, request.transaction_timeout_ms, request.producer_id, request.producer_epoch
    )
    if isinstance(outcome, InitRefused):
        code = outcome.error
        if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < PRODUCER_FENCED_FROM:
            code = ErrorCode.INVALID_PRODUCER_EPOCH
        return _error(request, code)
    return InitProducerIdResponse(error_code=ErrorCode.NONE, producer_id=outcome.producer_id,
                                  producer_epoch=outcome.epoch)  # fmt: skip
