"""Offset planning shared by the wire and the store sources, batch and streaming, as Spark's Kafka source does it.

A source supplies ``_bounds()`` (earliest and latest offset of each selected partition, now),
``_by_time()`` (offsets for times) and ``_tasks(ranges)`` (Spark input partitions for offset ranges);
this module turns Spark's calls into those.

Streaming: the first batch starts at ``startingOffsets``; each ``latestOffset`` goes up to the latest
offsets (rate-limited by ``maxOffsetsPerTrigger``, capped at what was there when an ``availableNow``
trigger began). A partition that appears mid-stream enters the offsets at its earliest offset and is read
from the next batch on, so a replayed batch (after a restart from the checkpoint) reads the same ranges.
Spark stores the offsets JSON in the checkpoint; nothing else is kept, so reads are exactly-once. Once the
``stopFile`` exists, ``latestOffset`` answers the start: no new data, so an ``availableNow`` run ends
between micro-batches.
"""

from __future__ import annotations

import os
from typing import Any

from pyspark.sql.datasource import InputPartition
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadLimit, ReadMaxRows

from .errors import DataLossError
from .offsets import (
    Bounds,
    OffsetRange,
    Offsets,
    TimeLookup,
    TopicPartition,
    check_available,
    offsets_from_json,
    offsets_to_json,
    ranges_between,
    rate_limit,
    resolve,
    split_ranges,
)
from .options import ReadSettings


class OffsetPlanner:
    settings: ReadSettings

    def _bounds(self) -> Bounds:
        raise NotImplementedError

    def _by_time(self) -> TimeLookup:
        raise NotImplementedError

    def _tasks(self, ranges: list[OffsetRange]) -> list[InputPartition]:
        raise NotImplementedError

    def _split(self, ranges: list[OffsetRange]) -> list[OffsetRange]:
        return split_ranges(ranges, self.settings.min_partitions)

    def _checked(self, ranges: list[OffsetRange], bounds: Bounds) -> list[OffsetRange]:
        """Ranges whose start is still held (moved up, or a ``DataLossError``, per ``failOnDataLoss``)."""
        kept = []
        for r in ranges:
            tp = TopicPartition(r.topic, r.partition)
            low = bounds.earliest.get(tp)
            if low is None or r.start < low:
                if self.settings.fail_on_data_loss:
                    raise DataLossError(
                        f"offsets {r.start}..{r.end} of {r.topic}-{r.partition} are no longer all held "
                        f"(log start {low}); set failOnDataLoss=false to skip what is gone"
                    )
                if low is None or low >= r.end:
                    continue
                r = OffsetRange(r.topic, r.partition, low, r.end)
            kept.append(r)
        return kept

    # --- batch ---

    def batch_tasks(self) -> list[InputPartition]:
        bounds = self._bounds()
        lookup = self._by_time()
        start = resolve(self.settings.starting, bounds, lookup)
        start = check_available(start, bounds, fail_on_data_loss=self.settings.fail_on_data_loss)
        end = resolve(self.settings.ending, bounds, lookup)
        ranges = [r for r in ranges_between(start, end) if r.size > 0]
        return self._tasks(self._split(ranges)) or [InputPartition(None)]


class StreamPlanner(OffsetPlanner):
    """The ``DataSourceStreamReader`` methods over :class:`OffsetPlanner` (mixed in before that class)."""

    _target: Offsets | None = None

    def initialOffset(self) -> dict[str, Any]:
        bounds = self._bounds()
        start = resolve(self.settings.starting, bounds, self._by_time())
        return offsets_to_json(check_available(start, bounds, fail_on_data_loss=self.settings.fail_on_data_loss))

    def getDefaultReadLimit(self) -> ReadLimit:
        limit = self.settings.max_offsets_per_trigger
        return ReadMaxRows(limit) if limit else ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        self._target = dict(self._bounds().latest)

    def latestOffset(self, start: dict[str, Any], limit: ReadLimit) -> dict[str, Any]:
        if self.settings.stop_file is not None and os.path.exists(self.settings.stop_file):
            return start  # no new data: an availableNow run ends here, between micro-batches
        begin = offsets_from_json(start)
        bounds = self._bounds()
        latest = dict(bounds.latest)
        if self._target is not None:
            latest = {tp: min(o, self._target.get(tp, o)) for tp, o in latest.items()}
        known = {tp: max(o, begin[tp]) for tp, o in latest.items() if tp in begin}
        if isinstance(limit, ReadMaxRows):
            known = rate_limit(begin, known, limit.max_rows)
        end = {**begin, **{tp: max(o, begin[tp]) for tp, o in known.items()}}
        end.update({tp: bounds.earliest[tp] for tp in latest if tp not in begin})
        return offsets_to_json(end)

    def reportLatestOffset(self) -> dict[str, Any] | None:
        return offsets_to_json(self._bounds().latest)

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> list[InputPartition]:
        ranges = ranges_between(offsets_from_json(start), offsets_from_json(end))
        if not ranges:
            return []
        return self._tasks(self._split(self._checked(ranges, self._bounds())))

    def commit(self, end: dict[str, Any]) -> None:
        """Nothing to do: the checkpoint holds the offsets (Spark's Kafka source commits nothing either)."""
