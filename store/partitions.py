"""``Partitions``: which ConsumeQueue holds each topic-partition, and where each partition's log starts.

Owns: the map from (topic id, partition) to its ``ConsumeQueue`` (created with the topic, deleted with it), and
the route cache an append or a read takes (key, queue, parsed topic settings), cleared on every topic change.
The topic table (``topics.py``) and the log start offsets are read here, written by their own services; so are
the compacted logs of compacted partitions (``compacted``: written by the cleaner, ``cleaner.py``), which serve a
partition's offsets below their end and hold its log start when the CommitLog below them is gone.

Threads: the event loop thread (and the opening thread before it). The index thread and the flusher never see
it; the flusher reaches the queues' files through ``DirtyFiles``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable

from .compactedlog import CompactedLog
from .config import TopicSettings
from .consumequeue import ConsumeQueue, DirtyFiles
from .errors import UnknownTopicOrPartitionError
from .layout import StoreLayout
from .results import TopicInfo
from .topics import LogStartOffsets, TopicTable

PartitionKey = tuple[bytes, int]
Route = tuple[PartitionKey, ConsumeQueue, TopicSettings]


class Partitions:
    def __init__(
        self,
        layout: StoreLayout,
        units_per_file: int,
        dirty: DirtyFiles,
        topics: TopicTable,
        log_starts: LogStartOffsets,
    ) -> None:
        self._layout = layout
        self._units_per_file = units_per_file
        self._dirty = dirty
        self._topics = topics
        self.log_starts = log_starts
        self.queues: dict[PartitionKey, ConsumeQueue] = {}
        self.compacted: dict[PartitionKey, CompactedLog] = {}
        self._routes: dict[tuple[str, int], Route] = {}

    def load(self) -> None:
        """Open the queue of every partition of every topic; remove queue directories no topic has."""
        for topic in self._topics.all():
            for number in range(topic.partitions):
                self.queues[(topic.topic_id.bytes, number)] = self._new_queue(topic.topic_id.bytes, number)
        self._layout.remove_orphan_queues(self.queues)

    def _new_queue(self, topic_id: bytes, number: int) -> ConsumeQueue:
        return ConsumeQueue(self._layout.consume_queue(topic_id, number), self._units_per_file, self._dirty)

    def add(self, topic_id: bytes, numbers: Iterable[int]) -> None:
        """Create the (empty) queues of new partitions."""
        self._routes.clear()
        for number in numbers:
            queue = self._new_queue(topic_id, number)
            queue.create()
            self.queues[(topic_id, number)] = queue

    def delete(self, topic_id: bytes, count: int) -> None:
        """Delete the queues of a deleted topic's ``count`` partitions."""
        self._routes.clear()
        for number in range(count):
            self.queues.pop((topic_id, number)).delete()
            compacted = self.compacted.pop((topic_id, number), None)
            if compacted is not None:
                compacted.close()
                shutil.rmtree(self._layout.compacted_log(topic_id, number), ignore_errors=True)

    def changed(self) -> None:
        """A topic's configs changed: routes carry parsed settings."""
        self._routes.clear()

    def get(self, topic: str, number: int) -> tuple[TopicInfo, PartitionKey, ConsumeQueue]:
        info = self._topics.get(topic)
        key = (info.topic_id.bytes, number)
        queue = self.queues.get(key)
        if queue is None:
            raise UnknownTopicOrPartitionError(f"topic {topic!r} has no partition {number}")
        return info, key, queue

    def route(self, topic: str, number: int) -> Route:
        """What an append or a read needs of a partition, cached until the next topic change."""
        route = self._routes.get((topic, number))
        if route is None:
            _, key, queue = self.get(topic, number)
            route = self._routes[(topic, number)] = (key, queue, self._topics.settings(topic))
        return route

    def log_start(self, key: PartitionKey, queue: ConsumeQueue) -> int:
        """The partition's effective log start offset: the moved one (DeleteRecords, retention), never below
        its first unit (or its compacted log's first offset) nor above its high watermark."""
        compacted = self.compacted.get(key)
        first = queue.first_offset if compacted is None else min(compacted.start_offset, queue.first_offset)
        return min(max(self.log_starts.get(*key), first), queue.next_offset)

    def close(self) -> None:
        for queue in self.queues.values():
            queue.close()
        for compacted in self.compacted.values():
            compacted.close()
