"""Transactions through the pipeline: the wire source and the store reader read what a read_committed Kafka client
reads (aborted records and markers left out, nothing past the last stable offset), and the exactly-once sink
writes a replayed micro-batch's records once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaProducer
from kafka.errors import KafkaError

from rockafka.cli import main
from rockafka.testing import Broker

from .kafkadata import Transactions, consume_all, create_topic, produce, produce_transactions, spark_rows

pytestmark = pytest.mark.spark
MIXED = "txn-mixed"


@pytest.fixture(scope="module")
def mixed(spark: Any, broker: Broker) -> Iterator[Transactions]:
    """``txn-mixed``: committed and aborted transactions and plain records, one transaction left open."""
    create_topic(broker.bootstrap, MIXED, 2)
    written = produce_transactions(broker.bootstrap, MIXED, 2)
    try:
        yield written
    finally:
        written.open_producer.abort_transaction(30)


def _values(rows: list[Any]) -> set[bytes]:
    return {row[3] for row in rows}


def _wire(spark: Any, broker: Broker, **options: str) -> Any:
    reader = spark.read.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
    return reader.option("subscribe", MIXED).option("includeHeaders", "true").options(**options).load()


def _store(spark: Any, broker: Broker, **options: str) -> Any:
    reader = spark.read.format("rockafka-store").option("subscribe", MIXED).option("includeHeaders", "true")
    return reader.options(**options).load(str(broker.data_dir))


def test_the_wire_source_reads_committed_records_up_to_the_lso(spark: Any, broker: Broker, mixed: Transactions) -> None:
    committed = consume_all(broker.bootstrap, MIXED, "read_committed")
    assert _values(committed) == mixed.committed  # the oracle: plain and committed, nothing aborted, open or past it
    everything = consume_all(broker.bootstrap, MIXED)
    assert mixed.aborted <= _values(everything)

    assert spark_rows(_wire(spark, broker, **{"kafka.isolation.level": "read_committed"})) == committed
    assert spark_rows(_wire(spark, broker)) == everything  # Spark's default: read_uncommitted


def test_the_store_reader_reads_what_a_read_committed_client_reads(
    spark: Any, broker: Broker, mixed: Transactions
) -> None:
    committed = consume_all(broker.bootstrap, MIXED, "read_committed")

    assert spark_rows(_store(spark, broker)) == committed  # the default
    assert spark_rows(_store(spark, broker, mode="segments")) == committed
    uncommitted = {"kafka.isolation.level": "read_uncommitted"}
    assert spark_rows(_store(spark, broker, **uncommitted)) == consume_all(broker.bootstrap, MIXED)
    with pytest.raises(Exception, match=r"kafka\.isolation\.level must be"):
        _store(spark, broker, **{"kafka.isolation.level": "committed"}).collect()


def _content(rows: list[Any]) -> list[tuple[Any, ...]]:
    """Rows without their offsets (the output's offsets also count the transactions' markers)."""
    return [(partition, key, value, headers, ms) for partition, _, key, value, headers, ms, _ in rows]


def _copy_exactly_once(spark: Any, source: Broker, target: Broker, checkpoint: Path) -> None:
    query = (
        spark.readStream.format("rockafka").option("kafka.bootstrap.servers", source.bootstrap)
        .option("subscribe", "eos-in").option("startingOffsets", "earliest")
        .option("includeHeaders", "true").load().select("partition", "key", "value", "headers", "timestamp")
        .writeStream.format("rockafka").option("kafka.bootstrap.servers", target.bootstrap).option("topic", "eos-out")
        .option("exactlyOnce", "true").option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True).start()
    )  # fmt: skip
    assert query.awaitTermination(120)
    assert query.exception() is None


def test_a_replayed_micro_batch_is_written_once(
    spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path
) -> None:
    create_topic(broker.bootstrap, "eos-in", 3)
    create_topic(target_broker.bootstrap, "eos-out", 3)
    produce(broker.bootstrap, "eos-in", 90, partitions=3)
    checkpoint = tmp_path / "checkpoint"
    _copy_exactly_once(spark, broker, target_broker, checkpoint)
    assert sorted(p.name for p in (checkpoint / "commits").iterdir() if p.name.isdigit()) == ["0"]

    # Killed after batch 0's transactions committed, before Spark recorded the batch: the restart replays it.
    (checkpoint / "commits" / "0").unlink()
    (checkpoint / "commits" / ".0.crc").unlink()
    # And a task of slot 0 died in the middle of a later transaction: records sent, never committed.
    query_id = json.loads((checkpoint / "metadata").read_text())["id"]
    zombie = KafkaProducer(bootstrap_servers=target_broker.bootstrap, transactional_id=f"rockafka-sink-{query_id}-0")
    zombie.init_transactions()
    zombie.begin_transaction()
    for i in range(5):
        zombie.send("eos-out", b"zombie-%d" % i, partition=0)
    zombie.flush()
    produce(broker.bootstrap, "eos-in", 60, partitions=3, first=90)
    _copy_exactly_once(spark, broker, target_broker, checkpoint)
    assert sorted(p.name for p in (checkpoint / "commits").iterdir() if p.name.isdigit()) == ["0", "1"]

    written = _content(consume_all(broker.bootstrap, "eos-in"))
    assert len(written) == 150
    assert _content(consume_all(target_broker.bootstrap, "eos-out", "read_committed")) == written
    everything = consume_all(target_broker.bootstrap, "eos-out")
    assert {row[3] for row in everything} - {row[2] for row in written} == {b"zombie-%d" % i for i in range(5)}
    assert len(everything) == 155  # the replay wrote nothing at all; the zombie's records were aborted
    with pytest.raises(KafkaError):  # fenced by the slot's next task
        zombie.commit_transaction()
    zombie.close(timeout=1)


def test_exactly_once_is_for_streams_and_owns_the_transactional_id(spark: Any, broker: Broker) -> None:
    frame = spark.createDataFrame([("v",)], "value string").write.format("rockafka")
    frame = frame.option("kafka.bootstrap.servers", broker.bootstrap).option("topic", "eos-refused").mode("append")
    with pytest.raises(Exception, match="exactlyOnce is for streaming writes"):
        frame.option("exactlyOnce", "true").save()
    with pytest.raises(Exception, match="use exactlyOnce and transactionalIdPrefix"):
        frame.option("kafka.transactional.id", "mine").save()


def test_an_exactly_once_migration_copies_committed_records_only(
    spark: Any, broker: Broker, target_broker: Broker, mixed: Transactions, tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    code = main([
        "pipeline", "migrate", "--exactly-once", "--from", broker.bootstrap, "--to", target_broker.bootstrap,
        "--topics", MIXED, "--report", str(report), "--checkpoint", str(tmp_path / "checkpoint"),
    ])  # fmt: skip

    assert code == 0
    assert json.loads(report.read_text())["equal"] is True
    copied = consume_all(target_broker.bootstrap, MIXED, "read_committed")
    assert _content(copied) == _content(consume_all(broker.bootstrap, MIXED, "read_committed"))
    assert _values(copied) == mixed.committed
