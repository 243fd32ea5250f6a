"""``rockafka probe [PROPERTIES_FILE] [--override ...] [--kafka-env] [--aiolibs-env] [--bootstrap-server HOST:PORT]``.

Asks a broker whether it serves: an ApiVersions request (which Kafka answers before authentication, so a
SASL listener answers it too) to ``--bootstrap-server``, or else to the first listener without TLS among
the settings that ``rockafka serve`` would read from the same arguments and environment (a wildcard host
is probed on 127.0.0.1). Exit status 0 when it answers without error, 1 when it does not (one line on
stderr), 2 for a bad setting. The container image's HEALTHCHECK (``rockafka-healthcheck``) runs ``rockafka probe
--kafka-env``, or ``--aiolibs-env`` where the entrypoint serves with it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from rockafka.facade.config import ConfigError, load_broker_config
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse

from . import __version__
from .aiolibs_env import aiolibs_settings
from .wire_client import WireClient, WireClientError

PROBE_TIMEOUT_S = 5.0
TLS_PROTOCOLS = frozenset({"SSL", "SASL_SSL"})


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "probe",
        help="exit 0 if the broker answers ApiVersions (a container health check)",
        description="Send ApiVersions to a broker: to --bootstrap-server, or to the first non-TLS listener of "
        "the settings 'rockafka serve' would read from the same arguments and environment.",
    )
    parser.add_argument("properties", nargs="?", type=Path, help="a server.properties file")
    parser.add_argument("--override", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--kafka-env", action="store_true", help="read KAFKA_<NAME> variables as serve does")
    parser.add_argument("--aiolibs-env", action="store_true", help="read ADVERTISED_PORT, ... as serve does")
    parser.add_argument("--bootstrap-server", help="HOST:PORT to probe instead of the configured listener")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        address = args.bootstrap_server or configured_address(args)
    except ConfigError as exc:
        print(f"rockafka probe: {exc}", file=sys.stderr)
        return 2
    try:
        with WireClient(address, client_id="rockafka-probe", timeout_s=PROBE_TIMEOUT_S) as client:
            request = ApiVersionsRequest(client_software_name="rockafka-probe", client_software_version=__version__)
            answer = client.request(request, 3, ApiVersionsResponse)
    except WireClientError as exc:
        print(f"rockafka probe: {address}: {exc}", file=sys.stderr)
        return 1
    if answer.error_code:
        print(f"rockafka probe: {address} answered ApiVersions with error {answer.error_code}", file=sys.stderr)
        return 1
    return 0


def configured_address(args: argparse.Namespace) -> str:
    overrides = list(args.override)
    if args.aiolibs_env:
        overrides[:0] = [f"{name}={value}" for name, value in aiolibs_settings(os.environ).items()]
    config = load_broker_config(args.properties, overrides, os.environ, kafka_env=args.kafka_env)
    plain = [item for item in config.listeners if item.security_protocol not in TLS_PROTOCOLS]
    if not plain:
        raise ConfigError("no listener without TLS to probe: give --bootstrap-server")
    host = plain[0].host
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"{host}:{plain[0].port}"  # WireClient splits at the last colon: an IPv6 host needs no brackets
