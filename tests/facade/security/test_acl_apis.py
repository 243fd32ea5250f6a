"""The ACL and SCRAM admin APIs through the dispatcher: CreateAcls/DescribeAcls/DeleteAcls every version with
filters, Describe/AlterUserScramCredentials with Kafka's per-item errors; who may call them; what they write."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import alter_user_scram_credentials as alter
from rockafka.facade.protocol.messages import describe_user_scram_credentials as describe
from rockafka.facade.protocol.messages.create_acls import AclCreation, CreateAclsRequest
from rockafka.facade.protocol.messages.delete_acls import DeleteAclsFilter, DeleteAclsRequest
from rockafka.facade.protocol.messages.describe_acls import DescribeAclsRequest
from rockafka.facade.security import AclOperation, AclPermission, PatternType, ResourceType, ScramMechanism

from .wire import broker, connect

AUTHORIZER = ("authorizer.class.name=kafka.security.authorizer.AclAuthorizer", "super.users=User:admin")
TOPIC, LITERAL, PREFIXED = ResourceType.TOPIC, PatternType.LITERAL, PatternType.PREFIXED
READ, WRITE, ALLOW, DENY = AclOperation.READ, AclOperation.WRITE, AclPermission.ALLOW, AclPermission.DENY


def creation(name: str, pattern: int, principal: str, operation: int, permission: int, kind: int = 2) -> AclCreation:
    return AclCreation(
        resource_type=kind,
        resource_name=name,
        resource_pattern_type=pattern,
        principal=principal,
        host="*",
        operation=operation,
        permission_type=permission,
    )


def describe_all(version: int = 1, **fields: object) -> DescribeAclsRequest:
    selected: dict[str, object] = {
        "resource_type_filter": ResourceType.ANY,
        "resource_name_filter": None,
        "principal_filter": None,
        "host_filter": None,
        "pattern_type_filter": PatternType.ANY,
        "operation": AclOperation.ANY,
        "permission_type": AclPermission.ANY,
    }
    if version == 0:
        selected["pattern_type_filter"] = LITERAL
    selected.update(fields)
    return DescribeAclsRequest(**selected)  # type: ignore[arg-type]


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_create_describe_delete_every_version(tmp_path: Path, version: int) -> None:
    pattern = PREFIXED if version else LITERAL
    with broker(tmp_path, *AUTHORIZER) as (_, dispatcher):
        admin = connect(dispatcher, "User:admin")
        created = admin.call(
            CreateAclsRequest(
                creations=[
                    creation("orders", pattern, "User:alice", READ, ALLOW),
                    creation("orders", pattern, "User:bob", WRITE, DENY),
                    creation("", LITERAL, "User:alice", READ, ALLOW),
                    creation("t", LITERAL, "alice", READ, ALLOW),
                ]
            ),
            version,
        )
        assert [(r.error_code, r.error_message) for r in created.results] == [
            (0, None),
            (0, None),
            (ErrorCode.INVALID_REQUEST, "Resource name should not be empty"),
            (ErrorCode.INVALID_REQUEST, "Could not parse principal from `alice`: it is not Type:name"),
        ]
        described = admin.call(describe_all(version), version)
        assert described.error_code == 0
        (resource,) = described.resources
        assert (resource.resource_type, resource.resource_name, resource.pattern_type) == (TOPIC, "orders", pattern)
        assert [(a.principal, a.operation, a.permission_type) for a in resource.acls] == [
            ("User:alice", READ, ALLOW),
            ("User:bob", WRITE, DENY),
        ]
        only_bob = admin.call(describe_all(version, principal_filter="User:bob"), version)
        assert [a.principal for r in only_bob.resources for a in r.acls] == ["User:bob"]
        deleted = admin.call(
            DeleteAclsRequest(
                filters=[
                    DeleteAclsFilter(
                        resource_type_filter=TOPIC,
                        resource_name_filter="orders",
                        pattern_type_filter=pattern,
                        principal_filter="User:alice",
                        host_filter=None,
                        operation=AclOperation.ANY,
                        permission_type=AclPermission.ANY,
                    ),
                    DeleteAclsFilter(resource_type_filter=0, operation=1, permission_type=1),
                ]
            ),
            version,
        )
        first, second = deleted.filter_results
        assert [(m.principal, m.resource_name, m.pattern_type) for m in first.matching_acls] == [
            ("User:alice", "orders", pattern)
        ]
        assert second.error_code == ErrorCode.INVALID_REQUEST
        left = admin.call(describe_all(version), version)
        assert [a.principal for r in left.resources for a in r.acls] == ["User:bob"]


def test_match_filters_find_every_acl_that_applies(tmp_path: Path) -> None:
    with broker(tmp_path, *AUTHORIZER) as (_, dispatcher):
        admin = connect(dispatcher, "User:admin")
        admin.call(
            CreateAclsRequest(
                creations=[
                    creation("orders", LITERAL, "User:a", READ, ALLOW),
                    creation("ord", PREFIXED, "User:b", READ, ALLOW),
                    creation("*", LITERAL, "User:c", READ, ALLOW),
                    creation("other", LITERAL, "User:d", READ, ALLOW),
                ]
            ),
            3,
        )
        found = admin.call(
            describe_all(3, resource_type_filter=TOPIC, resource_name_filter="orders", pattern_type_filter=2), 3
        )
        assert sorted(a.principal for r in found.resources for a in r.acls) == ["User:a", "User:b", "User:c"]


def test_only_cluster_alter_may_change_acls_and_nothing_is_written_otherwise(tmp_path: Path) -> None:
    with broker(tmp_path, *AUTHORIZER) as (_, dispatcher):
        alice = connect(dispatcher, "User:alice")
        refused = alice.call(CreateAclsRequest(creations=[creation("t", LITERAL, "User:alice", READ, ALLOW)]), 3)
        assert [r.error_code for r in refused.results] == [ErrorCode.CLUSTER_AUTHORIZATION_FAILED]
        assert not (tmp_path / "acls.json").exists()
        assert alice.call(describe_all(3), 3).error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        admin = connect(dispatcher, "User:admin")
        cluster_alter = creation("kafka-cluster", LITERAL, "User:alice", AclOperation.ALTER, ALLOW, kind=4)
        admin.call(CreateAclsRequest(creations=[cluster_alter]), 3)
        assert (
            alice.call(CreateAclsRequest(creations=[creation("t", LITERAL, "User:x", READ, ALLOW)]), 3)
            .results[0]
            .error_code
            == ErrorCode.NONE
        )
        # ALTER implies DESCRIBE
        assert alice.call(describe_all(3), 3).error_code == ErrorCode.NONE


def test_without_an_authorizer_the_acl_apis_are_disabled(tmp_path: Path) -> None:
    with broker(tmp_path) as (_, dispatcher):
        anyone = connect(dispatcher)
        created = anyone.call(CreateAclsRequest(creations=[creation("t", LITERAL, "User:a", READ, ALLOW)]), 1)
        assert [r.error_code for r in created.results] == [ErrorCode.SECURITY_DISABLED]
        assert anyone.call(describe_all(1), 1).error_code == ErrorCode.SECURITY_DISABLED
        assert not (tmp_path / "acls.json").exists()


def upsert(name: str, mechanism: int = 1, iterations: int = 4096) -> alter.ScramCredentialUpsertion:
    return alter.ScramCredentialUpsertion(
        name=name, mechanism=mechanism, iterations=iterations, salt=b"salt" * 4, salted_password=b"x" * 32
    )


def test_scram_credentials_are_altered_and_described(tmp_path: Path) -> None:
    with broker(tmp_path, *AUTHORIZER) as (_, dispatcher):
        admin = connect(dispatcher, "User:admin")
        answer = admin.call(
            alter.AlterUserScramCredentialsRequest(
                upsertions=[
                    upsert("alice", 1),
                    upsert("alice", 2, 8192),
                    upsert("bob", 1, 100),
                    upsert("carol", 7),
                    upsert("dave", 1),
                    upsert("dave", 1),
                    upsert("", 1),
                ],
                deletions=[alter.ScramCredentialDeletion(name="erin", mechanism=1)],
            ),
            0,
        )
        assert {r.user: r.error_code for r in answer.results} == {
            "erin": ErrorCode.RESOURCE_NOT_FOUND,
            "alice": ErrorCode.NONE,
            "bob": ErrorCode.UNACCEPTABLE_CREDENTIAL,
            "carol": ErrorCode.UNSUPPORTED_SASL_MECHANISM,
            "dave": ErrorCode.DUPLICATE_RESOURCE,
            "": ErrorCode.UNACCEPTABLE_CREDENTIAL,
        }
        everyone = admin.call(describe.DescribeUserScramCredentialsRequest(users=None), 0)
        assert [(r.user, [(c.mechanism, c.iterations) for c in r.credential_infos]) for r in everyone.results] == [
            ("alice", [(1, 4096), (2, 8192)])
        ]
        named = admin.call(
            describe.DescribeUserScramCredentialsRequest(
                users=[describe.UserName(name=n) for n in ("alice", "zed", "zed")]
            ),
            0,
        )
        assert [(r.user, r.error_code) for r in named.results] == [
            ("alice", 0),
            ("zed", ErrorCode.DUPLICATE_RESOURCE),
        ]
        store = dispatcher.security.credentials  # type: ignore[union-attr]
        assert store.lookup("alice", ScramMechanism.SCRAM_SHA_512) is not None
        assert b"x" * 32 not in store.path.read_bytes()


def test_scram_apis_need_the_cluster_operations(tmp_path: Path) -> None:
    with broker(tmp_path, *AUTHORIZER) as (_, dispatcher):
        alice = connect(dispatcher, "User:alice")
        answer = alice.call(alter.AlterUserScramCredentialsRequest(upsertions=[upsert("alice")]), 0)
        assert [(r.user, r.error_code) for r in answer.results] == [("alice", ErrorCode.CLUSTER_AUTHORIZATION_FAILED)]
        assert not (tmp_path / "scram-credentials.json").exists()
        described = alice.call(describe.DescribeUserScramCredentialsRequest(users=None), 0)
        assert described.error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
