"""Kafka's ACL model: resource patterns, access control entries, bindings, and the filters that match them.

Codes are Kafka's wire codes (CreateAcls/DescribeAcls/DeleteAcls):

- resource type: UNKNOWN 0, ANY 1, TOPIC 2, GROUP 3, CLUSTER 4, TRANSACTIONAL_ID 5, DELEGATION_TOKEN 6, USER 7;
- pattern type: UNKNOWN 0, ANY 1, MATCH 2, LITERAL 3, PREFIXED 4;
- operation: UNKNOWN 0, ANY 1, ALL 2, READ 3, WRITE 4, CREATE 5, DELETE 6, ALTER 7, DESCRIBE 8,
  CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11, IDEMPOTENT_WRITE 12, CREATE_TOKENS 13,
  DESCRIBE_TOKENS 14;
- permission: UNKNOWN 0, ANY 1, DENY 2, ALLOW 3.

A binding names a resource pattern (type, name, LITERAL or PREFIXED; the LITERAL name ``*`` is every
resource of the type) and an entry (principal ``Type:name`` or ``User:*``, host or ``*``, operation,
ALLOW/DENY). A filter uses ANY for "whatever" and null for any name/principal/host; its pattern type
MATCH finds every pattern that would apply to the named resource (the literal name, the ``*`` wildcard
and every prefix of it), as Kafka's ``ResourcePatternFilter.matches`` does.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, TypeVar

from .errors import InvalidAclError
from .principal import parse_principal

WILDCARD: Final = "*"
CLUSTER_NAME: Final = "kafka-cluster"


class ResourceType(enum.IntEnum):
    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class PatternType(enum.IntEnum):
    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class AclOperation(enum.IntEnum):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class AclPermission(enum.IntEnum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


@dataclass(frozen=True, slots=True)
class ResourcePattern:
    resource_type: ResourceType
    name: str
    pattern_type: PatternType

    def applies_to(self, resource_type: ResourceType, name: str) -> bool:
        """Whether an ACL on this pattern governs the resource ``name`` of ``resource_type``."""
        if self.resource_type != resource_type:
            return False
        if self.pattern_type == PatternType.PREFIXED:
            return name.startswith(self.name)
        return self.name in (name, WILDCARD)


@dataclass(frozen=True, slots=True)
class AclEntry:
    principal: str
    host: str
    operation: AclOperation
    permission: AclPermission


@dataclass(frozen=True, slots=True)
class AclBinding:
    pattern: ResourcePattern
    entry: AclEntry


@dataclass(frozen=True, slots=True)
class AclBindingFilter:
    """What DescribeAcls/DeleteAcls select: ANY/None mean any value; pattern type MATCH as described above."""

    resource_type: ResourceType
    name: str | None
    pattern_type: PatternType
    principal: str | None
    host: str | None
    operation: AclOperation
    permission: AclPermission

    def matches(self, binding: AclBinding) -> bool:
        return self._matches_pattern(binding.pattern) and self._matches_entry(binding.entry)

    def _matches_pattern(self, pattern: ResourcePattern) -> bool:
        if self.resource_type != ResourceType.ANY and self.resource_type != pattern.resource_type:
            return False
        if self.pattern_type not in (PatternType.ANY, PatternType.MATCH) and self.pattern_type != pattern.pattern_type:
            return False
        if self.name is None:
            return True
        if self.pattern_type in (PatternType.ANY, pattern.pattern_type):
            return self.name == pattern.name
        if pattern.pattern_type == PatternType.LITERAL:
            return self.name == pattern.name or pattern.name == WILDCARD
        return self.name.startswith(pattern.name)

    def _matches_entry(self, entry: AclEntry) -> bool:
        return (
            (self.principal is None or self.principal == entry.principal)
            and (self.host is None or self.host == entry.host)
            and (self.operation == AclOperation.ANY or self.operation == entry.operation)
            and (self.permission == AclPermission.ANY or self.permission == entry.permission)
        )


E = TypeVar("E", bound=enum.IntEnum)


def _enum(kind: type[E], code: int, what: str) -> E:
    try:
        return kind(code)
    except ValueError:
        raise InvalidAclError(f"Unknown {what} {code}") from None


def binding(
    resource_type: int, name: str, pattern_type: int, principal: str, host: str, operation: int, permission: int
) -> AclBinding:
    """A binding to create, checked as Kafka checks one (InvalidAclError with Kafka's reason otherwise)."""
    rtype = _enum(ResourceType, resource_type, "resource type")
    ptype = _enum(PatternType, pattern_type, "pattern type")
    op = _enum(AclOperation, operation, "operation")
    perm = _enum(AclPermission, permission, "permission type")
    if rtype in (ResourceType.ANY, ResourceType.UNKNOWN):
        raise InvalidAclError(f"Invalid resource type {rtype.name}")
    if ptype not in (PatternType.LITERAL, PatternType.PREFIXED):
        raise InvalidAclError(f"Invalid pattern type {ptype.name}")
    if op in (AclOperation.ANY, AclOperation.UNKNOWN):
        raise InvalidAclError(f"Invalid operation {op.name}")
    if perm in (AclPermission.ANY, AclPermission.UNKNOWN):
        raise InvalidAclError(f"Invalid permission type {perm.name}")
    if not name:
        raise InvalidAclError("Resource name should not be empty")
    if rtype == ResourceType.CLUSTER and (name != CLUSTER_NAME or ptype != PatternType.LITERAL):
        raise InvalidAclError(f"The only valid name for the CLUSTER resource is {CLUSTER_NAME}")
    try:
        parse_principal(principal)
    except ValueError:
        raise InvalidAclError(f"Could not parse principal from `{principal}`: it is not Type:name") from None
    if not host:
        raise InvalidAclError("Invalid null host")
    return AclBinding(ResourcePattern(rtype, name, ptype), AclEntry(principal, host, op, perm))


def binding_filter(
    resource_type: int,
    name: str | None,
    pattern_type: int,
    principal: str | None,
    host: str | None,
    operation: int,
    permission: int,
) -> AclBindingFilter:
    """A filter as DescribeAcls/DeleteAcls send it; UNKNOWN anywhere is INVALID_REQUEST in Kafka."""
    rtype = _enum(ResourceType, resource_type, "resource type")
    ptype = _enum(PatternType, pattern_type, "pattern type")
    op = _enum(AclOperation, operation, "operation")
    perm = _enum(AclPermission, permission, "permission type")
    for value in (rtype, ptype, op, perm):
        if value.name == "UNKNOWN":
            raise InvalidAclError(f"The filter has an UNKNOWN {type(value).__name__} element")
    return AclBindingFilter(rtype, name, ptype, principal, host, op, perm)
