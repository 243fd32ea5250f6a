"""``rockafka status --http HOST:PORT``: is a running broker live and ready, as its ``/healthz`` and ``/readyz`` say.

Prints ``live`` (or why not), then the readiness answer as the broker gives it: ``ready``, ``degraded`` or
``not ready`` and one ``name: state`` line per check (listeners, store, index). Exit code 0 when ready or
degraded, 1 when not ready or unreachable (one line saying why), 2 for a malformed address.
The broker must run with ``rockafka.http.listener`` set; ``--http`` is that address.
"""

from __future__ import annotations

import argparse
import http.client
import sys
from typing import Any

from rockafka.facade.ops.http import HttpListenerError, parse_address

TIMEOUT_S = 10.0


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "status",
        help="whether a running broker is live and ready (its /healthz and /readyz)",
        description="Ask a running broker's HTTP listener (rockafka.http.listener) whether it is live and ready.",
    )
    parser.add_argument("--http", required=True, metavar="HOST:PORT", help="the broker's rockafka.http.listener")
    parser.set_defaults(func=run)


def _get(host: str, port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection(host or "127.0.0.1", port, timeout=TIMEOUT_S)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode(errors="replace")
    finally:
        connection.close()


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.http)
    except HttpListenerError as exc:
        print(f"rockafka status: {exc}", file=sys.stderr)
        return 2
    try:
        live_status, _ = _get(host, port, "/healthz")
        ready_status, readiness = _get(host, port, "/readyz")
    except (OSError, http.client.HTTPException) as exc:
        print(f"rockafka status: no broker answers on http://{args.http}: {exc}", file=sys.stderr)
        return 1
    print("live" if live_status == 200 else f"not live (HTTP {live_status})")
    print(readiness, end="" if readiness.endswith("\n") else "\n")
    return 0 if live_status == 200 and ready_status == 200 else 1
