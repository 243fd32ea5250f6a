"""aiokafka driven through its public producer and consumer, each call on a fresh event loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from .driver import CODECS, TIMEOUT_S, Acks, Start
from .records import Rec

ACKS: dict[int, int | str] = {0: 0, 1: 1, -1: "all"}


class AiokafkaDriver:
    name = "aiokafka"
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
            "linger_ms": 5,
            "request_timeout_ms": int(TIMEOUT_S * 1000),
            **(settings or {}),
        }
        return asyncio.run(asyncio.wait_for(_produce(bootstrap, topic, records, acks, config), TIMEOUT_S))

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
        return asyncio.run(_consume(bootstrap, TopicPartition(topic, partition), start, count, then, settings or {}))

    def offset_for_time(self, bootstrap: str, topic: str, partition: int, timestamp_ms: int) -> int | None:
        async def lookup() -> int | None:
            consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
            await consumer.start()
            try:
                tp = TopicPartition(topic, partition)
                found = (await consumer.offsets_for_times({tp: timestamp_ms}))[tp]
                return None if found is None else int(found.offset)
            finally:
                await consumer.stop()

        return asyncio.run(asyncio.wait_for(lookup(), TIMEOUT_S))

    def partition_count(self, bootstrap: str, topic: str) -> int:
        async def count() -> int:
            producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
            await producer.start()
            try:
                return len(await producer.partitions_for(topic))
            finally:
                await producer.stop()

        return asyncio.run(asyncio.wait_for(count(), TIMEOUT_S))


async def _produce(bootstrap: str, topic: str, records: Sequence[Rec], acks: Acks, config: dict[str, Any]) -> list[int]:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, **config)
    await producer.start()
    try:
        futures = [
            await producer.send(
                topic,
                value=r.value,
                key=r.key,
                headers=list(r.headers),
                partition=r.partition,
                timestamp_ms=r.timestamp,
            )
            for r in records
        ]
        await producer.flush()
        metadata = await asyncio.gather(*futures)
    finally:
        await producer.stop()
    return [] if acks == 0 else [m.offset for m in metadata]


async def _consume(
    bootstrap: str,
    tp: TopicPartition,
    start: Start,
    count: int,
    then: Callable[[], None] | None,
    settings: Mapping[str, object],
) -> list[Rec]:
    consumer = AIOKafkaConsumer(
        bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100, **settings
    )
    await consumer.start()
    try:
        consumer.assign([tp])
        if start.kind == "earliest":
            await consumer.seek_to_beginning(tp)
        elif start.kind == "latest":
            await consumer.seek_to_end(tp)
        elif start.kind == "offset":
            consumer.seek(tp, start.value)
        else:
            found = (await consumer.offsets_for_times({tp: start.value}))[tp]
            assert found is not None, f"aiokafka found no offset at or after {start.value}"
            consumer.seek(tp, found.offset)
        await consumer.position(tp)  # resolves earliest/latest before ``then`` produces more
        if then is not None:
            await asyncio.to_thread(then)
        records: list[Rec] = []
        deadline = time.monotonic() + TIMEOUT_S
        while len(records) < count and time.monotonic() < deadline:
            batch = await consumer.getmany(tp, timeout_ms=200)
            for message in batch.get(tp, []):
                records.append(
                    Rec(message.key, message.value, tuple(message.headers), message.timestamp, message.offset)
                )
        return records
    finally:
        await consumer.stop()
