"""Coordinator state over the internal topics: committed offsets and documents, in memory, kept as records.

The records are ``internaltopics.py``'s. Here is what the store keeps in memory over them and how it gets there:

- ``CommittedOffsets``: per group, per topic-partition, the ``CommittedOffset`` (``store.offsets`` is its entry);
- ``DocumentMap``: per key, a JSON document: the groups' (``__consumer_offsets``, ``store.group_metadata``) and
  the transactional ids' (``__transaction_state``, ``store.transaction_state``);
- ``LoadedPartitions``: which partitions of an internal topic this store has replayed into memory. The
  store replays every partition at open (a single broker coordinates all of them); a broker in a cluster unloads
  the partitions it stops leading (their groups leave memory, their records stay) and loads one again when it
  leads it anew (``store.group_partitions``).

Every change is first appended (one batch, to the key's partition; a tombstone for a removal) and then applied in
memory, so what memory holds is always what a replay of the partition gives back. A failed append (a full disk,
an offline store) raises and changes nothing in memory. Durability is the CommitLog's: the services' callers take
the flusher's future after the change (``ConsumerOffsets``, ``Documents``), which covers the appended bytes.

Upgrading (``migrate_side_files``): a store written before these topics existed kept offsets in
``consumerOffsets.log``/``consumerOffset.json`` and group documents in ``groupMetadata.log``/``.json``. At open they
are read once (with their own damage handling, ``offsets.py`` and ``groups.py``), every offset and document is
written as records, and, once the CommitLog is fsynced, the files are renamed ``*.migrated``. A crash before the
renames leaves them in place and the next open migrates again (the latest record of a key wins). The
transactional ids, kept among the producer documents as ``txn:<id>`` (``producerState``), move the same way into
``__transaction_state`` and are then deleted from the producer log.

Threads: the event loop thread (and the opening thread before it), like the records service it appends through.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Final

from .groups import GroupMetadataLog
from .health import StoreHealth, guarded
from .internaltopics import (
    DocumentRecord,
    InternalRecordError,
    InternalTopic,
    OffsetRecord,
    Replayed,
    ReplayedMarker,
    decode_consumer_offsets,
    decode_transaction_state,
    document_value,
    offset_key,
    offset_value,
)
from .offsets import Groups, OffsetStore, remove_offsets
from .results import CommittedOffset, OffsetCommit, TopicPartition
from .txnoffsets import TransactionalOffsets

log = logging.getLogger("rockafka.store")

Document = Mapping[str, Any]
#: The side files of earlier versions that ``migrate_side_files`` reads once.
LEGACY_OFFSET_FILES: Final = ("consumerOffsets.log", "consumerOffset.json", "consumerOffset.json.bak")
LEGACY_GROUP_FILES: Final = ("groupMetadata.log", "groupMetadata.json", "groupMetadata.json.bak")
MIGRATED_SUFFIX: Final = ".migrated"
#: How earlier versions keyed a transactional id's document among the producer documents (``producerState``).
LEGACY_TRANSACTION_PREFIX: Final = "txn:"


class CommittedOffsets:
    """Committed offsets of the groups whose ``__consumer_offsets`` partitions are loaded."""

    def __init__(self, topic: InternalTopic) -> None:
        self._topic = topic
        self._groups: Groups = {}

    # --- replay ---

    def apply(self, record: OffsetRecord) -> None:
        key = TopicPartition(record.topic, record.partition)
        if record.committed is not None:
            self._groups.setdefault(record.group, {})[key] = record.committed
        else:
            self._remove(record.group, [key])

    def forget(self, partition: int) -> None:
        """Drop from memory every group of ``partition`` (its records stay)."""
        for group in [g for g in self._groups if self._topic.partition_of(g) == partition]:
            del self._groups[group]

    def _remove(self, group: str, keys: Iterable[TopicPartition]) -> None:
        remove_offsets(self._groups, group, keys)

    # --- changes ---

    def _write(self, group: str, changes: Mapping[TopicPartition, CommittedOffset | None]) -> None:
        entries = [
            (offset_key(group, key.topic, key.partition), None if c is None else offset_value(c))
            for key, c in changes.items()
        ]
        self._topic.append(self._topic.partition_of(group), entries)
        for key, committed in changes.items():
            self.apply(OffsetRecord(group, key.topic, key.partition, committed))

    def commit(self, group: str, commits: Iterable[OffsetCommit], timestamp: int) -> None:
        changes: dict[TopicPartition, CommittedOffset | None] = {
            TopicPartition(c.topic, c.partition): CommittedOffset(c.offset, c.leader_epoch, c.metadata, timestamp)
            for c in commits
        }
        if changes:
            self._write(group, changes)

    def restore(self, group: str, offsets: Mapping[TopicPartition, CommittedOffset]) -> None:
        """Write ``offsets`` as they were committed (their own timestamps): the upgrade from the side files."""
        if offsets:
            self._write(group, dict(offsets))

    def delete_offsets(self, group: str, partitions: Iterable[TopicPartition]) -> None:
        present = self._groups.get(group, {})
        gone: dict[TopicPartition, CommittedOffset | None] = dict.fromkeys(k for k in partitions if k in present)
        if gone:
            self._write(group, gone)

    def delete_group(self, group: str) -> bool:
        if group not in self._groups:
            return False
        self.delete_offsets(group, list(self._groups[group]))
        return True

    def delete_topic(self, topic: str) -> None:
        for group in list(self._groups):
            self.delete_offsets(group, [key for key in self._groups[group] if key.topic == topic])

    def expire(self, before_ms: int, keep_groups: Collection[str]) -> int:
        """Delete offsets committed before ``before_ms`` by groups not in ``keep_groups``; returns how many."""
        expired = {
            group: [key for key, c in offsets.items() if c.commit_timestamp < before_ms]
            for group, offsets in self._groups.items()
            if group not in keep_groups
        }
        for group, keys in expired.items():
            self.delete_offsets(group, keys)
        return sum(len(keys) for keys in expired.values())

    # --- reads ---

    def fetch(self, group: str, partitions: Iterable[TopicPartition] | None) -> dict[TopicPartition, CommittedOffset]:
        offsets = self._groups.get(group, {})
        if partitions is None:
            return dict(offsets)
        return {key: offsets[key] for key in partitions if key in offsets}

    def groups(self) -> list[str]:
        return sorted(self._groups)


class DocumentMap:
    """Documents by key over one internal topic (each key a record of its own partition)."""

    def __init__(self, topic: InternalTopic, key_record: Callable[[str], bytes]) -> None:
        self._topic = topic
        self._key_record = key_record
        self._documents: dict[str, Document] = {}

    def apply(self, record: DocumentRecord) -> None:
        if record.document is None:
            self._documents.pop(record.key, None)
        else:
            self._documents[record.key] = record.document

    def forget(self, partition: int) -> None:
        for key in [k for k in self._documents if self._topic.partition_of(k) == partition]:
            del self._documents[key]

    def put(self, key: str, document: Document) -> None:
        encoded = document_value(document)
        self._topic.append(self._topic.partition_of(key), [(self._key_record(key), encoded)])
        self._documents[key] = json.loads(encoded)

    def delete(self, key: str) -> bool:
        """Forget ``key``'s document; False when it had none."""
        if key not in self._documents:
            return False
        self._topic.append(self._topic.partition_of(key), [(self._key_record(key), None)])
        del self._documents[key]
        return True

    def documents(self) -> dict[str, Document]:
        return dict(self._documents)


class LoadedPartitions:
    """Which partitions of an internal topic are in memory (``store.group_partitions`` for ``__consumer_offsets``,
    ``store.transaction_partitions`` for ``__transaction_state``; see the module docstring)."""

    def __init__(
        self, health: StoreHealth, topic: InternalTopic, apply: Callable[[Replayed], None],
        forget: Callable[[int], None],
    ) -> None:  # fmt: skip
        self._health = health
        self._topic = topic
        self._apply = apply
        self._forget = forget
        self.loaded: set[int] = set()

    @property
    def count(self) -> int:
        return self._topic.partitions

    def partition_of(self, key: str) -> int:
        return self._topic.partition_of(key)

    @guarded
    def create_topic(self) -> None:
        """Create the topic now unless it exists (50 partitions take a few hundred milliseconds: the group
        coordinator does it as it starts, not in the middle of a rebalance at the first save)."""
        self._topic.ensure()

    @guarded
    def load_all(self) -> int:
        """Replay every partition (at open); returns how many records were read."""
        return sum(self.load(partition) for partition in range(self._topic.partitions))

    @guarded
    def load(self, partition: int) -> int:
        """Replay ``partition`` into memory (again, if it was loaded); returns how many records were read."""
        self._forget(partition)
        read = 0
        for replayed in self._topic.replay(partition):
            read += 1
            try:
                self._apply(replayed)
            except InternalRecordError as exc:
                log.error("%s-%d: %s; the record is skipped", self._topic.name, partition, exc)
        self.loaded.add(partition)
        return read

    @guarded
    def unload(self, partition: int) -> None:
        """Forget ``partition``'s keys in memory (its records stay in the store)."""
        self._forget(partition)
        self.loaded.discard(partition)


def group_state_replay(
    offsets: CommittedOffsets, documents: DocumentMap, transactional: TransactionalOffsets
) -> tuple[Callable[[Replayed], None], Callable[[int], None]]:
    """How a ``__consumer_offsets`` record is applied (to the offsets, a transaction's pending offsets, or the group
    documents) and a transaction marker settles a transaction's offsets; and how a partition is forgotten."""

    def apply(replayed: Replayed) -> None:
        if isinstance(replayed, ReplayedMarker):
            transactional.settled(replayed.producer_id, replayed.partition, replayed.commit)
            return
        record = decode_consumer_offsets(replayed.key, replayed.value)
        if isinstance(record, OffsetRecord):
            if replayed.producer_id >= 0:
                transactional.add(replayed.producer_id, record)
            else:
                offsets.apply(record)
                transactional.supersede(record.group, [TopicPartition(record.topic, record.partition)])
        else:
            documents.apply(record)

    def forget(partition: int) -> None:
        offsets.forget(partition)
        documents.forget(partition)
        transactional.forget(partition)

    return apply, forget


def transaction_state_replay(documents: DocumentMap) -> tuple[Callable[[Replayed], None], Callable[[int], None]]:
    """How a ``__transaction_state`` record is applied to the transactional ids' documents, and forgotten."""

    def apply(replayed: Replayed) -> None:
        if not isinstance(replayed, ReplayedMarker):
            documents.apply(decode_transaction_state(replayed.key, replayed.value))

    return apply, documents.forget


def legacy_files(directory: Path) -> list[Path]:
    """The side files of earlier versions still present in ``directory`` (the store's ``config/``)."""
    return [directory / name for name in (*LEGACY_OFFSET_FILES, *LEGACY_GROUP_FILES) if (directory / name).exists()]


def migrate_side_files(directory: Path, offsets: CommittedOffsets, documents: DocumentMap) -> tuple[int, int]:
    """Write the side files' offsets and group documents as records (module docstring); (offsets, groups) written.
    The caller fsyncs, then ``retire_side_files``."""
    old_offsets = OffsetStore(directory, compact_bytes=1 << 62)
    old_offsets.load()
    migrated_offsets = 0
    try:
        for group in old_offsets.groups():
            committed = old_offsets.fetch(group, None)
            offsets.restore(group, committed)
            migrated_offsets += len(committed)
    finally:
        old_offsets.close()
    old_groups = GroupMetadataLog(directory, compact_bytes=1 << 62)
    old_groups.load()
    try:
        saved = old_groups.documents()
        for key, document in sorted(saved.items()):
            documents.put(key, document)
    finally:
        old_groups.close()
    return migrated_offsets, len(saved)


def migrate_transactional_ids(producer_documents: Mapping[str, Document], documents: DocumentMap) -> list[str]:
    """Write the transactional ids that earlier versions kept among the producer documents (key ``txn:<id>``) as
    ``__transaction_state`` records; the keys moved, which the caller deletes from the producer log once fsynced."""
    moved = sorted(key for key in producer_documents if key.startswith(LEGACY_TRANSACTION_PREFIX))
    for key in moved:
        documents.put(key.removeprefix(LEGACY_TRANSACTION_PREFIX), producer_documents[key])
    return moved


def retire_side_files(files: Sequence[Path]) -> None:
    """Rename the migrated side files ``*.migrated`` (kept for the operator; nothing reads them again)."""
    for path in files:
        if path.exists():
            path.replace(path.with_name(path.name + MIGRATED_SUFFIX))


class ConsumerOffsets:
    """Committed offsets as the broker asks for them (``store.offsets``): guarded calls over ``CommittedOffsets``,
    the commit time, the durability future (the flusher's, covering the appended records)."""

    def __init__(
        self,
        health: StoreHealth,
        log: CommittedOffsets,
        clock: Callable[[], int],
        after_write: Callable[[], Future[None] | None],
        transactional: TransactionalOffsets,
    ) -> None:
        self._health = health
        self._offsets = log
        self._clock = clock
        self._after_write = after_write
        self._transactional = transactional

    @guarded
    def hold(
        self, producer_id: int, producer_epoch: int, group: str, commits: Iterable[OffsetCommit]
    ) -> Future[None] | None:
        """TxnOffsetCommit of a transaction coordinated elsewhere: ``commits`` written as the producer's
        transactional records, pending until its marker (``txnoffsets.py``); a future as for ``commit``."""
        self._transactional.hold(producer_id, producer_epoch, group, commits, self._clock())
        return self._after_write()

    @guarded
    def settle(
        self, producer_id: int, producer_epoch: int, coordinator_epoch: int, partition: int, commit: bool
    ) -> tuple[int, Future[None] | None]:
        """The producer's marker for ``__consumer_offsets``-``partition``: its pending offsets there committed or
        dropped; (how many groups, a future as for ``commit``)."""
        settled = self._transactional.settle(producer_id, producer_epoch, coordinator_epoch, partition, commit)
        return settled, self._after_write() if settled else None

    @guarded
    def pending(self, producer_id: int, partition: int) -> Mapping[str, Mapping[TopicPartition, CommittedOffset]]:
        """The producer's pending offsets of the groups on ``__consumer_offsets``-``partition``."""
        return self._transactional.of(producer_id, partition)

    @guarded
    def unstable(self, group: str) -> frozenset[TopicPartition]:
        """The group's partitions with an offset a transaction coordinated elsewhere holds pending."""
        return self._transactional.unstable(group)

    @guarded
    def commit(self, group: str, commits: Iterable[OffsetCommit]) -> Future[None] | None:
        """Record committed offsets; under sync flush, a future completed once they are fsynced."""
        commits = list(commits)
        self._offsets.commit(group, commits, self._clock())
        self._transactional.supersede(group, [TopicPartition(c.topic, c.partition) for c in commits])
        return self._after_write()

    @guarded
    def fetch(
        self, group: str, partitions: Iterable[TopicPartition] | None = None
    ) -> dict[TopicPartition, CommittedOffset]:
        """The group's committed offsets (all of them, or those of ``partitions`` that exist)."""
        return self._offsets.fetch(group, partitions)

    @guarded
    def delete(self, group: str, partitions: Iterable[TopicPartition]) -> None:
        self._offsets.delete_offsets(group, partitions)

    @guarded
    def delete_group(self, group: str) -> bool:
        """Forget every offset of ``group``; False when it had none."""
        return self._offsets.delete_group(group)

    @guarded
    def groups(self) -> list[str]:
        """Groups that have committed offsets."""
        return self._offsets.groups()

    @guarded
    def expire(self, before_ms: int, keep_groups: Collection[str] = ()) -> int:
        """Offsets retention: drop offsets committed before ``before_ms`` by groups not in ``keep_groups``."""
        return self._offsets.expire(before_ms, keep_groups)
