"""DeleteAcls v0-3: remove the ACL bindings each filter matches, persisted before the answer.

Version notes: v0 has no pattern type (LITERAL); v1 adds it; v2 is the first flexible version. Each filter
result lists the bindings it removed; a filter with an UNKNOWN element is INVALID_REQUEST (that filter
only). Needs ALTER on the cluster (checked by the dispatcher). Without an authorizer: SECURITY_DISABLED.
In a cluster the removal is written to etcd and the answer waits until this broker no longer enforces the
removed bindings (``facade/cluster_security.py``); a removal etcd did not take fails each valid filter.
"""

from __future__ import annotations

from collections.abc import Awaitable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.delete_acls import (
    DeleteAclsFilterResult,
    DeleteAclsMatchingAcl,
    DeleteAclsRequest,
    DeleteAclsResponse,
)
from rockafka.facade.security.acl import AclBinding, AclBindingFilter

from .acls import NO_AUTHORIZER, wire_filter
from .context import ApiError, RequestContext
from .registry import register


def _error(request: DeleteAclsRequest, code: ErrorCode) -> DeleteAclsResponse:
    return DeleteAclsResponse(
        filter_results=[DeleteAclsFilterResult(error_code=code, error_message=code.name) for _ in request.filters]
    )


@register(31, 0, 3, _error)
def handle(ctx: RequestContext, request: DeleteAclsRequest) -> DeleteAclsResponse | Awaitable[DeleteAclsResponse]:
    if ctx.authorizer is None or ctx.security is None:
        return DeleteAclsResponse(
            filter_results=[
                DeleteAclsFilterResult(error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER)
                for _ in request.filters
            ]
        )
    parsed: list[AclBindingFilter | ApiError] = []
    for wire in request.filters:
        try:
            parsed.append(wire_filter(wire))
        except ApiError as exc:
            parsed.append(exc)
    outcome = ctx.security.acls.remove([f for f in parsed if isinstance(f, AclBindingFilter)])
    if isinstance(outcome, list):
        return _answer(parsed, outcome)
    return _once_taken(parsed, outcome)


async def _once_taken(
    parsed: list[AclBindingFilter | ApiError], outcome: Awaitable[list[list[AclBinding]]]
) -> DeleteAclsResponse:
    """The answer once the cluster took the removal; if it did not, each valid filter failed with its reason."""
    try:
        removed = await outcome
    except ApiError as exc:
        return _answer([item if isinstance(item, ApiError) else exc for item in parsed], [])
    return _answer(parsed, removed)


def _answer(parsed: list[AclBindingFilter | ApiError], removed_by_filter: list[list[AclBinding]]) -> DeleteAclsResponse:
    removed = iter(removed_by_filter)
    results = []
    for item in parsed:
        if isinstance(item, ApiError):
            results.append(DeleteAclsFilterResult(error_code=item.error_code, error_message=item.message))
            continue
        matching = [
            DeleteAclsMatchingAcl(
                error_code=ErrorCode.NONE,
                error_message=None,
                resource_type=b.pattern.resource_type,
                resource_name=b.pattern.name,
                pattern_type=b.pattern.pattern_type,
                principal=b.entry.principal,
                host=b.entry.host,
                operation=b.entry.operation,
                permission_type=b.entry.permission,
            )
            for b in next(removed)
        ]
        results.append(DeleteAclsFilterResult(error_code=ErrorCode.NONE, error_message=None, matching_acls=matching))
    return DeleteAclsResponse(filter_results=results)
