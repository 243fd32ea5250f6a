"""The Kafka client side of the ``rockafka`` format: kafka-python, on the driver for offsets and in the
executors for reads and writes.

``kafka.*`` options pass through to kafka-python with Spark's (Java client's) names turned into
kafka-python's: drop ``kafka.``, ``.`` becomes ``_`` (``kafka.bootstrap.servers`` → ``bootstrap_servers``,
``kafka.security.protocol`` → ``security_protocol``, ``kafka.sasl.plain.username`` and so on). Values are
converted to the type of kafka-python's default (``kafka.api.version=2.8.0`` becomes a tuple). A name
kafka-python does not know is an error, and so are the settings Spark's Kafka source refuses because
the source manages them itself (deserializers, ``auto.offset.reset``, ``enable.auto.commit``,
``group.id`` for reads).

Clients are created lazily and never pickled: executors keep one consumer and one producer per
configuration in a module-level cache (Spark reuses Python workers, so tasks share them).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any, Literal

from .clientprops import JAVA_ONLY, java_security
from .errors import OptionError, PipelineError
from .offsets import Bounds, OffsetRange, TopicPartition
from .schema import BATCH_ROWS, ArrowRows

#: Settings Spark's Kafka source refuses (it manages them); kafka-python spellings.
MANAGED = {
    "consumer": ("group_id", "auto_offset_reset", "enable_auto_commit", "key_deserializer", "value_deserializer"),
    "producer": ("key_serializer", "value_serializer"),
}
Kind = Literal["consumer", "producer"]


def client_config(options: Mapping[str, str], kind: Kind) -> dict[str, Any]:
    """kafka-python settings from the ``kafka.*`` options (folded to lower case, as Spark passes them)."""
    from kafka import KafkaConsumer, KafkaProducer

    defaults = (KafkaConsumer if kind == "consumer" else KafkaProducer).DEFAULT_CONFIG
    config: dict[str, Any] = java_security(options)
    for name, text in options.items():
        if not name.startswith("kafka.") or name in JAVA_ONLY:
            continue
        key = name[len("kafka.") :].replace(".", "_")
        if key in MANAGED[kind]:
            raise OptionError(f"option {name} is not supported: the {kind} manages it itself")
        if key not in defaults:
            raise OptionError(f"option {name}: kafka-python's {kind} has no setting {key!r}")
        config[key] = _typed(name, text, defaults[key])
    if "bootstrap_servers" not in config:
        raise OptionError("option kafka.bootstrap.servers is required")
    return config


def _typed(name: str, text: str, default: Any) -> Any:
    try:
        if name == "kafka.api.version":
            return tuple(int(part) for part in text.split("."))
        if name == "kafka.acks":
            return text if text == "all" else int(text)
        if isinstance(default, bool):
            if text.lower() not in ("true", "false"):
                raise ValueError
            return text.lower() == "true"
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except ValueError:
        raise OptionError(f"option {name} has a bad value {text!r}") from None
    return text


def _consumer(config: Mapping[str, Any]) -> Any:
    from kafka import KafkaConsumer

    settings = {"enable_auto_commit": False, "allow_auto_create_topics": False, "auto_offset_reset": "none"}
    return KafkaConsumer(**{**settings, **config, "group_id": None})


class OffsetOracle:
    """Driver side: topics, partitions and offsets through one lazily created consumer."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = dict(config)
        self._client: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config, "_client": None}

    def _consumer(self) -> Any:
        if self._client is None:
            try:
                self._client = _consumer(self.config)
            except Exception as exc:
                raise PipelineError(f"cannot reach {self.config['bootstrap_servers']}: {exc}") from exc
        return self._client

    def partition_counts(self) -> dict[str, int]:
        consumer = self._consumer()
        return {topic: len(consumer.partitions_for_topic(topic) or ()) for topic in consumer.topics()}

    def bounds(self, partitions: list[TopicPartition]) -> Bounds:
        from kafka import TopicPartition as KafkaTP

        if not partitions:
            return Bounds({}, {})
        consumer = self._consumer()
        wanted = [KafkaTP(tp.topic, tp.partition) for tp in partitions]
        earliest = consumer.beginning_offsets(wanted)
        latest = consumer.end_offsets(wanted)
        return Bounds(
            {TopicPartition(k.topic, k.partition): int(v) for k, v in earliest.items()},
            {TopicPartition(k.topic, k.partition): int(v) for k, v in latest.items()},
        )

    def offsets_for_times(self, times: Mapping[TopicPartition, int]) -> dict[TopicPartition, int | None]:
        from kafka import TopicPartition as KafkaTP

        found = self._consumer().offsets_for_times({KafkaTP(tp.topic, tp.partition): ms for tp, ms in times.items()})
        return {TopicPartition(k.topic, k.partition): (None if v is None else int(v.offset)) for k, v in found.items()}

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


_CONSUMERS: dict[str, Any] = {}
_PRODUCERS: dict[str, Any] = {}


def _cached(cache: dict[str, Any], config: Mapping[str, Any], make: Any) -> Any:
    key = repr(sorted(config.items()))
    if key not in cache:
        cache[key] = make(config)
    return cache[key]


def read_range(config: Mapping[str, Any], task: OffsetRange, include_headers: bool, timeout_ms: int) -> Iterator[Any]:
    """Executor side: Arrow batches of offsets ``[start, end)`` of one partition, in order."""
    from kafka import TopicPartition as KafkaTP

    consumer = _cached(_CONSUMERS, config, _consumer)
    tp = KafkaTP(task.topic, task.partition)
    consumer.assign([tp])
    consumer.seek(tp, task.start)
    rows = ArrowRows(task.topic, task.partition, include_headers)
    position, deadline = task.start, time.monotonic() + timeout_ms / 1000
    while position < task.end:
        for record in consumer.poll(timeout_ms=min(timeout_ms, 1000), max_records=BATCH_ROWS).get(tp, ()):
            if record.offset >= task.end:
                break
            rows.add(record.offset, record.timestamp, record.key, record.value, record.headers, record.timestamp_type)
        advanced = consumer.position(tp)
        if advanced > position:
            position, deadline = advanced, time.monotonic() + timeout_ms / 1000
        elif time.monotonic() > deadline:
            raise PipelineError(
                f"{task.topic}-{task.partition}: no progress past offset {position} (reading up to {task.end}) "
                f"within kafkaConsumer.pollTimeoutMs={timeout_ms}"
            )
        if len(rows) >= BATCH_ROWS:
            yield rows.take()
    yield from rows.drain()


#: The sink's producer settings unless the ``kafka.*`` options say otherwise: acks=all, and batches of up to 256 KiB
#: (kafka-python's 16 KiB default wakes its sender thread and sends a request every ~140 records of 100 bytes;
#: measured in ``bench/migrate.py``). ``flush()`` ends every task's sends, so ``linger.ms`` adds no delay there.
PRODUCER_DEFAULTS = {"acks": "all", "batch_size": 256 * 1024, "linger_ms": 5}


def producer(config: Mapping[str, Any]) -> Any:
    """Executor side: the cached producer for ``config`` (:data:`PRODUCER_DEFAULTS` under it)."""
    from kafka import KafkaProducer

    return _cached(_PRODUCERS, {**PRODUCER_DEFAULTS, **config}, lambda c: KafkaProducer(**c))


def offset_bounds(config: Mapping[str, Any], partitions: list[TopicPartition]) -> Bounds:
    """The partitions' earliest and latest (high watermark) offsets now."""
    oracle = OffsetOracle(config)
    try:
        return oracle.bounds(partitions)
    finally:
        oracle.close()
