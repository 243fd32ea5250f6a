"""confluent-kafka (librdkafka) driven through its public Producer and Consumer.

librdkafka resolves a logical start offset (earliest, latest) in the background after ``assign``;
the driver knows the consumer is positioned when librdkafka's statistics report the partition's
fetcher active at a real offset, and only then calls ``then``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from confluent_kafka import OFFSET_BEGINNING, OFFSET_END, Consumer, KafkaError, Message, Producer, TopicPartition

from .driver import CODECS, TIMEOUT_S, Acks, Start
from .records import Rec


class ConfluentDriver:
    name = "confluent-kafka"
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
        producer = Producer(
            {
                "bootstrap.servers": bootstrap,
                "acks": acks,
                "compression.type": codec,
                "linger.ms": 5,
                **(settings or {}),
            }
        )
        offsets: list[int | None] = [None] * len(records)
        errors: list[str] = []

        def delivered(index: int) -> Callable[[KafkaError | None, Message], None]:
            def report(error: KafkaError | None, message: Message) -> None:
                if error is not None:
                    errors.append(f"record {index}: {error}")
                else:
                    offsets[index] = message.offset()

            return report

        for index, r in enumerate(records):
            producer.produce(
                topic,
                value=r.value,
                key=r.key,
                partition=r.partition,
                timestamp=r.timestamp or 0,
                headers=list(r.headers),
                on_delivery=delivered(index),
            )
        left = producer.flush(TIMEOUT_S)
        assert left == 0, f"{left} records were not delivered within {TIMEOUT_S}s"
        assert not errors, errors
        return [] if acks == 0 else [int(offset) for offset in offsets if offset is not None]

    def consumer(self, bootstrap: str, settings: Mapping[str, object] | None = None, **extra: Any) -> Consumer:
        return Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": f"compat-{uuid.uuid4().hex[:8]}",  # required by the API; only assign() is used
                "enable.auto.commit": False,
                "fetch.wait.max.ms": 100,
                **extra,
                **(settings or {}),
            }
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
        fetching: list[int] = []

        def stats(text: str) -> None:
            part = json.loads(text).get("topics", {}).get(topic, {}).get("partitions", {}).get(str(partition), {})
            if part.get("fetch_state") == "active" and part.get("next_offset", -1) >= 0:
                fetching.append(part["next_offset"])

        consumer = self.consumer(bootstrap, settings, **{"statistics.interval.ms": 50, "stats_cb": stats})
        try:
            consumer.assign([TopicPartition(topic, partition, self._start_offset(consumer, topic, partition, start))])
            records: list[Rec] = []
            deadline = time.monotonic() + TIMEOUT_S
            if then is not None:
                while not fetching and time.monotonic() < deadline:
                    records += _records(consumer.consume(10, 0.05))
                assert fetching, "librdkafka never started fetching"
                then()
            while len(records) < count and time.monotonic() < deadline:
                records += _records(consumer.consume(count - len(records), 0.2))
            return records
        finally:
            consumer.close()

    def _start_offset(self, consumer: Consumer, topic: str, partition: int, start: Start) -> int:
        if start.kind == "earliest":
            return OFFSET_BEGINNING
        if start.kind == "latest":
            return OFFSET_END
        if start.kind == "offset":
            return start.value
        found = consumer.offsets_for_times([TopicPartition(topic, partition, start.value)], TIMEOUT_S)[0]
        assert found.error is None and found.offset >= 0, f"librdkafka found no offset at {start.value}: {found}"
        return int(found.offset)

    def offset_for_time(self, bootstrap: str, topic: str, partition: int, timestamp_ms: int) -> int | None:
        consumer = self.consumer(bootstrap)
        try:
            found = consumer.offsets_for_times([TopicPartition(topic, partition, timestamp_ms)], TIMEOUT_S)[0]
            assert found.error is None, found.error
            return None if found.offset < 0 else int(found.offset)
        finally:
            consumer.close()

    def partition_count(self, bootstrap: str, topic: str) -> int:
        consumer = self.consumer(bootstrap)
        try:
            return len(consumer.list_topics(topic, TIMEOUT_S).topics[topic].partitions)
        finally:
            consumer.close()


def _records(messages: list[Message]) -> list[Rec]:
    out = []
    for message in messages:
        error = message.error()
        assert error is None, f"consumer error: {error}"
        headers = tuple((k, v) for k, v in message.headers() or [])
        out.append(Rec(message.key(), message.value(), headers, message.timestamp()[1], message.offset()))
    return out
