"""``rockafka acls add|list|remove``: Kafka ACLs with kafka-acls.sh's options, offline or online.

::

    rockafka acls add --allow-principal User:alice --operation Read --operation Describe \\
        --topic orders --resource-pattern-type prefixed --data-dir /var/lib/rockafka
    rockafka acls list --topic orders --bootstrap-server 127.0.0.1:9092 --command-config admin.properties
    rockafka acls remove --allow-principal User:alice --topic orders --data-dir /var/lib/rockafka

``add`` makes one binding per principal x host x operation (hosts default to ``*``). ``list`` and
``remove`` take the same options as a filter: what is not given matches anything; the resource pattern
type defaults to ``literal`` for ``add`` and ``remove`` and to ``any`` for ``list``, as kafka-acls.sh does
(``match`` finds every ACL that applies to the named resource). Offline the data directory's ``acls.json``
is edited; online CreateAcls/DescribeAcls/DeleteAcls are sent.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_acls import AclCreation, CreateAclsRequest, CreateAclsResponse
from rockafka.facade.protocol.messages.delete_acls import DeleteAclsFilter, DeleteAclsRequest, DeleteAclsResponse
from rockafka.facade.protocol.messages.describe_acls import DescribeAclsRequest, DescribeAclsResponse
from rockafka.facade.security import (
    AclBinding,
    AclBindingFilter,
    AclEntry,
    AclOperation,
    AclPermission,
    AclStore,
    PatternType,
    ResourcePattern,
    ResourceType,
    binding,
)
from rockafka.facade.security.acl import CLUSTER_NAME

from .cli_target import add_target_arguments, connect, guarded
from .wire_client import WireClientError

OPERATIONS = [op.name for op in AclOperation if op not in (AclOperation.UNKNOWN, AclOperation.ANY)]
PATTERNS = ["literal", "prefixed", "any", "match"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser("acls", help="Kafka ACLs: add, list, remove")
    commands = parser.add_subparsers(dest="acls_command", metavar="ACLS_COMMAND", required=True)
    for name, run, text in (
        ("add", run_add, "add ACL bindings"),
        ("list", run_list, "list the bindings a filter matches"),
        ("remove", run_remove, "remove the bindings a filter matches"),
    ):
        command = commands.add_parser(name, help=text)
        resource = command.add_mutually_exclusive_group(required=name == "add")
        resource.add_argument("--topic")
        resource.add_argument("--group")
        resource.add_argument("--cluster", action="store_true")
        resource.add_argument("--transactional-id")
        resource.add_argument("--delegation-token")
        command.add_argument("--resource-pattern-type", choices=PATTERNS, type=str.lower)
        command.add_argument("--allow-principal", action="append", default=[])
        command.add_argument("--deny-principal", action="append", default=[])
        command.add_argument("--allow-host", action="append", default=[])
        command.add_argument("--deny-host", action="append", default=[])
        command.add_argument("--operation", action="append", default=[], type=_operation, help=", ".join(OPERATIONS))
        if name == "list":
            command.add_argument("--principal", help="only bindings of this principal")
        add_target_arguments(command)
        command.set_defaults(func=guarded("acls", run))


def _operation(text: str) -> AclOperation:
    """An operation as kafka-acls.sh spells it (``ClusterAction``, ``DescribeConfigs``) or as Kafka's enum does
    (``CLUSTER_ACTION``, ``cluster-action``)."""
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", text).upper().replace("-", "_")
    if name not in OPERATIONS:
        raise argparse.ArgumentTypeError(f"unknown operation {text!r} (one of {', '.join(OPERATIONS)})")
    return AclOperation[name]


def _resource(args: argparse.Namespace) -> tuple[ResourceType, str | None]:
    for flag, kind in (
        ("topic", ResourceType.TOPIC),
        ("group", ResourceType.GROUP),
        ("transactional_id", ResourceType.TRANSACTIONAL_ID),
        ("delegation_token", ResourceType.DELEGATION_TOKEN),
    ):
        if getattr(args, flag) is not None:
            return kind, getattr(args, flag)
    if args.cluster:
        return ResourceType.CLUSTER, CLUSTER_NAME
    return ResourceType.ANY, None


def _entries(args: argparse.Namespace) -> list[tuple[str, str, AclPermission]]:
    """(principal, host, permission) triples from the allow/deny options."""
    triples = []
    for principals, hosts, permission in (
        (args.allow_principal, args.allow_host, AclPermission.ALLOW),
        (args.deny_principal, args.deny_host, AclPermission.DENY),
    ):
        triples += [(p, h, permission) for p in principals for h in hosts or ["*"]]
    return triples


def run_add(args: argparse.Namespace) -> int:
    resource_type, name = _resource(args)
    pattern = PatternType[(args.resource_pattern_type or "literal").upper()]
    triples = _entries(args)
    if not triples or not args.operation:
        print("rockafka acls: add needs --allow-principal or --deny-principal, and --operation", file=sys.stderr)
        return 2
    bindings = [
        binding(resource_type, name or "", pattern, principal, host, op, permission)
        for principal, host, permission in triples
        for op in args.operation
    ]
    if args.data_dir is not None:
        AclStore(args.data_dir).add(bindings)
    else:
        request = CreateAclsRequest(creations=[_creation(b) for b in bindings])
        with connect(args) as client:
            response = client.request(request, 1, CreateAclsResponse)
        failed = [r for r in response.results if r.error_code]
        for result in failed:
            print(f"rockafka acls: {ErrorCode.of(result.error_code).name}: {result.error_message}", file=sys.stderr)
        if failed:
            return 1
    for item in bindings:
        print(f"added {_shown(item)}")
    return 0


def _filters(args: argparse.Namespace, default_pattern: str) -> list[AclBindingFilter]:
    resource_type, name = _resource(args)
    pattern = PatternType[(args.resource_pattern_type or default_pattern).upper()]
    operations = args.operation or [AclOperation.ANY]
    triples: list[tuple[str | None, str | None, AclPermission]] = list(_entries(args))
    if getattr(args, "principal", None):
        triples.append((args.principal, None, AclPermission.ANY))
    if not triples:
        triples = [(None, None, AclPermission.ANY)]
    return [
        AclBindingFilter(resource_type, name, pattern, principal, host, op, permission)
        for principal, host, permission in triples
        for op in operations
    ]


def run_list(args: argparse.Namespace) -> int:
    found: list[AclBinding] = []
    for selected in _filters(args, "any"):
        if args.data_dir is not None:
            found += [b for b in AclStore(args.data_dir).bindings() if selected.matches(b)]
        else:
            found += _describe(args, selected)
    for item in dict.fromkeys(found):
        print(_shown(item))
    return 0


def run_remove(args: argparse.Namespace) -> int:
    filters = _filters(args, "literal")
    removed: list[AclBinding] = []
    if args.data_dir is not None:
        for group in AclStore(args.data_dir).remove(filters):
            removed += group
    else:
        request = DeleteAclsRequest(filters=[_wire_filter(DeleteAclsFilter, f) for f in filters])
        with connect(args) as client:
            response = client.request(request, 1, DeleteAclsResponse)
        for result in response.filter_results:
            if result.error_code:
                print(f"rockafka acls: {ErrorCode.of(result.error_code).name}: {result.error_message}", file=sys.stderr)
                return 1
            removed += [
                AclBinding(
                    ResourcePattern(ResourceType(m.resource_type), m.resource_name, PatternType(m.pattern_type)),
                    AclEntry(m.principal, m.host, AclOperation(m.operation), AclPermission(m.permission_type)),
                )
                for m in result.matching_acls
            ]
    for item in removed:
        print(f"removed {_shown(item)}")
    return 0


def _describe(args: argparse.Namespace, selected: AclBindingFilter) -> list[AclBinding]:
    with connect(args) as client:
        response = client.request(_wire_filter(DescribeAclsRequest, selected), 1, DescribeAclsResponse)
    if response.error_code:
        raise WireClientError(f"{ErrorCode.of(response.error_code).name}: {response.error_message}")
    return [
        AclBinding(
            ResourcePattern(ResourceType(r.resource_type), r.resource_name, PatternType(r.pattern_type)),
            AclEntry(a.principal, a.host, AclOperation(a.operation), AclPermission(a.permission_type)),
        )
        for r in response.resources
        for a in r.acls
    ]


def _wire_filter(kind: Any, selected: AclBindingFilter) -> Any:
    return kind(
        resource_type_filter=selected.resource_type,
        resource_name_filter=selected.name,
        pattern_type_filter=selected.pattern_type,
        principal_filter=selected.principal,
        host_filter=selected.host,
        operation=selected.operation,
        permission_type=selected.permission,
    )


def _creation(item: AclBinding) -> AclCreation:
    return AclCreation(
        resource_type=item.pattern.resource_type,
        resource_name=item.pattern.name,
        resource_pattern_type=item.pattern.pattern_type,
        principal=item.entry.principal,
        host=item.entry.host,
        operation=item.entry.operation,
        permission_type=item.entry.permission,
    )


def _shown(item: AclBinding) -> str:
    pattern, entry = item.pattern, item.entry
    return (
        f"{pattern.resource_type.name}:{pattern.pattern_type.name}:{pattern.name} "
        f"{entry.permission.name} {entry.principal} {entry.operation.name} from host {entry.host}"
    )
