"""Records for the pipeline tests: produce them, and read them back with a plain Kafka client (kafka-python),
the oracle the Spark sources must match."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Final

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

#: The first record's timestamp :func:`produce` gives (14 Nov 2023): fixed, so runs compare alike.
FIRST_TIMESTAMP_MS: Final = 1_700_000_000_000
#: Settings of the brokers these records go to: keep them. Their timestamps are far older than Kafka's default
#: ``retention.ms`` (7 days), so a broker that lives past one ``log.retention.check.interval.ms`` (5 minutes; the
#: session's brokers do) would otherwise move every partition's log start to its end, as Kafka deletes them, and
#: a read planned before that pass fetches offsets the broker answers OFFSET_OUT_OF_RANGE.
BROKER_SETTINGS: Final = {"log.retention.ms": "-1"}


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, partitions, 1)])
    finally:
        admin.close()


@dataclass(frozen=True)
class Sent:
    partition: int
    key: bytes | None
    value: bytes
    headers: tuple[tuple[str, bytes], ...]
    timestamp_ms: int


def produce(
    bootstrap: str, topic: str, count: int, *, partitions: int, first: int = 0, alter: int = -1, **settings: Any
) -> list[Sent]:
    """Records ``first`` .. ``first + count - 1`` spread over the partitions round-robin: some without key, some
    with headers, fixed timestamps; record number ``alter`` gets a different value. With a ``transactional_id``
    setting they are produced in one committed transaction."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, **settings)
    transactional = "transactional_id" in settings
    if transactional:
        producer.init_transactions()
        producer.begin_transaction()
    sent = []
    try:
        for i in range(first, first + count):
            record = Sent(
                partition=i % partitions,
                key=None if i % 5 == 0 else b"key-%d" % i,
                value=(b"altered-%d" if i == alter else b"value-%d-") % i + bytes(range(i % 7)),
                headers=(("n", str(i).encode()), ("empty", b"")) if i % 3 == 0 else (),
                timestamp_ms=FIRST_TIMESTAMP_MS + i,
            )
            producer.send(topic, record.value, record.key, list(record.headers), record.partition, record.timestamp_ms)
            sent.append(record)
        if transactional:
            producer.commit_transaction()
        producer.flush()
    finally:
        producer.close()
    return sent


Row = tuple[int, int, bytes | None, bytes | None, tuple[tuple[str, bytes | None], ...], int, int]


def consume_all(bootstrap: str, topic: str, isolation_level: str = "read_uncommitted", **client: Any) -> list[Row]:
    """Every record of the topic as kafka-python reads it over the wire (up to the last stable offset with
    ``read_committed``): (partition, offset, key, value, headers, timestamp ms, timestamp type), in partition
    and offset order; ``client``: more kafka-python settings (security)."""
    consumer = KafkaConsumer(
        bootstrap_servers=bootstrap, enable_auto_commit=False, isolation_level=isolation_level, **client
    )
    try:
        parts = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        consumer.assign(parts)
        consumer.seek_to_beginning()
        ends = consumer.end_offsets(parts)
        rows: list[Row] = []
        deadline = time.monotonic() + 30
        while any(consumer.position(tp) < ends[tp] for tp in parts) and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                rows.extend(
                    (r.partition, r.offset, r.key, r.value, tuple(r.headers), r.timestamp, r.timestamp_type)
                    for r in records
                )
        return sorted(rows, key=lambda row: (row[0], row[1]))
    finally:
        consumer.close()


def spark_rows(frame: Any) -> list[Row]:
    """A DataFrame in Spark's Kafka schema as the same tuples as :func:`consume_all` (timestamps in ms)."""
    rows = frame.selectExpr(
        "partition", "offset", "key", "value", "headers", "unix_millis(timestamp) AS ms", "timestampType"
    ).collect()
    result = [
        (r["partition"], r["offset"], _bytes(r["key"]), _bytes(r["value"]),
         tuple((h["key"], _bytes(h["value"])) for h in r["headers"] or ()), r["ms"], r["timestampType"])
        for r in rows
    ]  # fmt: skip
    return sorted(result, key=lambda row: (row[0], row[1]))


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


@dataclass
class Transactions:
    """A topic written by transactional and plain confluent-kafka producers, one transaction left open."""

    #: Values a read_committed consumer reads (below the last stable offset, aborted ones left out).
    committed: set[bytes]
    #: Values of the aborted transaction.
    aborted: set[bytes]
    #: The open transaction's producer: abort it when done.
    open_producer: Any


def produce_transactions(bootstrap: str, topic: str, partitions: int) -> Transactions:
    """Plain records, a committed transaction, an aborted one with plain records inside its range, another
    committed one, then a transaction left open followed by plain records (past the last stable offset)."""
    from confluent_kafka import Producer

    def transactional(name: str) -> Any:
        made = Producer({"bootstrap.servers": bootstrap, "transactional.id": name, "transaction.timeout.ms": 300_000})
        made.init_transactions(30)
        return made

    def send(producer: Any, prefix: str, count: int) -> set[bytes]:
        values = [b"%s-%d" % (prefix.encode(), i) for i in range(count)]
        for i, value in enumerate(values):
            producer.produce(topic, value=value, key=b"k%d" % i, partition=i % partitions)
        producer.flush(30)
        return set(values)

    plain, first, second, last = (
        Producer({"bootstrap.servers": bootstrap}), transactional(f"{topic}-a"), transactional(f"{topic}-b"),
        transactional(f"{topic}-c"),
    )  # fmt: skip
    committed = send(plain, "plain", 6)
    first.begin_transaction()
    committed |= send(first, "committed", 6)
    first.commit_transaction(30)
    second.begin_transaction()
    aborted = send(second, "aborted", 6)
    committed |= send(plain, "between", 4)  # inside the aborted range, of another producer
    aborted |= send(second, "aborted-more", 2)
    second.abort_transaction(30)
    first.begin_transaction()
    committed |= send(first, "committed-again", 4)
    first.commit_transaction(30)
    last.begin_transaction()
    send(last, "open", 4)
    send(plain, "past-lso", 4)
    return Transactions(committed, aborted, last)
