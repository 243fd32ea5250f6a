"""Kafka's ACL authorization decision, as its AclAuthorizer/StandardAuthorizer make it.

For a principal, a client host, an operation and a resource:

1. a super user (``super.users``) may do everything;
2. the ACLs that govern the resource are those on its literal name, on ``*``, and on every prefix of it;
   with none at all, the answer is ``allow.everyone.if.no.acl.found``;
3. a DENY entry for the principal (or ``User:*``), the host (or ``*``) and the operation (or ALL) refuses;
4. otherwise an ALLOW entry for the principal and host allows the operation, ALL, or an operation that
   implies it: READ, WRITE, DELETE or ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS;
5. anything else is refused.

The authorized-operations bitfields of Metadata, DescribeCluster and DescribeGroups are each supported
operation of the resource type put through the same decision.

:meth:`Authorizer.authorize_any` answers Kafka's ``authorizeByResourceType`` (InitProducerId of an
idempotent producer: WRITE on *some* topic): a super user, or an ALLOW of the operation (or ALL) for the
principal and host on some pattern that no matching DENY covers (a DENY on ``*``, on the same literal name, or
on a prefix of the allowed name); with no ACL of the type at all, ``allow.everyone.if.no.acl.found``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .acl import AclEntry, AclOperation, AclPermission, PatternType, ResourcePattern, ResourceType
from .acl_store import Acls
from .principal import WILDCARD_PRINCIPAL

_IMPLYING: Final = {
    AclOperation.DESCRIBE: frozenset(
        {AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER}
    ),
    AclOperation.DESCRIBE_CONFIGS: frozenset({AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS}),
}
SUPPORTED_OPERATIONS: Final = {
    ResourceType.TOPIC: (3, 4, 5, 6, 7, 8, 10, 11),
    ResourceType.GROUP: (3, 6, 8),
    ResourceType.CLUSTER: (5, 7, 8, 9, 10, 11, 12),
    ResourceType.TRANSACTIONAL_ID: (4, 8),
    ResourceType.DELEGATION_TOKEN: (8,),
    ResourceType.USER: (13, 14),
}
"""Kafka's supported operations per resource type (AclOperation codes)."""


def parse_super_users(text: str | None) -> frozenset[str]:
    """``super.users``: principals separated by ``;`` (Kafka's separator; spaces around them ignored)."""
    return frozenset(item.strip() for item in (text or "").split(";") if item.strip())


class Authorizer:
    """ACL decisions over a set of ACLs (a single broker's file, or a cluster's etcd key)."""

    def __init__(self, store: Acls, super_users: Iterable[str], allow_if_no_acl: bool) -> None:
        self.store = store
        self.super_users = frozenset(super_users)
        self.allow_if_no_acl = allow_if_no_acl

    def authorize(
        self, principal: str, host: str, operation: AclOperation, resource_type: ResourceType, name: str
    ) -> bool:
        if principal in self.super_users:
            return True
        entries = self.store.applicable(resource_type, name)
        if not entries:
            return self.allow_if_no_acl
        mine = [e for e in entries if e.principal in (principal, WILDCARD_PRINCIPAL) and e.host in (host, "*")]
        if any(_denies(e, operation) for e in mine):
            return False
        allowing = _IMPLYING.get(operation, frozenset({operation}))
        return any(
            e.permission == AclPermission.ALLOW and (e.operation == AclOperation.ALL or e.operation in allowing)
            for e in mine
        )

    def authorize_any(self, principal: str, host: str, operation: AclOperation, resource_type: ResourceType) -> bool:
        """May the principal do ``operation`` on at least one resource of the type?"""
        if principal in self.super_users:
            return True
        bindings = [b for b in self.store.bindings() if b.pattern.resource_type == resource_type]
        if not bindings:
            return self.allow_if_no_acl
        mine = [
            b for b in bindings if b.entry.principal in (principal, WILDCARD_PRINCIPAL) and b.entry.host in (host, "*")
        ]
        denies = [b.pattern for b in mine if _denies(b.entry, operation)]
        allowing = _IMPLYING.get(operation, frozenset({operation}))
        for item in mine:
            entry = item.entry
            if entry.permission != AclPermission.ALLOW or not (
                entry.operation == AclOperation.ALL or entry.operation in allowing
            ):
                continue
            if not any(_covers(deny, item.pattern) for deny in denies):
                return True
        return False

    def authorized_operations(self, principal: str, host: str, resource_type: ResourceType, name: str) -> int:
        """The bitfield (1 << AclOperation code) of the supported operations this principal may do here."""
        bits = 0
        for code in SUPPORTED_OPERATIONS.get(resource_type, ()):
            if self.authorize(principal, host, AclOperation(code), resource_type, name):
                bits |= 1 << code
        return bits


def _covers(deny: ResourcePattern, allowed: ResourcePattern) -> bool:
    """Whether a DENY on ``deny`` refuses everything an ALLOW on ``allowed`` would give."""
    if deny.pattern_type == PatternType.LITERAL:
        return deny.name == "*" or (allowed.pattern_type == PatternType.LITERAL and deny.name == allowed.name)
    return allowed.name.startswith(deny.name)


def _denies(entry: AclEntry, operation: AclOperation) -> bool:
    return entry.permission == AclPermission.DENY and entry.operation in (operation, AclOperation.ALL)
