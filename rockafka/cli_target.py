"""Where the ``users`` and ``acls`` commands act: offline on a data directory, or online through a broker.

``--data-dir DIR`` edits the broker's files directly (a running broker picks the change up within a second);
``--bootstrap-server HOST:PORT [--command-config FILE]`` sends the Kafka admin requests (the principal used
needs ALTER/DESCRIBE on the cluster when ACLs are on). The command-config file is a Kafka client properties
file; see :mod:`rockafka.wire_client`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rockafka.facade.config import ConfigError, read_properties
from rockafka.facade.config.broker import decode_properties
from rockafka.facade.security import SecurityError

from .wire_client import WireClient, WireClientError


def add_target_arguments(parser: Any) -> None:
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--data-dir", type=Path, help="the broker's data directory (log.dirs): offline")
    target.add_argument("--bootstrap-server", help="HOST:PORT of a running broker: online")
    parser.add_argument("--command-config", type=Path, help="client properties for --bootstrap-server (TLS, SASL)")


def connect(args: argparse.Namespace) -> WireClient:
    """The online connection that ``args`` describe (WireClientError when it fails)."""
    settings: dict[str, str] = {}
    if args.command_config is not None:
        path = args.command_config
        try:
            settings = dict(read_properties(decode_properties(path.read_bytes(), path), str(path)))
        except ConfigError as exc:  # not UTF-8, a malformed escape: one line, as the other mistakes
            raise WireClientError(str(exc)) from None
    return WireClient(args.bootstrap_server, settings)


def guarded(name: str, command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``command`` with a user's mistake (bad input, an unreachable or refusing broker, a file it cannot
    read) printed as one line prefixed ``rockafka <name>:`` and exit status 2, never a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (SecurityError, WireClientError, OSError) as exc:
            print(f"rockafka {name}: {exc}", file=sys.stderr)
            return 2

    return run
