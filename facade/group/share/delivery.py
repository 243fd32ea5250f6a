"""Share group delivery (KIP-932): ShareFetch's acquisitions and the acknowledgements of ShareFetch and
ShareAcknowledge, over each group's share-partitions (``inflight.py``).

A share-partition is made on a group's first fetch of it, starting at the partition's high watermark
(``share.auto.offset.reset=latest``, the default) or its log start offset (``earliest``), a group config. A fetch
reads from the first available record of the window (a released or expired one first, else the end), whole stored
batches as Fetch does, and acquires for the member the data records among them: whole batches until the request's
``MaxRecords`` are reached (over all its partitions) and never more than ``group.share.partition.max.record.locks``
in flight per partition, locked for ``share.record.lock.duration.ms`` (the group config; else
``group.share.record.lock.duration.ms``). Records of control batches (transaction markers) are never handed out;
records of aborted transactions are (``share.isolation.level`` is read_uncommitted, Kafka's default, and
read_committed is not implemented). A log start offset moved past the window (retention, DeleteRecords) moves its
start along.

Each change of a window made by acknowledgements, releases or expired locks is saved with the group
(``persistence.py``); acquisitions are not. A member that closes its share session, or whose group session
expires, releases what it holds.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from rockafka.core_pyx.recordbatch import read_batch_header
from rockafka.facade.config import BrokerConfig
from rockafka.facade.config.group import SHARE_AUTO_OFFSET_RESET, SHARE_LOCK_DURATION
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, OffsetOutOfRangeError

from .coordinator import Durable, ShareGroupCoordinator
from .inflight import AcquiredRange, InvalidRecordStateError, SharePartition
from .model import PartitionKey, ShareGroup

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AcknowledgementBatch:
    first_offset: int
    last_offset: int
    types: tuple[int, ...]


@dataclass(slots=True)
class Acquisition:
    """One partition's answer to a fetch: the batches read and the records acquired among them."""

    batches: list[memoryview] = field(default_factory=list)
    acquired: list[AcquiredRange] = field(default_factory=list)


class ShareDelivery:
    def __init__(self, store: MessageStore, coordinator: ShareGroupCoordinator, config: BrokerConfig) -> None:
        self._store = store
        self._coordinator = coordinator
        self.delivery_limit = config.int("group.share.delivery.count.limit")
        self.max_locks = config.int("group.share.partition.max.record.locks")
        coordinator.on_member_gone = self._release_member

    def lock_duration_ms(self, group_id: str) -> int:
        return self._coordinator.configs.value(group_id, SHARE_LOCK_DURATION)

    def group(self, group_id: str, member_id: str, *, opening: bool) -> ShareGroup | None:
        """The share group of that id; when ``opening`` a share session, only if ``member_id`` is a member (a
        member that just left may still acknowledge and close the session it has)."""
        group = self._coordinator.groups.get(group_id)
        if group is None or (opening and member_id not in group.members):
            return None
        return group

    # --- acknowledgements ---

    def acknowledge(
        self, group: ShareGroup, member_id: str, key: PartitionKey, batches: Sequence[AcknowledgementBatch]
    ) -> tuple[ErrorCode, bool]:
        """Apply one partition's acknowledgement batches: its error (INVALID_RECORD_STATE for any batch the
        member does not hold, the batches before it applied) and whether its window changed."""
        partition = group.partitions.get(key)
        if partition is None:
            return ErrorCode.INVALID_RECORD_STATE, False
        now = self._coordinator.timers.time()
        changed = False
        for batch in batches:
            try:
                changed |= partition.acknowledge(
                    member_id, batch.first_offset, batch.last_offset, batch.types, now, self.delivery_limit
                )
            except InvalidRecordStateError as exc:
                log.debug("share group %s, %s: %s", group.group_id, key, exc)
                return ErrorCode.INVALID_RECORD_STATE, changed
        return ErrorCode.NONE, changed

    def release_session(self, group: ShareGroup, member_id: str, keys: Sequence[PartitionKey]) -> bool:
        """A closed share session releases what its member holds in its partitions; True if any was held."""
        released = False
        for key in keys:
            partition = group.partitions.get(key)
            if partition is not None:
                released |= partition.release_member(member_id, self.delivery_limit)
        return released

    def _release_member(self, group: ShareGroup, member_id: str) -> None:
        for partition in group.partitions.values():
            partition.release_member(member_id, self.delivery_limit)

    # --- acquisitions ---

    def acquire(
        self, group: ShareGroup, member_id: str, key: PartitionKey, topic: str, *, max_records: int, max_bytes: int
    ) -> tuple[Acquisition, bool]:
        """Read and acquire a partition's next deliverable records (``StoreError`` if the store fails), and
        whether its window changed in a way to save (locks that expired on the way)."""
        bounds = self._store.records.partition_bounds(topic, key[1])
        partition = group.partitions.get(key)
        if partition is None:
            reset = self._coordinator.configs.text(group.group_id, SHARE_AUTO_OFFSET_RESET)
            start = bounds.log_start_offset if reset == "earliest" else bounds.high_watermark
            partition = group.partitions[key] = SharePartition(start)
        now = self._coordinator.timers.time()
        expired = partition.expire(now, self.delivery_limit)
        partition.skip_to(bounds.log_start_offset)
        answer = Acquisition()
        offset = partition.first_available(now, self.delivery_limit)
        if max_records <= 0 or offset >= bounds.high_watermark or offset >= partition.start + self.max_locks:
            return answer, expired
        try:
            read = self._store.records.read(topic, key[1], offset, max(max_bytes, 1))
        except OffsetOutOfRangeError:
            return answer, expired
        headers = [read_batch_header(batch) for batch in read.batches]
        data = [(batch, h) for batch, h in zip(read.batches, headers, strict=True) if not h.is_control]
        deadline = now + self.lock_duration_ms(group.group_id) / 1000
        answer.acquired = partition.acquire(
            member_id,
            [(h.base_offset, h.last_offset) for _, h in data],
            max_records=max_records,
            max_locks=self.max_locks,
            deadline=deadline,
        )
        if answer.acquired:
            first, last = answer.acquired[0].first_offset, answer.acquired[-1].last_offset
            answer.batches = [batch for batch, h in data if h.last_offset >= first and h.base_offset <= last]
        return answer, expired

    def next_deadline(self, group: ShareGroup, keys: Sequence[PartitionKey]) -> float:
        """The earliest lock deadline among these partitions (infinity if none): a parked fetch wakes then."""
        deadlines = [group.partitions[k].next_deadline for k in keys if k in group.partitions]
        return min(deadlines, default=float("inf"))

    def save(self, group: ShareGroup) -> Durable:
        return self._coordinator.save(group)
