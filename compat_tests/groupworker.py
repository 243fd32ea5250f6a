"""One group consumer in a child process, for the group scenarios: kafka-python, aiokafka or confluent-kafka.

Run as ``python -m compat_tests.groupworker '<json settings>'``. It subscribes to one topic in one group,
and reports on stdout, one JSON object a line:

- ``{"event": "assigned", "partitions": [...]}``: its whole assignment after every rebalance step;
- ``{"event": "records", "items": [[partition, offset, value], ...]}``: a batch it consumed;
- ``{"event": "committed", "offsets": {"partition": next offset}}`` once a batch's commit succeeded, or
  ``{"event": "commit_failed", "error": ...}`` (the at-least-once window: those records may come again);
- ``{"event": "closed"}`` after a clean close (SIGTERM: it leaves the group; SIGKILL simulates a crash).

Settings: client, bootstrap, topic, group, assignor (range, roundrobin, sticky, cooperative-sticky),
session_timeout_ms, heartbeat_interval_ms, instance_id (static membership) or null, and optionally
fetch_max_wait_ms (how long a fetch may park on the broker; the client's default otherwise).
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
import time
from collections.abc import Iterable
from typing import Any

STOP = {"requested": False}


def emit(event: str, **fields: Any) -> None:
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


def _on_sigterm(signum: int, frame: object) -> None:
    STOP["requested"] = True


def run_kafka_python(settings: dict[str, Any]) -> None:
    from kafka import ConsumerRebalanceListener, KafkaConsumer, OffsetAndMetadata
    from kafka.coordinator.assignors.cooperative_sticky import CooperativeStickyAssignor
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
    from kafka.errors import CommitFailedError, KafkaError

    assignors = {
        "range": RangePartitionAssignor,
        "roundrobin": RoundRobinPartitionAssignor,
        "cooperative-sticky": CooperativeStickyAssignor,
    }
    owned: set[int] = set()

    class Listener(ConsumerRebalanceListener):  # type: ignore[misc]
        def on_partitions_revoked(self, revoked: Iterable[Any]) -> None:
            owned.difference_update(tp.partition for tp in revoked)
            emit("assigned", partitions=sorted(owned))

        def on_partitions_assigned(self, assigned: Iterable[Any]) -> None:
            owned.update(tp.partition for tp in assigned)
            emit("assigned", partitions=sorted(owned))

    consumer = KafkaConsumer(
        bootstrap_servers=settings["bootstrap"],
        group_id=settings["group"],
        group_instance_id=settings.get("instance_id"),
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        session_timeout_ms=settings["session_timeout_ms"],
        heartbeat_interval_ms=settings["heartbeat_interval_ms"],
        partition_assignment_strategy=[assignors[settings["assignor"]]],
        max_poll_records=200,
        fetch_max_wait_ms=settings.get("fetch_max_wait_ms", 500),
        reconnect_backoff_max_ms=1000,  # kafka-python 3 backs off up to 30 s; a broker restart is seconds
    )
    consumer.subscribe([settings["topic"]], listener=Listener())
    while not STOP["requested"]:
        try:
            batch = consumer.poll(timeout_ms=200)
        except KafkaError as exc:  # kafka-python 3 raises connection errors from poll while a broker is down
            emit("poll_failed", error=repr(exc))
            time.sleep(0.2)
            continue
        records = [r for part in batch.values() for r in part]
        if not records:
            continue
        emit("records", items=[[r.partition, r.offset, r.value.decode()] for r in records])
        offsets = {tp: OffsetAndMetadata(part[-1].offset + 1, "", -1) for tp, part in batch.items()}
        try:
            consumer.commit(offsets)
            emit("committed", offsets={str(tp.partition): o.offset for tp, o in offsets.items()})
        except (CommitFailedError, KafkaError) as exc:
            emit("commit_failed", error=repr(exc))
    consumer.close()


async def run_aiokafka(settings: dict[str, Any]) -> None:
    from aiokafka import AIOKafkaConsumer, ConsumerRebalanceListener, TopicPartition
    from aiokafka.coordinator.assignors.range import RangePartitionAssignor
    from aiokafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
    from aiokafka.errors import CommitFailedError, KafkaError

    assignors = {"range": RangePartitionAssignor, "roundrobin": RoundRobinPartitionAssignor}
    owned: set[int] = set()

    class Listener(ConsumerRebalanceListener):  # type: ignore[misc]
        def on_partitions_revoked(self, revoked: Iterable[Any]) -> None:
            owned.difference_update(tp.partition for tp in revoked)
            emit("assigned", partitions=sorted(owned))

        def on_partitions_assigned(self, assigned: Iterable[Any]) -> None:
            owned.update(tp.partition for tp in assigned)
            emit("assigned", partitions=sorted(owned))

    consumer = AIOKafkaConsumer(
        bootstrap_servers=settings["bootstrap"],
        group_id=settings["group"],
        group_instance_id=settings.get("instance_id"),
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        session_timeout_ms=settings["session_timeout_ms"],
        heartbeat_interval_ms=settings["heartbeat_interval_ms"],
        partition_assignment_strategy=[assignors[settings["assignor"]]],
        max_poll_records=200,
        fetch_max_wait_ms=settings.get("fetch_max_wait_ms", 500),
    )
    consumer.subscribe([settings["topic"]], listener=Listener())
    await consumer.start()
    while not STOP["requested"]:
        try:
            batch = await consumer.getmany(timeout_ms=200)
        except KafkaError as exc:
            emit("poll_failed", error=repr(exc))
            await asyncio.sleep(0.2)
            continue
        records = [r for part in batch.values() for r in part]
        if not records:
            continue
        emit("records", items=[[r.partition, r.offset, r.value.decode()] for r in records])
        offsets = {TopicPartition(tp.topic, tp.partition): part[-1].offset + 1 for tp, part in batch.items()}
        try:
            await consumer.commit(offsets)
            emit("committed", offsets={str(tp.partition): o for tp, o in offsets.items()})
        except (CommitFailedError, KafkaError) as exc:
            emit("commit_failed", error=repr(exc))
    await consumer.stop()


def run_confluent(settings: dict[str, Any]) -> None:
    from confluent_kafka import Consumer, KafkaException, TopicPartition

    owned: set[int] = set()
    cooperative = settings["assignor"] == "cooperative-sticky"

    def on_assign(consumer: Any, partitions: list[Any]) -> None:
        if not cooperative:
            owned.clear()
        owned.update(tp.partition for tp in partitions)
        emit("assigned", partitions=sorted(owned))

    def on_revoke(consumer: Any, partitions: list[Any]) -> None:
        owned.difference_update(tp.partition for tp in partitions)
        emit("assigned", partitions=sorted(owned))

    config = {
        "bootstrap.servers": settings["bootstrap"],
        "group.id": settings["group"],
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "session.timeout.ms": settings["session_timeout_ms"],
        "heartbeat.interval.ms": settings["heartbeat_interval_ms"],
        "partition.assignment.strategy": settings["assignor"],
        "topic.metadata.refresh.interval.ms": 2000,
        "reconnect.backoff.max.ms": 1000,
        "fetch.wait.max.ms": settings.get("fetch_max_wait_ms", 500),
    }
    if settings.get("instance_id"):
        config["group.instance.id"] = settings["instance_id"]
    consumer = Consumer(config)
    consumer.subscribe([settings["topic"]], on_assign=on_assign, on_revoke=on_revoke, on_lost=on_revoke)
    while not STOP["requested"]:
        messages = [m for m in consumer.consume(num_messages=200, timeout=0.2) if m.error() is None]
        if not messages:
            continue
        emit("records", items=[[m.partition(), m.offset(), m.value().decode()] for m in messages])
        last: dict[int, int] = {}
        for m in messages:
            last[m.partition()] = max(last.get(m.partition(), -1), m.offset())
        offsets = [TopicPartition(settings["topic"], p, o + 1) for p, o in last.items()]
        try:
            consumer.commit(offsets=offsets, asynchronous=False)
            emit("committed", offsets={str(p): o + 1 for p, o in last.items()})
        except KafkaException as exc:
            emit("commit_failed", error=repr(exc))
    consumer.close()


def main() -> None:
    settings = json.loads(sys.argv[1])
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    for name in ("kafka.coordinator", "kafka.conn", "kafka.client_async", "aiokafka.consumer.group_coordinator"):
        logging.getLogger(name).setLevel(logging.INFO)  # a stuck member's log tells what it was waiting for
    signal.signal(signal.SIGTERM, _on_sigterm)
    client = settings["client"]
    if client == "kafka-python":
        run_kafka_python(settings)
    elif client == "aiokafka":
        asyncio.run(run_aiokafka(settings))
    elif client == "confluent":
        run_confluent(settings)
    else:
        raise SystemExit(f"unknown client {client!r}")
    emit("closed")


if __name__ == "__main__":
    main()
