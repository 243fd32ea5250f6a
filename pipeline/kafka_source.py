"""``format("rockafka")``: Spark's Kafka source and sink over the Kafka protocol, for Rockafka or any Kafka.

::

    spark.readStream.format("rockafka").option("kafka.bootstrap.servers", "127.0.0.1:9092")
        .option("subscribe", "orders").option("startingOffsets", "earliest").load()
    df.write.format("rockafka").option("kafka.bootstrap.servers", "127.0.0.1:9092").option("topic", "out").save()

**Source.** Spark's Kafka source schema (:mod:`.schema`), option names (:mod:`.options`,
``kafkaConsumer.pollTimeoutMs`` too) and offsets JSON (:mod:`.offsets`), so a job ports by changing the
format string. Each task reads one offset range with a kafka-python consumer (:mod:`.wire`). A stream's
offsets live in Spark's checkpoint: after a restart Spark replays the last planned batch with the same
offsets, so reads are exactly-once.

**Sink.** The columns of Spark's Kafka sink: ``value`` (binary or string, required), ``key`` (binary or
string), ``topic`` (string; the ``topic`` option wins over it), ``partition`` (int; null lets the producer's
partitioner choose), ``headers`` (``array<struct<key:string,value:binary>>``), plus ``timestamp``
(timestamp; null or absent: the producer's clock), which Spark's sink does not take and migrations need.
Each task produces with ``acks=all`` and waits for every acknowledgement before it reports success: the
sink is at-least-once (a retried task or replayed batch produces again), as Spark's Kafka sink is.
With ``exactlyOnce=true`` (streaming writes; ``transactionalIdPrefix``, default ``rockafka-sink-``) each task
writes in a Kafka transaction with a marker of its micro-batch, and a replayed micro-batch writes nothing twice
(:mod:`.exactly_once`). Batch writes only append (``mode("append")``). With ``offsetSyncFile`` (streaming writes, a
Rockafka extension for the mirror) and an ``offset`` column holding each row's source offset, every micro-batch
appends to that file which target offset each source record got (:mod:`.offsetsyncs`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamArrowWriter,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    DataSourceWriter,
    InputPartition,
    WriterCommitMessage,
)
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from .admin import ensure_sink_topic
from .errors import OptionError, PipelineError
from .exactly_once import ExactlyOnce, Send, exactly_once_settings, produce_transactionally
from .offsets import Bounds, OffsetRange, TimeLookup, TopicPartition
from .offsetsyncs import TaskRuns, append_line, task_runs
from .optionnames import KAFKA_SINK, KAFKA_SOURCE, check_names
from .options import admitted, flag, fold, positive_int, read_committed, read_settings
from .planning import OffsetPlanner, StreamPlanner
from .schema import kafka_schema
from .wire import OffsetOracle, client_config, producer, read_range

DEFAULT_POLL_TIMEOUT_MS = 120_000
SEND_CHUNK = 10_000


class _WirePlanning(OffsetPlanner):
    def __init__(self, options: dict[str, str], *, streaming: bool) -> None:
        check_names(options, KAFKA_SOURCE, "the rockafka source")
        self.settings = read_settings(options, streaming=streaming)
        read_committed(options, "read_uncommitted")  # a bad kafka.isolation.level fails here, in one line
        self.config = client_config(options, "consumer")
        self.timeout_ms = positive_int(options, "kafkaConsumer.pollTimeoutMs") or DEFAULT_POLL_TIMEOUT_MS
        self.oracle = OffsetOracle(self.config)

    def _bounds(self) -> Bounds:
        selection = self.settings.selection
        counts = {} if selection.assign else admitted(self.oracle.partition_counts(), self.settings.partitions_file)
        return self.oracle.bounds(selection.partitions(counts))

    def _by_time(self) -> TimeLookup:
        return self.oracle.offsets_for_times

    def _tasks(self, ranges: list[OffsetRange]) -> list[InputPartition]:
        return [InputPartition(r) for r in ranges]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        if isinstance(partition.value, OffsetRange):
            yield from read_range(self.config, partition.value, self.settings.include_headers, self.timeout_ms)


class KafkaBatchReader(_WirePlanning, DataSourceReader):
    def partitions(self) -> list[InputPartition]:
        try:
            return self.batch_tasks()
        finally:
            self.oracle.close()


class KafkaStreamReader(_WirePlanning, StreamPlanner, DataSourceStreamReader, SupportsTriggerAvailableNow):
    def stop(self) -> None:
        self.oracle.close()


@dataclass
class Produced(WriterCommitMessage):
    records: int
    #: exactlyOnce: the task's output of this micro-batch was committed before (a replay wrote nothing).
    skipped: bool = False
    #: offsetSyncFile: the task's source-to-target offset runs.
    runs: TaskRuns | None = None


class _Sink:
    """What every writer task needs: the producer settings and how to read the DataFrame's columns."""

    def __init__(self, options: dict[str, str], schema: Any) -> None:
        check_names(options, KAFKA_SINK, "the rockafka sink")
        self.config = client_config(options, "producer")
        self.exactly_once: ExactlyOnce | None = exactly_once_settings(options, self.config)
        self.topic = options.get("topic")
        types = {field.name.lower(): field.dataType.simpleString() for field in schema.fields}
        if "value" not in types:
            raise OptionError("the sink needs a value column (binary or string)")
        if self.topic is None and "topic" not in types:
            raise OptionError("the sink needs a topic column or the topic option")
        expected = {
            "value": ("binary", "string"),
            "key": ("binary", "string"),
            "topic": ("string",),
            "partition": ("int",),
            "timestamp": ("timestamp",),
            "headers": ("array<struct<key:string,value:binary>>",),
        }
        for name, allowed in expected.items():
            if name in types and types[name] not in allowed:
                raise OptionError(f"sink column {name} must be {' or '.join(allowed)}, not {types[name]}")
        self.sync_file = options.get("offsetsyncfile")
        if self.sync_file is not None:
            if types.get("offset") != "bigint":
                raise OptionError("offsetSyncFile needs an offset column (long): each row's source offset")
            expected["offset"] = ("bigint",)
        self.columns = {name: types[name] for name in expected if name in types}
        partitions = positive_int(options, "topicPartitions")
        if partitions is not None and self.topic is None:
            raise OptionError("topicPartitions needs the topic option")
        if self.topic is not None and ("partition" in types or partitions is not None):
            ensure_sink_topic(self.config, self.topic, partitions)

    def produce(self, batches: Iterator[Any]) -> Produced:
        sends = (send for batch in batches for send in _rows(batch, self.columns, self.topic))
        sent = _Sent(tracking=self.sync_file is not None)
        if self.exactly_once is not None:
            outcome = produce_transactionally(self.exactly_once, self.config, sends, sent.send_all)
            return Produced(outcome.records, outcome.skipped, sent.runs())
        return Produced(sent.send_all(producer(self.config), sends), runs=sent.runs())


class _Sent:
    """Sends every record and waits for every acknowledgement; with ``tracking``, keeps each record's source and
    target offsets (the ``source_offset`` of its send, the offset of its acknowledgement)."""

    def __init__(self, *, tracking: bool) -> None:
        self.tracking = tracking
        self.pairs: dict[TopicPartition, list[tuple[int, int]]] = {}

    def send_all(self, client: Any, sends: Iterator[Send]) -> int:
        """The number sent."""
        futures: list[Any] = []
        sources: list[int | None] = []
        count = 0
        for topic, value, key, headers, partition, timestamp_ms, source_offset in sends:
            try:
                futures.append(client.send(topic, value, key, headers, partition, timestamp_ms))
            except ValueError as exc:  # kafka-python: no such partition
                raise PipelineError(f"cannot produce to {topic}: {exc}") from exc
            if self.tracking:
                sources.append(source_offset)
            if len(futures) >= SEND_CHUNK:
                count += self._settle(client, futures, sources)
        return count + self._settle(client, futures, sources)

    def _settle(self, client: Any, futures: list[Any], sources: list[int | None]) -> int:
        count = _settle(client, futures)
        for future, source_offset in zip(futures, sources, strict=False):
            acknowledged = future.value
            tp = TopicPartition(acknowledged.topic, acknowledged.partition)
            self.pairs.setdefault(tp, []).append((source_offset or 0, acknowledged.offset))
        futures.clear()
        sources.clear()
        return count

    def runs(self) -> TaskRuns | None:
        return task_runs(self.pairs) if self.tracking else None


def _rows(batch: Any, columns: Mapping[str, str], topic: str | None) -> Iterator[Send]:
    """The records of an Arrow batch, column by column into Python lists, then zipped (no per-row dictionary)."""
    import pyarrow as pa

    count = batch.num_rows

    def column(name: str, convert: Any = None) -> list[Any]:
        if name not in columns:
            return [None] * count
        data = batch.column(batch.schema.get_field_index(name))
        return (convert(data) if convert else data).to_pylist()  # type: ignore[no-any-return]

    topics = [topic] * count if topic is not None else column("topic")
    if None in topics:
        raise PipelineError("a row has a null topic and the topic option is not set")
    values, keys = column("value"), column("key")
    if columns.get("value") == "string" or columns.get("key") == "string":
        values, keys = [_bytes(v) for v in values], [_bytes(k) for k in keys]
    headers = [[(h["key"], h["value"]) for h in row] if row else None for row in column("headers")]
    stamps = [None if t is None else t // 1000 for t in column("timestamp", lambda c: c.cast(pa.int64()))]
    return zip(topics, values, keys, headers, column("partition"), stamps, column("offset"), strict=True)


def _bytes(value: bytes | str | None) -> bytes | None:
    return value.encode() if isinstance(value, str) else value


def _settle(client: Any, futures: list[Any]) -> int:
    """Flush and wait for every send; the first failure fails the task."""
    client.flush()
    for future in futures:
        try:
            future.get(timeout=0)
        except Exception as exc:
            raise PipelineError(f"producing failed: {exc}") from exc
    return len(futures)


class KafkaBatchWriter(DataSourceArrowWriter):
    def __init__(self, sink: _Sink) -> None:
        self.sink = sink

    def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
        return self.sink.produce(iterator)


class KafkaStreamWriter(DataSourceStreamArrowWriter):
    def __init__(self, sink: _Sink) -> None:
        self.sink = sink

    def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
        return self.sink.produce(iterator)

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        """Every task waited for its acknowledgements (and committed its transaction); with ``offsetSyncFile``, the
        micro-batch's offset runs are appended to it."""
        if self.sink.sync_file is not None:
            runs = [m.runs for m in messages if isinstance(m, Produced) and m.runs]
            append_line(Path(self.sink.sync_file), batchId, runs)

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        """Records already produced stay (at-least-once; exactlyOnce: committed transactions stay, and their
        markers make the replay skip them); the batch is replayed from the checkpoint."""


class RockafkaDataSource(DataSource):
    """Registered as ``rockafka``."""

    @classmethod
    def name(cls) -> str:
        return "rockafka"

    def schema(self) -> str:
        return kafka_schema(flag(fold(self.options), "includeHeaders", False))

    def reader(self, schema: Any) -> DataSourceReader:
        return KafkaBatchReader(fold(self.options), streaming=False)

    def streamReader(self, schema: Any) -> DataSourceStreamReader:
        return KafkaStreamReader(fold(self.options), streaming=True)

    def writer(self, schema: Any, overwrite: bool) -> DataSourceWriter:
        if overwrite:
            raise OptionError("the rockafka sink only appends: use mode('append')")
        sink = _Sink(fold(self.options), schema)
        if sink.exactly_once is not None:
            raise OptionError("exactlyOnce is for streaming writes (writeStream): a batch write has no micro-batch id")
        return KafkaBatchWriter(sink)

    def streamWriter(self, schema: Any, overwrite: bool) -> DataSourceStreamWriter:
        return KafkaStreamWriter(_Sink(fold(self.options), schema))
