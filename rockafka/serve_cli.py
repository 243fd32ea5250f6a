"""``rockafka serve [PROPERTIES_FILE] [--override KEY=VALUE ...] [--kafka-env] [--aiolibs-env]``: run a broker
(kafka-server-start.sh).

A bad setting (a properties file that is not UTF-8, an unknown name, a value that does not parse) is one
line on stderr and exit code 2; a data directory that cannot be served (an unreadable ``meta.properties``
or store file) is one line and exit code 1. Neither prints a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from rockafka import logsetup
from rockafka.facade.app import BrokerApp, StartupError
from rockafka.facade.config import ConfigError, load_broker_config
from rockafka.store import StoreError

from .aiolibs_env import aiolibs_settings


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run a broker (default 127.0.0.1:9092, data in ./rockafka-data)",
        description="Run a Rockafka broker. Settings use Kafka's names: a server.properties file, "
        "ROCKAFKA_<NAME> environment variables (log.dirs -> ROCKAFKA_LOG_DIRS), then --override.",
    )
    parser.add_argument("properties", nargs="?", type=Path, help="a server.properties file")
    parser.add_argument(
        "--override", action="append", default=[], metavar="KEY=VALUE", help="set one setting (repeatable)"
    )
    parser.add_argument(
        "--kafka-env",
        action="store_true",
        help="also read KAFKA_<NAME> environment variables as Kafka's container images do "
        "(KAFKA_NUM_PARTITIONS -> num.partitions; see docs/container.md)",
    )
    parser.add_argument(
        "--aiolibs-env",
        action="store_true",
        help="take ADVERTISED_HOST, ADVERTISED_PORT, ... as the aiolibs/kafka image aiokafka's tests start does "
        "(see docs/container.md)",
    )
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument(
        "--log-format", choices=["text", "json"], default=None, help="log lines as text or JSON (rockafka.log.format)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logsetup.configure(args.log_level, args.log_format or "text")
    try:
        overrides = list(args.override)
        if args.aiolibs_env:
            overrides[:0] = [f"{name}={value}" for name, value in aiolibs_settings(os.environ).items()]
        config = load_broker_config(args.properties, overrides, os.environ, kafka_env=args.kafka_env)
    except ConfigError as exc:
        print(f"rockafka serve: {exc}", file=sys.stderr)
        return 2
    if args.log_format is None:
        logsetup.configure(args.log_level, config.str("rockafka.log.format"))
    app = BrokerApp(config)
    try:
        run_event_loop(app.run_until_signalled())
    except (StartupError, StoreError) as exc:  # the data directory cannot serve (meta.properties, store files)
        print(f"rockafka serve: {exc}", file=sys.stderr)
        return 1
    exit_after_clean_stop()


def exit_after_clean_stop() -> NoReturn:
    """Exit with 0 now that the broker has stopped cleanly (connections closed, store flushed and closed with
    its checkpoint, threads joined), without the interpreter's teardown of every imported module: that took
    0.3 s on an idle machine and over 2 s on a loaded one, where the stop itself takes milliseconds
    (``python -m bench.stop``). The log and the standard streams are flushed first."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def run_event_loop(main: Any) -> None:
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    uvloop.run(main)
