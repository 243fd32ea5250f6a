"""The exactlyOnce sink example of docs/pipeline.md runs as written (only the broker address and the checkpoint
directory are this test's), into a target topic that does not exist yet."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rockafka.testing import Broker

from .kafkadata import consume_all, create_topic, produce

pytestmark = pytest.mark.spark

DOC = Path(__file__).resolve().parents[2] / "docs" / "pipeline.md"


def _example(heading: str) -> str:
    section = DOC.read_text().split(heading, 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, f"no python example after {heading!r}"
    return found.group(1)


def test_the_exactly_once_example_runs_as_written(
    spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path
) -> None:
    create_topic(broker.bootstrap, "eo-orders", 3)
    produce(broker.bootstrap, "eo-orders", 30, partitions=3)
    orders = (
        spark.readStream.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", "eo-orders").option("startingOffsets", "earliest").option("includeHeaders", "true").load()
    )  # fmt: skip
    code = _example("### Exactly-once sink").replace("127.0.0.1:9092", target_broker.bootstrap)
    code = code.replace("/tmp/orders-copy-checkpoint", str(tmp_path / "checkpoint"))

    exec(code, {"orders": orders})  # the documented example itself

    copied = consume_all(target_broker.bootstrap, "orders-copy", "read_committed")
    source = consume_all(broker.bootstrap, "eo-orders")
    assert [(r[0], r[2], r[3]) for r in copied] == [(r[0], r[2], r[3]) for r in source]  # partition, key, value
