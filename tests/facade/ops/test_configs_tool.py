"""kafka-configs.sh as Rockafka installs it, run as a user runs it against a real broker: Kafka's output, its
errors, and what a real client's DescribeConfigs (kafka-python) and DescribeUserScramCredentials
(confluent-kafka) see afterwards."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient
from kafka import KafkaAdminClient
from kafka.admin import ConfigResource, ConfigResourceType, NewTopic

from rockafka.testing import Broker

from .helpers import free_port

SCRIPTS = Path(sys.executable).parent


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPTS / name), *args], capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    settings = {"num.partitions": "1", "log.retention.hours": "100"}
    with Broker(data_dir=tmp_path_factory.mktemp("configs-cli"), settings=settings) as running:
        admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
        admin.create_topics([NewTopic("cfg-orders", 1, 1)])
        admin.close()
        yield running


def topic_overrides(bootstrap: str, topic: str) -> dict[str, str]:
    """The topic's own settings (source DYNAMIC_TOPIC_CONFIG) as kafka-python's DescribeConfigs reports them."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        found = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)], include_synonyms=True)
    finally:
        admin.close()
    configs = found["topic"][topic]
    return {name: c["value"] for name, c in configs.items() if c["config_source"] == "DYNAMIC_TOPIC_CONFIG"}


def test_topic_configs_are_added_described_and_deleted(broker: Broker) -> None:
    entity = ("--bootstrap-server", broker.bootstrap, "--entity-type", "topics", "--entity-name", "cfg-orders")
    added = tool("kafka-configs.sh", *entity, "--alter", "--add-config",
                 "retention.ms=60000,cleanup.policy=[compact,delete],max.message.bytes=2048")  # fmt: skip
    assert (added.returncode, added.stdout, added.stderr) == (
        0,
        "Completed updating config for topic cfg-orders.\n",
        "",
    )
    assert topic_overrides(broker.bootstrap, "cfg-orders") == {
        "retention.ms": "60000",
        "cleanup.policy": "compact,delete",
        "max.message.bytes": "2048",
    }
    described = tool("kafka-configs", *entity, "--describe")
    assert described.returncode == 0, described.stderr
    lines = described.stdout.splitlines()
    assert lines[0] == "Dynamic configs for topic cfg-orders are:"
    assert [line.split("=", 1)[0] for line in lines[1:]] == [
        "  cleanup.policy",
        "  max.message.bytes",
        "  retention.ms",
    ]
    assert lines[3].startswith(
        "  retention.ms=60000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=60000, "
    )
    assert "STATIC_BROKER_CONFIG:log.retention.hours=100" in lines[3]
    deleted = tool("kafka-configs.sh", *entity, "--alter", "--delete-config", "retention.ms,max.message.bytes")
    assert (deleted.returncode, deleted.stdout) == (0, "Completed updating config for topic cfg-orders.\n")
    assert topic_overrides(broker.bootstrap, "cfg-orders") == {"cleanup.policy": "compact,delete"}
    everything = tool("kafka-configs.sh", *entity, "--describe", "--all").stdout.splitlines()
    assert everything[0] == "All configs for topic cfg-orders are:"
    assert any(line.startswith("  retention.ms=360000000 sensitive=false synonyms={") for line in everything[1:])


def test_deleting_a_config_the_topic_does_not_set_fails_before_altering(broker: Broker) -> None:
    entity = ("--bootstrap-server", broker.bootstrap, "--entity-type", "topics", "--entity-name", "cfg-orders")
    failed = tool("kafka-configs.sh", *entity, "--alter", "--add-config", "retention.bytes=1000",
                  "--delete-config", "segment.ms")  # fmt: skip
    assert (failed.returncode, failed.stderr) == (
        1,
        "Error while executing config command : Invalid config(s): segment.ms\n",
    )
    assert "retention.bytes" not in topic_overrides(broker.bootstrap, "cfg-orders")
    invalid = tool("kafka-configs.sh", *entity, "--alter", "--add-config", "retention.ms=soon")
    assert invalid.returncode == 1 and invalid.stderr.startswith("Error while executing config command : ")
    assert invalid.stderr.count("\n") == 1


def test_brokers_describe_static_settings_and_refuse_static_changes(broker: Broker) -> None:
    server = ("--bootstrap-server", broker.bootstrap)
    dynamic = tool("kafka-configs.sh", *server, "--entity-type", "brokers", "--describe")
    assert dynamic.stdout.splitlines() == [
        "Dynamic configs for broker 0 are:",
        "Default configs for brokers in the cluster are:",
    ]
    everything = tool("kafka-configs", *server, "--broker", "0", "--describe", "--all").stdout.splitlines()
    assert everything[0] == "All configs for broker 0 are:"
    assert (
        "  log.retention.hours=100 sensitive=false "
        "synonyms={STATIC_BROKER_CONFIG:log.retention.hours=100, DEFAULT_CONFIG:log.retention.hours=168}"
    ) in everything
    refused = tool("kafka-configs.sh", *server, "--entity-type", "brokers", "--entity-default",
                   "--alter", "--add-config", "log.retention.hours=1")  # fmt: skip
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "Cannot update these configs dynamically: log.retention.hours" in refused.stderr


def test_scram_users_are_added_described_and_deleted(broker: Broker) -> None:
    server = ("--bootstrap-server", broker.bootstrap)
    user = ("--entity-type", "users", "--entity-name", "alice")
    scram = "SCRAM-SHA-256=[iterations=8192,password=alice-secret],SCRAM-SHA-512=[password=alice-secret]"
    added = tool("kafka-configs.sh", *server, *user, "--alter", "--add-config", scram)
    assert (added.returncode, added.stdout) == (0, "Completed updating config for user alice.\n"), added.stderr
    described = tool("kafka-configs", *server, *user, "--describe")
    assert described.stdout == (
        "SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-256=iterations=8192, "
        "SCRAM-SHA-512=iterations=4096\n"
    )
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    seen = admin.describe_user_scram_credentials(["alice"])["alice"].result(timeout=30)
    assert sorted((info.mechanism.name, info.iterations) for info in seen.scram_credential_infos) == [
        ("SCRAM_SHA_256", 8192),
        ("SCRAM_SHA_512", 4096),
    ]
    removed = tool("kafka-configs.sh", *server, *user, "--alter", "--delete-config", "SCRAM-SHA-512")
    assert removed.returncode == 0, removed.stderr
    assert "SCRAM-SHA-512" not in tool("kafka-configs.sh", *server, *user, "--describe").stdout


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--entity-type", "topics", "--entity-name", "t", "--describe", "--alter"], "not allowed with"),
        (["--entity-type", "clients", "--entity-name", "c", "--describe"], "not supported"),
        (["--entity-type", "brokers", "--entity-name", "zero", "--describe"], "valid integer broker id"),
        (["--entity-type", "topics", "--entity-name", "t", "--alter"], "--add-config"),
        (["--entity-type", "topics", "--entity-name", "t", "--alter", "--add-config", "novalue"], "key=val"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(broker: Broker, argv: list[str], fragment: str) -> None:
    bad = tool("kafka-configs.sh", "--bootstrap-server", broker.bootstrap, *argv)
    assert bad.returncode == 2 and fragment in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr


def test_a_missing_topic_and_an_unreachable_broker(broker: Broker) -> None:
    missing = tool("kafka-configs.sh", "--bootstrap-server", broker.bootstrap, "--topic", "no-such", "--describe")
    assert missing.stdout == "The topic 'no-such' doesn't exist and doesn't have dynamic config.\n"
    gone = tool("kafka-configs.sh", "--bootstrap-server", f"127.0.0.1:{free_port()}", "--topic", "t", "--describe")
    assert gone.returncode == 1 and gone.stderr.count("\n") == 1
