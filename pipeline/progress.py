"""Progress of a streaming copy or export, per micro-batch: rows per partition, rate and ETA.

Spark reports each micro-batch's input offsets (``sources[0].startOffset`` and ``endOffset``, the offsets JSON
of :mod:`.offsets`); the rows a partition advanced are the difference. Given the offsets the run must reach
(``goal``, the source's end offsets when it started), the remaining rows give an ETA at the rate so far.
Offsets count transaction markers and aborted records too, so for a read_committed copy rows are offsets
read, a slight over-count. Bytes are not in Spark's progress: they are measured by verification
(:mod:`.jobs`), per partition, and the report divides them by the copy's duration.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .offsets import Bounds, Offsets, TopicPartition, offsets_from_json


@dataclass
class Tracker:
    """Offsets reached per partition, against the goal's latest offsets; one line per micro-batch for ``say``.
    The goal's earliest offsets are where a first micro-batch (which Spark reports without a start) began."""

    what: str
    say: Callable[[str], None] | None
    goal_bounds: Bounds | None = None
    goal: Offsets = field(default_factory=dict)
    first: Offsets = field(default_factory=dict)
    reached: Offsets = field(default_factory=dict)
    rows: int = 0
    batches: int = 0
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.goal_bounds is not None:
            self.goal = dict(self.goal_bounds.latest)

    def batch(self, report: Mapping[str, Any]) -> None:
        self.batches += 1
        self.rows += int(report["numInputRows"])
        sources = report.get("sources") or []
        begin, end = (_offsets(sources[0], key) for key in ("startOffset", "endOffset")) if sources else ({}, {})
        if not begin and self.goal_bounds is not None:
            begin = {tp: self.goal_bounds.earliest.get(tp, offset) for tp, offset in end.items()}
        for tp, offset in begin.items():
            self.first.setdefault(tp, offset)
        self.reached.update(end)
        if self.say is not None:
            self.say(self.line(int(report["batchId"]), int(report["numInputRows"]), begin, end))

    def line(self, batch_id: int, batch_rows: int, begin: Offsets, end: Offsets) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.rows / elapsed
        moved = ", ".join(f"{tp.topic}-{tp.partition} +{end[tp] - begin.get(tp, end[tp])}" for tp in sorted(end)
                          if end[tp] != begin.get(tp, end[tp]))  # fmt: skip
        text = f"{self.what}: batch {batch_id}: {batch_rows} rows ({moved or 'none'}), {self.rows} in all"
        text += f", {rate:,.0f} rows/s"
        left = self.remaining()
        if left is not None:
            eta = f"{left / rate:,.0f} s" if rate > 0 else "unknown"
            text += f", {left} left, ETA {eta}"
        return text

    def remaining(self) -> int | None:
        if not self.goal:
            return None
        return sum(max(0, goal - self.reached.get(tp, self.first.get(tp, 0))) for tp, goal in self.goal.items())

    def partitions(self) -> dict[str, int]:
        """Offsets read per partition (``topic-partition``), for the report."""
        return {f"{tp.topic}-{tp.partition}": end - self.first.get(tp, end) for tp, end in sorted(self.reached.items())}


def _offsets(source: Mapping[str, Any], key: str) -> dict[TopicPartition, int]:
    value = source.get(key)
    if value is None:
        return {}
    document = json.loads(value) if isinstance(value, str) else value
    return offsets_from_json(document) if isinstance(document, Mapping) else {}
