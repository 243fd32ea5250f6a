"""``rockafka kafka-tool``: kafka-acls.sh and kafka-configs.sh forms (aiokafka's fixtures' among them) on real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.cli import main
from rockafka.configs_cli import kafka_main as kafka_configs_main
from rockafka.facade.security import CredentialStore


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data directory of the settings the image's tools read (``ROCKAFKA_LOG_DIRS``, as in the image)."""
    monkeypatch.setenv("ROCKAFKA_LOG_DIRS", str(tmp_path / "data"))
    return tmp_path / "data"


def test_kafka_acls_zookeeper_form_adds_lists_and_removes(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    zookeeper = ["--authorizer-properties", "zookeeper.connect=localhost:2181"]
    acl = ["--allow-principal", "User:alice", "--operation", "Read", "--topic", "orders"]
    assert main(["kafka-tool", "kafka-acls.sh", *zookeeper, "--add", *acl, "--force"]) == 0
    capsys.readouterr()
    assert main(["kafka-tool", "kafka-acls.sh", *zookeeper, "--list", "--topic", "orders"]) == 0
    assert "User:alice READ" in capsys.readouterr().out
    assert main(["kafka-tool", "kafka-acls.sh", *zookeeper, "--remove", *acl, "--force"]) == 0
    capsys.readouterr()
    assert main(["kafka-tool", "kafka-acls.sh", *zookeeper, "--list", "--topic", "orders"]) == 0
    assert "alice" not in capsys.readouterr().out


def test_kafka_configs_scram_users_are_added_per_mechanism_and_deleted(data_dir: Path) -> None:
    add = ["--zookeeper", "localhost:2181", "--alter", "--entity-type", "users", "--entity-name", "bob"]
    config = "SCRAM-SHA-256=[iterations=8192,password=secret],SCRAM-SHA-512=[password=secret]"
    assert main(["kafka-tool", "kafka-configs.sh", *add, "--add-config", config]) == 0
    credentials = CredentialStore(data_dir).users()
    assert {(m.mechanism_name, c.iterations) for m, c in credentials["bob"].items()} == {
        ("SCRAM-SHA-256", 8192),
        ("SCRAM-SHA-512", 4096),
    }
    assert main(["kafka-tool", "kafka-configs.sh", *add, "--delete-config", "SCRAM-SHA-512"]) == 0
    assert [m.mechanism_name for m in CredentialStore(data_dir).users()["bob"]] == ["SCRAM-SHA-256"]


@pytest.mark.parametrize(
    ("tool", "argv", "fragment"),
    [
        ("kafka-configs.sh", ["--entity-type", "topics", "--entity-name", "t", "--add-config", "x=1"], "users"),
        ("kafka-configs.sh", ["--entity-type", "users", "--entity-name", "bob"], "--add-config"),
        ("kafka-acls.sh", ["--add", "--list", "--topic", "t"], "exactly one"),
    ],
)
def test_forms_not_built_are_one_line_and_exit_2(
    data_dir: Path, capsys: pytest.CaptureFixture[str], tool: str, argv: list[str], fragment: str
) -> None:
    assert main(["kafka-tool", tool, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tool}: ") and fragment in err and err.count("\n") == 1


def test_the_kafka_configs_script_takes_the_zookeeper_form_too(data_dir: Path) -> None:
    add = ["--zookeeper", "localhost:2181", "--alter", "--entity-type", "users", "--entity-name", "carol"]
    assert kafka_configs_main([*add, "--add-config", "SCRAM-SHA-512=[password=carol-secret]"]) == 0
    assert [m.mechanism_name for m in CredentialStore(data_dir).users()["carol"]] == ["SCRAM-SHA-512"]
