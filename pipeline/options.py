"""The options of both sources, under Spark's Kafka source names, parsed once into typed settings.

Spark hands a data source its options lower-cased (a ``CaseInsensitiveDict``); :func:`fold` does the same
to any mapping, and every lookup here uses lower-case names (messages use Spark's spelling).

Topic selection (exactly one): ``subscribe`` (comma-separated topics), ``subscribePattern`` (a Java/Python
regular expression matched against the whole name), ``assign`` (``{"topic": [0, 1]}``).
Reading: ``startingOffsets``, ``endingOffsets``, ``startingTimestamp``, ``startingOffsetsByTimestamp``,
``startingOffsetsByTimestampStrategy`` (see :mod:`.offsets`), ``maxOffsetsPerTrigger``, ``minPartitions``,
``failOnDataLoss`` (default true), ``includeHeaders`` (default false), and a Rockafka extension for streams,
``stopFile``: a path where a file, once it exists, stops the planning of micro-batches (an ``availableNow``
run then ends after the micro-batch in flight, so an interrupted copy resumes without a partial batch). The Kafka
source takes one more extension, ``partitionsFile``: a JSON file ``{"topic": partitions}``, read at every
planning, outside which no partition is read (the mirror writes it once a topic or partition exists on its
target, so the sink never writes to one that does not).
``kafka.*`` options go to the Kafka client (:mod:`.wire`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import OptionError
from .offsets import OffsetSpec, TopicPartition, parse_spec


def fold(options: Mapping[str, str]) -> dict[str, str]:
    """Options with lower-case names, as Spark passes them."""
    return {str(name).lower(): str(value) for name, value in options.items()}


def flag(options: Mapping[str, str], name: str, default: bool) -> bool:
    text = options.get(name.lower())
    if text is None:
        return default
    if text.lower() not in ("true", "false"):
        raise OptionError(f"{name} must be true or false, not {text!r}")
    return text.lower() == "true"


def positive_int(options: Mapping[str, str], name: str) -> int | None:
    text = options.get(name.lower())
    if text is None:
        return None
    if not text.strip().isdigit() or int(text) <= 0:
        raise OptionError(f"{name} must be a positive integer, not {text!r}")
    return int(text)


ISOLATION_LEVELS = ("read_committed", "read_uncommitted")


def read_committed(options: Mapping[str, str], default: str) -> bool:
    """Whether ``kafka.isolation.level`` (Spark's option name; ``default`` when absent) is read_committed."""
    level = options.get("kafka.isolation.level", default).lower()
    if level not in ISOLATION_LEVELS:
        raise OptionError(f"kafka.isolation.level must be read_committed or read_uncommitted, not {level!r}")
    return level == "read_committed"


@dataclass(frozen=True, slots=True)
class TopicSelection:
    """Which partitions a query reads: named topics, a pattern, or explicit partitions."""

    subscribe: tuple[str, ...] = ()
    pattern: str | None = None
    assign: tuple[TopicPartition, ...] = ()

    def topics(self, existing: Iterable[str]) -> list[str]:
        """The topics read, among those that exist (``subscribe`` names them whether they exist or not)."""
        if self.subscribe:
            return list(self.subscribe)
        if self.pattern is not None:
            compiled = re.compile(self.pattern)
            return sorted(name for name in existing if compiled.fullmatch(name))
        return sorted({tp.topic for tp in self.assign})

    def partitions(self, counts: Mapping[str, int]) -> list[TopicPartition]:
        """The partitions read, given each selected topic's partition count (unknown topics have none)."""
        if self.assign:
            return sorted(self.assign)
        return [TopicPartition(t, p) for t in self.topics(counts) for p in range(counts.get(t, 0))]


def topic_selection(options: Mapping[str, str]) -> TopicSelection:
    given = [name for name in ("subscribe", "subscribePattern", "assign") if options.get(name.lower())]
    if len(given) != 1:
        raise OptionError("set exactly one of the options subscribe, subscribePattern or assign")
    if given[0] == "subscribe":
        topics = tuple(t.strip() for t in options["subscribe"].split(",") if t.strip())
        if not topics:
            raise OptionError("subscribe names no topic")
        return TopicSelection(subscribe=topics)
    if given[0] == "subscribePattern":
        try:
            re.compile(options["subscribepattern"])
        except re.error as exc:
            raise OptionError(f"subscribePattern is not a regular expression: {exc}") from None
        return TopicSelection(pattern=options["subscribepattern"])
    return TopicSelection(assign=_assignment(options["assign"]))


def _assignment(text: str) -> tuple[TopicPartition, ...]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        document = None
    if not isinstance(document, dict) or not all(
        isinstance(parts, list) and all(isinstance(p, int) for p in parts) for parts in document.values()
    ):
        raise OptionError('assign must be JSON like {"topic": [0, 1]}')
    return tuple(sorted(TopicPartition(topic, p) for topic, parts in document.items() for p in parts))


@dataclass(frozen=True, slots=True)
class ReadSettings:
    """What every read (batch or stream, wire or store) is told by its options."""

    selection: TopicSelection
    starting: OffsetSpec
    ending: OffsetSpec
    max_offsets_per_trigger: int | None
    min_partitions: int | None
    fail_on_data_loss: bool
    include_headers: bool
    #: ``stopFile`` (a Rockafka extension): once a file exists at this path, a stream plans no further micro-batch.
    stop_file: str | None = None
    #: ``partitionsFile`` (a Rockafka extension): a JSON file ``{"topic": partitions}`` bounding what is read.
    partitions_file: str | None = None


def read_settings(options: Mapping[str, str], *, streaming: bool, timestamps: bool = True) -> ReadSettings:
    """Parse the common read options; streams start at latest by default, batches at earliest (as Spark)."""
    options = fold(options)
    if not timestamps:
        for name in ("startingTimestamp", "startingOffsetsByTimestamp"):
            if name.lower() in options:
                raise OptionError(f"{name} is not supported by this source")
    if streaming and "endingoffsets" in options:
        raise OptionError("endingOffsets is for batch reads only")
    starting = parse_spec(options, starting=True, default="latest" if streaming else "earliest")
    if not streaming and starting.kind == "latest":
        raise OptionError("startingOffsets cannot be latest for a batch read")
    return ReadSettings(
        selection=topic_selection(options),
        starting=starting,
        ending=parse_spec(options, starting=False, default="latest"),
        max_offsets_per_trigger=positive_int(options, "maxOffsetsPerTrigger"),
        min_partitions=positive_int(options, "minPartitions"),
        fail_on_data_loss=flag(options, "failOnDataLoss", True),
        include_headers=flag(options, "includeHeaders", False),
        stop_file=options.get("stopfile"),
        partitions_file=options.get("partitionsfile"),
    )


def admitted(counts: Mapping[str, int], partitions_file: str | None) -> dict[str, int]:
    """Partition counts cut to those the ``partitionsFile`` names (all of them without one; none while the file
    does not exist yet)."""
    if partitions_file is None:
        return dict(counts)
    try:
        with open(partitions_file) as source:
            allowed = json.load(source)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise OptionError(f"partitionsFile {partitions_file} cannot be read: {exc}") from None
    if not isinstance(allowed, dict):
        raise OptionError(f'partitionsFile {partitions_file} must hold a JSON object like {{"topic": 3}}')
    return {topic: min(count, int(allowed[topic])) for topic, count in counts.items() if topic in allowed}
