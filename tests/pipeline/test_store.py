"""The ``rockafka-store`` format over a live broker's data directory: the same bytes a Kafka client reads,
one task per ConsumeQueue file range, CRC damage found, and incremental exactly-once export."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rockafka.cli import main
from rockafka.store.reader import StoreReader
from rockafka.testing import Broker

from .kafkadata import BROKER_SETTINGS, consume_all, create_topic, produce, spark_rows

pytestmark = pytest.mark.spark
UNITS_PER_FILE = 16


@pytest.fixture(scope="module")
def small_queue_broker() -> Iterator[Broker]:
    """A broker whose ConsumeQueue files hold 16 units, so a few dozen batches span several files."""
    with Broker(settings={**BROKER_SETTINGS, "rockafka.consumequeue.units.per.file": str(UNITS_PER_FILE)}) as running:
        yield running


def _store(spark: Any, data_dir: Path, topic: str, **options: str) -> Any:
    reader = spark.read.format("rockafka-store").option("subscribe", topic).option("includeHeaders", "true")
    return reader.options(**options).load(str(data_dir))


def _queue_files(data_dir: Path, topic: str) -> int:
    with StoreReader(data_dir) as reader:
        topic_id = next(t.topic_id for t in reader.topics() if t.name == topic)
    return len([p for p in (data_dir / "consumequeue" / topic_id.hex).glob("*/*") if p.name.isdigit()])


def test_store_rows_equal_what_a_kafka_client_reads_byte_for_byte(spark: Any, small_queue_broker: Broker) -> None:
    broker = small_queue_broker
    create_topic(broker.bootstrap, "store-equal", 2)
    produce(broker.bootstrap, "store-equal", 80, partitions=2, batch_size=64)  # about one record a batch
    produce(broker.bootstrap, "store-equal", 60, partitions=2, first=80, compression_type="gzip")
    produce(broker.bootstrap, "store-equal", 10, partitions=2, first=140, transactional_id="store-equal")
    over_the_wire = consume_all(broker.bootstrap, "store-equal")
    assert len(over_the_wire) == 150  # the transaction's commit markers take offsets but are no records

    by_queue = _store(spark, broker.data_dir, "store-equal")
    assert spark_rows(by_queue) == over_the_wire
    assert spark_rows(_store(spark, broker.data_dir, "store-equal", mode="segments")) == over_the_wire
    files = _queue_files(broker.data_dir, "store-equal")
    assert files >= 6  # 40+ batches a partition in 16-unit files
    assert by_queue.rdd.getNumPartitions() == files


def test_a_flipped_byte_in_a_batch_is_reported(spark: Any, small_queue_broker: Broker, tmp_path: Path) -> None:
    broker = small_queue_broker
    create_topic(broker.bootstrap, "store-damaged", 1)
    produce(broker.bootstrap, "store-damaged", 20, partitions=1, first=500)  # values no other topic holds
    copy = tmp_path / "data"
    shutil.copytree(broker.data_dir, copy, ignore=shutil.ignore_patterns("lock"))
    segment = min(p for p in (copy / "commitlog").iterdir() if p.name.isdigit())
    content = bytearray(segment.read_bytes())
    at = content.find(b"value-513-")
    assert at > 0
    content[at] ^= 0x01
    segment.write_bytes(bytes(content))

    for mode in ("segments", "cq"):
        with pytest.raises(Exception, match="CRC") as failure:
            _store(spark, copy, "store-damaged", mode=mode).collect()
        assert "rockafka.pipeline.errors.PipelineError" in str(failure.value)


def _last_offsets(checkpoint: Path) -> Any:
    last = max((p for p in (checkpoint / "offsets").iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    return json.loads(last.read_text().splitlines()[-1])


def test_export_after_new_appends_reads_only_the_new_rows(
    spark: Any, broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    create_topic(broker.bootstrap, "export", 2)
    produce(broker.bootstrap, "export", 100, partitions=2)
    out = tmp_path / "export"
    command = ["pipeline", "export", "--data-dir", str(broker.data_dir), "--topics", "export", "--to", "parquet"]

    assert main([*command, str(out)]) == 0
    assert "exported 100 records" in capsys.readouterr().out
    produce(broker.bootstrap, "export", 40, partitions=2, first=100)
    assert main([*command, str(out)]) == 0
    assert "exported 40 records" in capsys.readouterr().out

    assert spark_rows(spark.read.parquet(str(out))) == consume_all(broker.bootstrap, "export")
    assert _last_offsets(out / "_checkpoint") == {"export": {"0": 70, "1": 70}}


def test_a_store_stream_with_a_rate_limit_reads_each_record_once(spark: Any, broker: Broker, tmp_path: Path) -> None:
    create_topic(broker.bootstrap, "store-stream", 3)
    produce(broker.bootstrap, "store-stream", 90, partitions=3)
    query = (
        spark.readStream.format("rockafka-store").option("subscribe", "store-stream")
        .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "40").load(str(broker.data_dir))
        .writeStream.format("memory").queryName("store_stream").trigger(availableNow=True).start()
    )  # fmt: skip
    assert query.awaitTermination(120)
    assert [p["numInputRows"] for p in query.recentProgress] == [39, 39, 12]  # 40 split three ways, rounded down
    rows = spark.sql("SELECT partition, offset FROM store_stream").collect()
    assert sorted((r["partition"], r["offset"]) for r in rows) == [(p, o) for p in range(3) for o in range(30)]
