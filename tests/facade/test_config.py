"""Broker and topic settings: sources and precedence, Kafka's formats, and clear errors."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from rockafka.facade.config import (
    ConfigError,
    ConfigSource,
    InvalidConfigError,
    UnknownConfigError,
    describe_topic_config,
    load_broker_config,
    read_properties,
    validate_topic_configs,
)


def test_defaults_listen_on_loopback_and_advertise_it() -> None:
    config = load_broker_config()
    [listener] = config.listeners
    assert (listener.name, listener.host, listener.port) == ("PLAINTEXT", "127.0.0.1", 9092)
    assert config.advertised_listeners[0].host == "127.0.0.1"
    assert config.data_dir == Path("./rockafka-data")
    assert config.node_id == 0
    assert config.sources["num.partitions"] == ConfigSource.DEFAULT_CONFIG


def test_precedence_file_then_environment_then_override(tmp_path: Path) -> None:
    props = tmp_path / "server.properties"
    props.write_text("# a comment\nnum.partitions=3\nlog.dirs : /data/a,/data/b\nmessage.max.bytes 2000\n")
    config = load_broker_config(props, ["message.max.bytes=3000"], {"ROCKAFKA_NUM_PARTITIONS": "4", "HOME": "/x"})
    assert config.int("num.partitions") == 4
    assert config.int("message.max.bytes") == 3000
    assert config.data_dir == Path("/data/a")
    assert config.sources["num.partitions"] == ConfigSource.STATIC_BROKER_CONFIG


def test_wildcard_listener_is_advertised_as_loopback_and_ports_parse() -> None:
    config = load_broker_config(None, ["listeners=PLAINTEXT://0.0.0.0:19092,SSL://[::1]:19093"])
    assert [(item.name, item.host, item.port) for item in config.listeners] == [
        ("PLAINTEXT", "0.0.0.0", 19092),
        ("SSL", "::1", 19093),
    ]
    assert [item.host for item in config.advertised_listeners] == ["127.0.0.1", "::1"]
    assert config.listeners[1].security_protocol == "SSL"


def test_kafka_settings_without_meaning_here_are_accepted() -> None:
    config = load_broker_config(None, ["num.network.threads=8", "process.roles=broker,controller"])
    assert "num.network.threads" not in config.values


def test_kafka_settings_rockafka_does_not_implement_load_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="rockafka.facade.config.broker")
    overrides = ["auto.leader.rebalance.enable=true", "metric.reporters=", "inter.broker.protocol.version=3.9"]
    config = load_broker_config(None, overrides)
    assert not {"auto.leader.rebalance.enable", "metric.reporters"} & config.values.keys()
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 3 and all("Kafka broker setting Rockafka does not implement; ignored" in w for w in warned)


@pytest.mark.parametrize(
    ("override", "error", "fragment"),
    [
        (
            "num.partitons=2",
            UnknownConfigError,
            "unknown setting 'num.partitons' (from --override); did you mean 'num.partitions'?",
        ),
        ("bootstrap.servers=x:9092", UnknownConfigError, "unknown setting 'bootstrap.servers' (from --override)"),
        ("num.partitions=zero", InvalidConfigError, "is not a valid int"),
        ("num.partitions=0", InvalidConfigError, "must be at least 1"),
        ("auto.create.topics.enable=yes", InvalidConfigError, "is not a valid boolean"),
        ("listeners=PLAINTEXT:9092", InvalidConfigError, "expects NAME://host:port"),
        ("listeners=FOO://127.0.0.1:9092", InvalidConfigError, "not in listener.security.protocol.map"),
        ("listeners=PLAINTEXT://127.0.0.1:99999", InvalidConfigError, "at most 65535"),
        ("rockafka.flush.mode=sometimes", InvalidConfigError, "must be one of async, sync"),
        (
            "replica.selector.class=org.apache.kafka.common.replica.SomeSelector",
            InvalidConfigError,
            "must be org.apache.kafka.common.replica.RackAwareReplicaSelector",
        ),
        ("no-equals-sign", ConfigError, "--override expects KEY=VALUE"),
    ],
)
def test_bad_settings_give_one_readable_line(override: str, error: type[ConfigError], fragment: str) -> None:
    with pytest.raises(error) as raised:
        load_broker_config(None, [override])
    message = str(raised.value)
    assert fragment in message
    assert "\n" not in message


def test_missing_properties_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read properties file"):
        load_broker_config(tmp_path / "absent.properties")


def test_properties_continuation_and_escapes() -> None:
    text = "a=1\nlisteners=PLAINTEXT://127.0.0.1:1,\\\n    SSL://127.0.0.1:2\n! bang comment\nkey\\=with=v\n"
    assert read_properties(text) == [
        ("a", "1"),
        ("listeners", "PLAINTEXT://127.0.0.1:1,SSL://127.0.0.1:2"),
        ("key=with", "v"),
    ]


def test_topic_configs_validate_and_normalise() -> None:
    assert validate_topic_configs({"retention.ms": " 1000 ", "cleanup.policy": "delete"}) == {
        "retention.ms": "1000",
        "cleanup.policy": "delete",
    }
    with pytest.raises(UnknownConfigError):
        validate_topic_configs({"retention.msec": "1"})
    with pytest.raises(InvalidConfigError):
        validate_topic_configs({"message.timestamp.type": "WallClock"})


def test_describe_topic_config_reports_sources_and_synonyms() -> None:
    broker = load_broker_config(None, ["log.retention.hours=1", "message.max.bytes=5000"])
    entries = {entry.name: entry for entry in describe_topic_config({"cleanup.policy": "compact"}, broker)}
    assert entries["cleanup.policy"].value == "compact"
    assert entries["cleanup.policy"].source == ConfigSource.TOPIC_CONFIG
    assert entries["max.message.bytes"].value == "5000"
    assert entries["max.message.bytes"].source == ConfigSource.STATIC_BROKER_CONFIG
    retention = entries["retention.ms"]
    assert (retention.value, retention.source) == ("3600000", ConfigSource.STATIC_BROKER_CONFIG)
    assert [s.name for s in retention.synonyms] == ["log.retention.hours", "log.retention.ms"]
    assert retention.synonyms[0].value == "1"  # the broker setting as set, as Kafka shows it; the entry in ms
    assert entries["segment.bytes"].is_default


def test_every_setting_is_documented() -> None:
    from rockafka.facade.config import BROKER_CONFIGS, IGNORED_BROKER_SETTINGS, TOPIC_CONFIGS

    doc = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text()
    missing = [name for name in [*BROKER_CONFIGS, *TOPIC_CONFIGS, *IGNORED_BROKER_SETTINGS] if f"`{name}`" not in doc]
    assert missing == []


def test_properties_escapes_as_java_reads_them() -> None:
    text = "a=tab\\there\nb=caf\\u00e9\nc=C\\:\\\\data\nd=last\\\n"
    assert read_properties(text) == [("a", "tab\there"), ("b", "café"), ("c", "C:\\data"), ("d", "last")]


def test_malformed_unicode_escape_is_a_config_error_naming_the_line(tmp_path: Path) -> None:
    properties = tmp_path / "server.properties"
    properties.write_text("num.partitions=3\nlog.dirs=/data/\\u12\n")
    with pytest.raises(ConfigError, match=r"server\.properties: line 2: malformed \\uxxxx escape"):
        load_broker_config(properties)


@pytest.mark.parametrize(("threads", "expected"), [("0", 1), ("1", 1), ("3", 3)])
def test_log_cleaner_threads_reaches_the_store(threads: str, expected: int) -> None:
    from rockafka.facade.broker import store_config

    config = load_broker_config(overrides=[f"log.cleaner.threads={threads}"])
    assert store_config(config).cleaner_threads == expected


def test_broker_rack_and_the_rack_aware_selector_load() -> None:
    selector = "org.apache.kafka.common.replica.RackAwareReplicaSelector"
    config = load_broker_config(None, ["broker.rack=us-east-1a", f"replica.selector.class={selector}"])
    assert (config.get("broker.rack"), config.get("replica.selector.class")) == ("us-east-1a", selector)
    unset = load_broker_config(None, [])
    assert (unset.get("broker.rack"), unset.get("replica.selector.class")) == (None, None)
