"""``rockafka configs`` (also installed as ``kafka-configs`` and ``kafka-configs.sh``): kafka-configs.sh's options
and output over the Kafka protocol, for topics, brokers and users' SCRAM credentials.

::

    kafka-configs.sh --bootstrap-server 127.0.0.1:9092 --entity-type topics --entity-name orders --describe
    kafka-configs.sh --bootstrap-server 127.0.0.1:9092 --entity-type topics --entity-name orders --alter \\
        --add-config retention.ms=60000,cleanup.policy=[compact,delete] --delete-config segment.bytes
    kafka-configs.sh --bootstrap-server 127.0.0.1:9092 --entity-type brokers --entity-name 0 --describe --all
    kafka-configs.sh --bootstrap-server 127.0.0.1:9092 --entity-type users --entity-name alice --alter \\
        --add-config 'SCRAM-SHA-256=[iterations=8192,password=alice-secret]'

What each form sends and prints, as Kafka 3.x's ConfigCommand does:

- ``--describe`` of topics or brokers: DescribeConfigs with synonyms; ``Dynamic configs for topic T are:`` (or
  ``All configs`` with ``--all``, ``Default configs for brokers in the cluster are:`` for ``--entity-default``)
  then one ``  name=value sensitive=false synonyms={SOURCE:name=value, ...}`` line per config, sorted by name.
  Without ``--all`` only the dynamic ones: a topic's own overrides, a broker's dynamic settings. Without
  ``--entity-name`` every topic, or every broker and then the cluster-wide default. A topic or broker that does
  not exist prints ``The topic 'T' doesn't exist and doesn't have dynamic config.``.
- ``--alter`` of topics or brokers: IncrementalAlterConfigs, SET for each ``--add-config`` (and
  ``--add-config-file``) entry, DELETE for each ``--delete-config`` name (a name that is not a dynamic config of
  the entity fails first: ``Invalid config(s): ...``); then ``Completed updating config for topic T.``.
- users: ``--describe`` sends DescribeUserScramCredentials and prints ``SCRAM credential configs for
  user-principal 'U' are SCRAM-SHA-256=iterations=4096``; ``--alter`` with ``SCRAM-SHA-256=[iterations=N,
  password=P]`` or ``--delete-config SCRAM-SHA-512`` sends AlterUserScramCredentials, salting here.

``--add-config`` takes ``k1=v1,k2=[v1,v2]``: square brackets group a value that contains commas. A failure the
broker reports prints ``Error while executing config command : <reason>`` and exits 1; bad arguments one line,
exit 2. Not supported: entity types ``clients``, ``ips``, ``broker-loggers``, ``client-metrics`` and ``groups``
(quotas, log levels and the newer config resources), and ``--bootstrap-controller``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rockafka.facade.config import ConfigError, read_properties
from rockafka.facade.config.broker import decode_properties
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_user_scram_credentials import (
    AlterUserScramCredentialsRequest,
    AlterUserScramCredentialsResponse,
    ScramCredentialDeletion,
)
from rockafka.facade.protocol.messages.describe_configs import (
    DescribeConfigsRequest,
    DescribeConfigsResource,
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
)
from rockafka.facade.protocol.messages.describe_user_scram_credentials import (
    DescribeUserScramCredentialsRequest,
    DescribeUserScramCredentialsResponse,
    UserName,
)
from rockafka.facade.protocol.messages.incremental_alter_configs import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
    IncrementalAlterConfigsResponse,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.facade.security import ScramMechanism
from rockafka.facade.security.scram import DEFAULT_ITERATIONS, MAX_ITERATIONS, MIN_ITERATIONS

from .cli_target import connect
from .kafka_tools_cli import ZOOKEEPER_FORMS
from .kafka_tools_cli import run as run_kafka_tool
from .topics_cli import OneLineParser
from .users_cli import scram_upsertion
from .wire_client import WireClient, WireClientError

ENTITY_TYPES = ("topics", "brokers", "users")
NOT_BUILT = ("clients", "ips", "broker-loggers", "client-metrics", "groups")
RESOURCE_TYPES = {"topics": 2, "brokers": 4}
DYNAMIC_SOURCES = {"topics": 1, "brokers": 2, "brokers-default": 3}
"""The DescribeConfigs source of a dynamic config: DYNAMIC_TOPIC_, DYNAMIC_BROKER_, DYNAMIC_DEFAULT_BROKER_CONFIG."""
SOURCE_NAMES = {
    0: "UNKNOWN",
    1: "DYNAMIC_TOPIC_CONFIG",
    2: "DYNAMIC_BROKER_CONFIG",
    3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG",
    5: "DEFAULT_CONFIG",
    6: "DYNAMIC_BROKER_LOGGER_CONFIG",
}
"""Kafka's ConfigEntry.ConfigSource names, as ConfigCommand prints synonyms."""
SET, DELETE = 0, 1
TIMEOUT_MS = 30000


class ConfigCommandError(Exception):
    """What kafka-configs.sh reports as a failed command: one line, exit status 1."""


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "configs", help="kafka-configs.sh: describe or alter topic, broker and user (SCRAM) configs"
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_mutually_exclusive_group(required=True)
    actions.add_argument("--describe", action="store_true")
    actions.add_argument("--alter", action="store_true")
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of a broker")
    parser.add_argument("--command-config", type=Path, help="client properties (TLS, SASL)")
    parser.add_argument("--all", action="store_true", help="--describe: every config, not only dynamic ones")
    parser.add_argument("--entity-type", help=f"one of {', '.join(ENTITY_TYPES)}")
    parser.add_argument("--entity-name", help="topic name, broker id or user name")
    parser.add_argument("--entity-default", action="store_true", help="the cluster-wide default of brokers")
    parser.add_argument("--topic", help="--entity-type topics --entity-name TOPIC")
    parser.add_argument("--broker", help="--entity-type brokers --entity-name ID")
    parser.add_argument("--broker-defaults", action="store_true", help="--entity-type brokers --entity-default")
    parser.add_argument("--user", help="--entity-type users --entity-name USER")
    parser.add_argument("--add-config", action="append", default=[], help="'k1=v1,k2=[v1,v2]'")
    parser.add_argument("--add-config-file", type=Path, help="a properties file of configs to add")
    parser.add_argument("--delete-config", action="append", default=[], help="'k1,k2'")


def entity(args: argparse.Namespace) -> tuple[str, str | None]:
    """(entity type, name) from ``--entity-type/--entity-name/--entity-default`` or their shorthands; the
    cluster-wide broker default is named ""; ValueError for a combination Kafka's tool refuses."""
    chosen = [args.entity_type] if args.entity_type else []
    chosen += [kind for kind, flag in (("topics", args.topic), ("brokers", args.broker), ("users", args.user)) if flag]
    chosen += ["brokers"] if args.broker_defaults else []
    if len(chosen) != 1:
        raise ValueError("give one entity type: --entity-type topics|brokers|users (or --topic, --broker, --user)")
    kind = chosen[0]
    if kind in NOT_BUILT:
        raise ValueError(f"entity type {kind} is not supported by Rockafka's kafka-configs (topics, brokers, users)")
    if kind not in ENTITY_TYPES:
        raise ValueError(f"Invalid entity type {kind}, the entity type must be one of {', '.join(ENTITY_TYPES)}")
    name = args.entity_name or args.topic or args.broker or args.user
    if args.entity_default or args.broker_defaults:
        if kind != "brokers" or name is not None:
            raise ValueError("--entity-default is for brokers only, without --entity-name")
        name = ""
    if kind == "brokers" and name and not name.isdigit():
        raise ValueError(f"The entity name for brokers must be a valid integer broker id, found: {name}")
    if args.alter and name is None:
        raise ValueError("--alter needs --entity-name (or --entity-default for brokers)")
    return kind, name


def split_configs(text: str) -> dict[str, str]:
    """``k1=v1,k2=[v1,v2]`` as {k1: v1, k2: "v1,v2"}: commas inside square brackets do not separate entries."""
    entries, current, depth = [], "", 0
    for char in text:
        if char == "," and depth == 0:
            entries.append(current)
            current = ""
            continue
        depth += {"[": 1, "]": -1}.get(char, 0)
        current += char
    entries.append(current)
    configs = {}
    for item in entries:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise ValueError('Invalid entity config: all configs to be added must be in the format "key=val".')
        configs[name.strip()] = value.strip().removeprefix("[").removesuffix("]").strip()
    return configs


def added_configs(args: argparse.Namespace) -> dict[str, str]:
    configs: dict[str, str] = {}
    for text in args.add_config:
        configs.update(split_configs(text))
    if args.add_config_file is not None:
        path = args.add_config_file
        try:
            configs.update(read_properties(decode_properties(path.read_bytes(), path), str(path)))
        except (OSError, ConfigError) as exc:
            raise ValueError(f"--add-config-file: {exc}") from None
    return configs


def deleted_configs(args: argparse.Namespace) -> list[str]:
    return [name.strip() for text in args.delete_config for name in text.split(",") if name.strip()]


def run(args: argparse.Namespace) -> int:
    try:
        kind, name = entity(args)
        added, deleted = added_configs(args), deleted_configs(args)
        if args.alter and not added and not deleted:
            raise ValueError("--alter needs --add-config, --add-config-file or --delete-config")
        if args.describe and (added or deleted):
            raise ValueError("--add-config and --delete-config go with --alter, not --describe")
    except ValueError as exc:
        print(f"rockafka configs: {exc}", file=sys.stderr)
        return 2
    try:
        with connect(args) as client:
            if args.describe:
                lines = describe(client, kind, name, args.all)
            else:
                assert name is not None  # entity() refuses --alter without a name
                lines = alter(client, kind, name, added, deleted)
    except WireClientError as exc:
        print(f"rockafka configs: {exc}", file=sys.stderr)
        return 1
    except (ConfigCommandError, ValueError) as exc:
        print(f"Error while executing config command : {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def describe(client: WireClient, kind: str, name: str | None, everything: bool) -> list[str]:
    if kind == "users":
        return _describe_users(client, [] if name is None else [name])
    if name is None:
        names = _existing(client, kind) + ([""] if kind == "brokers" else [])
    elif not everything and name != "" and name not in _existing(client, kind):
        return [f"The {kind[:-1]} '{name}' doesn't exist and doesn't have dynamic config."]
    else:
        names = [name]
    lines = []
    for each in names:
        if each == "":
            lines.append("Default configs for brokers in the cluster are:")
        else:
            lines.append(f"{'All' if everything else 'Dynamic'} configs for {kind[:-1]} {each} are:")
        lines += [_config_line(config) for config in _configs(client, kind, each, everything)]
    return lines


def _config_line(config: DescribeConfigsResourceResult) -> str:
    synonyms = ", ".join(f"{SOURCE_NAMES.get(s.source, s.source)}:{s.name}={_shown(s.value)}" for s in config.synonyms)
    sensitive = str(config.is_sensitive).lower()
    return f"  {config.name}={_shown(config.value)} sensitive={sensitive} synonyms={{{synonyms}}}"


def _shown(value: str | None) -> str:
    return "null" if value is None else value


def _existing(client: WireClient, kind: str) -> list[str]:
    """Topic names (internal ones too) or broker ids, as Kafka's tool lists them."""
    response = client.request(MetadataRequest(topics=None), 12, MetadataResponse)
    if kind == "brokers":
        return [str(broker.node_id) for broker in sorted(response.brokers, key=lambda b: b.node_id)]
    return sorted(topic.name for topic in response.topics if topic.name is not None)


def _configs(client: WireClient, kind: str, name: str, everything: bool) -> list[DescribeConfigsResourceResult]:
    """The entity's configs sorted by name: all of them, or those whose source makes them dynamic."""
    resource = DescribeConfigsResource(resource_type=RESOURCE_TYPES[kind], resource_name=name, configuration_keys=None)
    request = DescribeConfigsRequest(resources=[resource], include_synonyms=True)
    (result,) = client.request(request, 1, DescribeConfigsResponse).results
    if result.error_code:
        raise ConfigCommandError(result.error_message or ErrorCode.of(result.error_code).name)
    dynamic = DYNAMIC_SOURCES["brokers-default" if kind == "brokers" and name == "" else kind]
    return sorted((c for c in result.configs if everything or c.config_source == dynamic), key=lambda c: c.name)


def alter(client: WireClient, kind: str, name: str, added: dict[str, str], deleted: list[str]) -> list[str]:
    if kind == "users":
        _alter_users(client, name, added, deleted)
        return [f"Completed updating config for user {name}."]
    present = {config.name for config in _configs(client, kind, name, everything=False)}
    missing = [item for item in deleted if item not in present]
    if missing:
        raise ConfigCommandError(f"Invalid config(s): {','.join(missing)}")
    changes = [AlterableConfig(name=item, config_operation=DELETE, value="") for item in deleted]
    changes += [AlterableConfig(name=key, config_operation=SET, value=value) for key, value in added.items()]
    resource = AlterConfigsResource(resource_type=RESOURCE_TYPES[kind], resource_name=name, configs=changes)
    request = IncrementalAlterConfigsRequest(resources=[resource], validate_only=False)
    (result,) = client.request(request, 0, IncrementalAlterConfigsResponse).responses
    if result.error_code:
        raise ConfigCommandError(result.error_message or ErrorCode.of(result.error_code).name)
    if name == "":
        return ["Completed updating default config for brokers in the cluster."]
    return [f"Completed updating config for {kind[:-1]} {name}."]


def _describe_users(client: WireClient, names: list[str]) -> list[str]:
    request = DescribeUserScramCredentialsRequest(users=[UserName(name=n) for n in names] or None)
    response = client.request(request, 0, DescribeUserScramCredentialsResponse)
    if response.error_code:
        raise ConfigCommandError(response.error_message or ErrorCode.of(response.error_code).name)
    lines = []
    for result in response.results:
        if result.error_code:
            error = ErrorCode.of(result.error_code).name
            lines.append(f"Error retrieving SCRAM credential configs for user-principal '{result.user}': {error}")
            continue
        infos = ", ".join(
            f"{ScramMechanism.of_code(info.mechanism).mechanism_name}=iterations={info.iterations}"
            for info in result.credential_infos
        )
        lines.append(f"SCRAM credential configs for user-principal '{result.user}' are {infos}")
    return lines


def _scram_setting(mechanism: str, text: str) -> tuple[int, str]:
    """(iterations, password) of ``[iterations=N,]password=P``, as Kafka's tool reads a SCRAM config."""
    iterations, password = DEFAULT_ITERATIONS, None
    head, _, rest = text.partition(",")
    if head.startswith("iterations="):
        iterations = int(head.removeprefix("iterations=")) if head != "iterations=-1" else DEFAULT_ITERATIONS
        text = rest
    if text.startswith("password="):
        password = text.removeprefix("password=")
    if not password:
        raise ValueError(f"Invalid credential property {mechanism}={text}")
    if not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"Iterations {iterations} is not within {MIN_ITERATIONS}..{MAX_ITERATIONS} for {mechanism}")
    return iterations, password


def _alter_users(client: WireClient, user: str, added: dict[str, str], deleted: list[str]) -> None:
    known = {m.mechanism_name: m for m in ScramMechanism}
    unknown = [name for name in [*added, *deleted] if name not in known]
    if unknown:
        raise ValueError(f"Only SCRAM credential configs can be changed for users here. Unexpected: {unknown}")
    upsertions = []
    for mechanism, text in added.items():
        iterations, password = _scram_setting(mechanism, text)
        upsertions.append(scram_upsertion(user, known[mechanism], password, iterations))
    deletions = [ScramCredentialDeletion(name=user, mechanism=known[m].code) for m in deleted]
    request = AlterUserScramCredentialsRequest(upsertions=upsertions, deletions=deletions)
    for result in client.request(request, 0, AlterUserScramCredentialsResponse).results:
        if result.error_code:
            raise ConfigCommandError(result.error_message or ErrorCode.of(result.error_code).name)


def kafka_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-configs`` and ``kafka-configs.sh`` console scripts; the ZooKeeper form (``--zookeeper``, SCRAM
    users on the data directory, as aiokafka's test fixture calls it in a container) is ``kafka_tools_cli``'s."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if any(form in arguments for form in ZOOKEEPER_FORMS):
        return run_kafka_tool(argparse.Namespace(tool="kafka-configs.sh", arguments=arguments))
    prog = Path(sys.argv[0]).name if argv is None else "kafka-configs.sh"
    parser = OneLineParser(prog=prog, description="Describe or alter topic, broker and user configs.")
    add_arguments(parser)
    return run(parser.parse_args(arguments))
