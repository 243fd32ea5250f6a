"""kafka-python driven through its public producer and consumer."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from .driver import CODECS, TIMEOUT_S, Acks, Start
from .records import Rec

ACKS: dict[int, int | str] = {0: 0, 1: 1, -1: "all"}


class KafkaPythonDriver:
    name = "kafka-python"
    codecs = CODECS
    stamps_records = True
    sends_nulls = True
    no_offset_is_end = False
    printable_only = False

    def produce(
        self,
        bootstrap: str,
        topic: str,
        records: Sequence[Rec],
        *,
        acks: Acks,
        codec: str = "none",
        settings: Mapping[str, object] | None = None,
    ) -> list[int]:
        config: dict[str, Any] = {
            "acks": ACKS[acks],
            "compression_type": None if codec == "none" else codec,
            # Plain producer: the acks under test (idempotence needs acks=all; test_idempotence.py covers it).
            "enable_idempotence": False,
            "linger_ms": 5,
            **(settings or {}),
        }
        producer = KafkaProducer(bootstrap_servers=bootstrap, **config)
        try:
            futures = [
                producer.send(
                    topic,
                    value=r.value,
                    key=r.key,
                    headers=list(r.headers),
                    partition=r.partition,
                    timestamp_ms=r.timestamp,
                )
                for r in records
            ]
            producer.flush(timeout=TIMEOUT_S)
            offsets = [future.get(timeout=TIMEOUT_S).offset for future in futures]
        finally:
            producer.close(timeout=5)
        return [] if acks == 0 else offsets

    def consumer(self, bootstrap: str, settings: Mapping[str, object] | None = None) -> KafkaConsumer:
        return KafkaConsumer(
            bootstrap_servers=bootstrap,
            group_id=None,
            enable_auto_commit=False,
            fetch_max_wait_ms=100,
            **(settings or {}),
        )

    def consume(
        self,
        bootstrap: str,
        topic: str,
        partition: int,
        start: Start,
        count: int,
        *,
        then: Callable[[], None] | None = None,
        settings: Mapping[str, object] | None = None,
    ) -> list[Rec]:
        consumer = self.consumer(bootstrap, settings)
        tp = TopicPartition(topic, partition)
        try:
            consumer.assign([tp])
            _position(consumer, tp, start)
            consumer.position(tp)  # resolves earliest/latest now, before ``then`` produces more
            if then is not None:
                then()
            records: list[Rec] = []
            deadline = time.monotonic() + TIMEOUT_S
            while len(records) < count and time.monotonic() < deadline:
                for message in consumer.poll(timeout_ms=200).get(tp, []):
                    records.append(
                        Rec(message.key, message.value, tuple(message.headers), message.timestamp, message.offset)
                    )
            return records
        finally:
            consumer.close()

    def offset_for_time(self, bootstrap: str, topic: str, partition: int, timestamp_ms: int) -> int | None:
        consumer = self.consumer(bootstrap)
        try:
            tp = TopicPartition(topic, partition)
            found = consumer.offsets_for_times({tp: timestamp_ms})[tp]
            return None if found is None else int(found.offset)
        finally:
            consumer.close()

    def partition_count(self, bootstrap: str, topic: str) -> int:
        consumer = self.consumer(bootstrap)
        try:
            return len(consumer.partitions_for_topic(topic) or ())
        finally:
            consumer.close()


def _position(consumer: KafkaConsumer, tp: TopicPartition, start: Start) -> None:
    if start.kind == "earliest":
        consumer.seek_to_beginning(tp)
    elif start.kind == "latest":
        consumer.seek_to_end(tp)
    elif start.kind == "offset":
        consumer.seek(tp, start.value)
    else:
        found = consumer.offsets_for_times({tp: start.value})[tp]
        assert found is not None, f"kafka-python found no offset at or after {start.value}"
        consumer.seek(tp, found.offset)
