"""``rockafka users add|delete|list``: SCRAM credentials, offline (``--data-dir``) or online (``--bootstrap-server``).

Offline the credentials file of the data directory is edited (``scram-credentials.json``, see
``facade/security/credentials.py``); online AlterUserScramCredentials/DescribeUserScramCredentials are sent,
with the salted password computed here, as Kafka's tools do: the password itself never leaves this process.
The password comes from ``--password-file`` (first line), else standard input (a prompt on a terminal);
``--password`` also works but shows in the process list.
"""

from __future__ import annotations

import argparse
import getpass
import secrets
import sys
from typing import Any

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_user_scram_credentials import (
    AlterUserScramCredentialsRequest,
    AlterUserScramCredentialsResponse,
    ScramCredentialDeletion,
    ScramCredentialUpsertion,
)
from rockafka.facade.protocol.messages.describe_user_scram_credentials import (
    DescribeUserScramCredentialsRequest,
    DescribeUserScramCredentialsResponse,
    UserName,
)
from rockafka.facade.security import CredentialStore, ScramCredential, ScramMechanism
from rockafka.facade.security.scram import DEFAULT_ITERATIONS, MAX_ITERATIONS, MIN_ITERATIONS

from .cli_target import add_target_arguments, connect, guarded
from .wire_client import WireClientError

MECHANISMS = [m.mechanism_name for m in ScramMechanism]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser("users", help="SCRAM users: add, delete, list")
    commands = parser.add_subparsers(dest="users_command", metavar="USERS_COMMAND", required=True)

    add = commands.add_parser("add", help="add a user or change its password")
    add.add_argument("user")
    add.add_argument("--mechanism", action="append", choices=MECHANISMS, help="repeatable; default: both")
    add.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    add.add_argument("--password-file", type=argparse.FileType("r"), help="read the password's first line")
    add.add_argument("--password", help="the password (visible to other local users; prefer --password-file)")
    add_target_arguments(add)
    add.set_defaults(func=guarded("users", run_add))

    delete = commands.add_parser("delete", help="delete a user's credentials")
    delete.add_argument("user")
    delete.add_argument("--mechanism", action="append", choices=MECHANISMS, help="repeatable; default: all it has")
    add_target_arguments(delete)
    delete.set_defaults(func=guarded("users", run_delete))

    listing = commands.add_parser("list", help="users and their mechanisms (never secrets)")
    listing.add_argument("users", nargs="*")
    add_target_arguments(listing)
    listing.set_defaults(func=guarded("users", run_list))


def _mechanisms(args: argparse.Namespace) -> list[ScramMechanism]:
    return [ScramMechanism.named(name) for name in dict.fromkeys(args.mechanism or MECHANISMS)]


def _password(args: argparse.Namespace) -> str:
    if args.password is not None:
        return str(args.password)
    if args.password_file is not None:
        return str(args.password_file.readline().rstrip("\r\n"))
    if sys.stdin.isatty():
        return getpass.getpass(f"password for {args.user}: ")
    return sys.stdin.readline().rstrip("\r\n")


def run_add(args: argparse.Namespace) -> int:
    if not MIN_ITERATIONS <= args.iterations <= MAX_ITERATIONS:
        print(f"rockafka users: --iterations must be {MIN_ITERATIONS}..{MAX_ITERATIONS}", file=sys.stderr)
        return 2
    password = _password(args)
    if not password:
        print("rockafka users: the password is empty", file=sys.stderr)
        return 2
    upserts = [_salted(mechanism, password, args.iterations) for mechanism in _mechanisms(args)]
    if args.data_dir is not None:
        CredentialStore(args.data_dir).apply(
            [(args.user, ScramCredential.from_salted_password(m, s, p, args.iterations)) for m, s, p in upserts], []
        )
    else:
        request = AlterUserScramCredentialsRequest(
            upsertions=[
                ScramCredentialUpsertion(
                    name=args.user, mechanism=m.code, iterations=args.iterations, salt=s, salted_password=p
                )
                for m, s, p in upserts
            ]
        )
        if not _alter(args, request):
            return 1
    print(f"user {args.user}: {', '.join(m.mechanism_name for m, _, _ in upserts)} set")
    return 0


def _salted(mechanism: ScramMechanism, password: str, iterations: int) -> tuple[ScramMechanism, bytes, bytes]:
    """A new random salt and the password salted with it: what a credential stores, never the password."""
    salt = secrets.token_bytes(32)
    return mechanism, salt, mechanism.salted_password(password, salt, iterations)


def scram_upsertion(user: str, mechanism: ScramMechanism, password: str, iterations: int) -> ScramCredentialUpsertion:
    """AlterUserScramCredentials' upsertion of ``user``'s ``mechanism`` credential, salted here as Kafka's tools do."""
    _, salt, salted = _salted(mechanism, password, iterations)
    return ScramCredentialUpsertion(
        name=user, mechanism=mechanism.code, iterations=iterations, salt=salt, salted_password=salted
    )


def run_delete(args: argparse.Namespace) -> int:
    if args.data_dir is not None:
        store = CredentialStore(args.data_dir)
        has = store.users().get(args.user, {})
        chosen = [m for m in _mechanisms(args) if m in has] if args.mechanism else list(has)
        if not chosen:
            print(f"rockafka users: {args.user} has no such credentials", file=sys.stderr)
            return 1
        store.apply([], [(args.user, m) for m in chosen])
    else:
        chosen = _mechanisms(args) if args.mechanism else _online_mechanisms(args, args.user)
        request = AlterUserScramCredentialsRequest(
            deletions=[ScramCredentialDeletion(name=args.user, mechanism=m.code) for m in chosen]
        )
        if not chosen or not _alter(args, request):
            return 1
    print(f"user {args.user}: {', '.join(m.mechanism_name for m in chosen)} deleted")
    return 0


def run_list(args: argparse.Namespace) -> int:
    rows: dict[str, list[tuple[str, int]]] = {}
    if args.data_dir is not None:
        for user, held in sorted(CredentialStore(args.data_dir).users().items()):
            if not args.users or user in args.users:
                rows[user] = [(c.mechanism.mechanism_name, c.iterations) for c in held.values()]
    else:
        response = _describe(args, args.users)
        for result in response.results:
            if result.error_code:
                print(f"{result.user}: {result.error_message}", file=sys.stderr)
                continue
            rows[result.user] = [
                (ScramMechanism.of_code(info.mechanism).mechanism_name, info.iterations)
                for info in result.credential_infos
            ]
    for user, creds in rows.items():
        shown = ", ".join(f"{name} ({iterations} iterations)" for name, iterations in sorted(creds))
        print(f"{user}\t{shown}")
    return 0


def _describe(args: argparse.Namespace, users: list[str]) -> DescribeUserScramCredentialsResponse:
    request = DescribeUserScramCredentialsRequest(users=[UserName(name=u) for u in users] or None)
    with connect(args) as client:
        response = client.request(request, 0, DescribeUserScramCredentialsResponse)
    if response.error_code:
        raise WireClientError(f"{ErrorCode.of(response.error_code).name}: {response.error_message}")
    return response


def _online_mechanisms(args: argparse.Namespace, user: str) -> list[ScramMechanism]:
    (result,) = _describe(args, [user]).results
    if result.error_code:
        print(f"rockafka users: {result.error_message}", file=sys.stderr)
        return []
    return [ScramMechanism.of_code(info.mechanism) for info in result.credential_infos]


def _alter(args: argparse.Namespace, request: AlterUserScramCredentialsRequest) -> bool:
    with connect(args) as client:
        response = client.request(request, 0, AlterUserScramCredentialsResponse)
    failed = [r for r in response.results if r.error_code]
    for result in failed:
        print(
            f"rockafka users: {result.user}: {ErrorCode.of(result.error_code).name}: {result.error_message}",
            file=sys.stderr,
        )
    return not failed
