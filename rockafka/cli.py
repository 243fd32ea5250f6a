"""The ``rockafka`` command line: each subcommand lives in its own module and registers itself here.

A subcommand module offers ``add_parser(subparsers)``, which sets ``func`` on its parser to a
function taking the parsed arguments and returning the exit code. A user mistake is reported as one
line on stderr with a non-zero exit, never a traceback.

Only the module of the command asked for is imported (``COMMANDS`` names it), so ``rockafka topics list``
does not load the broker; the top-level help, no command or an unknown one import every module.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__

#: Each command and the module (in this package) that registers it.
COMMANDS = {
    "serve": "serve_cli",
    "cluster": "cluster_cli",
    "probe": "probe_cli",
    "store": "store_cli",
    "pipeline": "pipeline_cli",
    "users": "users_cli",
    "acls": "acls_cli",
    "configs": "configs_cli",
    "kafka-tool": "kafka_tools_cli",
    "status": "status_cli",
    "topics": "topics_cli",
    "groups": "groups_cli",
    "offsets": "offsets_cli",
    "produce": "console_cli",
    "consume": "console_cli",
}


class CommandError(Exception):
    """A user mistake in a command: printed as one line, exit code 2."""


def subcommand_modules(argv: Sequence[str] = ()) -> list[ModuleType]:
    """The modules to register: the one of the command ``argv`` names, else all of them (in ``COMMANDS`` order)."""
    named = next((arg for arg in argv if not arg.startswith("-")), None)
    names = [COMMANDS[named]] if named in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    return [importlib.import_module(f"{__package__}.{name}") for name in names]


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rockafka", description="A Kafka-wire-compatible broker.")
    parser.add_argument("--version", action="version", version=f"rockafka {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in subcommand_modules(argv):
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments)
    args = parser.parse_args(arguments)
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
