"""``rockafka topics`` (also installed as ``kafka-topics`` and ``kafka-topics.sh``): kafka-topics.sh's options
and output, over the Kafka protocol, so it works against any Kafka broker too.

::

    kafka-topics.sh --bootstrap-server 127.0.0.1:9092 --create --topic orders --partitions 6 --config retention.ms=60000
    kafka-topics.sh --bootstrap-server 127.0.0.1:9092 --list
    kafka-topics.sh --bootstrap-server 127.0.0.1:9092 --describe --topic 'ord.*'
    kafka-topics.sh --bootstrap-server 127.0.0.1:9092 --alter --topic orders --partitions 12
    kafka-topics.sh --bootstrap-server 127.0.0.1:9092 --delete --topic orders

``--topic`` is a regular expression (matched whole) except with ``--create``, as in Kafka. Output follows
Kafka 3.6's TopicCommand: ``Created topic X.``; ``--list`` one name per line, sorted; ``--describe`` a
``Topic: ... TopicId: ... PartitionCount: ... ReplicationFactor: ... Configs: ...`` line (the topic's own
settings, not its defaults) then one tab-indented line per partition (Kafka 3.7+'s ``Elr``/``LastKnownElr``
columns are not printed). A failure prints ``Error while executing topic command : <reason>`` on stderr and
exits 1; bad arguments print one line and exit 2. Not supported: ``--replica-assignment``,
``--at-min-isr-partitions``, ``--under-replicated-partitions``, ``--under-min-isr-partitions``,
``--unavailable-partitions`` and ``--topics-with-overrides`` (a single broker has no replicas to report on).
"""

from __future__ import annotations

import argparse
import base64
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_partitions import (
    CreatePartitionsRequest,
    CreatePartitionsResponse,
    CreatePartitionsTopic,
)
from rockafka.facade.protocol.messages.create_topics import (
    CreatableTopic,
    CreatableTopicConfig,
    CreateTopicsRequest,
    CreateTopicsResponse,
)
from rockafka.facade.protocol.messages.delete_topics import DeleteTopicsRequest, DeleteTopicsResponse
from rockafka.facade.protocol.messages.describe_configs import (
    DescribeConfigsRequest,
    DescribeConfigsResource,
    DescribeConfigsResponse,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse, MetadataResponseTopic

from .cli_target import connect
from .wire_client import WireClient, WireClientError

TIMEOUT_MS = 30000
TOPIC_RESOURCE = 2
TOPIC_CONFIG_SOURCE = 1
ACTIONS = ("list", "describe", "create", "alter", "delete")


class TopicCommandError(Exception):
    """What kafka-topics.sh reports as ``Error while executing topic command : <message>``."""


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr and exit status 2 (argparse would print the usage too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = OneLineParser(prog=prog, description="Create, list, describe, alter or delete topics.")
    add_arguments(parser)
    return parser


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "topics", help="kafka-topics.sh: create, list, describe, alter or delete topics"
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_mutually_exclusive_group(required=True)
    for action in ACTIONS:
        actions.add_argument(f"--{action}", action="store_true")
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of a broker")
    parser.add_argument("--command-config", type=Path, help="client properties (TLS, SASL)")
    parser.add_argument("--topic", help="the topic (a regular expression, except with --create)")
    parser.add_argument("--partitions", type=int, help="partitions of a new topic, or the new total with --alter")
    parser.add_argument("--replication-factor", type=int, default=-1, help="of a new topic (broker default)")
    parser.add_argument("--config", action="append", default=[], metavar="NAME=VALUE", help="a new topic's setting")
    parser.add_argument("--if-exists", action="store_true", help="--alter/--delete/--describe: no error if none")
    parser.add_argument("--if-not-exists", action="store_true", help="--create: no error if it exists")
    parser.add_argument("--exclude-internal", action="store_true", help="leave internal topics out")


def run(args: argparse.Namespace) -> int:
    try:
        check_arguments(args)
    except ValueError as exc:
        print(f"rockafka topics: {exc}", file=sys.stderr)
        return 2
    try:
        with connect(args) as client:
            for line in execute(client, args):
                print(line)
    except WireClientError as exc:
        print(f"rockafka topics: {exc}", file=sys.stderr)
        return 1
    except TopicCommandError as exc:
        print(f"Error while executing topic command : {exc}", file=sys.stderr)
        return 1
    return 0


def check_arguments(args: argparse.Namespace) -> None:
    if (args.create or args.alter or args.delete) and not args.topic:
        raise ValueError("--topic is required with --create, --alter and --delete")
    if args.alter and args.partitions is None:
        raise ValueError("--alter needs --partitions (change settings with kafka-configs)")
    if args.config and not args.create:
        raise ValueError("--config is accepted with --create only (use kafka-configs for existing topics)")
    for item in args.config:
        if "=" not in item:
            raise ValueError(f"--config takes NAME=VALUE, got {item!r}")
    if args.topic and not args.create:
        try:
            re.compile(args.topic)
        except re.error as exc:
            raise ValueError(f"--topic {args.topic!r} is not a regular expression: {exc}") from None


def execute(client: WireClient, args: argparse.Namespace) -> list[str]:
    if args.create:
        return _create(client, args)
    topics = _metadata(client)
    if args.exclude_internal:
        topics = [t for t in topics if not t.is_internal]
    if args.topic:
        topics = [t for t in topics if t.name is not None and re.fullmatch(args.topic, t.name)]
        if not topics and not args.if_exists:
            raise TopicCommandError(f"Topic '{args.topic}' does not exist as expected")
    if args.list:
        return sorted(t.name for t in topics if t.name is not None)
    if args.describe:
        return _describe(client, topics)
    names = [t.name for t in topics if t.name is not None]
    if args.delete:
        _delete(client, names)
    else:
        _alter(client, names, args.partitions)
    return []


def _metadata(client: WireClient) -> list[MetadataResponseTopic]:
    response = client.request(MetadataRequest(topics=None), 12, MetadataResponse)
    return sorted(response.topics, key=lambda t: t.name or "")


def _fail_on(code: int, message: str | None, name: str) -> None:
    if code != ErrorCode.NONE:
        raise TopicCommandError(message or f"{ErrorCode(code).name} for topic '{name}'")


def _create(client: WireClient, args: argparse.Namespace) -> list[str]:
    configs = [CreatableTopicConfig(name=k, value=v) for k, _, v in (c.partition("=") for c in args.config)]
    topic = CreatableTopic(
        name=args.topic, num_partitions=args.partitions if args.partitions is not None else -1,
        replication_factor=args.replication_factor, assignments=[], configs=configs,
    )  # fmt: skip
    request = CreateTopicsRequest(topics=[topic], timeout_ms=TIMEOUT_MS)
    result = client.request(request, 5, CreateTopicsResponse).topics[0]
    if result.error_code == ErrorCode.TOPIC_ALREADY_EXISTS and args.if_not_exists:
        return []
    _fail_on(result.error_code, result.error_message, args.topic)
    return [f"Created topic {args.topic}."]


def _delete(client: WireClient, names: Sequence[str]) -> None:
    request = DeleteTopicsRequest(topic_names=list(names), timeout_ms=TIMEOUT_MS)
    for result in client.request(request, 4, DeleteTopicsResponse).responses:
        _fail_on(result.error_code, result.error_message, result.name or "")


def _alter(client: WireClient, names: Sequence[str], partitions: int) -> None:
    topics = [CreatePartitionsTopic(name=name, count=partitions, assignments=None) for name in names]
    request = CreatePartitionsRequest(topics=topics, timeout_ms=TIMEOUT_MS)
    for result in client.request(request, 1, CreatePartitionsResponse).results:
        _fail_on(result.error_code, result.error_message, result.name)


def _topic_configs(client: WireClient, names: Sequence[str]) -> dict[str, str]:
    """Each topic's own settings (not defaults) as Kafka prints them: ``name=value,name=value``."""
    resources = [
        DescribeConfigsResource(resource_type=TOPIC_RESOURCE, resource_name=n, configuration_keys=None) for n in names
    ]
    response = client.request(DescribeConfigsRequest(resources=resources), 1, DescribeConfigsResponse)
    shown = {}
    for result in response.results:
        own = [c for c in result.configs if c.config_source == TOPIC_CONFIG_SOURCE]
        shown[result.resource_name] = ",".join(f"{c.name}={'' if c.is_sensitive else c.value}" for c in own)
    return shown


def _describe(client: WireClient, topics: Sequence[MetadataResponseTopic]) -> list[str]:
    names = [t.name for t in topics if t.name is not None]
    configs = _topic_configs(client, names) if names else {}
    lines = []
    for topic in topics:
        if topic.name is None:
            continue
        partitions = sorted(topic.partitions, key=lambda p: p.partition_index)
        replication = len(partitions[0].replica_nodes) if partitions else 0
        lines.append(
            f"Topic: {topic.name}\tTopicId: {_kafka_uuid(topic.topic_id.bytes)}\tPartitionCount: {len(partitions)}\t"
            f"ReplicationFactor: {replication}\tConfigs: {configs.get(topic.name, '')}"
        )
        for p in partitions:
            lines.append(
                f"\tTopic: {topic.name}\tPartition: {p.partition_index}\tLeader: {_leader(p.leader_id)}\t"
                f"Replicas: {_ids(p.replica_nodes)}\tIsr: {_ids(p.isr_nodes)}"
            )
    return lines


def _kafka_uuid(raw: bytes) -> str:
    """A topic id as Kafka prints it: URL-safe base64 of its 16 bytes, unpadded."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _leader(node: int) -> str:
    return "none" if node < 0 else str(node)


def _ids(nodes: Sequence[int]) -> str:
    return ",".join(map(str, nodes))


def kafka_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-topics`` and ``kafka-topics.sh`` console scripts."""
    prog = Path(sys.argv[0]).name if argv is None else "kafka-topics.sh"
    return run(build_parser(prog).parse_args(argv))
