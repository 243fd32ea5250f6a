"""``ReplicaLog``: a follower's appends (``store.replica``): CommitLog bytes copied from its leader, stored at the
same physical offsets and dispatched as the follower's own.

``append_copied(start, data)``: ``data`` is a range of the leader's CommitLog that begins at physical offset
``start``, this store's end, and holds whole records, byte for byte: CommitLog records (``commitlog.py``) and the
BLANKs that close segments, each with the unwritten rest of its segment. A BLANK closes this log's segment too,
so data that ends with one leaves this log ending where the leader's next data begins. Both stores must have the
same segment size (a BLANK closes a segment at the same place only then) and the same topics, by topic id.
Every record is checked as recovery checks one (header CRC, physical offset, batch magic, length, offsets and the batch
CRC-32C); the first that fails, or data that ends inside a record, refuses the rest with
``InvalidReplicaDataError`` (the records before it are kept). A record is written unchanged, its leader epoch
stamp included; a stamp newer than the store's current epoch begins that epoch in the epoch file at the record's
offset, so the follower's epoch file follows the leader's. Then its ConsumeQueue unit and transaction events are
dispatched as after a local append, the IndexFile follows on the index thread, and the records are published.

``read_copy(start, max_bytes)``: the leader's side, what a follower at ``start`` receives next: a slice of the
CommitLog's mapping (no copy) from ``start`` to the published end, cut at a record boundary after ``max_bytes``
(one record at least) and at the end of ``start``'s segment (a BLANK and the rest of its segment included),
so each slice is data ``append_copied`` takes whole. Only when more than ``max_bytes`` remain are record
headers read to find the cut; a follower that keeps up gets what the last appends wrote without a parse.

``follow()``: from then on the store's own appends (``Writer``: produce, coordinator records, markers) raise
``ReplicaOnlyError``, so only copied bytes reach a follower's CommitLog; ``lead()`` ends that (a follower promoted
to leader). The log needs no cut then: ``append_copied`` stores whole, checked records only (a record the stream
had sent in part stays in the stream's buffer), so a follower's CommitLog always ends at a record boundary.

``internal_topics()`` and ``adopt_internal(name, topic_id, partitions)``: the internal topics
(``__consumer_offsets``, ``__transaction_state``) are created by each store with an id of its own; a follower
takes its leader's (creating the topic, or replacing one of another id whose queues it drops), so that the
copied records of coordinator state are dispatched and a promoted follower replays them.

Copied appends wake no parked fetch: a follower serves consumers only up to its leader's confirm offset, so the
broker wakes them when that moves (``cluster/replication/follower.py``). Not yet: no durability future is handed
out (the follower's acknowledgement to its leader will need one).

Threads: the broker loop thread, like every append.
"""

from __future__ import annotations

import logging
import struct
import uuid
from typing import TYPE_CHECKING

from rockafka.core_pyx.logrecord import BLANK_MAGIC, BLANK_SIZE, HEADER_SIZE, scan_records
from rockafka.core_pyx.recordbatch import PARTITION_LEADER_EPOCH_OFFSET

from .commitlog import CommitLog, CorruptRecord, SegmentEnd, StoredBatch
from .epochfile import EpochFile
from .errors import StoreError, UnknownTopicOrPartitionError
from .health import StoreHealth, guarded
from .internaltopics import INTERNAL_TOPIC_CONFIGS, INTERNAL_TOPICS
from .partitions import Partitions
from .queuebuilder import QueueBuilder
from .results import TopicInfo
from .topics import TopicTable
from .writer import Writer

if TYPE_CHECKING:
    from typing_extensions import Buffer

log = logging.getLogger(__name__)

_PREFIX = struct.Struct(">iI")
_EPOCH = struct.Struct(">i")
_EVERY = 1 << 30  # records parsed at a time: all the data holds


class InvalidReplicaDataError(StoreError):
    """Copied data that does not continue this store's CommitLog: it starts elsewhere, ends inside a record, or
    holds a record that fails its checks or lands where this log would not put it."""


class ReplicaLog:
    def __init__(
        self, health: StoreHealth, commitlog: CommitLog, builder: QueueBuilder, epochs: EpochFile, writer: Writer,
        table: TopicTable, queues: Partitions,
    ) -> None:  # fmt: skip
        self._health = health
        self._table = table
        self._queues = queues
        self._writer = writer
        self._commitlog = commitlog
        self._builder = builder
        self._epochs = epochs

    @property
    def end(self) -> int:
        """Where the next copied byte goes: this CommitLog's end."""
        return self._commitlog.write_offset

    def follow(self) -> None:
        """From now on this store holds its leader's copy: its own appends (produce, coordinator records,
        transaction markers) are refused with ``ReplicaOnlyError``, so only ``append_copied`` writes."""
        self._writer.replica_only = True

    def lead(self) -> None:
        """This store leads again (a promoted follower): its own appends are taken from now on."""
        self._writer.replica_only = False

    @property
    def following(self) -> bool:
        return self._writer.replica_only

    def internal_topics(self) -> tuple[TopicInfo, ...]:
        """The internal topics this store holds (what a leader tells its followers besides the user topics)."""
        held = []
        for name in sorted(INTERNAL_TOPICS):  # two lookups, not a walk of every topic: the leader asks per frame
            try:
                held.append(self._table.get(name))
            except UnknownTopicOrPartitionError:
                continue
        return tuple(held)

    @guarded
    def adopt_internal(self, name: str, topic_id: uuid.UUID, partitions: int) -> None:
        """Hold the internal topic ``name`` under the leader's ``topic_id`` (see the module docstring)."""
        if name not in INTERNAL_TOPICS:
            raise InvalidReplicaDataError(f"{name!r} is not an internal topic")
        held = next((topic for topic in self.internal_topics() if topic.name == name), None)
        if held is not None and held.topic_id == topic_id and held.partitions == partitions:
            return
        if held is not None:
            self._table.delete(name)
            self._queues.delete(held.topic_id.bytes, held.partitions)
            log.info("%s: id %s here, %s on the leader: taking the leader's", name, held.topic_id, topic_id)
        self._queues.add(topic_id.bytes, range(partitions))
        self._table.create(name, partitions, INTERNAL_TOPIC_CONFIGS, topic_id)

    @property
    def published_end(self) -> int:
        """The end of what a follower may be sent: every record below it is whole and dispatched."""
        return self._commitlog.published_offset

    @property
    def first_offset(self) -> int:
        """The CommitLog's first offset (retention moves it): a follower that ends below it cannot be served."""
        return self._commitlog.min_offset

    @property
    def segment_bytes(self) -> int:
        return self._commitlog.segment_bytes

    @guarded
    def read_copy(self, start: int, max_bytes: int) -> memoryview:
        """The CommitLog bytes a follower ending at ``start`` copies next (see the module docstring); empty when
        it has everything. ``InvalidReplicaDataError`` when ``start`` is below the log's first offset or the
        leader's own log holds a damaged record there."""
        commitlog = self._commitlog
        end = commitlog.published_offset
        if start >= end:
            return memoryview(b"")
        found = commitlog.segment_at(start)
        if found is None:
            raise InvalidReplicaDataError(
                f"no CommitLog segment holds offset {start} (the log starts at {self.first_offset})"
            )
        view, segment_start = found
        stop = min(end, segment_start + len(view))
        if stop - start > max_bytes:
            stop = self._record_boundary(start, start + max_bytes, stop)
        return view[start - segment_start : stop - segment_start]

    def _record_boundary(self, start: int, wanted: int, stop: int) -> int:
        """The last record end at or below ``wanted`` (past ``start``: the first record's end at least), within
        ``stop``, the end of the published data in ``start``'s segment."""
        position = start
        while position < stop:
            records, outcome = self._commitlog.parse_many(position, verify_from=1 << 62, limit=256)
            for record in records:
                if record.end > wanted and record.physical_offset > start:
                    return record.physical_offset
                position = record.end
            if isinstance(outcome, CorruptRecord):
                raise InvalidReplicaDataError(f"this log's record at {outcome.offset}: {outcome.reason}")
            if outcome is not None:
                return stop if isinstance(outcome, SegmentEnd) else min(position, stop)
        return min(position, stop)

    @guarded
    def append_copied(self, start: int, data: Buffer) -> int:
        """Store the leader's records in ``data`` (from physical offset ``start``); returns the new end. ``data`` is
        read in place (a memoryview of the frame the follower received: no copy before the CommitLog's)."""
        commitlog = self._commitlog
        if start != commitlog.write_offset:
            raise InvalidReplicaDataError(f"copied data starts at {start}, this log ends at {commitlog.write_offset}")
        view = memoryview(data).cast("B")
        position = 0
        try:
            while position < len(view):
                position = self._copy_run(view, start, position)
        finally:
            commitlog.publish()
        return commitlog.write_offset

    def _copy_run(self, view: memoryview, start: int, position: int) -> int:
        """Copy the records from ``position`` up to the next BLANK or the end; skip that BLANK's segment tail."""
        if _is_blank(view, position):
            total: int = _PREFIX.unpack_from(view, position)[0]
            if total < BLANK_SIZE or position + total > len(view):
                raise InvalidReplicaDataError(f"a BLANK at {start + position} of {total} bytes does not fit the data")
            if self._commitlog.segment_end(start + position) not in (start + position, start + position + total):
                raise InvalidReplicaDataError(
                    f"a BLANK at {start + position} of {total} bytes does not end a segment here: segment sizes differ"
                )
            self._commitlog.append_blank()
            return position + total
        # every check recovery makes, the batch CRC-32C included; a record may end the data (no room kept after it
        # for a BLANK: whether it fits this segment is ``_copy_one``'s check, ``landing``)
        parsed, stop_at, _, reason = scan_records(view, position, start, start, _EVERY, 0)
        for fields in parsed:
            self._copy_one(view, StoredBatch(*fields), start)
        if stop_at < len(view) and not _is_blank(view, stop_at):
            raise InvalidReplicaDataError(f"offset {start + stop_at}: {reason or 'the data ends inside a record'}")
        return stop_at

    def _copy_one(self, view: memoryview, record: StoredBatch, start: int) -> None:
        commitlog = self._commitlog
        at = record.physical_offset - start
        if commitlog.landing(record.size) != record.physical_offset:
            raise InvalidReplicaDataError(
                f"the record at {record.physical_offset} would land at {commitlog.landing(record.size)} here: "
                "the segment sizes differ"
            )
        epoch = _EPOCH.unpack_from(view, at + HEADER_SIZE + PARTITION_LEADER_EPOCH_OFFSET)[0]
        if epoch > self._epochs.current:
            self._epochs.begin(epoch, record.physical_offset)
        commitlog.append_copy(view[at : at + record.size])
        self._builder.add(record)


def _is_blank(view: memoryview, position: int) -> bool:
    """Whether a BLANK's prefix starts at ``position`` (False when the data ends before a whole prefix)."""
    return len(view) - position >= _PREFIX.size and _PREFIX.unpack_from(view, position)[1] == BLANK_MAGIC
