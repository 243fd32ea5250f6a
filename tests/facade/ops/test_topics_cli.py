"""kafka-topics.sh as Rockafka installs it, run as a user runs it, against real brokers: Kafka's output (column
names and order), its errors, and the same commands against a second broker configured differently."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from rockafka.testing import Broker

from .helpers import free_port

SCRIPTS = Path(sys.executable).parent


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPTS / name), *args], capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    with Broker(data_dir=tmp_path_factory.mktemp("topics-cli"), settings={"num.partitions": "1"}) as running:
        yield running


def test_create_describe_alter_delete_print_what_kafka_prints(broker: Broker) -> None:
    server = ("--bootstrap-server", broker.bootstrap)
    created = tool("kafka-topics.sh", *server, "--create", "--topic", "cli-orders", "--partitions", "2",
                   "--config", "retention.ms=60000", "--config", "cleanup.policy=delete")  # fmt: skip
    assert (created.returncode, created.stdout, created.stderr) == (0, "Created topic cli-orders.\n", "")
    described = tool("kafka-topics", *server, "--describe", "--topic", "cli-orders")
    lines = described.stdout.splitlines()
    assert re.fullmatch(
        r"Topic: cli-orders\tTopicId: [A-Za-z0-9_-]{22}\tPartitionCount: 2\tReplicationFactor: 1\t"
        r"Configs: cleanup\.policy=delete,retention\.ms=60000",
        lines[0],
    ), lines
    assert lines[1:] == [
        "\tTopic: cli-orders\tPartition: 0\tLeader: 0\tReplicas: 0\tIsr: 0",
        "\tTopic: cli-orders\tPartition: 1\tLeader: 0\tReplicas: 0\tIsr: 0",
    ]
    altered = tool("kafka-topics.sh", *server, "--alter", "--topic", "cli-orders", "--partitions", "4")
    assert (altered.returncode, altered.stdout) == (0, "")
    assert "PartitionCount: 4" in tool("kafka-topics.sh", *server, "--describe", "--topic", "cli-orders").stdout
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    producer.send("cli-orders", b"to partition 3", partition=3).get(timeout=30)  # the new partition takes records
    producer.close()
    assert tool("kafka-topics.sh", *server, "--list").stdout.splitlines().count("cli-orders") == 1
    deleted = tool("kafka-topics.sh", *server, "--delete", "--topic", "cli-orders")
    assert (deleted.returncode, deleted.stdout) == (0, "")
    assert "cli-orders" not in tool("kafka-topics.sh", *server, "--list").stdout.splitlines()


def test_topic_is_a_regular_expression_except_for_create(broker: Broker) -> None:
    server = ("--bootstrap-server", broker.bootstrap)
    for name in ("rx-a", "rx-b", "other"):
        assert tool("kafka-topics.sh", *server, "--create", "--topic", name).returncode == 0
    listed = tool("kafka-topics.sh", *server, "--list", "--topic", "rx-.*")
    assert listed.stdout.splitlines() == ["rx-a", "rx-b"]
    assert tool("kafka-topics.sh", *server, "--delete", "--topic", "rx-.*").returncode == 0
    assert tool("kafka-topics.sh", *server, "--list").stdout.splitlines().count("other") == 1
    assert not {"rx-a", "rx-b"} & set(tool("kafka-topics.sh", *server, "--list").stdout.splitlines())


def test_failures_are_one_line_and_a_non_zero_exit(broker: Broker) -> None:
    server = ("--bootstrap-server", broker.bootstrap)
    missing = tool("kafka-topics.sh", *server, "--describe", "--topic", "no-such-topic")
    assert (missing.returncode, missing.stderr) == (
        1,
        "Error while executing topic command : Topic 'no-such-topic' does not exist as expected\n",
    )
    assert tool("kafka-topics.sh", *server, "--describe", "--topic", "no-such-topic", "--if-exists").returncode == 0
    assert tool("kafka-topics.sh", *server, "--create", "--topic", "twice").returncode == 0
    twice = tool("kafka-topics.sh", *server, "--create", "--topic", "twice")
    assert (
        twice.returncode == 1
        and twice.stderr == "Error while executing topic command : Topic 'twice' already exists.\n"
    )
    assert tool("kafka-topics.sh", *server, "--create", "--topic", "twice", "--if-not-exists").returncode == 0
    both = tool("kafka-topics.sh", *server, "--list", "--describe")
    assert both.returncode == 2 and len(both.stderr.splitlines()) == 1
    assert both.stderr.startswith("kafka-topics.sh: argument --describe: not allowed with argument --list")
    unreachable = tool("kafka-topics.sh", "--bootstrap-server", f"127.0.0.1:{free_port()}", "--list")
    assert unreachable.returncode == 1 and len(unreachable.stderr.splitlines()) == 1
    assert unreachable.stderr.startswith("rockafka topics: cannot connect to 127.0.0.1:")


def test_the_same_tool_against_a_broker_configured_otherwise(tmp_path: Path) -> None:
    """Nothing is assumed of the broker: its own default partition count and settings come back."""
    settings = {"num.partitions": "3", "log.retention.ms": "1000000", "auto.create.topics.enable": "false"}
    with Broker(data_dir=tmp_path / "other", settings=settings) as other:
        server = ("--bootstrap-server", other.bootstrap)
        assert tool("rockafka", "topics", *server, "--create", "--topic", "defaults").returncode == 0
        lines = tool("rockafka", "topics", *server, "--describe", "--topic", "defaults").stdout.splitlines()
        assert "PartitionCount: 3\tReplicationFactor: 1\tConfigs: " in lines[0] and lines[0].endswith("Configs: ")
        assert len(lines) == 4
        consumer = KafkaConsumer(bootstrap_servers=other.bootstrap)
        assert consumer.end_offsets([TopicPartition("defaults", 2)]) == {TopicPartition("defaults", 2): 0}
        consumer.close()
