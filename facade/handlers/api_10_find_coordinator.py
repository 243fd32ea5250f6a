"""FindCoordinator v0-6: the broker that coordinates a group or a transactional id.

On a single broker, this one coordinates everything. In a cluster, as Kafka places them: the key's Java
``hashCode`` (made non-negative) modulo the partition count of ``__consumer_offsets`` (groups,
``offsets.topic.num.partitions``) or ``__transaction_state`` (transactional ids,
``transaction.state.log.num.partitions`` = the same setting here) names a partition of that internal topic,
and the leader of its broker group coordinates the key. Until the internal topic exists in the cluster (it
is created on first use) or while its group has no leader, the answer is COORDINATOR_NOT_AVAILABLE.

Version notes: v0 asks for a group by ``key``; v1-3 add ``key_type`` and an error message; v4+ batch
several keys (``coordinator_keys``) and answer each in ``coordinators`` (KIP-699); v5 and v6 only widen
the errors and key types a broker may answer (TRANSACTION_ABORTABLE, share groups). The answer names the
listener the request came in on.

Key types: 0 (group) and 1 (transaction: the transaction coordinator, ``rockafka.facade.transactions``) are
answered with this broker. 2 (share group, KIP-932, not served) and unknown types get INVALID_REQUEST, which is
what Kafka answers for a key type it does not serve.

Authorization: DESCRIBE on the group (GROUP_AUTHORIZATION_FAILED) or on the transactional id
(TRANSACTIONAL_ID_AUTHORIZATION_FAILED), per key.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.find_coordinator import (
    Coordinator,
    FindCoordinatorRequest,
    FindCoordinatorResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from ..internal_topics import OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC
from ..topology import BrokerAddress
from .admin import advertised_listener
from .context import DENIED, RequestContext
from .coordination import coordinator_of
from .registry import register

GROUP_KEY_TYPE = 0
TRANSACTION_KEY_TYPE = 1


def _error(request: FindCoordinatorRequest, code: ErrorCode) -> FindCoordinatorResponse:
    if request.coordinator_keys:
        return FindCoordinatorResponse(coordinators=[_failed(key, code) for key in request.coordinator_keys])
    return FindCoordinatorResponse(error_code=code, error_message=code.name, node_id=-1, host="", port=-1)


@register(10, 0, 6, _error)
def handle(ctx: RequestContext, request: FindCoordinatorRequest) -> FindCoordinatorResponse:
    if ctx.api_version >= 4:
        return FindCoordinatorResponse(
            coordinators=[_find(ctx, key, request.key_type) for key in request.coordinator_keys]
        )
    found = _find(ctx, request.key, request.key_type)
    return FindCoordinatorResponse(
        error_code=found.error_code,
        error_message=found.error_message,
        node_id=found.node_id,
        host=found.host,
        port=found.port,
    )


def _find(ctx: RequestContext, key: str, key_type: int) -> Coordinator:
    if key_type not in (GROUP_KEY_TYPE, TRANSACTION_KEY_TYPE):
        return _failed(key, ErrorCode.INVALID_REQUEST, f"coordinator key type {key_type} is not served")
    resource = ResourceType.GROUP if key_type == GROUP_KEY_TYPE else ResourceType.TRANSACTIONAL_ID
    if not ctx.authorize(AclOperation.DESCRIBE, resource, key):
        return _failed(key, DENIED[resource])
    topic = OFFSETS_TOPIC if key_type == GROUP_KEY_TYPE else TRANSACTION_STATE_TOPIC
    ctx.broker.internal_topics.show(topic)  # Kafka creates the internal topic here
    broker = ctx.broker
    listener = advertised_listener(ctx)
    own = BrokerAddress(broker.node_id, listener.host, listener.port, listener.name)
    found = coordinator_of(ctx, topic, key, own)
    if found is None:
        return _failed(key, ErrorCode.COORDINATOR_NOT_AVAILABLE)
    return Coordinator(
        key=key, node_id=found.node_id, host=found.host, port=found.port, error_code=0, error_message=None
    )


def _failed(key: str, code: ErrorCode, message: str | None = None) -> Coordinator:
    return Coordinator(key=key, node_id=-1, host="", port=-1, error_code=code, error_message=message or code.name)
