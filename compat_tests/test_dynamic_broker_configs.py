"""Dynamic broker configs against a broker subprocess: real clients alter a running broker's settings (this broker's
own, and the cluster-wide default through kafka-configs --entity-default), DescribeConfigs reports where each value
comes from, a real producer sees the new limit at once, retention follows the new default, and a restart keeps it.

Each test starts its own broker: a dynamic change applies to every topic, so it must not leak into other modules.
"""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import kafka.errors as errors
import pytest
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource as KpConfigResource
from kafka.admin import ConfigResourceType, NewTopic

from .brokerproc import BrokerProcess

TIMEOUT_S = 30
#: ApiVersions v0 (key 18), correlation id 1, client id "t": a request every broker answers before anything else.
API_VERSIONS_V0 = struct.pack(">ihhih", 11, 18, 0, 1, 1) + b"t"
SCRIPTS = Path(sys.executable).parent


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path, {"log.retention.check.interval.ms": "500"}).start()
    try:
        yield process
    finally:
        process.stop()


def configs_tool(broker: BrokerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPTS / "kafka-configs.sh"), "--bootstrap-server", broker.bootstrap, "--entity-type", "brokers"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120, check=False)


def described(broker: BrokerProcess, kind: ConfigResourceType, resource: str, name: str) -> dict[str, object]:
    """One config of a broker or topic as kafka-python's DescribeConfigs reports it (with synonyms)."""
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        found = admin.describe_configs([KpConfigResource(kind, resource)], config_filter="all", include_synonyms=True)
    finally:
        admin.close()
    return dict(found[kind.name.lower()][resource][name])


def broker_entry(broker: BrokerProcess, name: str) -> dict[str, object]:
    return described(broker, ConfigResourceType.BROKER, "0", name)


def topic_entry(broker: BrokerProcess, topic: str, name: str) -> dict[str, object]:
    return described(broker, ConfigResourceType.TOPIC, topic, name)


def send(broker: BrokerProcess, topic: str, value: bytes, timestamp_ms: int | None = None) -> None:
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, max_request_size=1 << 20, retries=0, acks=1)
    try:
        producer.send(topic, value, timestamp_ms=timestamp_ms).get(timeout=TIMEOUT_S)
    finally:
        producer.close()


def incremental(broker: BrokerProcess, *entries: ConfigEntry, validate_only: bool = False) -> str | None:
    """One IncrementalAlterConfigs on broker 0 through confluent-kafka: None, or the error's name."""
    resource = ConfigResource(ResourceType.BROKER, "0", incremental_configs=list(entries))
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    try:
        admin.incremental_alter_configs([resource], validate_only=validate_only)[resource].result(timeout=TIMEOUT_S)
    except Exception as exc:  # confluent-kafka raises KafkaException carrying the broker's error
        return str(exc.args[0].name() if exc.args and hasattr(exc.args[0], "name") else exc)
    return None


def create_topic(broker: BrokerProcess, name: str, configs: dict[str, str] | None = None) -> None:
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        admin.create_topics([NewTopic(name, 1, 1, topic_configs=configs or {})])
    finally:
        admin.close()


def test_message_max_bytes_takes_effect_at_once_and_survives_a_restart(broker: BrokerProcess) -> None:
    create_topic(broker, "sized")
    send(broker, "sized", b"x" * 5000)
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        changed = admin.alter_configs(
            [KpConfigResource(ConfigResourceType.BROKER, "0", configs={"message.max.bytes": "2000"})]
        )
    finally:
        admin.close()
    assert changed == {"broker": {"0": "OK"}}
    with pytest.raises(errors.MessageSizeTooLargeError):
        send(broker, "sized", b"x" * 5000)
    send(broker, "sized", b"x" * 100)
    entry = broker_entry(broker, "message.max.bytes")
    assert (entry["value"], entry["config_source"], entry["read_only"]) == ("2000", "DYNAMIC_BROKER_CONFIG", False)
    assert entry["synonyms"] == [
        {"name": "message.max.bytes", "value": "2000", "source": "DYNAMIC_BROKER_CONFIG"},
        {"name": "message.max.bytes", "value": "1048588", "source": "DEFAULT_CONFIG"},
    ]
    assert topic_entry(broker, "sized", "max.message.bytes")["config_source"] == "DYNAMIC_BROKER_CONFIG"

    broker.restart()
    assert broker_entry(broker, "message.max.bytes")["value"] == "2000"
    with pytest.raises(errors.MessageSizeTooLargeError):
        send(broker, "sized", b"x" * 5000)
    assert (
        incremental(broker, ConfigEntry("message.max.bytes", None, incremental_operation=AlterConfigOpType.DELETE))
        is None
    )
    send(broker, "sized", b"x" * 5000)
    assert broker_entry(broker, "message.max.bytes")["config_source"] == "DEFAULT_CONFIG"


def test_cluster_wide_default_from_kafka_configs_and_the_broker_override_over_it(broker: BrokerProcess) -> None:
    set_default = configs_tool(broker, "--entity-default", "--alter", "--add-config", "message.max.bytes=3000")
    assert (set_default.returncode, set_default.stdout, set_default.stderr) == (
        0,
        "Completed updating default config for brokers in the cluster.\n",
        "",
    )
    set_own = configs_tool(broker, "--entity-name", "0", "--alter", "--add-config", "message.max.bytes=2500")
    assert (set_own.returncode, set_own.stdout) == (0, "Completed updating config for broker 0.\n"), set_own.stderr
    described = configs_tool(broker, "--describe")
    assert described.stdout.splitlines() == [
        "Dynamic configs for broker 0 are:",
        "  message.max.bytes=2500 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:message.max.bytes=2500, "
        "DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=3000, DEFAULT_CONFIG:message.max.bytes=1048588}",
        "Default configs for brokers in the cluster are:",
        "  message.max.bytes=3000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=3000}",
    ]
    create_topic(broker, "layered")
    with pytest.raises(errors.MessageSizeTooLargeError):
        send(broker, "layered", b"x" * 2800)
    removed = configs_tool(broker, "--entity-name", "0", "--alter", "--delete-config", "message.max.bytes")
    assert removed.returncode == 0, removed.stderr
    send(broker, "layered", b"x" * 2800)  # the cluster-wide default (3000) applies again
    assert broker_entry(broker, "message.max.bytes")["config_source"] == "DYNAMIC_DEFAULT_BROKER_CONFIG"


def test_topic_retention_follows_the_dynamic_default(broker: BrokerProcess) -> None:
    create_topic(broker, "aging")
    create_topic(broker, "kept", {"retention.ms": "-1"})
    hour_ago = int(time.time() * 1000) - 3_600_000
    for topic in ("aging", "kept"):
        for _ in range(3):
            send(broker, topic, b"old", timestamp_ms=hour_ago)
    default = configs_tool(broker, "--entity-default", "--alter", "--add-config", "log.retention.ms=60000")
    assert default.returncode == 0, default.stderr
    entry = topic_entry(broker, "aging", "retention.ms")
    assert (entry["value"], entry["config_source"]) == ("60000", "DYNAMIC_DEFAULT_BROKER_CONFIG")
    assert topic_entry(broker, "kept", "retention.ms")["config_source"] == "DYNAMIC_TOPIC_CONFIG"
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
    try:
        aging, kept = TopicPartition("aging", 0), TopicPartition("kept", 0)
        assert consumer.partitions_for_topic("aging") == {0} and consumer.partitions_for_topic("kept") == {0}
        deadline = time.monotonic() + TIMEOUT_S
        while consumer.beginning_offsets([aging])[aging] < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert consumer.beginning_offsets([aging, kept]) == {aging: 3, kept: 0}
    finally:
        consumer.close()


def test_static_settings_bad_values_and_validate_only(broker: BrokerProcess) -> None:
    set_ = AlterConfigOpType.SET
    assert incremental(broker, ConfigEntry("num.partitions", "3", incremental_operation=set_)) == "INVALID_REQUEST"
    assert incremental(broker, ConfigEntry("listeners", "PLAINTEXT://127.0.0.1:1", incremental_operation=set_)) == (
        "INVALID_REQUEST"
    )
    assert incremental(broker, ConfigEntry("message.max.bytes", "lots", incremental_operation=set_)) == "INVALID_CONFIG"
    assert incremental(broker, ConfigEntry("log.cleanup.policy", "shred", incremental_operation=set_)) == (
        "INVALID_CONFIG"
    )
    assert (
        incremental(broker, ConfigEntry("message.max.bytes", "10", incremental_operation=set_), validate_only=True)
        is None
    )
    assert broker_entry(broker, "message.max.bytes")["config_source"] == "DEFAULT_CONFIG"
    ignored = incremental(broker, ConfigEntry("num.io.threads", "16", incremental_operation=set_))
    assert ignored is None
    assert broker_entry(broker, "num.io.threads")["value"] == "16"
    refused = configs_tool(broker, "--entity-name", "0", "--alter", "--add-config", "log.retention.hours=1")
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "Cannot update these configs dynamically: log.retention.hours" in refused.stderr


def answered(sock: socket.socket) -> bool:
    """Whether the broker answers an ApiVersions on this connection (False: it closed the connection)."""
    try:
        sock.sendall(API_VERSIONS_V0)
        return len(sock.recv(4)) == 4
    except ConnectionError:
        return False


def test_a_connection_limit_applies_to_the_next_connection(broker: BrokerProcess) -> None:
    lowered = configs_tool(broker, "--entity-default", "--alter", "--add-config", "max.connections.per.ip=1")
    assert lowered.returncode == 0, lowered.stderr
    address = ("127.0.0.1", broker.port)
    with socket.create_connection(address, timeout=TIMEOUT_S) as first:
        assert answered(first)  # the one connection this address may now hold
        with socket.create_connection(address, timeout=TIMEOUT_S) as second:
            assert not answered(second)  # closed at once: over the new limit
    raised = configs_tool(broker, "--entity-default", "--alter", "--delete-config", "max.connections.per.ip")
    assert raised.returncode == 0, raised.stderr
    with (
        socket.create_connection(address, timeout=TIMEOUT_S) as first,
        socket.create_connection(address, timeout=TIMEOUT_S) as second,
    ):
        assert answered(first) and answered(second)
