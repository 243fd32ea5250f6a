"""CreateAcls v0-3: add ACL bindings, persisted (``acls.json``) before the answer.

Version notes: v0 has no pattern type (LITERAL); v1 adds PREFIXED; v2 is the first flexible version.
Per creation, as Kafka checks it: INVALID_REQUEST for an ANY/MATCH/UNKNOWN element, an empty resource name,
a principal that is not ``Type:name``, a CLUSTER resource not named ``kafka-cluster``. Needs ALTER on the
cluster (checked by the dispatcher). Without an authorizer: SECURITY_DISABLED for each creation.
In a cluster the bindings are written to etcd and the answer waits until this broker enforces them
(``facade/cluster_security.py``); a write etcd did not take fails each valid creation (REQUEST_TIMED_OUT).
"""

from __future__ import annotations

from collections.abc import Awaitable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_acls import AclCreationResult, CreateAclsRequest, CreateAclsResponse
from rockafka.facade.security.acl import AclBinding, binding
from rockafka.facade.security.errors import InvalidAclError

from .acls import NO_AUTHORIZER
from .context import ApiError, RequestContext
from .registry import register


def _error(request: CreateAclsRequest, code: ErrorCode) -> CreateAclsResponse:
    return CreateAclsResponse(
        results=[AclCreationResult(error_code=code, error_message=code.name) for _ in request.creations]
    )


@register(30, 0, 3, _error)
def handle(ctx: RequestContext, request: CreateAclsRequest) -> CreateAclsResponse | Awaitable[CreateAclsResponse]:
    if ctx.authorizer is None or ctx.security is None:
        return CreateAclsResponse(
            results=[
                AclCreationResult(error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER)
                for _ in request.creations
            ]
        )
    results: list[AclCreationResult] = []
    valid: list[AclBinding] = []
    created: list[AclCreationResult] = []
    for item in request.creations:
        try:
            valid.append(
                binding(
                    item.resource_type,
                    item.resource_name,
                    item.resource_pattern_type,
                    item.principal,
                    item.host,
                    item.operation,
                    item.permission_type,
                )
            )
        except InvalidAclError as exc:
            results.append(AclCreationResult(error_code=ErrorCode.INVALID_REQUEST, error_message=str(exc)))
        else:
            created.append(AclCreationResult(error_code=ErrorCode.NONE, error_message=None))
            results.append(created[-1])
    response = CreateAclsResponse(results=results)
    outcome = ctx.security.acls.add(valid) if valid else None
    return response if outcome is None else _once_taken(outcome, response, created)


async def _once_taken(
    outcome: Awaitable[None], response: CreateAclsResponse, created: list[AclCreationResult]
) -> CreateAclsResponse:
    """The answer once the cluster took the new ACLs; if it did not, each of them failed with its reason."""
    try:
        await outcome
    except ApiError as exc:
        for result in created:
            result.error_code, result.error_message = exc.error_code, exc.message
    return response
