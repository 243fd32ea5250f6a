"""``rockafka offsets`` (also ``kafka-get-offsets`` and ``kafka-get-offsets.sh``): kafka-get-offsets.sh's options
and output, over the Kafka protocol.

::

    kafka-get-offsets.sh --bootstrap-server 127.0.0.1:9092 --topic orders [--partitions 0,1] [--time -1|-2|MS]

Prints ``topic:partition:offset`` per partition, sorted, as Kafka's GetOffsetShell does: ``--time -1`` (the
default, ``latest``) the log end offset, ``-2`` (``earliest``) the log start offset, a timestamp in ms the
first offset at or after it (partitions without one are left out). ``--topic`` is a regular expression;
without it every topic. Not supported: ``--topic-partitions`` and ``-3`` (max-timestamp).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse

from .cli_target import connect
from .topics_cli import OneLineParser
from .wire_client import WireClient, WireClientError

NAMED_TIMES = {"latest": -1, "earliest": -2}


def _time(text: str) -> int:
    if text.lower() in NAMED_TIMES:
        return NAMED_TIMES[text.lower()]
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--time takes -1, -2, latest, earliest or ms, not {text!r}") from None


def _partitions(text: str) -> list[int]:
    try:
        return [int(n) for n in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--partitions takes numbers separated by commas, not {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of a broker")
    parser.add_argument("--command-config", type=Path, help="client properties (TLS, SASL)")
    parser.add_argument("--topic", help="topics, a regular expression (default: all)")
    parser.add_argument("--partitions", type=_partitions, help="partition numbers, e.g. 0,1 (default: all)")
    parser.add_argument("--time", type=_time, default=-1, help="-1 latest (default), -2 earliest, or ms")
    parser.add_argument("--exclude-internal-topics", action="store_true")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("offsets", help="kafka-get-offsets.sh: partitions' offsets at a time")
    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        pattern = re.compile(args.topic or ".*")
    except re.error as exc:
        print(f"rockafka offsets: --topic {args.topic!r} is not a regular expression: {exc}", file=sys.stderr)
        return 2
    try:
        with connect(args) as client:
            for line in offsets(client, pattern, args.partitions, args.time, args.exclude_internal_topics):
                print(line)
    except WireClientError as exc:
        print(f"rockafka offsets: {exc}", file=sys.stderr)
        return 1
    return 0


def offsets(
    client: WireClient, pattern: re.Pattern[str], only: list[int] | None, time: int, no_internal: bool
) -> list[str]:
    topics = []
    for topic in client.request(MetadataRequest(topics=None), 12, MetadataResponse).topics:
        if topic.name is None or not pattern.fullmatch(topic.name) or (no_internal and topic.is_internal):
            continue
        numbers = sorted(p.partition_index for p in topic.partitions if only is None or p.partition_index in only)
        parts = [ListOffsetsPartition(partition_index=n, timestamp=time) for n in numbers]
        topics.append(ListOffsetsTopic(name=topic.name, partitions=parts))
    if not topics:
        return []
    response = client.request(ListOffsetsRequest(replica_id=-1, topics=topics), 5, ListOffsetsResponse)
    found = [(t.name, p.partition_index, p.offset) for t in response.topics for p in t.partitions]
    return [f"{name}:{partition}:{offset}" for name, partition, offset in sorted(found) if offset >= 0]


def kafka_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-get-offsets`` and ``kafka-get-offsets.sh`` console scripts."""
    parser = OneLineParser(prog=Path(sys.argv[0]).name if argv is None else "kafka-get-offsets.sh")
    add_arguments(parser)
    return run(parser.parse_args(argv))
