"""Transactions through the pipeline: the wire source and the store reader read what a read_committed Kafka client
reads (aborted records and markers left out, nothing past the last stable offset), and the exactly-once sink
writes a replayed micro-batch's records once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rockafka.testing import Broker

from .kafkadata import Transactions, consume_all, create_topic, produce_transactions, spark_rows

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
