"""The ``rockafka`` format against a live broker: Spark's Kafka schema and offsets, a checkpointed stream
restarted without loss or duplicates, and the sink writing back exactly what the source read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rockafka.testing import Broker

from .kafkadata import consume_all, create_topic, produce, spark_rows

pytestmark = pytest.mark.spark

KAFKA_SCHEMA = (
    "struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,"
    "timestampType:int,headers:array<struct<key:string,value:binary>>>"
)


def _read(spark: Any, broker: Broker, topic: str, **options: str) -> Any:
    reader = spark.read.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
    return reader.option("subscribe", topic).options(**options).load()


def test_batch_read_has_sparks_kafka_schema_and_reads_what_a_client_reads(spark: Any, broker: Broker) -> None:
    create_topic(broker.bootstrap, "wire-batch", 3)
    produce(broker.bootstrap, "wire-batch", 60, partitions=3)

    frame = _read(spark, broker, "wire-batch", includeHeaders="true")

    assert frame.schema.simpleString() == KAFKA_SCHEMA
    assert spark_rows(frame) == consume_all(broker.bootstrap, "wire-batch")
    assert "headers" not in _read(spark, broker, "wire-batch").columns


def test_batch_read_takes_offsets_json_and_min_partitions(spark: Any, broker: Broker) -> None:
    create_topic(broker.bootstrap, "wire-range", 3)
    produce(broker.bootstrap, "wire-range", 60, partitions=3)

    frame = _read(
        spark, broker, "wire-range",
        startingOffsets='{"wire-range": {"0": 5, "1": -2, "2": -1}}',
        endingOffsets='{"wire-range": {"0": 15, "1": 3, "2": -1}}',
        minPartitions="6",
        includeHeaders="true",
    )  # fmt: skip

    read = [(row[0], row[1]) for row in spark_rows(frame)]
    assert read == [(0, o) for o in range(5, 15)] + [(1, o) for o in range(3)]
    assert frame.rdd.getNumPartitions() >= 5  # partition 0's ten offsets were split


def _stream_to_parquet(spark: Any, broker: Broker, topic: str, out: Path, checkpoint: Path) -> None:
    query = (
        spark.readStream.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic).option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "100")
        .option("includeHeaders", "true").load()
        .writeStream.format("parquet").option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True).start(str(out))
    )  # fmt: skip
    assert query.awaitTermination(120)
    assert query.exception() is None


def test_stream_restarted_from_its_checkpoint_loses_and_duplicates_nothing(
    spark: Any, broker: Broker, tmp_path: Path
) -> None:
    create_topic(broker.bootstrap, "wire-stream", 3)
    produce(broker.bootstrap, "wire-stream", 300, partitions=3)
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    _stream_to_parquet(spark, broker, "wire-stream", out, checkpoint)
    committed = sorted(p.name for p in (checkpoint / "commits").iterdir() if p.name.isdigit())
    assert committed == ["0", "1", "2", "3"]  # 99, 99, 99 and 3 records

    # A crash after batch 3 was planned and written but before Spark recorded it as committed:
    # the restart replays batch 3 from the offsets log, then reads what was produced meanwhile.
    (checkpoint / "commits" / "3").unlink()
    (checkpoint / "commits" / ".3.crc").unlink()  # Hadoop's checksum of it
    produce(broker.bootstrap, "wire-stream", 150, partitions=3, first=300)
    _stream_to_parquet(spark, broker, "wire-stream", out, checkpoint)

    assert spark_rows(spark.read.parquet(str(out))) == consume_all(broker.bootstrap, "wire-stream")
    last = max((checkpoint / "offsets").iterdir(), key=lambda p: int(p.name) if p.name.isdigit() else -1)
    assert json.loads(last.read_text().splitlines()[-1]) == {"wire-stream": {"0": 150, "1": 150, "2": 150}}


def test_sink_writes_what_the_source_read(spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path) -> None:
    create_topic(broker.bootstrap, "sink-source", 3)
    produce(broker.bootstrap, "sink-source", 90, partitions=3)
    create_topic(target_broker.bootstrap, "sink-batch", 3)
    create_topic(target_broker.bootstrap, "sink-stream", 3)
    columns = ("partition", "key", "value", "headers", "timestamp")

    _read(spark, broker, "sink-source", includeHeaders="true").select(*columns).write.format("rockafka").option(
        "kafka.bootstrap.servers", target_broker.bootstrap
    ).option("topic", "sink-batch").mode("append").save()
    query = (
        spark.readStream.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", "sink-source").option("startingOffsets", "earliest").option("includeHeaders", "true")
        .load().select("topic", *columns).writeStream.format("rockafka")
        .option("kafka.bootstrap.servers", target_broker.bootstrap).option("topic", "sink-stream")
        .option("checkpointLocation", str(tmp_path / "checkpoint")).trigger(availableNow=True).start()
    )  # fmt: skip
    assert query.awaitTermination(120)
    assert query.exception() is None

    read = consume_all(broker.bootstrap, "sink-source")
    assert len(read) == 90
    assert consume_all(target_broker.bootstrap, "sink-batch") == read
    assert consume_all(target_broker.bootstrap, "sink-stream") == read
