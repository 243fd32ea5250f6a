"""The ``rockafka-store`` format over a compacted topic (cleanup.policy=compact) that the broker's cleaner compacted:
Spark reads, in both modes, exactly what a Kafka client fetches: each key's latest record at its offset, the
gaps left by the records the cleaner dropped, and none of the old versions the CommitLog still holds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from kafka import KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

from rockafka.store.reader import StoreReader
from rockafka.testing import Broker

from .kafkadata import consume_all, spark_rows

pytestmark = pytest.mark.spark
KEYS, ROUNDS = 8, 12
COMPACTED = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "0"}


@pytest.fixture(scope="module")
def compacting_broker() -> Iterator[Broker]:
    with Broker(settings={"log.cleaner.backoff.ms": "100", "rockafka.consumequeue.units.per.file": "16"}) as running:
        yield running


def _fill(bootstrap: str, topic: str) -> int:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 2, 1, topic_configs=COMPACTED)])
    finally:
        admin.close()
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0)
    try:
        for round_ in range(ROUNDS):
            for key in range(KEYS):
                value = None if (round_, key) == (ROUNDS - 2, 3) else b"v%d-%d" % (round_, key)  # one tombstone
                headers = [("round", str(round_).encode())]
                producer.send(topic, value, b"k%d" % key, headers, partition=key % 2).get(30)
    finally:
        producer.close()
    return KEYS * ROUNDS


def _compacted_ends(broker: Broker, topic: str) -> list[int]:
    with StoreReader(broker.data_dir) as reader:
        return [p.compacted_end for p in reader.partitions() if p.topic == topic]


def test_spark_reads_a_compacted_topic_as_a_kafka_client_does(spark: Any, compacting_broker: Broker) -> None:
    broker, topic = compacting_broker, "store-compacted"
    written = _fill(broker.bootstrap, topic)
    deadline = time.monotonic() + 60
    # both partitions compacted up to their newest batch (the active segment), which stays as it is
    while time.monotonic() < deadline and _compacted_ends(broker, topic) != [written // 2 - 1] * 2:
        time.sleep(0.2)
    assert _compacted_ends(broker, topic) == [written // 2 - 1] * 2
    over_the_wire = consume_all(broker.bootstrap, topic)
    assert len(over_the_wire) < written // 4  # compacted: about one record per key
    assert {row[2] for row in over_the_wire} == {b"k%d" % key for key in range(KEYS)}
    reader = spark.read.format("rockafka-store").option("subscribe", topic).option("includeHeaders", "true")
    assert spark_rows(reader.load(str(broker.data_dir))) == over_the_wire
    assert spark_rows(reader.option("mode", "segments").load(str(broker.data_dir))) == over_the_wire
