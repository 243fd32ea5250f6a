"""What the ACL handlers share: turning wire structs into bindings and filters, and back."""

from __future__ import annotations

from typing import Protocol

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import AclBinding, AclBindingFilter, binding_filter
from rockafka.facade.security.errors import InvalidAclError

from .context import ApiError, RequestContext

NO_AUTHORIZER = "No Authorizer is configured."


class WireFilter(Protocol):
    resource_type_filter: int
    resource_name_filter: str | None
    pattern_type_filter: int
    principal_filter: str | None
    host_filter: str | None
    operation: int
    permission_type: int


def require_authorizer(ctx: RequestContext) -> None:
    """ACL APIs need an authorizer; Kafka answers SECURITY_DISABLED without one."""
    if ctx.authorizer is None:
        raise ApiError(ErrorCode.SECURITY_DISABLED, NO_AUTHORIZER)


def wire_filter(item: WireFilter) -> AclBindingFilter:
    """A DescribeAcls/DeleteAcls filter, or ApiError(INVALID_REQUEST) with Kafka's reason."""
    try:
        return binding_filter(
            item.resource_type_filter,
            item.resource_name_filter,
            item.pattern_type_filter,
            item.principal_filter,
            item.host_filter,
            item.operation,
            item.permission_type,
        )
    except InvalidAclError as exc:
        raise ApiError(ErrorCode.INVALID_REQUEST, str(exc)) from None


def by_pattern(bindings: list[AclBinding]) -> dict[tuple[int, str, int], list[AclBinding]]:
    """Bindings grouped by resource pattern (DescribeAcls answers one resource entry per pattern)."""
    grouped: dict[tuple[int, str, int], list[AclBinding]] = {}
    for item in bindings:
        pattern = item.pattern
        grouped.setdefault((pattern.resource_type, pattern.name, pattern.pattern_type), []).append(item)
    return grouped
