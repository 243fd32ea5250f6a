"""Kafka's authorization decision as a matrix: super users, no-ACL default, literal/wildcard/prefixed patterns,
principals and hosts, implied operations, DENY over ALLOW; the filters of DescribeAcls/DeleteAcls; the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rockafka.facade.security import (
    AclBinding,
    AclOperation,
    AclPermission,
    AclStore,
    Authorizer,
    InvalidAclError,
    PatternType,
    ResourceType,
    binding,
    binding_filter,
    parse_super_users,
)

Op = AclOperation
TOPIC, GROUP, CLUSTER = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER
LITERAL, PREFIXED = PatternType.LITERAL, PatternType.PREFIXED
ALLOW, DENY = AclPermission.ALLOW, AclPermission.DENY


def acl(
    kind: ResourceType, name: str, pattern: PatternType, principal: str, op: Op, perm: AclPermission, host: str = "*"
) -> AclBinding:
    return binding(kind, name, pattern, principal, host, op, perm)


@pytest.fixture
def store(tmp_path: Path) -> AclStore:
    return AclStore(tmp_path)


def authorizer(store: AclStore, *, super_users: str = "", allow_if_no_acl: bool = False) -> Authorizer:
    return Authorizer(store, parse_super_users(super_users), allow_if_no_acl)


def test_super_users_may_do_everything_and_others_follow_the_default(store: AclStore) -> None:
    strict = authorizer(store, super_users=" User:admin ; User:ops")
    assert strict.super_users == {"User:admin", "User:ops"}
    assert strict.authorize("User:ops", "10.0.0.1", Op.ALTER, CLUSTER, "kafka-cluster")
    assert not strict.authorize("User:alice", "10.0.0.1", Op.READ, TOPIC, "orders")
    assert authorizer(store, allow_if_no_acl=True).authorize("User:alice", "1.2.3.4", Op.READ, TOPIC, "orders")


# (ACLs, principal, host, operation, topic) -> allowed?
MATRIX = [
    # literal: only that name
    ([("orders", LITERAL, "User:alice", Op.READ, ALLOW)], "User:alice", Op.READ, "orders", True),
    ([("orders", LITERAL, "User:alice", Op.READ, ALLOW)], "User:bob", Op.READ, "orders", False),
    ([("orders", LITERAL, "User:alice", Op.READ, ALLOW)], "User:alice", Op.WRITE, "orders", False),
    # prefixed: every name that starts with it
    ([("ord", PREFIXED, "User:alice", Op.WRITE, ALLOW)], "User:alice", Op.WRITE, "orders", True),
    (
        [("ord", PREFIXED, "User:alice", Op.WRITE, ALLOW), ("x", LITERAL, "User:bob", Op.READ, ALLOW)],
        "User:alice",
        Op.WRITE,
        "x",
        False,
    ),
    # the literal wildcard and the wildcard principal
    ([("*", LITERAL, "User:alice", Op.READ, ALLOW)], "User:alice", Op.READ, "anything", True),
    ([("orders", LITERAL, "User:*", Op.READ, ALLOW)], "User:carol", Op.READ, "orders", True),
    # implied operations: READ/WRITE/DELETE/ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS
    ([("orders", LITERAL, "User:alice", Op.WRITE, ALLOW)], "User:alice", Op.DESCRIBE, "orders", True),
    ([("orders", LITERAL, "User:alice", Op.ALTER_CONFIGS, ALLOW)], "User:alice", Op.DESCRIBE_CONFIGS, "orders", True),
    ([("orders", LITERAL, "User:alice", Op.DESCRIBE, ALLOW)], "User:alice", Op.READ, "orders", False),
    ([("orders", LITERAL, "User:alice", Op.ALL, ALLOW)], "User:alice", Op.DELETE, "orders", True),
    # deny wins over allow, whichever pattern carries it
    (
        [("orders", LITERAL, "User:*", Op.READ, ALLOW), ("orders", LITERAL, "User:alice", Op.READ, DENY)],
        "User:alice",
        Op.READ,
        "orders",
        False,
    ),
    (
        [("orders", LITERAL, "User:*", Op.READ, ALLOW), ("orders", LITERAL, "User:alice", Op.READ, DENY)],
        "User:bob",
        Op.READ,
        "orders",
        True,
    ),
    (
        [("orders", LITERAL, "User:alice", Op.ALL, ALLOW), ("ord", PREFIXED, "User:alice", Op.WRITE, DENY)],
        "User:alice",
        Op.WRITE,
        "orders",
        False,
    ),
    (
        [("*", LITERAL, "User:alice", Op.ALL, ALLOW), ("orders", LITERAL, "User:*", Op.ALL, DENY)],
        "User:alice",
        Op.DESCRIBE,
        "orders",
        False,
    ),
    # a DENY of READ does not deny the DESCRIBE that another ALLOW gives
    (
        [("orders", LITERAL, "User:alice", Op.ALL, ALLOW), ("orders", LITERAL, "User:alice", Op.READ, DENY)],
        "User:alice",
        Op.DESCRIBE,
        "orders",
        True,
    ),
]


@pytest.mark.parametrize(("acls", "principal", "operation", "topic", "allowed"), MATRIX)
def test_topic_decisions(
    store: AclStore,
    acls: list[tuple[str, PatternType, str, Op, AclPermission]],
    principal: str,
    operation: Op,
    topic: str,
    allowed: bool,
) -> None:
    store.add([acl(TOPIC, *row) for row in acls])
    assert authorizer(store).authorize(principal, "127.0.0.1", operation, TOPIC, topic) is allowed


def test_hosts_are_matched_exactly_or_by_wildcard(store: AclStore) -> None:
    store.add(
        [
            acl(GROUP, "g", LITERAL, "User:alice", Op.READ, ALLOW, host="10.0.0.1"),
            acl(GROUP, "g", LITERAL, "User:alice", Op.READ, DENY, host="10.0.0.66"),
        ]
    )
    decide = authorizer(store).authorize
    assert decide("User:alice", "10.0.0.1", Op.READ, GROUP, "g")
    assert not decide("User:alice", "10.0.0.2", Op.READ, GROUP, "g")
    assert not decide("User:alice", "10.0.0.66", Op.READ, GROUP, "g")


def test_acls_on_other_resource_types_do_not_apply(store: AclStore) -> None:
    store.add([acl(GROUP, "orders", LITERAL, "User:alice", Op.READ, ALLOW)])
    assert not authorizer(store).authorize("User:alice", "h", Op.READ, TOPIC, "orders")
    assert authorizer(store, allow_if_no_acl=True).authorize("User:alice", "h", Op.READ, TOPIC, "orders")
    # an ACL on the resource (for someone else) turns the no-ACL default off
    store.add([acl(TOPIC, "orders", LITERAL, "User:bob", Op.READ, ALLOW)])
    assert not authorizer(store, allow_if_no_acl=True).authorize("User:alice", "h", Op.READ, TOPIC, "orders")


def test_authorized_operations_bitfields(store: AclStore) -> None:
    store.add(
        [
            acl(TOPIC, "t", LITERAL, "User:alice", Op.WRITE, ALLOW),
            acl(CLUSTER, "kafka-cluster", LITERAL, "User:alice", Op.ALTER_CONFIGS, ALLOW),
        ]
    )
    decide = authorizer(store)
    assert decide.authorized_operations("User:alice", "h", TOPIC, "t") == (1 << 4) | (1 << 8)
    assert decide.authorized_operations("User:alice", "h", CLUSTER, "kafka-cluster") == (1 << 10) | (1 << 11)
    assert decide.authorized_operations("User:bob", "h", TOPIC, "t") == 0
    everything = authorizer(store, super_users="User:root").authorized_operations("User:root", "h", GROUP, "g")
    assert everything == (1 << 3) | (1 << 6) | (1 << 8)


FILTERS = [
    # (resource type, name, pattern type) -> which of the three bindings match
    ((ResourceType.ANY, None, PatternType.ANY), {"orders", "ord", "*"}),
    ((TOPIC, "orders", PatternType.ANY), {"orders"}),
    ((TOPIC, "orders", LITERAL), {"orders"}),
    ((TOPIC, "ord", PREFIXED), {"ord"}),
    ((TOPIC, "orders", PatternType.MATCH), {"orders", "ord", "*"}),
    ((TOPIC, "other", PatternType.MATCH), {"*"}),
    ((GROUP, None, PatternType.ANY), set()),
]


@pytest.mark.parametrize(("selector", "expected"), FILTERS)
def test_filters_select_as_kafka_does(
    store: AclStore, selector: tuple[ResourceType, str | None, PatternType], expected: set[str]
) -> None:
    store.add(
        [
            acl(TOPIC, "orders", LITERAL, "User:alice", Op.READ, ALLOW),
            acl(TOPIC, "ord", PREFIXED, "User:bob", Op.WRITE, DENY),
            acl(TOPIC, "*", LITERAL, "User:carol", Op.DESCRIBE, ALLOW),
        ]
    )
    selected = binding_filter(*selector, None, None, Op.ANY, AclPermission.ANY)
    assert {b.pattern.name for b in store.bindings() if selected.matches(b)} == expected
    by_principal = binding_filter(TOPIC, None, PatternType.ANY, "User:bob", None, Op.ANY, AclPermission.ANY)
    assert [b.pattern.name for b in store.bindings() if by_principal.matches(b)] == ["ord"]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ((ResourceType.ANY, "t", LITERAL, "User:a", "*", Op.READ, ALLOW), "resource type"),
        ((TOPIC, "t", PatternType.MATCH, "User:a", "*", Op.READ, ALLOW), "pattern type"),
        ((TOPIC, "t", LITERAL, "User:a", "*", Op.ANY, ALLOW), "operation"),
        ((TOPIC, "t", LITERAL, "User:a", "*", Op.READ, AclPermission.ANY), "permission"),
        ((TOPIC, "", LITERAL, "User:a", "*", Op.READ, ALLOW), "empty"),
        ((CLUSTER, "other", LITERAL, "User:a", "*", Op.ALTER, ALLOW), "kafka-cluster"),
        ((TOPIC, "t", LITERAL, "alice", "*", Op.READ, ALLOW), "principal"),
        ((TOPIC, "t", 9, "User:a", "*", Op.READ, ALLOW), "Unknown pattern type 9"),
    ],
)
def test_invalid_bindings_are_refused(fields: tuple, reason: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(InvalidAclError, match=reason):
        binding(*fields)


def test_acls_persist_and_changes_on_disk_are_seen(store: AclStore, tmp_path: Path) -> None:
    store.add([acl(TOPIC, "t", PREFIXED, "User:a", Op.READ, ALLOW)] * 2)
    assert len(store.bindings()) == 1
    document = json.loads((tmp_path / "acls.json").read_text())
    assert document["acls"] == [
        {
            "resource_type": "TOPIC",
            "name": "t",
            "pattern_type": "PREFIXED",
            "principal": "User:a",
            "host": "*",
            "operation": "READ",
            "permission": "ALLOW",
        }
    ]
    other = AclStore(tmp_path)
    assert other.bindings() == store.bindings()
    removed = other.remove([binding_filter(TOPIC, "t", PREFIXED, None, None, Op.ANY, AclPermission.ANY)])
    assert [len(r) for r in removed] == [1]
    store._checked = 0.0  # the broker re-checks the file at most once a second
    assert store.bindings() == []


def test_authorize_any_finds_an_allowed_resource_of_the_type(store: AclStore) -> None:
    decide = authorizer(store, super_users="User:admin")
    assert decide.authorize_any("User:admin", "h", Op.WRITE, TOPIC)
    assert not decide.authorize_any("User:alice", "h", Op.WRITE, TOPIC)  # no ACL at all, default false
    assert authorizer(store, allow_if_no_acl=True).authorize_any("User:alice", "h", Op.WRITE, TOPIC)
    store.add([acl(TOPIC, "app-", PREFIXED, "User:alice", Op.WRITE, ALLOW)])
    assert decide.authorize_any("User:alice", "h", Op.WRITE, TOPIC)
    assert decide.authorize_any("User:alice", "h", Op.DESCRIBE, TOPIC)  # implied
    assert not decide.authorize_any("User:alice", "h", Op.READ, TOPIC)
    assert not decide.authorize_any("User:bob", "h", Op.WRITE, TOPIC)
    store.add([acl(TOPIC, "app", PREFIXED, "User:*", Op.WRITE, DENY)])  # covers app-
    assert not decide.authorize_any("User:alice", "h", Op.WRITE, TOPIC)
    store.add([acl(TOPIC, "orders", LITERAL, "User:alice", Op.ALL, ALLOW)])  # not covered
    assert decide.authorize_any("User:alice", "h", Op.WRITE, TOPIC)
    store.add([acl(TOPIC, "*", LITERAL, "User:alice", Op.WRITE, DENY)])
    assert not decide.authorize_any("User:alice", "h", Op.WRITE, TOPIC)
