"""JoinGroup v0-9: join a group, or rejoin it for a rebalance; answered when the generation completes.

Version notes: v0 has no rebalance timeout (the session timeout serves for both, as Kafka does); v1+
carry it (a non-positive one is replaced by the session timeout, so a client sending -1 does not make
every rebalance end at once). v4+: a member without an id is given one with MEMBER_ID_REQUIRED and joins
again with it (KIP-394); before v4 it joins at once. v5+ carry ``group.instance.id`` (static
membership, KIP-345) and the members' instance ids in the leader's answer. v7+ answer the protocol type
and a nullable protocol name (KIP-559). v8+ carry a reason (logged). v9+ may tell a static leader that
rejoined a stable group to skip the assignment (KIP-814). The group logic is in ``facade/group``.

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

from rockafka.facade.group import JoinRequest, JoinResult
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.join_group import (
    JoinGroupRequest,
    JoinGroupResponse,
    JoinGroupResponseMember,
)
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register


def _error(request: JoinGroupRequest, code: ErrorCode) -> JoinGroupResponse:
    return JoinGroupResponse(error_code=code, member_id=request.member_id)


@register(11, 0, 9, _error, parks=True)
async def handle(ctx: RequestContext, request: JoinGroupRequest) -> JoinGroupResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    version = ctx.api_version
    rebalance_timeout_ms = request.rebalance_timeout_ms if version >= 1 else request.session_timeout_ms
    join = JoinRequest(
        group_id=request.group_id,
        member_id=request.member_id,
        group_instance_id=request.group_instance_id,
        client_id=ctx.client_id or "",
        client_host=client_host(ctx.connection.peer),
        session_timeout_ms=request.session_timeout_ms,
        rebalance_timeout_ms=rebalance_timeout_ms if rebalance_timeout_ms > 0 else request.session_timeout_ms,
        protocol_type=request.protocol_type,
        protocols=tuple((protocol.name, protocol.metadata) for protocol in request.protocols),
        require_known_member_id=version >= 4,
        supports_skip_assignment=version >= 9,
        reason=request.reason,
    )
    result = await ctx.broker.groups.coordinator.join(join)
    return _response(result, version)


def _response(result: JoinResult, version: int) -> JoinGroupResponse:
    return JoinGroupResponse(
        error_code=result.error,
        generation_id=result.generation_id,
        protocol_type=result.protocol_type if version >= 7 else None,
        protocol_name=result.protocol_name if version >= 7 else (result.protocol_name or ""),
        leader=result.leader_id,
        skip_assignment=result.skip_assignment and version >= 9,
        member_id=result.member_id,
        members=[
            JoinGroupResponseMember(
                member_id=member.member_id,
                group_instance_id=member.group_instance_id if version >= 5 else None,
                metadata=member.metadata,
            )
            for member in result.members
        ],
    )


def client_host(peer: str) -> str:
    """Kafka's client host: ``/`` and the peer address without the port (``/127.0.0.1``)."""
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    return f"/{host.strip('[]')}"
