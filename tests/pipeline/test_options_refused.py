"""Every source and sink refuses an option it does not take, naming it and the options it takes: a misspelt
one, and one Spark's Kafka source takes that Rockafka does not. ``readable_errors`` makes the Spark failure one
line of the pipeline's own error class."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rockafka.pipeline import OptionError, readable_errors
from rockafka.testing import Broker

from .kafkadata import create_topic, produce

pytestmark = pytest.mark.spark

CASES = [
    ("startingOffset", "earliest", "unknown option 'startingoffset' for {what}; did you mean startingOffsets?"),
    ("endingTimestamp", "1700000000000", "option endingTimestamp is not supported by {what} (use endingOffsets)"),
    ("groupIdPrefix", "app", "option groupIdPrefix is not supported by {what} (the source uses no consumer group)"),
]


def _wire_batch(spark: Any, broker: Broker, tmp: Path, name: str, value: str) -> None:
    reader = spark.read.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
    reader.option("subscribe", "refused").option(name, value).load().collect()


def _wire_stream(spark: Any, broker: Broker, tmp: Path, name: str, value: str) -> None:
    reader = spark.readStream.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
    frame = reader.option("subscribe", "refused").option(name, value).load()
    query = frame.writeStream.format("noop").option("checkpointLocation", str(tmp / "ck")).trigger(availableNow=True)
    started = query.start()
    try:
        started.awaitTermination(60)
        if started.exception() is not None:
            raise started.exception()
    finally:
        started.stop()


def _store_batch(spark: Any, broker: Broker, tmp: Path, name: str, value: str) -> None:
    spark.read.format("rockafka-store").option("subscribe", "refused").option(name, value).load(
        str(broker.data_dir)
    ).collect()


READERS = [
    pytest.param("the rockafka source", _wire_batch, id="rockafka-batch"),
    pytest.param("the rockafka source", _wire_stream, id="rockafka-stream"),
    pytest.param("the rockafka-store source", _store_batch, id="rockafka-store"),
]


@pytest.mark.parametrize(("what", "read"), READERS)
@pytest.mark.parametrize(("name", "value", "message"), CASES)
def test_a_source_refuses_an_option_it_does_not_take(
    spark: Any, broker: Broker, tmp_path: Path, what: str, read: Any, name: str, value: str, message: str
) -> None:
    create_topic_once(broker)
    with pytest.raises(OptionError) as refused, readable_errors():
        read(spark, broker, tmp_path, name, value)
    assert str(refused.value).startswith(message.format(what=what))
    assert "; it takes: " in str(refused.value)
    assert "\n" not in str(refused.value)


def create_topic_once(broker: Broker) -> None:
    from kafka import KafkaConsumer

    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
    try:
        exists = "refused" in consumer.topics()
    finally:
        consumer.close()
    if not exists:
        create_topic(broker.bootstrap, "refused", 2)
        produce(broker.bootstrap, "refused", 4, partitions=2)


def _frame(spark: Any, broker: Broker) -> Any:
    create_topic_once(broker)
    reader = spark.read.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
    return reader.option("subscribe", "refused").load().select("partition", "value")


@contextlib.contextmanager
def _refused(message: str) -> Iterator[None]:
    with pytest.raises(OptionError, match=re.escape(message)), readable_errors():
        yield


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"topics": "out"}, "unknown option 'topics' for the rockafka sink; did you mean topic?"),
        (
            {"topic": "out", "kafka.fetch.min.bytes": "1"},
            "option kafka.fetch.min.bytes: kafka-python's producer has no",
        ),
        ({"topic": "out", "startingOffsets": "earliest"}, "unknown option 'startingoffsets' for the rockafka sink"),
    ],
)
def test_the_sink_refuses_an_option_it_does_not_take(
    spark: Any, broker: Broker, options: dict[str, str], message: str
) -> None:
    writer = _frame(spark, broker).write.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
    with _refused(message):
        writer.options(**options).mode("append").save()


def test_the_sink_refuses_a_missing_topic_for_rows_with_partitions_and_creates_it_when_told(
    spark: Any, broker: Broker, target_broker: Broker
) -> None:
    writer = _frame(spark, broker).write.format("rockafka").option("kafka.bootstrap.servers", target_broker.bootstrap)
    with _refused("the target topic refused-out does not exist and the rows name partitions"):
        writer.option("topic", "refused-out").mode("append").save()

    writer.option("topic", "refused-out").option("topicPartitions", "2").mode("append").save()

    from kafka import KafkaConsumer

    consumer = KafkaConsumer(bootstrap_servers=target_broker.bootstrap)
    try:
        assert consumer.partitions_for_topic("refused-out") == {0, 1}
    finally:
        consumer.close()
