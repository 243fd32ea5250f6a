"""``format("rockafka-store")``: read a Rockafka data directory's files with Spark, batch or streaming.

::

    spark.read.format("rockafka-store").option("subscribe", "orders").load("/var/lib/rockafka")
    spark.readStream.format("rockafka-store").option("subscribe", "orders")
        .option("startingOffsets", "earliest").load(data_dir)
        .writeStream.format("parquet").option("checkpointLocation", ck).trigger(availableNow=True).start(out)

Rows have Spark's Kafka source schema (:mod:`.schema`). Options: the data directory as the load path (or
``dataDir``); Spark's Kafka option names for topics and offsets (:mod:`.options`; no timestamp options);
``mode`` = ``cq`` (default: one task per ConsumeQueue file range) or ``segments`` (batch only: one task per
CommitLog segment with every CRC verified); ``kafka.isolation.level`` = ``read_committed`` (default: up to the
last stable offset, aborted transactions left out) or ``read_uncommitted``. See :mod:`.storeplan` for what a
read sees. A stream records
its offsets in Spark's checkpoint, so an ``availableNow`` export run again reads only what was appended
since, exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pyspark.sql.datasource import DataSource, DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from .errors import OptionError
from .offsets import Bounds, OffsetRange, TimeLookup, TopicPartition
from .optionnames import STORE_NOT_SUPPORTED, STORE_SOURCE, check_names
from .options import flag, fold, read_committed, read_settings
from .planning import OffsetPlanner, StreamPlanner
from .schema import kafka_schema
from .storefiles import QueueSlice, SegmentSlice, read_queue_slice, read_segment
from .storeplan import queue_slices, segment_slices, snapshot

MODES = ("cq", "segments")


class _StorePlanning(OffsetPlanner):
    def __init__(self, options: dict[str, str], *, streaming: bool) -> None:
        check_names(options, STORE_SOURCE, "the rockafka-store source", STORE_NOT_SUPPORTED, kafka=False)
        root = options.get("path") or options.get("datadir")
        if not root:
            raise OptionError('give the data directory: load("/path/to/data") or option("dataDir", ...)')
        self.root = Path(root)
        if not self.root.is_dir():
            raise OptionError(f"the data directory {root} does not exist")
        self.mode = options.get("mode", "cq").lower()
        if self.mode not in MODES:
            raise OptionError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if streaming and self.mode != "cq":
            raise OptionError("mode=segments is for batch reads only")
        self.committed = read_committed(options, "read_committed")
        self.settings = read_settings(options, streaming=streaming, timestamps=False)

    def _bounds(self) -> Bounds:
        return snapshot(self.root, self.settings.selection, self.committed).bounds

    def _by_time(self) -> TimeLookup:
        return _no_time_lookup

    def _split(self, ranges: list[OffsetRange]) -> list[OffsetRange]:
        return ranges if self.mode == "segments" else super()._split(ranges)

    def _tasks(self, ranges: list[OffsetRange]) -> list[InputPartition]:
        snap = snapshot(self.root, self.settings.selection, self.committed)
        include_headers = self.settings.include_headers
        if self.mode == "segments":
            return [InputPartition(s) for s in segment_slices(snap, ranges, include_headers)]
        flags = (include_headers, self.settings.fail_on_data_loss)
        return [InputPartition(s) for s in queue_slices(snap, ranges, flags)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        task = partition.value
        if isinstance(task, QueueSlice):
            yield from read_queue_slice(task)
        elif isinstance(task, SegmentSlice):
            yield from read_segment(task)


def _no_time_lookup(times: Mapping[TopicPartition, int]) -> dict[TopicPartition, int | None]:
    raise OptionError("the store source does not read by timestamp")


class StoreBatchReader(_StorePlanning, DataSourceReader):
    def partitions(self) -> list[InputPartition]:
        return self.batch_tasks()


class StoreStreamReader(_StorePlanning, StreamPlanner, DataSourceStreamReader, SupportsTriggerAvailableNow):
    pass


class RockafkaStoreDataSource(DataSource):
    """Registered as ``rockafka-store``."""

    @classmethod
    def name(cls) -> str:
        return "rockafka-store"

    def schema(self) -> str:
        return kafka_schema(flag(fold(self.options), "includeHeaders", False))

    def reader(self, schema: Any) -> DataSourceReader:
        return StoreBatchReader(fold(self.options), streaming=False)

    def streamReader(self, schema: Any) -> DataSourceStreamReader:
        return StoreStreamReader(fold(self.options), streaming=True)
