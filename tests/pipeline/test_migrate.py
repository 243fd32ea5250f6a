"""``rockafka pipeline migrate`` between two live brokers: a copy that verifies equal, and an altered record
reported with its partition and offset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rockafka.cli import main
from rockafka.testing import Broker

from .kafkadata import consume_all, create_topic, produce

pytestmark = pytest.mark.spark


def test_a_migration_between_two_brokers_verifies_equal(
    spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    create_topic(broker.bootstrap, "orders", 3)
    produce(broker.bootstrap, "orders", 300, partitions=3)
    report = tmp_path / "report.json"

    code = main([
        "pipeline", "migrate", "--from", broker.bootstrap, "--to", target_broker.bootstrap, "--topics", "orders",
        "--report", str(report), "--max-offsets-per-trigger", "150", "--checkpoint", str(tmp_path / "checkpoint"),
    ])  # fmt: skip

    assert code == 0
    document = json.loads(report.read_text())
    assert document["equal"] is True
    assert document["copied"]["rows"] == 300
    for check in document["partitions"]:
        assert check["source"] == check["target"]
        assert (check["source"]["count"], check["source"]["min_offset"], check["source"]["max_offset"]) == (100, 0, 99)
    assert consume_all(target_broker.bootstrap, "orders") == consume_all(broker.bootstrap, "orders")
    output = capsys.readouterr()
    assert "every partition is equal" in output.out
    assert "copy: batch" in output.err


def test_an_altered_record_is_reported_with_its_partition_and_offset(
    spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    create_topic(broker.bootstrap, "audit", 2)
    create_topic(target_broker.bootstrap, "audit", 2)
    produce(broker.bootstrap, "audit", 40, partitions=2)
    produce(target_broker.bootstrap, "audit", 40, partitions=2, alter=21)  # record 21: partition 1, offset 10
    report = tmp_path / "report.json"

    code = main([
        "pipeline", "migrate", "--verify-only", "--from", broker.bootstrap, "--to", target_broker.bootstrap,
        "--topics", "audit", "--report", str(report),
    ])  # fmt: skip

    assert code == 1
    checks = {c["partition"]: c for c in json.loads(report.read_text())["partitions"]}
    assert checks[0]["equal"] is True
    assert checks[1]["equal"] is False
    assert checks[1]["first_difference"] == [11, 10, 10]
    assert checks[1]["source"]["count"] == checks[1]["target"]["count"] == 20
    assert "audit-1" in capsys.readouterr().out
