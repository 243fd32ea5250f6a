"""``rockafka pipeline mirror``: keep a target following a source, live, for trials that run beside production.

One Spark Structured Streaming query (a processing-time trigger) reads every topic whose name matches the
pattern from the source (``subscribePattern``, read_committed) and writes each record to the same topic and
partition on the target, with its key, value, headers and timestamp. Around it the driver, between micro-batches:

- **Topics** (every ``topics_every_s``): topics matching the pattern that are new on the source are created on
  the target with their partition count and config overrides; a target topic with fewer partitions than its
  source is grown (CreatePartitions); a config override that differs is set. Only then are they admitted to
  the stream (the source's ``partitionsFile``), so the sink never writes to a partition the target lacks
  (which a broker would auto-create with its own partition count). A config override removed on the source
  stays on the target; a topic deleted on the source stays too.
- **Records, exactly once**: the sink writes each Spark task's records of a micro-batch in one Kafka
  transaction with a marker of the micro-batch (:mod:`.exactly_once`), so a micro-batch replayed after a
  failure or a restart writes nothing twice; read_committed readers of the target see every source record
  (committed ones; aborted source transactions are not copied) once, in order. Target offsets differ from the
  source's (each transaction adds a marker), so the sink records which target offset each source record got
  (:mod:`.offsetsyncs`, the checkpoint's ``offset-syncs.jsonl``).
- **Consumer groups** (every ``groups_every_s``, and once more when the mirror stops): every group with
  committed offsets on the mirrored topics, that has no members on the target, gets them on the target
  translated through the offset syncs; an offset the mirror has not copied up to yet waits for the next sync,
  and a group whose target offset is already further (it consumed there) is left alone.
- **Lag**: per partition the source's end offset minus the offset mirrored up to, in a line per micro-batch
  and in the JSON status file (rewritten every second, atomically).

It runs until Ctrl-C, ``duration_s``, or a file ``rockafka-stop`` appears in the checkpoint: then no further
micro-batch starts, the one in flight completes, groups are synced a last time, and the status says
``stopped``. Running it again with the same checkpoint resumes where it stopped.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .admin import Admin
from .errors import PipelineError, one_line
from .jobs import POLL_S, ctrl_c_noted, stop_file_of, stop_quietly
from .migration import Endpoint, differing
from .offsets import Offsets, TopicPartition, offsets_from_json
from .offsetsyncs import OffsetSyncs
from .wire import OffsetOracle

Say = Callable[[str], None]
TRANSACTIONAL_PREFIX = "rockafka-mirror-"
PARTITIONS_FILE = "rockafka-mirror-partitions.json"
SYNCS_FILE = "offset-syncs.jsonl"
STATUS_EVERY_S = 1.0
STOP_WAIT_S = 120.0


@dataclass(frozen=True, slots=True)
class MirrorSettings:
    pattern: str
    checkpoint: Path
    status: Path
    trigger_s: float = 1.0
    topics_every_s: float = 10.0
    groups_every_s: float = 30.0
    duration_s: float | None = None
    max_offsets_per_trigger: int | None = None


@dataclass
class MirrorState:
    """What the driver knows while the mirror runs."""

    topics: dict[str, int] = field(default_factory=dict)
    #: Per partition, the source offset the mirror has copied up to (the last micro-batch's end).
    mirrored: Offsets = field(default_factory=dict)
    lag: dict[TopicPartition, int] = field(default_factory=dict)
    #: Why the last lag measure failed (None: it did not).
    lag_error: str | None = None
    groups: dict[str, Any] = field(default_factory=dict)
    batches: int = 0
    rows: int = 0
    last_batch_at: str | None = None
    #: Where the last micro-batch's time went, in ms (Spark's ``durationMs``: latestOffset, queryPlanning,
    #: walCommit, addBatch, commitOffsets, triggerExecution for all of it).
    last_batch_ms: dict[str, int] = field(default_factory=dict)
    #: The same, summed over every micro-batch with rows of this run.
    batches_ms: dict[str, int] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)


class Mirror:
    def __init__(self, source: Endpoint, target: Endpoint, admins: tuple[Admin, Admin], settings: MirrorSettings,
                 say: Say) -> None:  # fmt: skip
        try:
            self.pattern = re.compile(settings.pattern)
        except re.error as exc:
            raise PipelineError(f"the topic pattern {settings.pattern!r} is not a regular expression: {exc}") from None
        self.source, self.target = source, target
        self.source_admin, self.target_admin = admins
        self.settings = settings
        self.say = say
        self.state = MirrorState()
        self.syncs = OffsetSyncs(settings.checkpoint / SYNCS_FILE)
        #: The source client that measures the lag, and the topics it was made for (a new one when they change, so
        #: that it knows partitions added since; one client a second would cost the driver a connection each time).
        self._lag_client: tuple[OffsetOracle, dict[str, int]] | None = None

    # --- topics ---

    def reconcile_topics(self) -> None:
        """Create, grow and configure the target's topics, then admit them to the stream."""
        matching = sorted(t for t in self.source_admin.partition_counts() if self._mirrored(t))
        specs = self.source_admin.topic_specs(matching)
        existing = self.target_admin.topic_specs(matching)
        missing = {t: s for t, s in specs.items() if t not in existing}
        grow = {t: s.partitions for t, s in specs.items() if t in existing and existing[t].partitions < s.partitions}
        configs = {t: differing(s, existing[t]) for t, s in specs.items() if t in existing}
        self.target_admin.create_topics(missing)
        self.target_admin.add_partitions(grow)
        self.target_admin.set_configs(configs)
        for topic, spec in sorted(missing.items()):
            self.say(f"mirror: topic {topic} created on the target ({spec.partitions} partitions)")
        for topic, count in sorted(grow.items()):
            self.say(f"mirror: topic {topic} grown to {count} partitions on the target")
        for topic, changed in sorted(configs.items()):
            if changed:
                self.say(f"mirror: topic {topic} configs set on the target: {changed}")
        self.state.topics = {t: s.partitions for t, s in sorted(specs.items())}
        _write_atomically(self.settings.checkpoint / PARTITIONS_FILE, self.state.topics)

    def resume_position(self) -> None:
        """How far an earlier run got: the offsets of the last micro-batch its checkpoint says was committed."""
        self.state.mirrored.update(checkpointed_offsets(self.settings.checkpoint))

    def _mirrored(self, topic: str) -> bool:
        return not topic.startswith("__") and self.pattern.fullmatch(topic) is not None

    # --- the stream ---

    def start(self, spark: Any, stop: Path | None) -> Any:
        reader = (
            spark.readStream.format("rockafka").options(**self.source.options)
            .option("subscribePattern", self.settings.pattern).option("startingOffsets", "earliest")
            .option("includeHeaders", "true").option("kafka.isolation.level", "read_committed")
            .option("partitionsFile", str(self.settings.checkpoint / PARTITIONS_FILE))
        )  # fmt: skip
        if self.settings.max_offsets_per_trigger:
            reader = reader.option("maxOffsetsPerTrigger", str(self.settings.max_offsets_per_trigger))
        if stop is not None:
            reader = reader.option("stopFile", str(stop))
        columns = ("topic", "partition", "key", "value", "headers", "timestamp", "offset")
        return (
            reader.load().select(*columns).writeStream.format("rockafka").options(**self.target.options)
            .option("exactlyOnce", "true").option("transactionalIdPrefix", TRANSACTIONAL_PREFIX)
            .option("offsetSyncFile", str(self.syncs.path))
            .option("checkpointLocation", str(self.settings.checkpoint))
            .trigger(processingTime=f"{self.settings.trigger_s} seconds").start()
        )  # fmt: skip

    def note_position(self, report: dict[str, Any]) -> tuple[Offsets, Offsets]:
        """The micro-batch's start and end offsets; the end is how far the mirror has got."""
        sources = report.get("sources") or []
        end = _offsets(sources[0].get("endOffset")) if sources else {}
        begin = _offsets(sources[0].get("startOffset")) if sources else {}
        self.state.mirrored.update(end)
        return begin, end

    def batch(self, report: dict[str, Any]) -> None:
        """Note a completed micro-batch and say its line."""
        begin, end = self.note_position(report)
        self.state.batches += 1
        self.state.rows += int(report["numInputRows"])
        self.state.last_batch_at = report.get("timestamp")
        self.state.last_batch_ms = {k: int(v) for k, v in sorted((report.get("durationMs") or {}).items())}
        for phase, ms in self.state.last_batch_ms.items():
            self.state.batches_ms[phase] = self.state.batches_ms.get(phase, 0) + ms
        self.measure_lag()
        moved = ", ".join(
            f"{tp.topic}-{tp.partition} " + (f"+{end[tp] - begin[tp]}" if tp in begin else f"up to {end[tp]}")
            for tp in sorted(end)
            if end[tp] != begin.get(tp)
        )
        lag = sum(self.state.lag.values())
        took = self.state.last_batch_ms.get("triggerExecution")
        self.say(
            f"mirror: batch {report['batchId']}: {report['numInputRows']} rows ({moved or 'none'}), lag {lag}"
            + ("" if took is None else f", {took / 1000:.2f} s")
        )

    def measure_lag(self) -> None:
        partitions = [TopicPartition(t, p) for t, n in self.state.topics.items() for p in range(n)]
        if self._lag_client is not None and self._lag_client[1] != self.state.topics:
            self.close()
        if self._lag_client is None:
            self._lag_client = (OffsetOracle(self.source.config()), dict(self.state.topics))
        try:
            bounds = self._lag_client[0].bounds(partitions)
        except Exception as exc:  # a source that does not answer now: the status says so, the mirror goes on
            self.close()
            self.state.lag_error = f"cannot measure the lag: {one_line(exc)}"
            return
        self.state.lag_error = None
        self.state.lag = {
            tp: max(0, end - self.state.mirrored.get(tp, bounds.earliest.get(tp, 0)))
            for tp, end in bounds.latest.items()
        }

    def close(self) -> None:
        """Close the lag's client (the next measure makes a new one)."""
        if self._lag_client is not None:
            self._lag_client[0].close()
            self._lag_client = None

    # --- groups ---

    def sync_groups(self) -> None:
        """Commit the source groups' offsets, translated, on the target (module docstring)."""
        self.syncs.refresh()
        topics = set(self.state.topics)
        groups = {g: o for g, o in self.source_admin.group_offsets(sorted(topics)).items()
                  if not g.startswith(TRANSACTIONAL_PREFIX)}  # fmt: skip
        active = self.target_admin.active_groups(list(groups))
        for group, offsets in sorted(groups.items()):
            if group in active:
                self.state.groups[group] = {"skipped": "the group has members on the target"}
                continue
            current = self.target_admin.committed(group, topics)
            entries, commit = {}, {}
            for tp, committed in sorted(offsets.items()):
                translated = self.syncs.translate(tp, committed, self.state.mirrored.get(tp, -1))
                entry: dict[str, Any] = {"source": committed, "target": translated}
                if translated is None:
                    entry["how"] = "waiting: the mirror has not copied up to it yet"
                elif current.get(tp, -1) > translated:
                    entry.update(target=current[tp], how="kept: the group is further on the target")
                else:
                    entry["how"] = "preserved" if translated == committed else "translated"
                    if current.get(tp) != translated:
                        commit[tp] = translated
                entries[f"{tp.topic}-{tp.partition}"] = entry
            if commit:
                self.target_admin.commit(group, commit, "rockafka pipeline mirror")
            self.state.groups[group] = entries

    # --- status ---

    def write_status(self, state: str) -> None:
        s = self.state
        elapsed = max(time.monotonic() - s.started, 1e-9)
        document = {
            "state": state,
            "updated": datetime.now(UTC).isoformat(timespec="seconds"),
            "source": self.source.bootstrap,
            "target": self.target.bootstrap,
            "pattern": self.settings.pattern,
            "checkpoint": str(self.settings.checkpoint),
            "batches": s.batches,
            "rows": s.rows,
            "rows_per_s": round(s.rows / elapsed),
            "last_batch_at": s.last_batch_at,
            "last_batch_ms": s.last_batch_ms,
            "batches_ms": s.batches_ms,
            "lag": sum(s.lag.values()),
            "lag_error": s.lag_error,
            "topics": s.topics,
            "partitions": {
                f"{tp.topic}-{tp.partition}": {"mirrored": s.mirrored.get(tp), "lag": lag}
                for tp, lag in sorted(s.lag.items())
            },
            "groups": s.groups,
        }
        _write_atomically(self.settings.status, document)


@dataclass(frozen=True, slots=True)
class MirrorRun:
    batches: int
    rows: int
    seconds: float
    lag: int


def run_mirror(spark: Any, mirror: Mirror) -> MirrorRun:
    """Run the mirror until Ctrl-C (then ``KeyboardInterrupt``), its duration, or its stop file."""
    settings = mirror.settings
    mirror.reconcile_topics()
    mirror.resume_position()
    stop = stop_file_of(str(settings.checkpoint))
    query = mirror.start(spark, stop)
    mirror.say(f"mirror: {settings.pattern!r} from {mirror.source.bootstrap} to {mirror.target.bootstrap}, "
               f"checkpoint {settings.checkpoint}, status {settings.status}")  # fmt: skip
    now = time.monotonic()
    due = {"topics": now + settings.topics_every_s, "groups": now + settings.groups_every_s, "status": now}
    deadline = None if settings.duration_s is None else now + settings.duration_s
    seen = -1
    with ctrl_c_noted() as interrupted:
        while not query.awaitTermination(POLL_S):
            seen = _note_batches(mirror, query, seen)
            now = time.monotonic()
            if now >= due["topics"]:
                mirror.reconcile_topics()
                due["topics"] = now + settings.topics_every_s
            if now >= due["groups"]:
                mirror.sync_groups()
                due["groups"] = now + settings.groups_every_s
            if now >= due["status"]:
                mirror.measure_lag()
                mirror.write_status("running")
                due["status"] = now + STATUS_EVERY_S
            if interrupted or (stop is not None and stop.exists()) or (deadline is not None and now >= deadline):
                _stop_between_batches(mirror, query, stop, interrupted)
                seen = _note_batches(mirror, query, seen)
                break
    if query.exception() is not None:
        mirror.close()
        mirror.write_status("failed")
        raise PipelineError(f"mirror failed: {one_line(query.exception())}")
    mirror.sync_groups()
    mirror.measure_lag()
    mirror.close()
    mirror.write_status("stopped")
    if interrupted:
        raise KeyboardInterrupt
    state = mirror.state
    return MirrorRun(state.batches, state.rows, time.monotonic() - state.started, sum(state.lag.values()))


def _note_batches(mirror: Mirror, query: Any, seen: int) -> int:
    for report in query.recentProgress:
        if report["batchId"] > seen and report.get("numInputRows", 0) > 0:
            mirror.batch(report)
        else:  # an idle report (or a batch without rows) still says how far the mirror has got
            mirror.note_position(report)
        seen = max(seen, report["batchId"])
    return seen


def _stop_between_batches(mirror: Mirror, query: Any, stop: Path | None, interrupted: list[bool]) -> None:
    """No further micro-batch (the stop file), the one in flight completes (a second Ctrl-C: at once), then the
    query stops."""
    if stop is not None:
        stop.touch()
        mirror.say("mirror: stopping after the micro-batch in flight (Ctrl-C again to stop at once)")
        deadline = time.monotonic() + STOP_WAIT_S
        while query.status["isTriggerActive"] and len(interrupted) < 2 and time.monotonic() < deadline:
            query.awaitTermination(0.2)
    stop_quietly(query)


def checkpointed_offsets(checkpoint: Path) -> Offsets:
    """The source offsets of the last committed micro-batch in a Spark checkpoint (none when there is none).

    Spark writes ``commits/N`` once micro-batch ``N`` is done, and ``offsets/N`` before it runs: a version line
    (``v1``), a line of metadata, then one line per source with its offsets JSON (ours: :mod:`.offsets`)."""
    done = [int(p.name) for p in (checkpoint / "commits").glob("*") if p.name.isdigit()]
    if not done:
        return {}
    try:
        lines = (checkpoint / "offsets" / str(max(done))).read_text().splitlines()
    except OSError:
        return {}
    for line in lines[2:]:
        try:
            return _offsets(line)
        except (ValueError, PipelineError):
            continue
    return {}


def _offsets(value: Any) -> Offsets:
    document = json.loads(value) if isinstance(value, str) else value
    return offsets_from_json(document) if isinstance(document, dict) else {}


def _write_atomically(path: Path, document: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(document, indent=1) + "\n")
    os.replace(temporary, path)
