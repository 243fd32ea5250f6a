"""``rockafka``'s command table: it names every command each subcommand module registers, and a command imports
only its own module (``rockafka topics`` does not load the broker)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from rockafka.cli import COMMANDS, build_parser, subcommand_modules


def test_the_table_names_exactly_the_commands_each_module_registers() -> None:
    registered: dict[str, str] = {}
    for module in subcommand_modules():
        subparsers = argparse.ArgumentParser().add_subparsers()
        module.add_parser(subparsers)
        registered.update(dict.fromkeys(subparsers.choices, module.__name__.rpartition(".")[2]))
    assert registered == COMMANDS


def test_a_command_builds_its_own_parser_only_and_help_builds_all() -> None:
    assert [m.__name__ for m in subcommand_modules(["produce", "--topic", "t"])] == ["rockafka.console_cli"]
    assert len(subcommand_modules(["--help"])) == len(set(COMMANDS.values()))
    assert len(subcommand_modules(["no-such-command"])) == len(set(COMMANDS.values()))
    parsed = build_parser(["topics", "list"]).parse_args(["topics", "--bootstrap-server", "h:1", "--list"])
    assert parsed.command == "topics"


def test_a_client_command_does_not_import_the_broker() -> None:
    probe = (
        "import sys; from rockafka.cli import build_parser; build_parser(['topics']); "
        "print('rockafka.facade.app' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "False"
