"""The ``rockafka`` command line: each subcommand lives in its own module and registers itself here.

A subcommand module offers ``add_parser(subparsers)``, which sets ``func`` on its parser to a
function taking the parsed arguments and returning the exit code. A user mistake is reported as one
line on stderr with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import (
    __version__,
    acls_cli,
    cluster_cli,
    configs_cli,
    console_cli,
    groups_cli,
    kafka_tools_cli,
    offsets_cli,
    pipeline_cli,
    probe_cli,
    serve_cli,
    status_cli,
    store_cli,
    topics_cli,
    users_cli,
)

SUBCOMMANDS = (
    serve_cli,
    cluster_cli,
    probe_cli,
    store_cli,
    pipeline_cli,
    users_cli,
    acls_cli,
    configs_cli,
    kafka_tools_cli,
    status_cli,
    topics_cli,
    groups_cli,
    offsets_cli,
    console_cli,
)


class CommandError(Exception):
    """A user mistake in a command: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rockafka", description="A Kafka-wire-compatible broker.")
    parser.add_argument("--version", action="version", version=f"rockafka {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except CommandError as exc:
        print(f"rockafka {args.command}: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
