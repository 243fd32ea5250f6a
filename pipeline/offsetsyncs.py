"""The mirror's offset syncs: which target offset each copied source record got, kept as runs in a file, and the
translation of consumer-group offsets through them.

**Where they come from.** The ``rockafka`` sink, given ``offsetSyncFile`` and an ``offset`` column (the source
record's offset), learns each record's target offset from its produce acknowledgement. A task reports them in
its commit message as **runs**: ``(topic, partition, source offset, target offset, count)``, a run being records
whose source and target offsets both go up by one from record to record (a gap on either side starts a new
run: transaction markers, compacted or aborted records on the source, a transaction's marker on the target).
The driver-side commit of the micro-batch then appends one line to the file.

**The file** (JSON lines, one per committed micro-batch, appended by one writer, the query's driver)::

    {"batch": 12, "runs": [["orders", 0, 1200, 1187, 300], ["orders", 1, 980, 978, 295]]}

A micro-batch that Spark replays after a failure can add a second line for its id: the same runs again, or
none (an exactly-once task whose output was committed before writes nothing and learns no offsets). Readers
merge every line; a run seen twice counts once.

**Translation** of a group's committed offset ``c`` (the next record it would read) on a source partition,
given ``mirrored``, the source offset up to which the mirror has copied that partition:

- ``c`` inside a run: the run's target offset plus ``c`` minus its source offset, exactly;
- ``c`` between runs, or after the last one, and ``c <= mirrored``: the target offset just after the last
  record copied before ``c`` (the end of the run before it). Between two runs lie no records (markers, gaps),
  so the consumer reads the next run's first record next; where a replay left a micro-batch's runs out, it
  reads them again (never skips them);
- ``c`` before the first run: the first run's target offset (the source no longer holds what lay before);
- ``c > mirrored``: no translation yet (the mirror has not copied up to the group): tried again at the next
  sync.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PipelineError
from .offsets import TopicPartition


@dataclass(frozen=True, slots=True, order=True)
class Run:
    """``count`` records at source offsets ``source ..`` and target offsets ``target ..``, one apart each."""

    source: int
    target: int
    count: int


def runs_of(pairs: Iterable[tuple[int, int]]) -> list[Run]:
    """The runs of ``(source offset, target offset)`` pairs in the order the records were written."""
    runs: list[Run] = []
    for source, target in pairs:
        if runs:
            last = runs[-1]
            if source == last.source + last.count and target == last.target + last.count:
                runs[-1] = Run(last.source, last.target, last.count + 1)
                continue
        runs.append(Run(source, target, 1))
    return runs


#: One task's runs: ``[topic, partition, source offset, target offset, count]`` lists (JSON-ready, picklable).
TaskRuns = list[list[Any]]


def task_runs(pairs: Mapping[TopicPartition, Iterable[tuple[int, int]]]) -> TaskRuns:
    """A task's runs from its ``(source offset, target offset)`` pairs per partition, in the order written."""
    return [[tp.topic, tp.partition, r.source, r.target, r.count] for tp in sorted(pairs) for r in runs_of(pairs[tp])]


def append_line(path: Path, batch_id: int, tasks: Iterable[TaskRuns]) -> None:
    """Append the micro-batch's line (driver side, after every task of the micro-batch succeeded)."""
    runs = [run for task in tasks for run in task]
    line = json.dumps({"batch": batch_id, "runs": runs}, separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.write(line + "\n")


@dataclass
class PartitionSyncs:
    """One partition's runs, sorted, without duplicates."""

    runs: list[Run] = field(default_factory=list)

    def translate(self, committed: int, mirrored: int) -> int | None:
        """The target offset for the source offset ``committed`` (module docstring), or None."""
        if committed > mirrored or not self.runs:
            return None
        at = bisect.bisect_right(self.runs, Run(committed, 2**63, 0)) - 1
        if at < 0:
            return self.runs[0].target
        run = self.runs[at]
        return run.target + min(committed - run.source, run.count)


class OffsetSyncs:
    """Every partition's syncs, read from the file incrementally (lines appended since the last read)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.read_up_to = 0
        self.partitions: dict[TopicPartition, PartitionSyncs] = {}

    def refresh(self) -> None:
        if not self.path.exists():
            return
        with self.path.open("rb") as source:
            source.seek(self.read_up_to)
            data = source.read()
        complete = data[: data.rfind(b"\n") + 1]  # a line being appended is read next time
        self.read_up_to += len(complete)
        touched: set[TopicPartition] = set()
        for document in _lines(complete, self.path):
            for topic, partition, source_offset, target_offset, count in document["runs"]:
                tp = TopicPartition(topic, partition)
                self.partitions.setdefault(tp, PartitionSyncs()).runs.append(Run(source_offset, target_offset, count))
                touched.add(tp)
        for tp in touched:
            self.partitions[tp].runs = sorted(set(self.partitions[tp].runs))

    def translate(self, tp: TopicPartition, committed: int, mirrored: int) -> int | None:
        syncs = self.partitions.get(tp)
        return None if syncs is None else syncs.translate(committed, mirrored)


def _lines(data: bytes, path: Path) -> Iterator[dict[str, Any]]:
    for number, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            document = json.loads(line)
            if not isinstance(document.get("runs"), list):
                raise ValueError("no list of runs")
        except (ValueError, AttributeError) as exc:
            raise PipelineError(f"{path}: line {number} is not an offset sync ({exc})") from None
        yield document
