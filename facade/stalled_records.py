"""A stalled high watermark, for fault injection: the store's records as consumers see them while the high watermark
of some partitions stands still (``FaultInjector.stall_high_watermark``).

In Kafka the high watermark is the offset every in-sync replica has; when a follower lags (a slow disk, a network
partition between brokers) the leader goes on appending (acks=1 producers are answered) but the high watermark
stops, and consumers see nothing past it: fetches answer no new records, ListOffsets LATEST the stalled offset.

:class:`StalledRecords` stands in for ``store.records`` while a stall is installed (the fault injector swaps it in
and back): every call goes to the real records, except that a stalled partition's high watermark and last stable
offset are capped at the offset it stalled at, and its reads stop there. No cost while no stall is installed: the
store's own records are in place then.
"""

from __future__ import annotations

from typing import Any

from rockafka.store import PartitionBounds, PartitionOffsets, ReadResult


class StalledRecords:
    def __init__(self, records: Any) -> None:
        """``records``: the store's own ``store.records``."""
        self.real = records
        self.stalled: dict[tuple[str, int], int] = {}
        """(topic, partition) -> the high watermark it stands at."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def partition_bounds(self, topic: str, partition: int) -> PartitionBounds:
        bounds: PartitionBounds = self.real.partition_bounds(topic, partition)
        stalled = self.stalled.get((topic, partition))
        if stalled is None:
            return bounds
        return PartitionBounds(
            min(bounds.high_watermark, stalled), min(bounds.last_stable_offset, stalled), bounds.log_start_offset
        )

    def partition_offsets(self, topic: str, partition: int) -> PartitionOffsets:
        offsets: PartitionOffsets = self.real.partition_offsets(topic, partition)
        stalled = self.stalled.get((topic, partition))
        return offsets if stalled is None else offsets._replace(high_watermark=min(offsets.high_watermark, stalled))

    def last_stable_offset(self, topic: str, partition: int) -> int:
        offset: int = self.real.last_stable_offset(topic, partition)
        return min(offset, self.stalled.get((topic, partition), offset))

    def read(
        self, topic: str, partition: int, fetch_offset: int, max_bytes: int, *, max_offset: int | None = None
    ) -> ReadResult:
        stalled = self.stalled.get((topic, partition))
        if stalled is not None:
            max_offset = stalled if max_offset is None else min(max_offset, stalled)
        result: ReadResult = self.real.read(topic, partition, fetch_offset, max_bytes, max_offset=max_offset)
        return result
