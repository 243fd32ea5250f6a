"""Offsets a transaction committed through a group coordinator that does not coordinate the transaction: written
as transactional records of ``__consumer_offsets`` and settled by the transaction's marker, as Kafka's group
coordinator does with TxnOffsetCommit (``GroupMetadata.pendingTransactionalOffsetCommits``).

- **Hold** (TxnOffsetCommit): the offsets are one RecordBatch of offset records (``internaltopics.py``'s key and
  value) appended to the group's ``__consumer_offsets`` partition with the transaction's producer id and epoch and
  the transactional attribute set, exactly as a transactional producer's batch; in memory they are *pending* for
  that producer id, not committed (OffsetFetch with ``require_stable`` answers UNSTABLE_OFFSET_COMMIT for them).
- **Settle** (WriteTxnMarkers naming the partition): a COMMIT or ABORT control batch (``control.py``) is appended
  to the partition, then the producer's pending offsets of the partition's groups become committed (COMMIT) or are
  dropped (ABORT). A marker for a producer with nothing pending on the partition writes nothing.
- **Replay** (the store's open, or the partition's leadership coming back): a transactional offset record is
  pending for its producer until that producer's control batch on the partition settles it the same way; what no
  marker settled is pending again after the replay, so a coordinator restarted between TxnOffsetCommit and the
  marker loses nothing: the marker that comes later (the transaction coordinator retries until it is written)
  settles it.

A plain commit of the same group and partition written after the transaction's record (OffsetCommit, or another
transaction's offsets committed here) is later in the log, so the transaction's COMMIT does not replace it: the
latest record wins, as Kafka compares the records' log offsets. Replay applies the same rule.

Compaction needs nothing more: the log cleaner already drops aborted transactions' records and keeps markers while
data of their transaction remains (``compaction.py``), and never passes the partition's last stable offset, which
an open transaction holds.

Threads: the event loop thread (and the opening thread before it), like ``coordinatorstate.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .internaltopics import InternalTopic, OffsetRecord, offset_key, offset_value
from .results import CommittedOffset, OffsetCommit, TopicPartition

Pending = dict[str, dict[TopicPartition, CommittedOffset]]


class TransactionalOffsets:
    """Per producer id, per group: offsets written by a transaction that its marker has not settled yet."""

    def __init__(self, topic: InternalTopic, settle_committed: Callable[[OffsetRecord], None]) -> None:
        self._topic = topic
        self._settle_committed = settle_committed
        self._pending: dict[int, Pending] = {}
        #: Per producer id, the (group, partition)s a plain commit wrote after the producer's pending record.
        self._superseded: dict[int, set[tuple[str, TopicPartition]]] = {}

    # --- replay ---

    def add(self, producer_id: int, record: OffsetRecord) -> None:
        """A transactional offset record read back (a tombstone in a transaction is not something this writes)."""
        if record.committed is not None:
            key = TopicPartition(record.topic, record.partition)
            self._pending.setdefault(producer_id, {}).setdefault(record.group, {})[key] = record.committed
            self._superseded.get(producer_id, set()).discard((record.group, key))

    def supersede(self, group: str, keys: Iterable[TopicPartition]) -> None:
        """A plain commit of ``keys`` written (or read back) after the pending records: a COMMIT keeps it."""
        for producer_id, pending in self._pending.items():
            offsets = pending.get(group)
            if offsets:
                later = {(group, key) for key in keys if key in offsets}
                if later:
                    self._superseded.setdefault(producer_id, set()).update(later)

    def settled(self, producer_id: int, partition: int, commit: bool) -> int:
        """The producer's marker on ``partition``: its pending offsets there committed or dropped; how many groups."""
        held = self.of(producer_id, partition)
        if commit:
            superseded = self._superseded.get(producer_id, set())
            for group, offsets in held.items():
                for key, committed in offsets.items():
                    if (group, key) not in superseded:
                        self._settle_committed(OffsetRecord(group, key.topic, key.partition, committed))
        self._release(producer_id, partition)
        return len(held)

    def forget(self, partition: int) -> None:
        """Drop from memory what is pending on ``partition`` (its records stay)."""
        for producer_id in list(self._pending):
            self._release(producer_id, partition)

    # --- changes ---

    def hold(
        self, producer_id: int, producer_epoch: int, group: str, commits: Iterable[OffsetCommit], timestamp: int
    ) -> None:
        """Append ``commits`` as the producer's transactional offset records, pending until its marker."""
        records = [
            OffsetRecord(group, c.topic, c.partition, CommittedOffset(c.offset, c.leader_epoch, c.metadata, timestamp))
            for c in commits
        ]
        if not records:
            return
        entries = [(offset_key(group, r.topic, r.partition), offset_value(r.committed)) for r in records if r.committed]
        self._topic.append(self._topic.partition_of(group), entries, producer=(producer_id, producer_epoch))
        for record in records:
            self.add(producer_id, record)

    def settle(
        self, producer_id: int, producer_epoch: int, coordinator_epoch: int, partition: int, commit: bool
    ) -> int:
        """Append the marker to ``partition`` and settle the producer's pending offsets there; how many groups (0:
        nothing pending, nothing written)."""
        if not self.of(producer_id, partition):
            return 0
        self._topic.append_marker(partition, producer_id, producer_epoch, coordinator_epoch, commit)
        return self.settled(producer_id, partition, commit)

    # --- reads ---

    def of(self, producer_id: int, partition: int) -> Mapping[str, Mapping[TopicPartition, CommittedOffset]]:
        """The producer's pending offsets of the groups on ``__consumer_offsets``-``partition``."""
        return {
            group: offsets
            for group, offsets in self._pending.get(producer_id, {}).items()
            if self._topic.partition_of(group) == partition
        }

    def unstable(self, group: str) -> frozenset[TopicPartition]:
        """The group's partitions with an offset some transaction holds pending."""
        return frozenset(key for pending in self._pending.values() for key in pending.get(group, {}))

    def _release(self, producer_id: int, partition: int) -> None:
        pending = self._pending.get(producer_id)
        if pending is None:
            return
        superseded = self._superseded.get(producer_id, set())
        for group in [g for g in pending if self._topic.partition_of(g) == partition]:
            del pending[group]
            superseded.difference_update({item for item in superseded if item[0] == group})
        if not pending:
            del self._pending[producer_id]
            self._superseded.pop(producer_id, None)
