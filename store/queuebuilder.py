"""``QueueBuilder``: the one writer of ConsumeQueue units, built from CommitLog records (the ConsumeQueue half of
RocketMQ's CommitLogDispatcher, which ``ReputMessageService`` drives; named for what it builds, as the broker has
two other things called dispatchers: ``facade/server.py``'s and ``facade/dispatch.py``'s request dispatchers).

ConsumeQueue units (and the transaction tracker's events, for transactional batches) are added synchronously,
on the appending thread, before the CommitLog's write position is published, so a batch is readable the moment
``append`` returns. IndexFile entries are not written here: the index thread (``IndexService``) follows the
published CommitLog on its own, and the appending thread does nothing for it. Recovery re-dispatches the
CommitLog tail through ``add`` and restarts the index thread where the surviving IndexFiles end; both writers
skip what they already hold, so re-dispatch is idempotent.

A ConsumeQueue unit that a read finds pointing at anything but its own record (``CommitLog.checked_batch_view``)
is repaired here, on the reading thread: the queue is cut at that unit and re-dispatched from the CommitLog
(``repair``), past any damage there, which goes to the quarantine (``keep_damage``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from rockafka.core_pyx.recordbatch import TRANSACTIONAL_BIT

from .commitlog import CommitLog, Damage, LogWalk, StoredBatch
from .consumequeue import ConsumeQueue
from .quarantine import Loss, Quarantine
from .transactions import TransactionTracker

log = logging.getLogger("rockafka.store")
PartitionKey = tuple[bytes, int]
TopicName = Callable[[bytes], str]
_KEEP_BYTES = 16 << 20  # at most this much of one damaged range is copied into the quarantine


class QueueBuilder:
    """Adds each stored batch's unit to its partition's ConsumeQueue; repairs a queue from the CommitLog.

    Threads: ``add`` and ``add_to`` run on the appending thread (and on the opening thread during recovery);
    ``repair`` on a reading thread, which is the appending thread too (the broker's event loop)."""

    def __init__(
        self,
        queues: Mapping[tuple[bytes, int], ConsumeQueue],
        transactions: TransactionTracker,
        *,
        commitlog: CommitLog | None = None,
        quarantine: Quarantine | None = None,
        topic_name: TopicName = bytes.hex,
    ) -> None:
        self._queues = queues
        self._transactions = transactions
        self._commitlog = commitlog
        self._quarantine = quarantine
        self._topic_name = topic_name

    def add(self, batch: StoredBatch) -> bool:
        """Write the ConsumeQueue unit of ``batch`` (and tell the transaction tracker of a transactional one);
        False when its partition is gone or already has it."""
        queue = self._queues.get((batch.topic_id, batch.partition))
        return queue is not None and self.add_to(queue, batch)

    def add_to(self, queue: ConsumeQueue, batch: StoredBatch) -> bool:
        """``add`` to the ConsumeQueue of ``batch``'s partition, already known (the append path)."""
        if not queue.append(batch):
            return False
        if batch.attributes & TRANSACTIONAL_BIT:
            self._transactions.observe(batch)
        return True

    def repair(self, queue: ConsumeQueue, index: int) -> bool:
        """Cut ``queue`` at unit ``index`` (which disagrees with the CommitLog) and rebuild it from the CommitLog's
        published records of its partition; False when this builder cannot (no CommitLog given)."""
        commitlog = self._commitlog
        if commitlog is None:
            return False
        key = (queue.topic_id, queue.partition)
        name = f"{self._topic_name(queue.topic_id)}-{queue.partition}"
        while index > queue.first_index and not _points_at_its_record(commitlog, queue, index - 1):
            index -= 1
        log.warning(
            "store damage: %s ConsumeQueue unit %d disagrees with the CommitLog; rebuilding from it", name, index
        )
        queue.claims = [queue.head(i) for i in range(index, queue.end_index)]
        queue.cut_at(index)
        start = queue.next_physical if queue.end_index > queue.first_index else commitlog.min_offset
        published = commitlog.published_offset
        walk = LogWalk(commitlog, start, limit=published, verify_from=0, expected_end=published, hint_end=0)
        damages: list[Damage] = []
        added = 0
        for item in walk:
            if isinstance(item, Damage):
                damages.append(item)
                continue
            for record in item:
                if record.partition == key[1] and record.topic_id == key[0]:
                    if damages:
                        note_gap(record, self._queues, damages)
                    added += queue.append(record)
        note_claims({key: queue}, damages)
        keep_damage(commitlog, self._quarantine, damages, self._topic_name)
        log.warning("store repair: %s rebuilt from CommitLog offset %d, %d batches re-dispatched", name, start, added)
        return True


def _points_at_its_record(commitlog: CommitLog, queue: ConsumeQueue, index: int) -> bool:
    physical, size, count, base = queue.head(index)
    return commitlog.checked_batch_view(physical, size, queue.topic_id, queue.partition, base, count) is not None


def note_gap(record: StoredBatch, queues: Mapping[PartitionKey, ConsumeQueue], damages: list[Damage]) -> None:
    """Before ``record`` is dispatched: if its partition's next record skips offsets, past a damaged range that
    lies after the partition's last unit, the partition lost those offsets in that range."""
    key = (record.topic_id, record.partition)
    queue = queues.get(key)
    if queue is None or queue.end_index == queue.first_index or record.base_offset <= queue.next_offset:
        return
    for damage in reversed(damages):
        if queue.next_physical <= damage.start < record.physical_offset:
            damage.lost.setdefault(key, (queue.next_offset, record.base_offset - 1))
            return


def _recorded(loss: Loss, known: Loss) -> bool:
    """Whether ``known`` already records ``loss``: the same partition's offsets (a gap seen again, from a walk
    that did not start before the damage that made it), or its range holds it (a walk that starts inside
    damaged bytes finds a part of them) when ``loss`` names no partition or no offsets."""
    within = known.start <= loss.start <= loss.end <= known.end
    if loss.partition is None or (known.topic, known.partition) != (loss.topic, loss.partition):
        return within and loss.partition is None
    offsets = (known.first_offset, known.last_offset, loss.first_offset, loss.last_offset)
    if None in offsets:
        return within
    return offsets[0] <= offsets[2] <= offsets[3] <= offsets[1]  # type: ignore[operator]


def note_claims(queues: Mapping[PartitionKey, ConsumeQueue], damages: list[Damage]) -> None:
    """After a recovery scan: units a queue held before it was cut (``ConsumeQueue.claims``) that point into a
    damaged range name the partition and offsets lost there (no valid record lies in the range: what they
    pointed at is gone). They name the records lost at a partition's end or start, which no gap reveals."""
    for key, queue in queues.items():
        for physical, _, count, base in queue.claims:
            if queue.first_offset <= base < queue.next_offset:
                continue  # the queue has these offsets again (or a gap a later record shows: ``note_gap``)
            for damage in damages:
                if damage.start <= physical < damage.end:
                    first, last = damage.lost.get(key, (base, base + count - 1))
                    damage.lost[key] = (min(first, base), max(last, base + count - 1))
                    break
        queue.claims = []


def keep_damage(
    commitlog: CommitLog, quarantine: Quarantine | None, damages: Sequence[Damage], topic_name: TopicName
) -> int:
    """Record each damaged range of the CommitLog in the quarantine: one loss per partition known to have lost
    offsets there (or one of unknown partition), each once (a later recovery or repair that finds the range again
    records only partitions not yet recorded for it); its bytes are kept with its first loss. Returns the bytes
    lost."""
    if not damages:
        return 0
    earlier = [loss for loss in quarantine.losses() if loss.source == "commitlog"] if quarantine is not None else []
    kept = {(loss.start, loss.end) for loss in earlier}
    for damage in damages:
        lost = dict(damage.lost)
        header = damage.header
        if header is not None:
            key = (header.topic_id, header.partition)
            lost.setdefault(key, (header.base_offset, header.base_offset + header.record_count - 1))
        file = f"commitlog/{damage.start - damage.start % commitlog.segment_bytes:020d}"
        where = ("commitlog", file, damage.start, damage.end)
        losses = [
            Loss(*where, damage.reason, topic_name(topic_id), partition, first, last)
            for (topic_id, partition), (first, last) in sorted(lost.items())
        ] or [Loss(*where, damage.reason + " (partition unknown)")]
        for loss in losses:
            if any(_recorded(loss, known) for known in earlier):
                continue  # found again by a later recovery or repair
            if quarantine is None:
                log.warning("store damage: %s", loss.describe())
                continue
            data = None
            if (damage.start, damage.end) not in kept:
                data = commitlog.copy_range(damage.start, min(damage.end, damage.start + _KEEP_BYTES))
                kept.add((damage.start, damage.end))
            earlier.append(quarantine.keep(loss, data))
    return sum(damage.end - damage.start for damage in damages)
