"""``KAFKA_*`` environment variables as Kafka's container images read them (``rockafka serve --kafka-env``)."""

from __future__ import annotations

import pytest

from rockafka.facade.config import UnknownConfigError, load_broker_config
from rockafka.facade.config.kafka_env import kafka_env_settings, setting_name


@pytest.mark.parametrize(
    ("variable", "name"),
    [
        ("KAFKA_NUM_PARTITIONS", "num.partitions"),
        ("KAFKA_ADVERTISED_LISTENERS", "advertised.listeners"),
        ("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "listener.security.protocol.map"),
        ("KAFKA_A__B_C", "a_b.c"),
        ("KAFKA_A___B", "a-b"),
    ],
)
def test_the_images_rule_names_the_setting(variable: str, name: str) -> None:
    assert setting_name(variable) == name


def test_jvm_and_tool_variables_are_not_settings() -> None:
    environ = {"KAFKA_HEAP_OPTS": "-Xmx1G", "KAFKA_OPTS": "-Dx=y", "KAFKA_": "", "PATH": "/bin", "KAFKA_LOG_DIRS": "/d"}
    assert list(kafka_env_settings(environ)) == [("log.dirs", "/d", "KAFKA_LOG_DIRS")]


def test_kafka_variables_apply_only_when_asked_and_after_rockafka_ones() -> None:
    environ = {"KAFKA_NUM_PARTITIONS": "2", "ROCKAFKA_NUM_PARTITIONS": "5", "KAFKA_PROCESS_ROLES": "broker"}
    assert load_broker_config(None, [], environ).int("num.partitions") == 5
    config = load_broker_config(None, [], environ, kafka_env=True)
    assert config.int("num.partitions") == 2
    assert load_broker_config(None, ["num.partitions=7"], environ, kafka_env=True).int("num.partitions") == 7


def test_listeners_from_kafka_variables() -> None:
    environ = {
        "KAFKA_LISTENERS": "PLAINTEXT://0.0.0.0:19092",
        "KAFKA_ADVERTISED_LISTENERS": "PLAINTEXT://broker.example:19092",
    }
    config = load_broker_config(None, [], environ, kafka_env=True)
    assert [(item.host, item.port) for item in config.advertised_listeners] == [("broker.example", 19092)]


def test_an_unknown_kafka_variable_is_one_line_naming_the_variable() -> None:
    with pytest.raises(UnknownConfigError) as caught:
        load_broker_config(None, [], {"KAFKA_NUM_PARTITONS": "2"}, kafka_env=True)
    assert "KAFKA_NUM_PARTITONS" in str(caught.value) and "\n" not in str(caught.value)


def test_the_environment_of_apache_kafkas_single_node_compose_example_loads() -> None:
    environ = {
        "KAFKA_NODE_ID": "1",
        "KAFKA_PROCESS_ROLES": "broker,controller",
        "KAFKA_LISTENERS": "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093",
        "KAFKA_ADVERTISED_LISTENERS": "PLAINTEXT://localhost:9092",
        "KAFKA_CONTROLLER_LISTENER_NAMES": "CONTROLLER",
        "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        "KAFKA_CONTROLLER_QUORUM_VOTERS": "1@localhost:9093",
        "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR": "1",
        "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR": "1",
        "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR": "1",
        "KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS": "0",
        "KAFKA_NUM_PARTITIONS": "3",
    }
    config = load_broker_config(None, [], environ, kafka_env=True)
    assert config.node_id == 1 and config.int("num.partitions") == 3
    # the KRaft controller listener is neither opened nor required among the advertised ones
    assert [(item.name, item.port) for item in config.listeners] == [("PLAINTEXT", 9092)]
    assert [item.name for item in config.advertised_listeners] == ["PLAINTEXT"]
