"""Offsets held for transactions that other brokers coordinate: the group coordinator's side of TxnOffsetCommit.

In a cluster, a transaction's coordinator (the leader of its ``__transaction_state`` partition) and a group's
coordinator (the leader of the group's ``__consumer_offsets`` partition) may be different brokers. Then
TxnOffsetCommit reaches the group's coordinator, which holds the offsets here, per producer id, until the
transaction coordinator's WriteTxnMarkers names the group's ``__consumer_offsets`` partition: on COMMIT they
become the group's committed offsets, on ABORT they are dropped (Kafka's
``GroupMetadata.pendingTransactionalOffsetCommits``).
Until then OffsetFetch with ``require_stable`` answers UNSTABLE_OFFSET_COMMIT for them (``pending``).

Kafka writes these offsets into ``__consumer_offsets`` as transactional records; here they live in memory only,
so a group coordinator restarted between TxnOffsetCommit and the marker loses them (the transaction commits
without them). Everything runs on the broker's event loop thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rockafka.store import OffsetCommit, TopicPartition, key_partition

Held = dict[str, dict[TopicPartition, OffsetCommit]]


class HeldOffsets:
    """Per producer id, per group: the offsets a transaction committed and its marker has not settled yet."""

    def __init__(self, offsets_partitions: int) -> None:
        self._offsets_partitions = offsets_partitions
        self._held: dict[int, Held] = {}

    def hold(self, producer_id: int, group_id: str, commits: Sequence[OffsetCommit]) -> None:
        """TxnOffsetCommit accepted: the later commit of a partition replaces the earlier one."""
        group = self._held.setdefault(producer_id, {}).setdefault(group_id, {})
        group.update({TopicPartition(c.topic, c.partition): c for c in commits})

    def of(self, producer_id: int, offsets_partition: int) -> Mapping[str, Mapping[TopicPartition, OffsetCommit]]:
        """The producer's held offsets of the groups on ``__consumer_offsets``-``offsets_partition``."""
        return {
            group: commits
            for group, commits in self._held.get(producer_id, {}).items()
            if key_partition(group, self._offsets_partitions) == offsets_partition
        }

    def release(self, producer_id: int, offsets_partition: int) -> None:
        """The marker settled them: forget the producer's offsets of the groups on that partition."""
        held = self._held.get(producer_id)
        if held is None:
            return
        for group in [g for g in held if key_partition(g, self._offsets_partitions) == offsets_partition]:
            del held[group]
        if not held:
            del self._held[producer_id]

    def pending(self, group_id: str) -> frozenset[TopicPartition]:
        """The group's partitions with an offset some transaction holds."""
        return frozenset(tp for held in self._held.values() for tp in held.get(group_id, {}))
