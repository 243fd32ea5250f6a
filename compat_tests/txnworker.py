"""One consume-transform-produce worker in a child process, for the exactly-once scenarios: aiokafka or
confluent-kafka.

Run as ``python -m compat_tests.txnworker '<json settings>'``. It assigns itself every partition of the input
topic (its group id is used for the offsets only), reads with isolation read_committed from the group's
committed offsets (earliest when none), and for each batch of records: begins a transaction, produces each
record's value prefixed with ``T:`` (same key) to the output topic, adds the consumed positions to the
transaction (``send_offsets_to_transaction``), and commits; every ``abort_every``-th transaction it aborts
instead and seeks back to the batch's first offsets, so those records are transformed again. It stops once
its committed positions reach the input's end offsets (the input is written before it starts).

``crash_after`` (a number of committed transactions, or null): after that many, it begins one more
transaction, produces its records, waits for them to be acknowledged, and kills itself with SIGKILL, leaving
the transaction open on the broker (a crashed application).

It reports on stdout, one JSON object a line: ``{"event": "committed", "count": n}`` per committed
transaction (n records), ``{"event": "aborted", "count": n}``, ``{"event": "crashing", "count": n}`` (n records
acknowledged in the transaction left open), ``{"event": "done"}`` at the end.

Settings: client, bootstrap, input, input_partitions, output, group, transactional_id, batch (records per transaction at
most), abort_every (0: never), crash_after, transaction_timeout_ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any

PREFIX = b"T:"


def emit(event: str, **fields: Any) -> None:
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


def crash() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def run_aiokafka(s: dict[str, Any]) -> None:
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

    producer = AIOKafkaProducer(
        bootstrap_servers=s["bootstrap"], transactional_id=s["transactional_id"],
        transaction_timeout_ms=s["transaction_timeout_ms"], request_timeout_ms=10_000,
    )  # fmt: skip
    consumer = AIOKafkaConsumer(
        bootstrap_servers=s["bootstrap"], group_id=s["group"], enable_auto_commit=False,
        isolation_level="read_committed", auto_offset_reset="earliest",
    )  # fmt: skip
    await producer.start()
    await consumer.start()
    try:
        partitions = [TopicPartition(s["input"], p) for p in range(s["input_partitions"])]
        consumer.assign(partitions)
        ends = await consumer.end_offsets(partitions)
        committed, transactions = 0, 0
        while True:
            positions = {tp: await consumer.position(tp) for tp in partitions}
            if all(positions[tp] >= ends[tp] for tp in partitions):
                break
            batch = await consumer.getmany(timeout_ms=500, max_records=s["batch"])
            if not any(batch.values()):
                continue
            transactions += 1
            await producer.begin_transaction()
            for records in batch.values():
                for record in records:
                    await producer.send(s["output"], PREFIX + record.value, key=record.key)
            count = sum(len(records) for records in batch.values())
            if s["crash_after"] is not None and committed == s["crash_after"]:
                await producer.flush()
                emit("crashing", count=count)
                crash()
            offsets = {tp: records[-1].offset + 1 for tp, records in batch.items() if records}
            await producer.send_offsets_to_transaction(offsets, s["group"])
            if s["abort_every"] and transactions % s["abort_every"] == 0:
                await producer.abort_transaction()
                for tp, records in batch.items():
                    if records:
                        consumer.seek(tp, records[0].offset)
                emit("aborted", count=count)
            else:
                await producer.commit_transaction()
                committed += 1
                emit("committed", count=count)
        emit("done")
    finally:
        await consumer.stop()
        await producer.stop()


def run_confluent(s: dict[str, Any]) -> None:
    from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

    producer = Producer({
        "bootstrap.servers": s["bootstrap"], "transactional.id": s["transactional_id"],
        "transaction.timeout.ms": s["transaction_timeout_ms"], "linger.ms": 5,
    })  # fmt: skip
    consumer = Consumer({
        "bootstrap.servers": s["bootstrap"], "group.id": s["group"], "enable.auto.commit": False,
        "isolation.level": "read_committed", "auto.offset.reset": "earliest", "fetch.wait.max.ms": 100,
    })  # fmt: skip
    try:
        producer.init_transactions(30)
        metadata = consumer.list_topics(s["input"], timeout=10).topics[s["input"]]
        ends = {}
        for p in metadata.partitions:
            ends[p] = consumer.get_watermark_offsets(TopicPartition(s["input"], p), timeout=10)[1]
        committed_at = consumer.committed([TopicPartition(s["input"], p) for p in ends], timeout=10)
        starts = {tp.partition: max(tp.offset, 0) for tp in committed_at}
        consumer.assign([TopicPartition(s["input"], p, starts[p]) for p in ends])
        positions = dict(starts)
        committed, transactions = 0, 0
        while not all(positions[p] >= ends[p] for p in ends):
            messages = [m for m in consumer.consume(s["batch"], 0.5) if m.error() is None]
            if not messages:
                continue
            transactions += 1
            producer.begin_transaction()
            first: dict[int, int] = {}
            for message in messages:
                first.setdefault(message.partition(), message.offset())
                producer.produce(s["output"], PREFIX + message.value(), key=message.key())
            if s["crash_after"] is not None and committed == s["crash_after"]:
                producer.flush(10)
                emit("crashing", count=len(messages))
                crash()
            after = {m.partition(): m.offset() + 1 for m in messages}
            producer.send_offsets_to_transaction(
                [TopicPartition(s["input"], p, o) for p, o in after.items()], consumer.consumer_group_metadata(), 10
            )
            if s["abort_every"] and transactions % s["abort_every"] == 0:
                producer.abort_transaction(10)
                for p, offset in first.items():
                    consumer.seek(TopicPartition(s["input"], p, offset))
                emit("aborted", count=len(messages))
            else:
                try:
                    producer.commit_transaction(10)
                except KafkaException as exc:
                    emit("commit_failed", error=str(exc))
                    raise
                positions.update(after)
                committed += 1
                emit("committed", count=len(messages))
        emit("done")
    finally:
        consumer.close()
        producer.flush(5)


def main() -> None:
    settings = json.loads(sys.argv[1])
    if settings["client"] == "aiokafka":
        asyncio.run(run_aiokafka(settings))
    elif settings["client"] == "confluent-kafka":
        run_confluent(settings)
    else:
        raise SystemExit(f"unknown client {settings['client']!r}")


if __name__ == "__main__":
    main()
