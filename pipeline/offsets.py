"""Kafka-style offsets shared by both data sources: the offsets JSON, starting and ending specs, rate limits
and the split of offset ranges into Spark partitions.

**Offsets JSON** (the document Spark's Kafka source writes to ``checkpoint/offsets/N`` and accepts in
``startingOffsets``/``endingOffsets``): ``{"topic": {"0": 23, "1": 42}}``, per partition the next offset
to read. In ``startingOffsets`` the value ``-2`` means the earliest offset and ``-1`` the latest; in
``endingOffsets`` only ``-1`` (latest) is special, ``-2`` is refused as Spark refuses it. A JSON spec
must name every partition the query reads. ``startingOffsetsByTimestamp`` has the same shape with epoch
milliseconds as values; ``startingTimestamp`` is one time for every partition. A partition where no
record is at or after the time starts at the latest offset when
``startingOffsetsByTimestampStrategy=latest``, and is an error otherwise (Spark's default ``error``).

**Rate limit** (``maxOffsetsPerTrigger``): the offsets a micro-batch may read are shared among the
partitions in proportion to their lag; a partition's share is rounded down, or up when below one.
**Split** (``minPartitions``): when fewer non-empty ranges than ``minPartitions`` exist, each range is cut
into pieces in proportion to its size (at least one), so at least about ``minPartitions`` tasks read.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from .errors import DataLossError, OptionError

EARLIEST = -2
LATEST = -1


class TopicPartition(NamedTuple):
    topic: str
    partition: int


Offsets = dict[TopicPartition, int]


@dataclass(frozen=True, slots=True)
class OffsetRange:
    """Offsets ``[start, end)`` of one partition: what one Spark task reads."""

    topic: str
    partition: int
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class OffsetSpec:
    """What ``startingOffsets``/``endingOffsets`` (or a timestamp option) asks for.

    ``kind`` "earliest"/"latest" need no values; "offsets" holds per-partition offsets (-2/-1 allowed);
    "timestamps" holds per-partition epoch milliseconds; "timestamp" holds one time for all partitions.
    """

    kind: Literal["earliest", "latest", "offsets", "timestamps", "timestamp"]
    offsets: tuple[tuple[TopicPartition, int], ...] = ()
    timestamp: int = 0
    strategy: Literal["error", "latest"] = "error"


def offsets_from_json(document: Mapping[str, Any]) -> Offsets:
    """``{"topic": {"0": 23}}`` → ``{TopicPartition("topic", 0): 23}`` (a checkpoint's offsets or an option)."""
    result: Offsets = {}
    for topic, partitions in document.items():
        if not isinstance(partitions, Mapping):
            raise OptionError(f"offsets of topic {topic!r} must be an object of partition: offset")
        for partition, offset in partitions.items():
            try:
                result[TopicPartition(str(topic), int(partition))] = int(offset)
            except (TypeError, ValueError):
                raise OptionError(f"bad offset {offset!r} for {topic}-{partition}") from None
    return result


def offsets_to_json(offsets: Mapping[TopicPartition, int]) -> dict[str, dict[str, int]]:
    """The inverse of :func:`offsets_from_json`, topics and partitions in order."""
    document: dict[str, dict[str, int]] = {}
    for tp in sorted(offsets):
        document.setdefault(tp.topic, {})[str(tp.partition)] = offsets[tp]
    return document


def _json_option(text: str, option: str) -> Offsets:
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        raise OptionError(f'{option} must be earliest, latest or offsets JSON like {{"topic": {{"0": 23}}}}') from None
    if not isinstance(document, dict):
        raise OptionError(f"{option} must be a JSON object of topic: {{partition: value}}")
    return offsets_from_json(document)


def parse_spec(options: Mapping[str, str], *, starting: bool, default: str) -> OffsetSpec:
    """The starting (or ending) spec from Spark's option names; timestamps win over offsets, as in Spark."""
    prefix = "starting" if starting else "ending"
    options = {name.lower(): value for name, value in options.items()}
    strategy = options.get("startingoffsetsbytimestampstrategy", "error").lower()
    if strategy not in ("error", "latest"):
        raise OptionError("startingOffsetsByTimestampStrategy must be error or latest")
    if starting and options.get("startingtimestamp") is not None:
        text = options["startingtimestamp"]
        if not text.isdigit():
            raise OptionError(f"startingTimestamp must be epoch milliseconds, not {text!r}")
        return OffsetSpec("timestamp", timestamp=int(text), strategy=strategy)  # type: ignore[arg-type]
    if starting and options.get("startingoffsetsbytimestamp") is not None:
        by_time = _json_option(options["startingoffsetsbytimestamp"], "startingOffsetsByTimestamp")
        return OffsetSpec("timestamps", tuple(sorted(by_time.items())), strategy=strategy)  # type: ignore[arg-type]
    text = options.get(f"{prefix}offsets", default).strip()
    if text.lower() in ("earliest", "latest"):
        if not starting and text.lower() == "earliest":
            raise OptionError("endingOffsets cannot be earliest")
        return OffsetSpec(text.lower())  # type: ignore[arg-type]
    offsets = _json_option(text, f"{prefix}Offsets")
    if not starting and EARLIEST in offsets.values():
        raise OptionError("endingOffsets cannot use -2 (earliest)")
    return OffsetSpec("offsets", tuple(sorted(offsets.items())))


@dataclass(frozen=True, slots=True)
class Bounds:
    """What a partition holds now: the earliest offset (log start) and the latest (high watermark)."""

    earliest: Offsets
    latest: Offsets


#: Looks up, per partition, the first offset whose record timestamp is at or after the given time
#: (None: no such record).
TimeLookup = Callable[[Mapping[TopicPartition, int]], Mapping[TopicPartition, int | None]]


def resolve(spec: OffsetSpec, bounds: Bounds, by_time: TimeLookup) -> Offsets:
    """Concrete offsets of every partition in ``bounds`` for ``spec`` (special values replaced)."""
    partitions = sorted(bounds.latest)
    if spec.kind == "earliest":
        return {tp: bounds.earliest[tp] for tp in partitions}
    if spec.kind == "latest":
        return {tp: bounds.latest[tp] for tp in partitions}
    given = dict(spec.offsets)
    if spec.kind == "timestamp":
        given = dict.fromkeys(partitions, spec.timestamp)
    missing = set(partitions) - set(given)
    unknown = set(given) - set(partitions)
    if missing or unknown:
        odd = sorted(missing | unknown)
        named = [f"{'missing' if tp in missing else 'unknown'} {tp.topic}-{tp.partition}" for tp in odd]
        raise OptionError(f"offsets must name exactly the partitions read: {', '.join(named)}")
    if spec.kind == "offsets":
        special = {EARLIEST: bounds.earliest, LATEST: bounds.latest}
        return {tp: special[o][tp] if o in special else o for tp, o in sorted(given.items())}
    found = by_time(given)
    result: Offsets = {}
    for tp in partitions:
        offset = found.get(tp)
        if offset is None:
            if spec.strategy == "error":
                raise OptionError(f"no record of {tp.topic}-{tp.partition} is at or after {given[tp]} ms")
            offset = bounds.latest[tp]
        result[tp] = offset
    return result


def check_available(offsets: Mapping[TopicPartition, int], bounds: Bounds, *, fail_on_data_loss: bool) -> Offsets:
    """Offsets moved into ``[earliest, latest]``; out of range is a ``DataLossError`` when ``fail_on_data_loss``."""
    result: Offsets = {}
    for tp, offset in offsets.items():
        low, high = bounds.earliest.get(tp), bounds.latest.get(tp)
        if low is None or high is None:
            if fail_on_data_loss:
                raise DataLossError(f"{tp.topic}-{tp.partition} is gone (set failOnDataLoss=false to go on)")
            continue
        if not low <= offset <= high:
            if fail_on_data_loss:
                raise DataLossError(
                    f"offset {offset} of {tp.topic}-{tp.partition} is outside [{low}, {high}]: records were deleted "
                    "or the partition was truncated (set failOnDataLoss=false to skip ahead)"
                )
            offset = min(max(offset, low), high)
        result[tp] = offset
    return result


def rate_limit(start: Mapping[TopicPartition, int], latest: Mapping[TopicPartition, int], max_rows: int) -> Offsets:
    """End offsets reading at most about ``max_rows`` past ``start``, shared in proportion to lag."""
    lag = {tp: max(latest[tp] - start.get(tp, latest[tp]), 0) for tp in latest}
    total = sum(lag.values())
    if total <= max_rows:
        return dict(latest)
    end: Offsets = {}
    for tp, behind in lag.items():
        share = max_rows * behind / total
        step = math.ceil(share) if share < 1 else math.floor(share)
        end[tp] = min(start.get(tp, latest[tp]) + step, latest[tp])
    return end


def ranges_between(start: Mapping[TopicPartition, int], end: Mapping[TopicPartition, int]) -> list[OffsetRange]:
    """The non-empty ranges from ``start`` to ``end``, one per partition. A partition missing from ``start``
    reads nothing: a stream first ends a new partition at its earliest offset, so replays stay the same."""
    ranges = []
    for tp in sorted(end):
        first = start.get(tp, end[tp])
        if end[tp] > first:
            ranges.append(OffsetRange(tp.topic, tp.partition, first, end[tp]))
    return ranges


def split_ranges(ranges: Iterable[OffsetRange], min_partitions: int | None) -> list[OffsetRange]:
    """Cut ranges into pieces so that at least about ``min_partitions`` tasks read (Spark's minPartitions)."""
    ranges = [r for r in ranges if r.size > 0]
    if not min_partitions or len(ranges) >= min_partitions:
        return ranges
    total = sum(r.size for r in ranges)
    pieces: list[OffsetRange] = []
    for r in ranges:
        parts = min(max(round(r.size / total * min_partitions), 1), r.size)
        bounds = [r.start + r.size * i // parts for i in range(parts + 1)]
        pieces.extend(OffsetRange(r.topic, r.partition, a, b) for a, b in itertools.pairwise(bounds))
    return pieces
