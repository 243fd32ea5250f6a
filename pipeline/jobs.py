"""Ready jobs: export a store's topics to files, and the migration trial (copy topics between brokers, then
verify them partition by partition).

**Export** streams ``format("rockafka-store")`` into a file sink with ``trigger(availableNow=True)`` and a
checkpoint, so running it again writes only what was appended since, exactly once.

**Copy** streams ``format("rockafka")`` from the source into the target's ``rockafka`` sink, keeping key,
value, headers, timestamp and partition number; it is checkpointed too, so an interrupted copy resumes.
The sink is at-least-once: a batch replayed after a failure can duplicate records, which verification
then reports. With ``exactly_once`` the copy reads read_committed (aborted transactions are not copied, and
each partition up to its last stable offset) and writes with the exactly-once sink, and verification reads
both sides read_committed.

**Verify** reads both sides in full (batch, over the wire) and compares per partition: record count,
first and last offset, and an order-sensitive checksum: ``bit_xor`` over records of
``xxhash64(xxhash64(key, value, to_json(headers), timestamp), n)``, ``n`` the record's position in its
partition (1, 2, ...). XOR cannot overflow (Spark 4 runs with ANSI arithmetic) and the position makes a
swap of two records change it. Offsets themselves are not hashed: a copy starts at offset 0 even when
the source's log starts later. For a partition that differs, the first position whose records differ
is found with a join, and reported with its offset on each side.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import PipelineError, one_line
from .offsets import Bounds
from .progress import Tracker

Progress = Callable[[str], None]
POLL_S = 0.5


@dataclass(frozen=True, slots=True)
class StreamRun:
    batches: int
    rows: int
    seconds: float
    #: Offsets read per partition (``topic-partition``).
    partitions: dict[str, int] = field(default_factory=dict)


def run_available_now(
    query_writer: Any,
    path: str | None,
    what: str,
    progress: Progress | None,
    goal: Bounds | None = None,
    stop_file: Path | None = None,
) -> StreamRun:
    """Start a stream with ``availableNow``, report each micro-batch (:mod:`.progress`; with an ETA when the
    ``goal`` bounds are known), and wait for it to end.

    Ctrl-C creates ``stop_file`` (the source's ``stopFile`` option): the micro-batch in flight completes and
    no other starts, so the checkpoint resumes without a partial batch; a second Ctrl-C, or one without a
    ``stop_file``, stops the query at once (Spark's logging off meanwhile: no Java trace of the interrupted
    batch). Either way ``KeyboardInterrupt`` then goes on up."""
    tracker = Tracker(what, progress, goal)
    writer = query_writer.trigger(availableNow=True)
    query = writer.start(path) if path else writer.start()
    seen, finished = -1, False
    with ctrl_c_noted() as interrupted:
        while not finished and not (interrupted and (stop_file is None or len(interrupted) > 1)):
            if interrupted and stop_file is not None and not stop_file.exists():
                stop_file.touch()
                _say(progress, f"{what}: stopping after the micro-batch in flight (Ctrl-C again to stop at once)")
            finished = query.awaitTermination(POLL_S)
            for report in query.recentProgress:
                if report["batchId"] > seen:
                    seen = report["batchId"]
                    tracker.batch(report)
    if interrupted:
        if not finished:
            stop_quietly(query)
        raise KeyboardInterrupt
    if query.exception() is not None:
        raise PipelineError(f"{what} failed: {one_line(query.exception())}")
    return StreamRun(tracker.batches, tracker.rows, time.monotonic() - tracker.started, tracker.partitions())


def _say(progress: Progress | None, line: str) -> None:
    if progress is not None:
        progress(line)


def stop_quietly(query: Any) -> None:
    from pyspark.sql import SparkSession

    session = SparkSession.getActiveSession()
    if session is not None:
        session.sparkContext.setLogLevel("OFF")
    query.stop()  # returns once the stream's thread has ended
    if session is not None:
        session.sparkContext.setLogLevel("ERROR")  # the pipeline's sessions' level (:mod:`.session`)


def stop_file_of(checkpoint: str) -> Path | None:
    """Where a run's stop file goes: in its checkpoint directory when that is local (removed first: a stale
    one would stop the run at once)."""
    if "://" in checkpoint and not checkpoint.startswith("file://"):
        return None
    stop = Path(checkpoint.removeprefix("file://")) / "rockafka-stop"
    stop.parent.mkdir(parents=True, exist_ok=True)
    stop.unlink(missing_ok=True)
    return stop


@contextlib.contextmanager
def ctrl_c_noted() -> Iterator[list[bool]]:
    """While inside, Ctrl-C (SIGINT) only appends to the yielded list (PySpark's own handler would raise inside
    a Py4J call and log its traces); elsewhere than the main thread, nothing changes."""
    noted: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    previous = signal.signal(signal.SIGINT, lambda number, frame: noted.append(True))
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, previous)


def export_store(
    spark: Any,
    data_dir: str,
    topics: Sequence[str],
    path: str,
    *,
    file_format: str = "parquet",
    checkpoint: str | None = None,
    progress: Progress | None = None,
    max_offsets_per_trigger: int | None = None,
) -> StreamRun:
    """Append the topics' records not exported yet to ``path`` (exactly once, by ``checkpoint``)."""
    reader = (
        spark.readStream.format("rockafka-store")
        .option("subscribe", ",".join(topics))
        .option("startingOffsets", "earliest")
        .option("includeHeaders", "true")
    )
    if max_offsets_per_trigger:
        reader = reader.option("maxOffsetsPerTrigger", str(max_offsets_per_trigger))
    checkpoint = checkpoint or f"{path.rstrip('/')}/_checkpoint"
    stop = stop_file_of(checkpoint)
    if stop is not None:
        reader = reader.option("stopFile", str(stop))
    writer = reader.load(data_dir).writeStream.format(file_format).option("checkpointLocation", checkpoint)
    return run_available_now(writer, path, "export", progress, stop_file=stop)


def copy_topics(
    spark: Any,
    source: Mapping[str, str],
    target: Mapping[str, str],
    topics: Sequence[str],
    *,
    checkpoint: str,
    progress: Progress | None = None,
    max_offsets_per_trigger: int | None = None,
    exactly_once: bool = False,
    goal: Bounds | None = None,
) -> StreamRun:
    """Copy the topics' records from ``source`` to ``target`` (each the ``kafka.*`` options of its broker, as
    ``{"kafka.bootstrap.servers": "host:port"}``), same partition numbers."""
    reader = (
        spark.readStream.format("rockafka")
        .options(**source)
        .option("subscribe", ",".join(topics))
        .option("startingOffsets", "earliest")
        .option("includeHeaders", "true")
        .option("kafka.isolation.level", _isolation(exactly_once))
    )
    if max_offsets_per_trigger:
        reader = reader.option("maxOffsetsPerTrigger", str(max_offsets_per_trigger))
    stop = stop_file_of(checkpoint)
    if stop is not None:
        reader = reader.option("stopFile", str(stop))
    writer = (
        reader.load().select("topic", "partition", "key", "value", "headers", "timestamp")
        .writeStream.format("rockafka").options(**target)
        .option("exactlyOnce", str(exactly_once).lower()).option("checkpointLocation", checkpoint)
    )  # fmt: skip
    return run_available_now(writer, None, "copy", progress, goal, stop)


def _isolation(committed: bool) -> str:
    return "read_committed" if committed else "read_uncommitted"


@dataclass(frozen=True, slots=True)
class Side:
    """One side's summary of a partition."""

    count: int
    min_offset: int | None
    max_offset: int | None
    checksum: int | None
    #: Bytes of keys and values.
    bytes: int = 0


@dataclass(frozen=True, slots=True)
class PartitionCheck:
    topic: str
    partition: int
    source: Side
    target: Side
    #: Where the records first differ: (position from 1, source offset, target offset); None when equal.
    first_difference: tuple[int, int | None, int | None] | None

    @property
    def equal(self) -> bool:
        return self.first_difference is None


def read_all(spark: Any, options: Mapping[str, str], topics: Sequence[str], committed: bool) -> Any:
    """Every record of the topics, batch, over the wire (``options``: the broker's ``kafka.*`` options)."""
    return (
        spark.read.format("rockafka").options(**options)
        .option("subscribe", ",".join(topics)).option("includeHeaders", "true")
        .option("kafka.isolation.level", _isolation(committed)).load()
    )  # fmt: skip


def _hashed(frame: Any) -> Any:
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    position = F.row_number().over(Window.partitionBy("topic", "partition").orderBy("offset"))
    record = F.xxhash64("key", "value", F.to_json("headers"), "timestamp")
    size = F.coalesce(F.length("key"), F.lit(0)) + F.coalesce(F.length("value"), F.lit(0))
    columns = ("topic", "partition", "offset", position.alias("n"), record.alias("h"), size.alias("size"))
    return frame.select(*columns).withColumn("rh", F.xxhash64("h", "n"))


def _summaries(hashed: Any) -> dict[tuple[str, int], Side]:
    from pyspark.sql import functions as F

    rows = hashed.groupBy("topic", "partition").agg(
        F.count("*").alias("c"),
        F.min("offset").alias("lo"),
        F.max("offset").alias("hi"),
        F.bit_xor("rh").alias("x"),
        F.sum("size").alias("b"),
    )
    return {(r["topic"], r["partition"]): Side(r["c"], r["lo"], r["hi"], r["x"], r["b"] or 0) for r in rows.collect()}


def _first_difference(source: Any, target: Any, topic: str, partition: int) -> tuple[int, int | None, int | None]:
    from pyspark.sql import functions as F

    def side(frame: Any, name: str) -> Any:
        kept = frame.where((F.col("topic") == topic) & (F.col("partition") == partition))
        return kept.select("n", F.col("offset").alias(f"{name}_offset"), F.col("h").alias(f"{name}_h"))

    joined = side(source, "s").join(side(target, "t"), "n", "full_outer")
    differs = joined.where(~F.col("s_h").eqNullSafe(F.col("t_h"))).orderBy("n").limit(1).collect()
    if not differs:
        raise PipelineError(f"{topic}-{partition}: checksums differ but no record does")
    row = differs[0]
    return row["n"], row["s_offset"], row["t_offset"]


def verify_topics(
    spark: Any,
    source: Mapping[str, str],
    target: Mapping[str, str],
    topics: Sequence[str],
    progress: Progress | None = None,
    committed: bool = False,
) -> list[PartitionCheck]:
    """Compare every partition of the topics on both sides (see the module docstring), read_committed when
    ``committed``."""
    hashed_source = _hashed(read_all(spark, source, topics, committed)).cache()
    hashed_target = _hashed(read_all(spark, target, topics, committed)).cache()
    try:
        if progress is not None:
            progress("verify: summarising the source")
        source_sides = _summaries(hashed_source)
        if progress is not None:
            progress("verify: summarising the target")
        target_sides = _summaries(hashed_target)
        empty = Side(0, None, None, None)
        checks = []
        for topic, partition in sorted(set(source_sides) | set(target_sides)):
            s = source_sides.get((topic, partition), empty)
            t = target_sides.get((topic, partition), empty)
            same = s.count == t.count and s.checksum == t.checksum
            difference = None if same else _first_difference(hashed_source, hashed_target, topic, partition)
            checks.append(PartitionCheck(topic, partition, s, t, difference))
        return checks
    finally:
        hashed_source.unpersist()
        hashed_target.unpersist()


def report_document(source: str, target: str, topics: Sequence[str], checks: Sequence[PartitionCheck],
                    copied: StreamRun | None) -> dict[str, Any]:  # fmt: skip
    """The migration report as a JSON-ready document."""
    return {
        "source": source,
        "target": target,
        "topics": list(topics),
        "copied": None if copied is None else copy_summary(copied, checks),
        "equal": all(check.equal for check in checks),
        "partitions": [{**asdict(check), "equal": check.equal} for check in checks],
    }


def copy_summary(copied: StreamRun, checks: Sequence[PartitionCheck]) -> dict[str, Any]:
    """The copy's figures: its run, the bytes (keys and values) of what it copied, measured by verification, and
    the rates."""
    copied_bytes = sum(check.target.bytes for check in checks)
    seconds = max(copied.seconds, 1e-9)
    return {**asdict(copied), "bytes": copied_bytes, "rows_per_s": round(copied.rows / seconds),
            "mb_per_s": round(copied_bytes / seconds / 1e6, 3)}  # fmt: skip


def report_table(checks: Sequence[PartitionCheck]) -> str:
    """The per-partition report as a text table."""
    lines = [f"{'PARTITION':<28} {'SOURCE':>10} {'TARGET':>10} {'SOURCE OFFSETS':>20} {'TARGET OFFSETS':>20}  RESULT"]
    for c in checks:
        span_s = f"{c.source.min_offset}..{c.source.max_offset}" if c.source.count else "-"
        span_t = f"{c.target.min_offset}..{c.target.max_offset}" if c.target.count else "-"
        if c.first_difference is None:
            result = "equal"
        else:
            n, at_s, at_t = c.first_difference
            result = f"DIFFERS at record {n} (source offset {at_s}, target offset {at_t})"
        name = f"{c.topic}-{c.partition}"
        lines.append(f"{name:<28} {c.source.count:>10} {c.target.count:>10} {span_s:>20} {span_t:>20}  {result}")
    return "\n".join(lines)
