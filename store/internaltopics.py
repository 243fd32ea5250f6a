"""The internal topics ``__consumer_offsets`` and ``__transaction_state``: their records, and one topic's log.

Coordinator state (committed offsets, group metadata, transactional ids) is kept as Kafka keeps it: keyed records
in compacted internal topics, appended through the CommitLog like any produced batch, so that whatever carries
the CommitLog (recovery, the log cleaner, and the next issue's replication) carries coordinator state too.

Which partition: a key (group id, transactional id) goes to partition ``key_partition(key, count)``: Java's
``String.hashCode`` of the key, made non-negative, modulo the topic's partition count (Kafka's
``Utils.abs(hashCode) % partitions``). FindCoordinator hashes the same way, so the leader of that partition
coordinates the key.

Records, big-endian; a string is ``length : int16`` then UTF-8 bytes (Kafka's non-flexible string)::

    key                                                      value
    ------------------------------------------------------   -----------------------------------------------------
    offset commit    version 1 : int16, group : string,      version 3 : int16, offset : int64,
                     topic : string, partition : int32       leader epoch : int32 (-1: none), metadata : string,
                                                             commit timestamp : int64 (ms)
    group metadata   version 2 : int16, group : string       the group's document, UTF-8 JSON
    transaction      version 0 : int16, transactional id :   the transactional id's document, UTF-8 JSON
                     string   (``__transaction_state`` only)

A null value is a tombstone: the key's offset, group or transactional id is gone. The offset commit key and
value are Kafka's ``OffsetCommitKey`` v1 and ``OffsetCommitValue`` v3, so Kafka's tools read them; key version 0
(Kafka's older offset key, the same layout) is read too. The document values are Rockafka's own (Kafka's
``GroupMetadataValue`` and ``TransactionLogValue`` are binary): their first byte is ``{``, which a Kafka reader
takes for a version it does not know and refuses, never misreads. A record whose key or value does not decode is
an ``InternalRecordError``.

Batches: each write is one uncompressed RecordBatch v2 (no producer id, CreateTime) of the change's records
(offsets a transaction coordinated elsewhere commits: its producer id and epoch, transactional, then its COMMIT or
ABORT marker, ``txnoffsets.py``),
appended to one partition, from the free-space reserve (``Writer.append_internal``: offset commits go on while a
full store refuses clients' appends). Both topics are ``cleanup.policy=compact``: the log cleaner keeps each
key's latest record and drops tombstones after ``delete.retention.ms`` (``compaction.py``).

``InternalTopic`` is one topic's log: it creates the topic in the store when first needed (hidden from
``store.topics``, see ``topicadmin.py``), appends keyed batches (and transaction markers) to a partition, and
replays a partition from its log start to its high watermark: each keyed record with the producer id of its batch
when the batch is transactional, and each transaction marker. Threads: the event loop thread (and the opening
thread, before it).
"""

from __future__ import annotations

import json
import struct
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from rockafka.core_pyx.recordbatch import read_batch_header

from .compaction import keyed_batch, stored_records
from .control import read_marker
from .errors import StoreError, UnknownTopicOrPartitionError
from .partitions import Partitions
from .results import AppendResult, CommittedOffset, PartitionBounds, ReadResult, TopicInfo
from .topics import TopicTable

OFFSETS_TOPIC: Final = "__consumer_offsets"
TRANSACTION_STATE_TOPIC: Final = "__transaction_state"
INTERNAL_TOPICS: Final = frozenset({OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC})
#: How Kafka configures both internal topics.
INTERNAL_TOPIC_CONFIGS: Final = {"cleanup.policy": "compact"}

OFFSET_KEY_VERSIONS: Final = (0, 1)
OFFSET_KEY_VERSION: Final = 1
GROUP_KEY_VERSION: Final = 2
TRANSACTION_KEY_VERSION: Final = 0
OFFSET_VALUE_VERSION: Final = 3
_INT16 = struct.Struct(">h")
_INT32 = struct.Struct(">i")
_OFFSET_HEAD = struct.Struct(">hqi")  # version, offset, leader epoch
_INT64 = struct.Struct(">q")
#: How many bytes one replay read asks for.
REPLAY_READ_BYTES: Final = 1 << 20


class InternalRecordError(StoreError):
    """A record of an internal topic whose key or value does not decode."""


def java_string_hash(text: str) -> int:
    """Java's ``String.hashCode`` (UTF-16 code units, 32-bit overflow), which Kafka hashes coordinator keys with."""
    value = 0
    data = text.encode("utf-16-be")
    for index in range(0, len(data), 2):
        value = (31 * value + (data[index] << 8 | data[index + 1])) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def key_partition(key: str, partitions: int) -> int:
    """The internal-topic partition of ``key``: Kafka's ``Utils.abs(hashCode) % partitions``."""
    hashed = java_string_hash(key)
    return (0 if hashed == -(1 << 31) else abs(hashed)) % partitions


# --- the records ---


def _string(text: str) -> bytes:
    data = text.encode()
    return _INT16.pack(len(data)) + data


def offset_key(group: str, topic: str, partition: int) -> bytes:
    return _INT16.pack(OFFSET_KEY_VERSION) + _string(group) + _string(topic) + _INT32.pack(partition)


def offset_value(committed: CommittedOffset) -> bytes:
    epoch = -1 if committed.leader_epoch is None else committed.leader_epoch
    head = _OFFSET_HEAD.pack(OFFSET_VALUE_VERSION, committed.offset, epoch)
    return head + _string(committed.metadata) + _INT64.pack(committed.commit_timestamp)


def group_key(group: str) -> bytes:
    return _INT16.pack(GROUP_KEY_VERSION) + _string(group)


def transaction_key(transactional_id: str) -> bytes:
    return _INT16.pack(TRANSACTION_KEY_VERSION) + _string(transactional_id)


def document_value(document: Mapping[str, Any]) -> bytes:
    return json.dumps(document, separators=(",", ":"), sort_keys=True).encode()


@dataclass(frozen=True, slots=True)
class OffsetRecord:
    """An offset commit (``committed``) or its tombstone (None)."""

    group: str
    topic: str
    partition: int
    committed: CommittedOffset | None


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    """A group's or a transactional id's document, or its tombstone (None)."""

    key: str
    document: Mapping[str, Any] | None


class _Cursor:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, layout: struct.Struct) -> tuple[Any, ...]:
        values = layout.unpack_from(self.data, self.pos)
        self.pos += layout.size
        return values

    def string(self) -> str:
        (length,) = self.take(_INT16)
        start, self.pos = self.pos, self.pos + length
        if length < 0 or self.pos > len(self.data):
            raise ValueError("a string runs past the end of the record")
        return self.data[start : self.pos].decode()

    def done(self) -> None:
        if self.pos != len(self.data):
            raise ValueError("bytes past the end of the record")


def decode_consumer_offsets(key: bytes, value: bytes | None) -> OffsetRecord | DocumentRecord:
    """The change a ``__consumer_offsets`` record holds (``InternalRecordError`` when it does not decode)."""
    try:
        cursor = _Cursor(key)
        (version,) = cursor.take(_INT16)
        if version == GROUP_KEY_VERSION:
            group = cursor.string()
            cursor.done()
            return DocumentRecord(group, _document(value))
        if version not in OFFSET_KEY_VERSIONS:
            raise ValueError(f"unknown key version {version}")
        group, topic = cursor.string(), cursor.string()
        (partition,) = cursor.take(_INT32)
        cursor.done()
        return OffsetRecord(group, topic, partition, None if value is None else _committed(value))
    except (ValueError, struct.error, UnicodeDecodeError) as exc:
        raise InternalRecordError(f"a {OFFSETS_TOPIC} record does not decode: {exc}") from None


def decode_transaction_state(key: bytes, value: bytes | None) -> DocumentRecord:
    """The change a ``__transaction_state`` record holds (``InternalRecordError`` when it does not decode)."""
    try:
        cursor = _Cursor(key)
        (version,) = cursor.take(_INT16)
        if version != TRANSACTION_KEY_VERSION:
            raise ValueError(f"unknown key version {version}")
        transactional_id = cursor.string()
        cursor.done()
        return DocumentRecord(transactional_id, _document(value))
    except (ValueError, struct.error, UnicodeDecodeError) as exc:
        raise InternalRecordError(f"a {TRANSACTION_STATE_TOPIC} record does not decode: {exc}") from None


def _committed(value: bytes) -> CommittedOffset:
    cursor = _Cursor(value)
    version, offset, epoch = cursor.take(_OFFSET_HEAD)
    if version != OFFSET_VALUE_VERSION:
        raise ValueError(f"offset value version {version} (this broker writes and reads {OFFSET_VALUE_VERSION})")
    metadata = cursor.string()
    (timestamp,) = cursor.take(_INT64)
    cursor.done()
    return CommittedOffset(offset, None if epoch < 0 else epoch, metadata, timestamp)


def _document(value: bytes | None) -> Mapping[str, Any] | None:
    if value is None:
        return None
    document = json.loads(value)
    if not isinstance(document, dict):
        raise ValueError("a document is not a JSON object")
    return document


# --- one internal topic's log ---


@dataclass(frozen=True, slots=True)
class ReplayedRecord:
    """A keyed record read back; ``producer_id`` -1 unless a transaction wrote it."""

    key: bytes
    value: bytes | None
    producer_id: int = -1


@dataclass(frozen=True, slots=True)
class ReplayedMarker:
    """A transaction marker read back: ``producer_id``'s transaction on ``partition`` ended."""

    partition: int
    producer_id: int
    commit: bool


Replayed = ReplayedRecord | ReplayedMarker


class RecordPath(Protocol):
    """What an internal topic needs of ``store.records`` (which only ``message_store`` may import)."""

    def append_internal(self, topic: str, partition: int, batch: bytes) -> AppendResult: ...

    def write_transaction_marker(
        self, topic: str, partition: int, *, producer_id: int, producer_epoch: int, coordinator_epoch: int,
        commit: bool,
    ) -> AppendResult: ...  # fmt: skip

    def read(
        self, topic: str, partition: int, fetch_offset: int, max_bytes: int, *, max_offset: int | None = None
    ) -> ReadResult: ...

    def partition_bounds(self, topic: str, partition: int) -> PartitionBounds: ...


class InternalTopic:
    """One internal topic in the store: created on first need, appended to and replayed one partition at a time."""

    def __init__(
        self, name: str, partitions: int, *, table: TopicTable, queues: Partitions, records: RecordPath,
        clock: Callable[[], int],
    ) -> None:  # fmt: skip
        self.name = name
        self._wanted_partitions = partitions
        self._table = table
        self._queues = queues
        self._records = records
        self._clock = clock

    @property
    def exists(self) -> bool:
        return self._stored() is not None

    @property
    def partitions(self) -> int:
        """The topic's partition count: the stored topic's once it exists (Kafka too ignores a later change of
        the setting), else the configured one."""
        stored = self._stored()
        return self._wanted_partitions if stored is None else stored.partitions

    def _stored(self) -> TopicInfo | None:
        try:
            return self._table.get(self.name)
        except UnknownTopicOrPartitionError:
            return None

    def partition_of(self, key: str) -> int:
        return key_partition(key, self.partitions)

    def ensure(self) -> None:
        """Create the topic (compacted, the configured partitions) unless the store holds it already."""
        if self.exists:
            return
        topic_id = uuid.uuid4()
        self._queues.add(topic_id.bytes, range(self._wanted_partitions))
        self._table.create(self.name, self._wanted_partitions, INTERNAL_TOPIC_CONFIGS, topic_id)

    def append(
        self, partition: int, entries: Sequence[tuple[bytes, bytes | None]], producer: tuple[int, int] | None = None
    ) -> AppendResult:
        """One batch of keyed records (a null value: a tombstone) appended to ``partition``; with ``producer`` (id,
        epoch), a transaction's batch."""
        self.ensure()
        return self._records.append_internal(self.name, partition, keyed_batch(entries, self._clock(), producer))

    def append_marker(
        self, partition: int, producer_id: int, producer_epoch: int, coordinator_epoch: int, commit: bool
    ) -> AppendResult:
        """A COMMIT or ABORT marker ending ``producer_id``'s transaction on ``partition``."""
        return self._records.write_transaction_marker(
            self.name, partition, producer_id=producer_id, producer_epoch=producer_epoch,
            coordinator_epoch=coordinator_epoch, commit=commit,
        )  # fmt: skip

    def replay(self, partition: int) -> Iterator[Replayed]:
        """Every keyed record and transaction marker of ``partition``, from its log start to its high watermark,
        in offset order (records without a key and other control batches skipped)."""
        if not self.exists:
            return
        offset = self._records.partition_bounds(self.name, partition).log_start_offset
        while True:
            read = self._records.read(self.name, partition, offset, REPLAY_READ_BYTES)
            if not read.batches:
                return
            for batch in read.batches:
                header = read_batch_header(batch)
                if header.is_control:
                    marker = read_marker(memoryview(batch))
                    if marker is not None:
                        yield ReplayedMarker(partition, header.producer_id, marker.commit)
                    continue
                producer_id = header.producer_id if header.is_transactional else -1
                for record in stored_records(batch):
                    if record.key is not None:
                        yield ReplayedRecord(record.key, record.value, producer_id)
            offset = read.next_offset
