"""Dynamic broker configs without a broker: which settings may change, the layering (this broker's over the
cluster-wide default over static), what a topic then describes, and ``dynamicBrokerConfigs.json`` on real files."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from rockafka.facade.config import ConfigSource, InvalidConfigError, UnknownConfigError, load_broker_config
from rockafka.facade.config.dynamic import CLUSTER_WIDE, StaticConfigError, check_dynamic
from rockafka.facade.config.topic import describe_topic_config
from rockafka.facade.dynamic_configs import DYNAMIC_CONFIGS_FILE, DynamicConfigs
from rockafka.store import CorruptStoreError

DYN_BROKER, DYN_DEFAULT = ConfigSource.DYNAMIC_BROKER_CONFIG, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG


def test_kafkas_dynamic_settings_parse_and_static_ones_are_named() -> None:
    assert check_dynamic({"message.max.bytes": "2000", "log.cleanup.policy": "compact,delete"}) == {
        "message.max.bytes": 2000,
        "log.cleanup.policy": ["compact", "delete"],
    }
    assert check_dynamic({"num.io.threads": "16"}) == {"num.io.threads": 16}  # Kafka's, kept, no effect here
    assert {"log.retention.ms", "log.roll.ms", "max.connections"} <= CLUSTER_WIDE
    assert not {"log.retention.hours", "log.retention.minutes", "num.partitions", "log.dirs"} & CLUSTER_WIDE
    with pytest.raises(StaticConfigError, match=r"^Cannot update these configs dynamically: log.dirs, num.partitions$"):
        check_dynamic({"num.partitions": "3", "message.max.bytes": "1", "log.dirs": "/x"})
    with pytest.raises(StaticConfigError, match="listener, TLS and SASL settings at start only"):
        check_dynamic({"listener.name.plaintext.ssl.keystore.location": "/k.pem"})
    with pytest.raises(InvalidConfigError, match=r"'message\.max\.bytes': is not a valid int"):
        check_dynamic({"message.max.bytes": "lots"})
    with pytest.raises(InvalidConfigError, match="must be at least 1"):
        check_dynamic({"num.io.threads": "0"})
    with pytest.raises(UnknownConfigError, match=r"no\.such\.setting"):
        check_dynamic({"no.such.setting": "1"})


def test_this_brokers_layer_wins_over_the_default_which_wins_over_static() -> None:
    static = load_broker_config(overrides=["message.max.bytes=5000", "log.retention.hours=2"])
    layered = static.with_dynamic({"message.max.bytes": 3000, "log.retention.ms": 60_000}, {"message.max.bytes": 2000})
    assert (layered.int("message.max.bytes"), layered.sources["message.max.bytes"]) == (2000, DYN_BROKER)
    assert layered.retention_ms == 60_000 and layered.sources["log.retention.ms"] == DYN_DEFAULT
    assert layered.static is static and layered.layer(ConfigSource.STATIC_BROKER_CONFIG)["message.max.bytes"] == 5000
    again = layered.with_dynamic({}, {})
    assert again.values == static.values and again.sources == static.sources
    retention = {entry.name: entry for entry in describe_topic_config({}, layered)}["retention.ms"]
    assert (retention.value, retention.source) == ("60000", DYN_DEFAULT)
    assert [(s.name, s.value, s.source) for s in retention.synonyms] == [
        ("log.retention.ms", "60000", DYN_DEFAULT),
        ("log.retention.hours", "2", ConfigSource.STATIC_BROKER_CONFIG),
        ("log.retention.ms", "604800000", ConfigSource.DEFAULT_CONFIG),
    ]


def test_the_file_keeps_both_layers_and_a_restart_reads_them(tmp_path: Path) -> None:
    static = load_broker_config(overrides=[f"log.dirs={tmp_path}"])
    dynamic = DynamicConfigs(tmp_path)
    assert dynamic.load(static) is static  # no file yet
    first = dynamic.replace(static, False, {"log.retention.ms": "60000"})
    second = dynamic.replace(first, True, {"message.max.bytes": "2000"})
    assert json.loads((tmp_path / DYNAMIC_CONFIGS_FILE).read_text()) == {
        "version": 1,
        "default": {"log.retention.ms": "60000"},
        "broker": {"message.max.bytes": "2000"},
    }
    reread = DynamicConfigs(tmp_path)
    restarted = reread.load(static)
    assert restarted.values == second.values and restarted.sources == second.sources
    assert reread.texts(per_broker=True) == {"message.max.bytes": "2000"}
    with pytest.raises(StaticConfigError):
        reread.replace(restarted, True, {"num.partitions": "3"})
    assert reread.texts(per_broker=True) == {"message.max.bytes": "2000"}  # a refused change writes nothing


def test_a_stale_entry_is_left_out_and_a_damaged_file_falls_back_to_its_backup(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    static = load_broker_config(overrides=[f"log.dirs={tmp_path}"])
    path = tmp_path / DYNAMIC_CONFIGS_FILE
    document = {"version": 1, "default": {"num.partitions": "4"}, "broker": {"message.max.bytes": "2000"}}
    path.write_text(json.dumps(document))
    with caplog.at_level(logging.WARNING):
        loaded = DynamicConfigs(tmp_path).load(static)
    assert loaded.int("num.partitions") == 1 and loaded.int("message.max.bytes") == 2000
    assert "num.partitions=4 left out (Cannot update these configs dynamically: num.partitions)" in caplog.text
    path.with_name(path.name + ".bak").write_text(json.dumps(document))
    path.write_text("{torn")
    assert DynamicConfigs(tmp_path).load(static).int("message.max.bytes") == 2000
    path.with_name(path.name + ".bak").write_text("[]")
    with pytest.raises(CorruptStoreError, match=DYNAMIC_CONFIGS_FILE):
        DynamicConfigs(tmp_path).load(static)


def test_configuration_md_lists_every_dynamic_setting() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text()
    section = doc[doc.index("## Dynamic broker configs") : doc.index("## What takes effect today")]
    assert sorted(name for name in CLUSTER_WIDE if f"`{name}`" not in section) == []
