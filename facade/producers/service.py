"""``ProducerService``: producer ids, transactional ids and per-partition idempotence state, kept in the store.

What the broker holds (``Broker.producers``). InitProducerId calls ``init_producer_id``; Produce calls
``check`` before appending a batch with a producer id >= 0 and ``record`` after. Everything runs on the
broker's event loop thread, so a check and its append are never interleaved with another producer's. A batch
``check`` would refuse OUT_OF_ORDER_SEQUENCE_NUMBER is checked again once the stored batches after its producer's
last counted one are counted (a batch stored without ``record``, a follower's late copy, must not leave the
producer refused for ever); nothing else reads the log on the Produce path.

Transactional ids (their producer ids, epochs and transactions) belong to the transaction coordinator
(``rockafka.facade.transactions``), which takes its producer ids from ``allocate_producer_id``.

Durability (see ``ids.py`` and ``state.py`` for the documents): a new producer id block is saved before the
answer carrying its first id goes out (awaiting the fsync); partition snapshots
are saved every ``SNAPSHOT_INTERVAL_S`` for partitions that changed, and on shutdown; ``start`` rebuilds
each partition from its snapshot and the stored batches after it. Expiry, in the same periodic pass:
producers idle on a partition for ``producer.id.expiration.ms`` (by their last batch timestamp, as Kafka).

Producer ids in a cluster: every broker allocates its own blocks, so that two brokers never hand out the same
id, a broker of a cluster allocates within its own range, ``[node.id << 44, (node.id + 1) << 44)`` (Kafka has
its controller hand out blocks instead; ids above what a single broker allocates are valid to every client, as
an int64). A single broker allocates from 0 as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Final

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import BatchHeader, read_batch_header
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError, TopicInfo, UnknownTopicOrPartitionError

from ..clock import REAL_CLOCK, Clock
from ..config import BrokerConfig
from ..errors import StoreErrorLog
from .ids import BLOCK_KEY, BLOCK_SIZE, DOCUMENT_VERSION, AllocatedId, ProducerIdAllocator
from .sequence import Accepted, BatchMetadata, IncomingBatch, ProducerEntry, Refused, Verdict
from .state import PartitionProducers, incoming, snapshot_key

log = logging.getLogger(__name__)
_store_errors = StoreErrorLog(log)

SNAPSHOT_INTERVAL_S: Final = 30.0
#: A broker of a cluster allocates producer ids in [node.id << ID_RANGE_BITS, (node.id + 1) << ID_RANGE_BITS).
ID_RANGE_BITS: Final = 44
REPLAY_READ_BYTES: Final = 4 << 20
#: A follower's keep-up pass reads this much at a time, yielding to the loop between reads.
KEEP_UP_READ_BYTES: Final = 256 << 10


@dataclass(frozen=True, slots=True)
class InitGranted:
    producer_id: int
    epoch: int
    #: Completed once what this answer relies on is fsynced; None when nothing new needs it.
    durable: Future[None] | None


@dataclass(frozen=True, slots=True)
class RebuildReport:
    partitions: int
    from_snapshot: int
    replayed_batches: int
    producers: int


def _log_refusal(where: str, table: PartitionProducers, batch: IncomingBatch, refused: Refused) -> None:
    """The DEBUG line of a refused batch: what the producer sent and what its entry holds."""
    entry = table.entries.get(batch.producer_id)
    held = "none" if entry is None else f"epoch {entry.epoch}, batches {list(entry.batches)}"
    log.debug(
        "%s refused producer %d epoch %d sequence %d (%d records): %s; its entry: %s", where, batch.producer_id,
        batch.epoch, batch.first_sequence, batch.record_count, refused.message, held,
    )  # fmt: skip


def _last_batch(entry: ProducerEntry) -> BatchMetadata | None:
    return entry.batches[-1] if entry.batches else None


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class ProducerService:
    def __init__(
        self, config: BrokerConfig, store: MessageStore, clock: Callable[[], int] = _wall_clock_ms,
        timers: Clock = REAL_CLOCK,
    ) -> None:  # fmt: skip
        """``clock``: wall-clock milliseconds (producer expiry); ``timers``: what the periodic pass sleeps on."""
        self._store = store
        self._clock = clock
        self._timers = timers
        self._producer_expiration_ms = config.int("producer.id.expiration.ms")
        self._partitions: dict[tuple[str, int], PartitionProducers] = {}
        clustered = bool(config.get("rockafka.cluster.etcd.endpoints"))
        self._id_range_start = (config.node_id % (1 << (63 - ID_RANGE_BITS))) << ID_RANGE_BITS if clustered else 0
        self._allocator = ProducerIdAllocator(self._id_range_start, self._save_block)
        self._task: asyncio.Task[None] | None = None
        #: Following (:meth:`follow`): per partition, the topic id and offset up to which its table holds the log.
        self._held_to: dict[tuple[str, int], tuple[str, int]] | None = None

    def reconfigure(self, config: BrokerConfig) -> None:
        """``producer.id.expiration.ms`` may change while the broker runs (a dynamic broker config)."""
        self._producer_expiration_ms = config.int("producer.id.expiration.ms")

    # --- lifecycle ---

    def load(self) -> RebuildReport:
        """Read the saved documents and rebuild every partition's producers (see ``state.py``)."""
        documents = self._store.producer_state.documents()
        report = self._rebuild_all(documents)
        self._allocator = ProducerIdAllocator(self._block_start(documents), self._save_block)
        self.expire()
        return report

    def _block_start(self, documents: Mapping[str, Mapping[str, Any]]) -> int:
        """The saved block start, or the block past every producer id still known when one is at or past it: the
        store keeps every intact document past damage, but a damaged frame may have held the latest block."""
        first, end = self._id_range_start, self._id_range_start + (1 << ID_RANGE_BITS)
        saved = ProducerIdAllocator.block_start(documents)
        saved = saved if first <= saved < end else first  # a single broker's data joining a cluster starts anew
        known = [pid for table in self._partitions.values() for pid in table.entries]
        known += [int(d.get("producer_id", -1)) for d in self._store.transaction_state.documents().values()]
        highest = max((pid for pid in known if first <= pid < end), default=-1)  # other brokers' ids: not ours
        if highest < saved:
            return saved
        start = (highest // BLOCK_SIZE + 1) * BLOCK_SIZE
        log.warning(
            "producer ids: id %d is in use past the saved block start %d; allocating from %d", highest, saved, start
        )
        return start

    def start(self) -> None:
        """``load``, then run the periodic snapshot and expiry pass on the running event loop."""
        report = self.load()
        log.info("producer state: %s", report)
        self._task = asyncio.get_running_loop().create_task(self._maintenance_loop())

    def shutdown(self) -> None:
        """Stop the periodic pass and save every changed partition (before the store closes)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        with contextlib.suppress(StoreError):
            self.snapshot()

    async def _maintenance_loop(self) -> None:
        while True:
            await self._timers.sleep(SNAPSHOT_INTERVAL_S)
            try:
                self.expire()
                self.snapshot()
            except StoreError as exc:  # a full or offline store: one line, not a traceback every pass
                _store_errors.refused("producer state snapshot", exc)

    # --- InitProducerId ---

    def init_idempotent(self) -> InitGranted:
        """An idempotent producer (transactional id null): a new producer id with epoch 0, on every call."""
        allocated = self._allocator.allocate()
        return InitGranted(allocated.producer_id, 0, allocated.durable)

    def allocate_producer_id(self) -> AllocatedId:
        """A producer id never handed out before (``durable`` completes once its block is fsynced)."""
        return self._allocator.allocate()

    def _save_block(self, next_block_start: int) -> Future[None] | None:
        document = {"version": DOCUMENT_VERSION, "next_block_start": next_block_start}
        return self._store.producer_state.save(BLOCK_KEY, document, durable=True)

    # --- Produce ---

    def check(self, topic: str, partition: int, header: BatchHeader) -> Verdict:
        """The verdict on a batch about to be appended (``Accepted`` for batches without a producer id)."""
        if header.producer_id < 0:
            return Accepted()
        table = self._table(topic, partition)
        if table is None:
            return Accepted()
        batch = incoming(header)
        verdict = table.check(batch)
        if isinstance(verdict, Refused):
            if verdict.error is ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER:
                verdict = self._check_against_log(topic, partition, table, batch)
            if isinstance(verdict, Refused) and log.isEnabledFor(logging.DEBUG):
                _log_refusal(f"{topic}-{partition}", table, batch, verdict)
        return verdict

    def _check_against_log(
        self, topic: str, partition: int, table: PartitionProducers, batch: IncomingBatch
    ) -> Verdict:
        """``batch``'s verdict again, once the stored batches after its producer's last counted one are counted.

        A batch may be stored without ``record``: a follower's copy that landed after :meth:`lead` replayed the log
        (the old leader's late frame, which that leader acknowledged). Kafka's producer state follows every append,
        a follower's too, so it never lags the log; ours lags there, and it shows only as an out-of-order refusal of
        the producer's next batch. Only refusals read the log (never the Produce path), each from where this
        producer's last search stopped, up to the high watermark (a batch the in-sync set does not hold yet is not
        counted). Only this producer's batches are counted: the search starts after its last one, behind batches of
        other producers that their entries hold already."""
        producer_id, entry = batch.producer_id, table.entries[batch.producer_id]
        last = _last_batch(entry)  # None: a marker's new epoch, nothing written in it yet
        offsets = self._store.records.partition_offsets(topic, partition)
        after = 0 if last is None else last.last_offset + 1
        start = max(after, table.searched.get(producer_id, 0), offsets.log_start_offset)
        alone = PartitionProducers(table.topic_id, {producer_id: entry})  # the others' batches land apart
        self._replay(topic, partition, alone, start, offsets.high_watermark)
        table.searched[producer_id] = max(start, offsets.high_watermark)
        found = alone.entries[producer_id]
        if found is not entry or _last_batch(found) is not last:
            table.entries[producer_id], table.dirty = found, True
        verdict = table.check(batch)
        if not isinstance(verdict, Refused):
            log.info("%s-%d: producer %d's batch follows stored batches its state had not counted (counted now)",
                     topic, partition, batch.producer_id)  # fmt: skip
        return verdict

    def record(self, topic: str, partition: int, header: BatchHeader, base_offset: int) -> None:
        """The batch ``check`` accepted was appended at ``base_offset``."""
        if header.producer_id < 0:
            return
        table = self._table(topic, partition)
        if table is not None:
            table.record(incoming(header), base_offset)

    def transaction_ended(self, topic: str, partition: int, producer_id: int, epoch: int) -> None:
        """A transaction marker of ``producer_id`` at ``epoch`` was written to the partition: its entry moves to that
        epoch (``sequence.end_transaction``: a fenced producer's later batches are refused). A follower's tables
        take markers from the log they copy instead (``keep_up``). Writers ask ``marker_fenced`` first, so a marker
        below the producer's epoch is never written; one replayed from an older log changes nothing."""
        table = self._table(topic, partition)
        if table is not None:
            table.end_transaction(producer_id, epoch, self._clock())

    def marker_fenced(self, topic: str, partition: int, producer_id: int, epoch: int) -> bool:
        """Whether the partition holds batches or a marker of ``producer_id`` at an epoch above ``epoch``: a marker
        of ``epoch`` would end the newer epoch's transaction, so the leader refuses it (INVALID_PRODUCER_EPOCH, as
        Kafka's ``appendEndTxnMarker`` checks the epoch)."""
        table = self._table(topic, partition)
        entry = None if table is None else table.entries.get(producer_id)
        return entry is not None and epoch < entry.epoch

    def producers(self, topic: str, partition: int) -> PartitionProducers | None:
        """The partition's producer table as it stands (for DescribeProducers and tests)."""
        return self._partitions.get((topic, partition))

    def _table(self, topic: str, partition: int) -> PartitionProducers | None:
        """The partition's table, reset when the topic was deleted and created again; None for unknown topics."""
        try:
            topic_id = self._store.topics.describe(topic).topic_id.hex
        except UnknownTopicOrPartitionError:
            return None
        table = self._partitions.get((topic, partition))
        if table is None or table.topic_id != topic_id:
            table = self._partitions[(topic, partition)] = PartitionProducers(topic_id)
        return table

    # --- snapshots, rebuild and expiry ---

    def snapshot(self) -> int:
        """Save the document of every partition changed since its last one; returns how many were saved."""
        saved = 0
        for (topic, partition), table in list(self._partitions.items()):
            if not table.dirty:
                continue
            try:
                offset = self._store.records.partition_offsets(topic, partition).high_watermark
            except UnknownTopicOrPartitionError:
                del self._partitions[(topic, partition)]
                self._store.producer_state.delete(snapshot_key(topic, partition))
                continue
            if self._held_to is not None:  # following: the table holds what keep_up replayed, no more
                held = self._held_to.get((topic, partition))
                if held is None or held[0] != table.topic_id:
                    continue
                offset = min(offset, held[1])
            self._store.producer_state.save(snapshot_key(topic, partition), table.document(offset))
            table.dirty = False
            saved += 1
        return saved

    def expire(self) -> int:
        """Forget idle producers; returns how many went."""
        now = self._clock()
        return sum(table.expire(now, self._producer_expiration_ms) for table in self._partitions.values())

    def rebuild_partition(self, topic: str, partition: int) -> None:
        """Rebuild ``topic``-``partition``'s producers from its stored batches (a partition copied in from another
        broker group: its idempotent producers continue their sequences here)."""
        try:
            info = self._store.topics.describe(topic)
        except UnknownTopicOrPartitionError:
            return
        table, _, _ = self._rebuild(info, partition, None)
        if table.entries:
            self._partitions[(topic, partition)] = table
        else:
            self._partitions.pop((topic, partition), None)

    def _rebuild_all(self, documents: Mapping[str, Mapping[str, Any]]) -> RebuildReport:
        from_snapshot = replayed = 0
        for topic in self._store.topics.list():
            for partition in range(topic.partitions):
                table, batches, used = self._rebuild(
                    topic, partition, documents.get(snapshot_key(topic.name, partition))
                )
                from_snapshot += used
                replayed += batches
                if table.entries:
                    self._partitions[(topic.name, partition)] = table
        producers = sum(len(table.entries) for table in self._partitions.values())
        return RebuildReport(len(self._partitions), from_snapshot, replayed, producers)

    def _rebuild(
        self, topic: TopicInfo, partition: int, document: Mapping[str, Any] | None
    ) -> tuple[PartitionProducers, int, int]:
        offsets = self._store.records.partition_offsets(topic.name, partition)
        table, position, used = PartitionProducers(topic.topic_id.hex), offsets.log_start_offset, 0
        if document is not None:
            try:
                saved, covered = PartitionProducers.from_document(document)
            except (ValueError, KeyError, TypeError) as exc:
                log.warning("producer snapshot of %s-%d ignored: %s", topic.name, partition, exc)
            else:
                if saved.topic_id == table.topic_id and covered <= offsets.high_watermark:
                    table, position, used = saved, max(covered, offsets.log_start_offset), 1
        replayed = self._replay(topic.name, partition, table, position, offsets.high_watermark)
        table.dirty = replayed > 0
        return table, replayed, used

    def _replay(self, topic: str, partition: int, table: PartitionProducers, position: int, end: int) -> int:
        return sum(count for count, _ in self._replay_reads(topic, partition, table, position, end))

    def _replay_reads(
        self, topic: str, partition: int, table: PartitionProducers, position: int, end: int,
        read_bytes: int = REPLAY_READ_BYTES,
    ) -> Iterator[tuple[int, int]]:  # fmt: skip
        """Replays the stored batches from ``position`` to ``end`` into ``table``, one read at a time: after each,
        the batches it replayed and the offset reached."""
        while position < end:
            replayed = 0
            result = self._store.records.read(topic, partition, position, read_bytes)
            for batch in result.batches:
                try:
                    header = read_batch_header(batch)
                except KernelError as exc:
                    log.warning("producer state of %s-%d: a stored batch does not parse: %s", topic, partition, exc)
                    continue
                table.replay(header)
                replayed += 1
            if result.next_offset <= position:
                break
            position = result.next_offset
            yield replayed, position

    # --- a follower's tables ---

    def follow(self) -> None:
        """This broker follows its group's leader: its appends are copies ``record`` never sees, so from now on
        a table holds only what :meth:`keep_up` replayed into it (and its snapshot says only that), until
        :meth:`lead`."""
        self._held_to = {}

    async def keep_up(self) -> int:
        """A follower's pass: replay into each partition's table the batches stored since the last pass (the whole
        log the first time, yielding to the loop between reads), so that :meth:`lead` replays only the tail."""
        replayed = 0
        for topic in self._store.topics.list():
            for partition in range(topic.partitions):
                for count, fresh in self._catch_up(topic, partition):
                    replayed += count
                    if fresh:  # a table extended in place is not left half-way
                        await asyncio.sleep(0)
        return replayed

    def lead(self) -> int:
        """This broker leads now: every table brought to its log end at once (the tail since the last
        :meth:`keep_up`, the whole log of partitions no pass reached); from then on tables record appends."""
        if self._held_to is None:
            self._held_to = {}
        replayed = sum(
            count for topic in self._store.topics.list() for partition in range(topic.partitions)
            for count, _ in self._catch_up(topic, partition)
        )  # fmt: skip
        self._held_to = None
        return replayed

    def _catch_up(self, topic: TopicInfo, partition: int) -> Iterator[tuple[int, bool]]:
        """Brings the partition's table to its high watermark (see :meth:`keep_up`); yields the batches of each read
        and whether the table is rebuilt afresh (not yet in place: the caller may yield to the loop meanwhile)."""
        if self._held_to is None:
            return
        key, topic_id = (topic.name, partition), topic.topic_id.hex
        offsets = self._store.records.partition_offsets(topic.name, partition)
        held = self._held_to.get(key)
        in_place = held is not None and held[0] == topic_id and held[1] >= offsets.log_start_offset
        if held is not None and in_place:
            start, table = held[1], self._partitions.get(key) or PartitionProducers(topic_id)
        else:
            start, table = offsets.log_start_offset, PartitionProducers(topic_id)
        position, replayed = start, 0
        reads = self._replay_reads(topic.name, partition, table, start, offsets.high_watermark, KEEP_UP_READ_BYTES)
        for count, reached in reads:
            position, replayed = reached, replayed + count
            yield count, not in_place
        if self._held_to is None:  # lead() ran while this pass waited: it brought every table up itself
            return
        self._held_to[key] = (topic_id, position)
        table.dirty = table.dirty or replayed > 0
        if table.entries:
            self._partitions[key] = table
        else:
            self._partitions.pop(key, None)
