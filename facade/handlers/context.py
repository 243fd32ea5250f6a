"""What a handler receives besides its request, and the one error it raises for a whole-request failure.

Authorization is one call (Kafka's checks, see ``facade/security/authorizer.py``)::

    if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name): ...   # a per-item decision
    ctx.check(AclOperation.READ, ResourceType.GROUP, group_id)               # or ApiError(GROUP_AUTHORIZATION_FAILED)
    ctx.authorized_operations(ResourceType.TOPIC, name)                      # Metadata's bitfield

With no authorizer configured every call allows (and costs one attribute test).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import CLUSTER_NAME, AclOperation, ResourceType
from rockafka.facade.security.authorizer import SUPPORTED_OPERATIONS

if TYPE_CHECKING:
    from rockafka.facade.broker import Broker
    from rockafka.facade.security.authorizer import Authorizer
    from rockafka.facade.security.service import SecurityService
    from rockafka.facade.server import ConnectionInfo

#: The error Kafka answers when the principal may not act on a resource of this type.
DENIED: Final = {
    ResourceType.TOPIC: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    ResourceType.GROUP: ErrorCode.GROUP_AUTHORIZATION_FAILED,
    ResourceType.CLUSTER: ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
    ResourceType.TRANSACTIONAL_ID: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
    ResourceType.DELEGATION_TOKEN: ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED,
}


class ApiError(Exception):
    """A request that fails as a whole with Kafka error ``error_code`` (answered, not disconnected)."""

    def __init__(self, error_code: ErrorCode, message: str | None = None) -> None:
        super().__init__(message or error_code.name)
        self.error_code = error_code
        self.message = message


@dataclass(frozen=True, slots=True)
class RequestContext:
    """The broker, the connection and the header fields a handler may need."""

    broker: Broker
    connection: ConnectionInfo
    api_version: int
    correlation_id: int
    client_id: str | None
    security: SecurityService | None = None
    """The broker's security (listeners, SCRAM credentials, ACLs); None only in tests that build a context."""

    @property
    def principal(self) -> str:
        """The authenticated principal (``User:alice``; ``User:ANONYMOUS`` without authentication)."""
        return self.connection.principal

    @property
    def authorizer(self) -> Authorizer | None:
        """The ACL authorizer, or None when authorization is off (everything allowed)."""
        return None if self.security is None else self.security.authorizer

    def authorize(self, operation: AclOperation, resource_type: ResourceType, name: str = CLUSTER_NAME) -> bool:
        """May this request's principal, from its host, do ``operation`` on the resource?"""
        authorizer = self.authorizer
        if authorizer is None:
            return True
        return authorizer.authorize(self.connection.principal, self.connection.host, operation, resource_type, name)

    def check(self, operation: AclOperation, resource_type: ResourceType, name: str = CLUSTER_NAME) -> None:
        """:meth:`authorize`, or raise ApiError with Kafka's *_AUTHORIZATION_FAILED code for the resource type."""
        if not self.authorize(operation, resource_type, name):
            denied = f"{self.connection.principal} may not {operation.name} {resource_type.name} {name}"
            raise ApiError(DENIED[resource_type], denied)

    def authorize_any(self, operation: AclOperation, resource_type: ResourceType) -> bool:
        """May the principal do ``operation`` on some resource of the type (Kafka's authorizeByResourceType)?"""
        authorizer = self.authorizer
        if authorizer is None:
            return True
        return authorizer.authorize_any(self.connection.principal, self.connection.host, operation, resource_type)

    def authorized_operations(self, resource_type: ResourceType, name: str = CLUSTER_NAME) -> int:
        """Kafka's authorized-operations bitfield for this principal on the resource."""
        authorizer = self.authorizer
        if authorizer is None:
            return sum(1 << code for code in SUPPORTED_OPERATIONS[resource_type])
        return authorizer.authorized_operations(self.connection.principal, self.connection.host, resource_type, name)
