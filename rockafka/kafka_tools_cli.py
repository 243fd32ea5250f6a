"""``rockafka kafka-tool NAME ARGS...``: Kafka's ``kafka-acls.sh`` and ``kafka-configs.sh`` forms on our commands.

The ``kafka-acls``/``kafka-configs`` console scripts (with and without ``.sh``; in the container image also under
``/opt/kafka/bin``) take these forms too, so scripts and test fixtures that ``docker exec`` Kafka's tools keep
working. What each form becomes:

- ``kafka-acls.sh --add|--remove|--list [options]`` is ``rockafka acls add|remove|list [options]`` (the
  options are kafka-acls.sh's already). ``--authorizer-properties zookeeper.connect=...`` (the ZooKeeper
  form: the broker's own ACL storage) edits the data directory of the settings ``rockafka serve --kafka-env``
  reads here; ``--bootstrap-server`` and ``--command-config`` go through the broker; ``--force`` is
  accepted (nothing asks for confirmation).
- ``kafka-configs.sh --bootstrap-server ...`` is ``rockafka configs`` (kafka-configs.sh through the broker,
  ``configs_cli``). Its ZooKeeper form, ``--zookeeper HOST:PORT --entity-type users --entity-name NAME --alter
  --add-config 'SCRAM-SHA-256=[iterations=8192,password=secret],...'``, is one ``rockafka users add`` per
  mechanism on the data directory, and ``--delete-config SCRAM-SHA-256`` is ``rockafka users delete``; other
  entity types in the ZooKeeper form are not built: one line says so, exit 2.

The ``kafka-acls`` and ``kafka-acls.sh`` console scripts (``acls_main``) are the ``kafka-acls.sh`` form
without the image's wrapper. The other Kafka tools have their own modules (``topics_cli``, ``groups_cli``,
``offsets_cli``, ``console_cli``, ``configs_cli``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rockafka.facade.config import ConfigError, load_broker_config

ZOOKEEPER_FORMS = ("--authorizer-properties", "--zookeeper")
ACL_ACTIONS = {"--add": "add", "--remove": "remove", "--list": "list"}
_SCRAM = re.compile(r"(SCRAM-SHA-(?:256|512))=\[([^\]]*)\]")


class ToolFormError(Exception):
    """A form of a Kafka tool that is not supported here: one line, exit 2."""


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "kafka-tool",
        help="run kafka-acls.sh or kafka-configs.sh arguments (the container image's /opt/kafka/bin)",
    )
    parser.add_argument("tool", choices=sorted(TOOLS))
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .cli import main  # the commands the forms become

    try:
        commands = TOOLS[args.tool](list(args.arguments))
    except (ToolFormError, ConfigError) as exc:
        print(f"{args.tool}: {exc}", file=sys.stderr)
        return 2
    for command in commands:
        if code := main(command):
            return code
    return 0


def acls_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-acls`` and ``kafka-acls.sh`` console scripts: kafka-acls.sh's options, run as ``kafka-tool`` does."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    return run(argparse.Namespace(tool="kafka-acls.sh", arguments=arguments))


def _data_dir() -> str:
    return str(load_broker_config(None, [], os.environ, kafka_env=True).data_dir)


def _target(argv: list[str]) -> list[str]:
    """Remove the ZooKeeper form (and its value) from ``argv``; the target options of Rockafka's commands."""
    for form in ZOOKEEPER_FORMS:
        while form in argv:
            at = argv.index(form)
            del argv[at : at + 2]
    if "--bootstrap-server" in argv:
        return []
    return ["--data-dir", _data_dir()]


def acls(argv: list[str]) -> list[list[str]]:
    actions = [ACL_ACTIONS[item] for item in argv if item in ACL_ACTIONS]
    if len(actions) != 1:
        raise ToolFormError("give exactly one of --add, --remove, --list")
    rest = [item for item in argv if item not in ACL_ACTIONS and item != "--force"]
    target = _target(rest)
    return [["acls", actions[0], *rest, *target]]


def _option(argv: list[str], name: str) -> str | None:
    if name not in argv:
        return None
    at = argv.index(name)
    if at + 1 >= len(argv):
        raise ToolFormError(f"{name} needs a value")
    return argv[at + 1]


def configs(argv: list[str]) -> list[list[str]]:
    target = _target(argv)
    if not target:  # --bootstrap-server: kafka-configs.sh itself (configs_cli)
        return [["configs", *argv]]
    entity_type, user = _option(argv, "--entity-type"), _option(argv, "--entity-name")
    if entity_type != "users" or user is None:
        raise ToolFormError("only SCRAM credentials of users (--entity-type users --entity-name NAME) are built")
    added, deleted = _option(argv, "--add-config"), _option(argv, "--delete-config")
    commands: list[list[str]] = []
    for mechanism, settings in _SCRAM.findall(added or ""):
        options = dict(item.partition("=")[::2] for item in settings.split(",") if item)
        if "password" not in options:
            raise ToolFormError(f"{mechanism} needs password=...")
        iterations = ["--iterations", options["iterations"]] if "iterations" in options else []
        commands.append(
            ["users", "add", user, "--mechanism", mechanism, *iterations, "--password", options["password"], *target]
        )
    for mechanism in (deleted or "").split(","):
        if mechanism.strip():
            commands.append(["users", "delete", user, "--mechanism", mechanism.strip(), *target])
    if not commands:
        raise ToolFormError("--add-config 'SCRAM-SHA-256=[password=...]' or --delete-config SCRAM-SHA-256 is needed")
    return commands


TOOLS: dict[str, Callable[[list[str]], list[list[str]]]] = {"kafka-acls.sh": acls, "kafka-configs.sh": configs}
