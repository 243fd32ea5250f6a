"""DescribeAcls v0-3: the ACL bindings a filter matches, grouped by resource pattern.

Version notes: v0 has no pattern type (LITERAL is read); v1 adds it (ANY, MATCH, LITERAL, PREFIXED);
v2 is the first flexible version. Needs DESCRIBE on the cluster (checked by the dispatcher). Without an
authorizer: SECURITY_DISABLED. A filter with an UNKNOWN element: INVALID_REQUEST.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_acls import (
    AclDescription,
    DescribeAclsRequest,
    DescribeAclsResource,
    DescribeAclsResponse,
)

from .acls import by_pattern, require_authorizer, wire_filter
from .context import RequestContext
from .registry import register


def _error(request: DescribeAclsRequest, code: ErrorCode) -> DescribeAclsResponse:
    return DescribeAclsResponse(error_code=code, error_message=code.name, resources=[])


@register(29, 0, 3, _error)
def handle(ctx: RequestContext, request: DescribeAclsRequest) -> DescribeAclsResponse:
    require_authorizer(ctx)
    assert ctx.security is not None
    selected = wire_filter(request)
    matched = [item for item in ctx.security.acls.bindings() if selected.matches(item)]
    resources = [
        DescribeAclsResource(
            resource_type=resource_type,
            resource_name=name,
            pattern_type=pattern_type,
            acls=[
                AclDescription(
                    principal=b.entry.principal,
                    host=b.entry.host,
                    operation=b.entry.operation,
                    permission_type=b.entry.permission,
                )
                for b in bindings
            ],
        )
        for (resource_type, name, pattern_type), bindings in by_pattern(matched).items()
    ]
    return DescribeAclsResponse(error_code=ErrorCode.NONE, error_message=None, resources=resources)
