"""``rockafka pipeline migrate`` moves an application: topic configs, and a consumer group that resumes on the
target at exactly the next record it had not consumed on the source (offsets preserved where the copy keeps
them, translated through the offset map where the source was truncated)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from rockafka.cli import main
from rockafka.testing import Broker

from .appdata import committed, consume, create_configured_topic, delete_before, topic_overrides
from .kafkadata import consume_all, create_topic, produce

pytestmark = pytest.mark.spark


def _by_partition(records: list[tuple[int, int, bytes]]) -> dict[int, list[bytes]]:
    values: dict[int, list[bytes]] = defaultdict(list)
    for partition, _, value in records:
        values[partition].append(value)
    return dict(values)


def test_a_group_resumes_on_the_target_at_the_next_record_and_configs_move(
    spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    create_configured_topic(broker.bootstrap, "app", 2)
    create_topic(target_broker.bootstrap, "app", 2)  # there already, empty, without the configs: they are set
    produce(broker.bootstrap, "app", 80, partitions=2)
    delete_before(broker.bootstrap, "app", 0, 10)  # partition 0 starts at 10: the target's copy starts at 0
    consume(broker.bootstrap, "app", "app-group", 30)
    positions = committed(broker.bootstrap, "app", "app-group", 2)
    left = [(p, o, v) for p, o, _, v, *_ in consume_all(broker.bootstrap, "app") if o >= (positions[p] or 0)]
    report = tmp_path / "report.json"

    code = main(["pipeline", "migrate", "--from", broker.bootstrap, "--to", target_broker.bootstrap,
                 "--topics", "app", "--report", str(report)])  # fmt: skip

    assert code == 0, capsys.readouterr().err
    document = json.loads(report.read_text())
    moved = document["groups"]["app-group"]
    assert moved["app-0"] == {"source": positions[0], "target": positions[0] - 10, "how": "translated"}
    assert moved["app-1"] == {"source": positions[1], "target": positions[1], "how": "preserved"}
    assert topic_overrides(target_broker.bootstrap, "app") == topic_overrides(broker.bootstrap, "app")
    assert topic_overrides(target_broker.bootstrap, "app")["retention.ms"] == "86400000"
    assert not (tmp_path / "report.json.checkpoint").exists()  # removed after the verified copy
    resumed = consume(target_broker.bootstrap, "app", "app-group", 0)
    assert _by_partition(resumed) == _by_partition(left)
    assert len(resumed) == 70 - 30


def test_dry_run_prints_the_plan_and_moves_nothing(
    broker: Broker, target_broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    create_configured_topic(broker.bootstrap, "planned", 3)
    produce(broker.bootstrap, "planned", 12, partitions=3)
    consume(broker.bootstrap, "planned", "planned-group", 5)

    code = main(["pipeline", "migrate", "--dry-run", "--from", broker.bootstrap, "--to", target_broker.bootstrap,
                 "--topics", "planned", "--report", str(tmp_path / "report.json")])  # fmt: skip

    out, err = capsys.readouterr()
    assert code == 0, err
    assert "topic planned: 3 partitions, cleanup.policy=delete, max.message.bytes=200000, retention.ms=86400000" in out
    assert "create on the target" in out
    assert "group planned-group: translate and commit" in out
    assert "SCRAM users: never copied" in out
    assert not (tmp_path / "report.json").exists()
    assert topic_overrides_missing(target_broker.bootstrap, "planned")


def topic_overrides_missing(bootstrap: str, topic: str) -> bool:
    from kafka import KafkaConsumer

    consumer = KafkaConsumer(bootstrap_servers=bootstrap)
    try:
        return topic not in consumer.topics()
    finally:
        consumer.close()


def test_a_second_copy_into_topics_that_hold_records_is_refused(
    broker: Broker, target_broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    create_configured_topic(broker.bootstrap, "twice", 1)
    create_configured_topic(target_broker.bootstrap, "twice", 1)
    produce(broker.bootstrap, "twice", 3, partitions=1)
    produce(target_broker.bootstrap, "twice", 3, partitions=1)

    code = main(["pipeline", "migrate", "--from", broker.bootstrap, "--to", target_broker.bootstrap,
                 "--topics", "twice", "--report", str(tmp_path / "report.json")])  # fmt: skip

    assert code == 2
    assert capsys.readouterr().err.startswith("rockafka pipeline: the target already holds records in twice-0")
