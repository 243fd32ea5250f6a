"""``TransactionCoordinator``: Kafka's transaction coordinator for one broker, its state kept in the store.

What the broker holds (``Broker.transactions``). The rules of each request are ``metadata.py``'s; this module
keeps every transactional id's ``TransactionMetadata``, makes each change durable before answering, writes
the markers, and runs the timers. Everything runs on the broker's event loop thread.

Durability: each change is the transactional id's document (see ``metadata.py``), a record of its
``__transaction_state`` partition (``store.transaction_state``), saved with an fsync awaited before the answer, and
on a replicated leader once every in-sync member holds it (``confirm_write``: Kafka answers once its transaction
log write is replicated; COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR otherwise). A change becomes the id's state in
memory only once its save is confirmed; meanwhile the id is pending and requests that would change it answer
CONCURRENT_TRANSACTIONS (``transitions.py``: Kafka's pending state and coordinator epoch).

Ending a transaction (EndTxn, the transaction timeout, fencing by a new InitProducerId):

1. the transaction goes to PrepareCommit/PrepareAbort, saved and fsynced; while that runs, requests for the id
   answer CONCURRENT_TRANSACTIONS;
2. a COMMIT or ABORT control batch is written to every partition of the transaction: into this broker's store
   for the partitions it leads (``MessageStore.write_transaction_marker``, coordinator epoch 0), and, in a
   cluster, through WriteTxnMarkers to the leader of every other partition (``markers.py``: retried until each
   leader has written it, for as long as it takes). On commit the offsets TxnOffsetCommit left pending are
   committed to the group: here when this broker coordinates the group (they are held in the transaction), else
   by the group's coordinator when the marker for the group's ``__consumer_offsets`` partition reaches it
   (it wrote them there as transactional records, ``store/txnoffsets.py``); on abort they are dropped;
3. the transaction goes to CompleteCommit/CompleteAbort (saved; a restart redoes step 2 while it is not).

EndTxn is answered once this broker's own markers are written (Kafka: after step 1); other leaders' markers are
delivered after, the transaction staying Prepare* (the next one answered CONCURRENT_TRANSACTIONS) until all are.
After a restart or a kill -9, Prepare* transactions have their markers written again (a second marker is harmless,
as in Kafka); a failed marker write is retried by the periodic pass. A single broker aborts at load a transaction
the store finds open on a partition that no Ongoing transaction holds (its document lost), so it cannot hold the
last stable offset back forever; a broker of a cluster aborts nothing on its own (another may coordinate it).

Timers, every ``transaction.abort.timed.out.transaction.cleanup.interval.ms``: an Ongoing transaction older
than its timeout is aborted with its epoch bumped (``metadata.fence``), so its producer is fenced (its next
request gets PRODUCER_FENCED / INVALID_PRODUCER_EPOCH); a transaction whose marker writes failed is completed.
Every ``transaction.remove.expired.transaction.cleanup.interval.ms``: ids with no transaction in progress and
no InitProducerId or transaction for ``transactional.id.expiration.ms`` go Dead and are forgotten.

InitProducerId for a transactional id (epochs: ``producers.ids``): Prepare* answers CONCURRENT_TRANSACTIONS; an
Ongoing transaction is aborted with a bumped epoch (fencing its producer) and CONCURRENT_TRANSACTIONS answered,
so the client retries and gets the next epoch, as Kafka does.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Final

from rockafka.core_pyx.recordbatch import BatchHeader
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import (
    MessageStore,
    OffsetCommit,
    StoreError,
    TopicPartition,
)

from ..clock import REAL_CLOCK, Clock
from ..config import BrokerConfig
from ..errors import StoreErrorLog
from ..group import OFFSETS_TOPIC
from ..interbroker import InterBrokerSettings
from ..producers import InitGranted, InitRefused, ProducerService
from ..producers.ids import ProducerIdAndEpoch, check_request, init_transactional, known_producer
from ..replication import ConfirmWrite, as_written
from .markers import Marker, MarkerDelivery, Route, abort_orphans, write_marker
from .metadata import (
    ProduceRefused,
    TransactionMetadata,
    TxnState,
    add,
    batch_refusal,
    check_producer,
    complete,
    fence,
    prepare_end,
)
from .queries import TransactionDescription, TransactionListing, describe, list_transactions, offsets_partition
from .transitions import PendingTransitions, durable, save

log = logging.getLogger(__name__)
_store_errors = StoreErrorLog(log)

COORDINATOR_EPOCH: Final = 0
TRANSACTION_STATE_TOPIC: Final = "__transaction_state"


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class LoadReport:
    transactional_ids: int
    completed: int
    unreadable: int
    orphans_aborted: int


class TransactionCoordinator:
    def __init__(
        self, config: BrokerConfig, store: MessageStore, producers: ProducerService,
        clock: Callable[[], int] = _wall_clock_ms, timers: Clock = REAL_CLOCK,
    ) -> None:  # fmt: skip
        """``clock``: wall-clock milliseconds (timeouts, expiry); ``timers``: what the periodic passes sleep on."""
        self._store = store
        self._producers = producers
        self._clock = clock
        self._timers = timers
        self._max_timeout_ms = config.int("transaction.max.timeout.ms")
        self._expiration_ms = config.int("transactional.id.expiration.ms")
        self._abort_interval_s = config.int("transaction.abort.timed.out.transaction.cleanup.interval.ms") / 1000
        self._remove_interval_s = config.int("transaction.remove.expired.transaction.cleanup.interval.ms") / 1000
        self._offsets_partitions = config.int("offsets.topic.num.partitions")
        self._clustered = bool(config.get("rockafka.cluster.etcd.endpoints"))
        self._txns: dict[str, TransactionMetadata] = {}
        #: Ids whose change is being saved (requests answer CONCURRENT_TRANSACTIONS), and each partition's generation.
        self._pending = PendingTransitions(store.transaction_partitions.partition_of)
        self._tasks: list[asyncio.Task[None]] = []
        #: In a cluster (``use_cluster``): who leads each partition, and the delivery of markers to the others.
        self._delivery: MarkerDelivery | None = None
        #: Prepared transactions whose markers are being delivered to other leaders.
        self._delivering: dict[str, asyncio.Task[None]] = {}
        #: A save's durability, also waiting for the in-sync members on a replicated leader (``Broker``).
        self.confirm_write: ConfirmWrite = as_written

    # --- lifecycle ---

    def load(self) -> LoadReport:
        """Read every transactional id, then complete the transactions a stop left prepared (a broker of a
        cluster completes them once it knows which it coordinates and who leads their partitions:
        ``use_cluster``)."""
        read, unreadable = self._read(lambda name: True)
        if self._clustered:
            return LoadReport(len(self._txns), 0, unreadable, 0)
        completed = sum(self._finish(name) for name in read if self._txns[name].state.preparing)
        txns = self._txns.values()
        ongoing = {(m.producer_id, tp) for m in txns if m.state is TxnState.ONGOING for tp in m.partitions}
        orphans = abort_orphans(self._store, ongoing, COORDINATOR_EPOCH)
        return LoadReport(len(self._txns), completed, unreadable, orphans)

    def has_state(self) -> bool:
        """Whether any transactional id is held here (``__transaction_state`` is then listed in Metadata)."""
        return bool(self._txns)

    def _read(self, wanted: Callable[[str], bool]) -> tuple[list[str], int]:
        """Take the saved transactional ids that are ``wanted`` and not held yet; (the ids read, how many could not
        be read)."""
        read, unreadable = [], 0
        for name, document in self._store.transaction_state.documents().items():
            if name in self._txns or not wanted(name):
                continue
            try:
                self._txns[name] = TransactionMetadata.from_document(name, document)
                read.append(name)
            except (ValueError, KeyError, TypeError) as exc:
                log.error("transactional id %r: its document cannot be read (%s); it is ignored", name, exc)
                unreadable += 1
        return read, unreadable

    def coordinate(self, partitions: frozenset[int]) -> None:
        """Serve exactly the transactional ids of these ``__transaction_state`` partitions (in a cluster, those this
        broker leads): the ids of a partition given up leave memory (their records stay); a partition taken up is
        replayed from the store and its prepared transactions are completed."""
        state = self._store.transaction_partitions
        for partition in sorted(state.loaded - partitions):
            self._pending.moved(partition)  # a save still in flight for one of its ids changes nothing here
            leaving = [n for n in self._txns if state.partition_of(n) == partition]
            for name in leaving:
                del self._txns[name]
                delivering = self._delivering.pop(name, None)
                if delivering is not None:  # the next coordinator resumes the delivery
                    delivering.cancel()
            state.unload(partition)
            log.info("%s-%d is led elsewhere now: %d transactional ids unloaded", TRANSACTION_STATE_TOPIC,
                     partition, len(leaving))  # fmt: skip
        for partition in sorted(partitions - state.loaded):
            self._pending.moved(partition)
            state.load(partition)
            read, _ = self._read(functools.partial(_in_partition, state.partition_of, partition))
            completed = sum(self._finish(name) for name in read if self._txns[name].state.preparing)
            log.info("%s-%d is led here now: %d transactional ids loaded, %d prepared transactions completed",
                     TRANSACTION_STATE_TOPIC, partition, len(read), completed)  # fmt: skip

    def use_cluster(self, route: Route, interbroker: InterBrokerSettings | None = None) -> int:
        """Serve as a broker of a cluster, ``route`` saying who leads each partition and ``interbroker`` how to
        reach the others; complete the transactions left prepared (returns how many completed at once;
        the others are being delivered)."""
        self._delivery = MarkerDelivery(route, self._write_local, interbroker)
        return self.retry_completions()

    def start(self) -> None:
        """``load``, then run the timeout and expiry passes on the running event loop."""
        log.info("transactions: %s", self.load())
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._timeout_loop()), loop.create_task(self._expiry_loop())]

    def shutdown(self) -> None:
        for task in (*self._tasks, *self._delivering.values()):
            task.cancel()
        self._tasks, self._delivering = [], {}
        if self._delivery is not None:
            self._delivery.close()

    async def _timeout_loop(self) -> None:
        while True:
            await self._timers.sleep(self._abort_interval_s)
            try:
                await self.abort_timed_out()
                self.retry_completions()
            except StoreError as exc:  # a full or offline store: one line, not a traceback every pass
                _store_errors.refused("transaction timeout pass", exc)

    async def _expiry_loop(self) -> None:
        while True:
            await self._timers.sleep(self._remove_interval_s)
            with contextlib.suppress(StoreError):
                self.expire()

    # --- reading ---

    def metadata(self, transactional_id: str) -> TransactionMetadata | None:
        return self._txns.get(transactional_id)

    def describe(self, transactional_id: str) -> TransactionDescription:
        """DescribeTransactions for one id."""
        return describe(self._txns, transactional_id, self._offsets_partitions)

    def list_transactions(
        self, states: Collection[str], producer_ids: Collection[int], min_duration_ms: int = -1
    ) -> tuple[list[str], list[TransactionListing]]:
        """ListTransactions: the state filters this broker does not know, and the ids matching every filter."""
        return list_transactions(self._txns, states, producer_ids, min_duration_ms, self._clock())

    def pending_offsets(self, group_id: str) -> frozenset[TopicPartition]:
        """Partitions of ``group_id`` with an offset a transaction holds uncommitted (OffsetFetch require_stable)."""
        pending: set[TopicPartition] = set(self._store.offsets.unstable(group_id))
        for metadata in self._txns.values():
            pending.update(metadata.offsets.get(group_id, ()))
        return frozenset(pending)

    # --- InitProducerId ---

    async def init_producer_id(
        self, transactional_id: str | None, timeout_ms: int, producer_id: int, epoch: int
    ) -> InitGranted | InitRefused:
        """A producer id and epoch (idempotent producers and transactional ids alike), durable once returned."""
        refused = check_request(transactional_id, timeout_ms, producer_id, epoch, self._max_timeout_ms)
        if refused is not None:
            return refused
        if transactional_id is None:
            granted = self._producers.init_idempotent()
            if await durable(granted.durable) is not ErrorCode.NONE:
                return InitRefused(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the producer id block was not saved")
            return InitGranted(granted.producer_id, granted.epoch, None)
        if transactional_id in self._pending:
            return InitRefused(ErrorCode.CONCURRENT_TRANSACTIONS, f"{transactional_id!r} is being changed: retry")
        expected = None if producer_id == -1 else ProducerIdAndEpoch(producer_id, epoch)
        current = self._txns.get(transactional_id)
        if current is not None and not current.state.settled:
            return await self._init_in_transaction(current, expected)
        block_saves: list[Future[None] | None] = []

        def new_producer_id() -> int:
            allocated = self._producers.allocate_producer_id()
            block_saves.append(allocated.durable)
            return allocated.producer_id

        now = self._clock()
        ids = init_transactional(
            None if current is None else current.ids, transactional_id, expected, timeout_ms, now, new_producer_id
        )
        if isinstance(ids, InitRefused):
            return ids
        metadata = TransactionMetadata(ids) if current is None else current.to(TxnState.EMPTY, now, ids=ids)
        error = await self._transit(metadata, *block_saves)
        if error is not ErrorCode.NONE:
            return InitRefused(error, f"transactional id {transactional_id!r} was not saved")
        if current is not None and expected is None:
            log.info(
                "transactional id %r: producer %d epoch %d fenced by a new instance (now producer %d epoch %d)",
                transactional_id, current.ids.producer_id, current.ids.epoch, ids.producer_id, ids.epoch,
            )  # fmt: skip
        return InitGranted(ids.producer_id, ids.epoch, None)

    async def _init_in_transaction(
        self, current: TransactionMetadata, expected: ProducerIdAndEpoch | None
    ) -> InitRefused:
        name = current.transactional_id
        if expected is not None and not known_producer(current.ids, expected):
            return InitRefused(ErrorCode.PRODUCER_FENCED, f"producer id {expected.producer_id} is not {name!r}'s")
        if current.state is TxnState.ONGOING:
            log.info("transactional id %r: a new producer aborts the ongoing transaction and fences the old one", name)
            error = await self._end(fence(current, self._clock()))
            if error is not ErrorCode.NONE:
                return InitRefused(error, f"the ongoing transaction of {name!r} could not be aborted")
        return InitRefused(ErrorCode.CONCURRENT_TRANSACTIONS, f"{name!r} is completing a transaction: retry")

    # --- AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn ---

    def _current(self, transactional_id: str, producer_id: int, epoch: int) -> TransactionMetadata | ErrorCode:
        metadata = self._txns.get(transactional_id)
        if metadata is None:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING
        error = check_producer(metadata, producer_id, epoch)
        if error is not None:
            return error
        if transactional_id in self._pending:
            return ErrorCode.CONCURRENT_TRANSACTIONS
        return metadata

    async def add_partitions(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: Iterable[TopicPartition]
    ) -> ErrorCode:
        return await self._add(transactional_id, producer_id, epoch, partitions, ())

    async def add_offsets(self, transactional_id: str, producer_id: int, epoch: int, group_id: str) -> ErrorCode:
        return await self._add(transactional_id, producer_id, epoch, (), (group_id,))

    async def _add(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: Iterable[TopicPartition],
        groups: Iterable[str],
    ) -> ErrorCode:  # fmt: skip
        current = self._current(transactional_id, producer_id, epoch)
        if isinstance(current, ErrorCode):
            return current
        outcome = add(current, partitions, groups, self._clock())
        if isinstance(outcome, ErrorCode):
            return outcome
        return await self._transit(outcome)

    def verify_partitions(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: Iterable[TopicPartition]
    ) -> ErrorCode | dict[TopicPartition, ErrorCode]:
        """AddPartitionsToTxn v4+ ``verify_only``: each partition NONE if in the ongoing transaction, else
        INVALID_TXN_STATE; or an error for all of them."""
        current = self._current(transactional_id, producer_id, epoch)
        if isinstance(current, ErrorCode):
            return current
        if current.state.preparing:
            return ErrorCode.CONCURRENT_TRANSACTIONS
        ongoing = current.state is TxnState.ONGOING
        return {
            tp: ErrorCode.NONE if ongoing and tp in current.partitions else ErrorCode.INVALID_TXN_STATE
            for tp in partitions
        }

    async def commit_offsets(
        self, transactional_id: str, producer_id: int, epoch: int, group_id: str, commits: Sequence[OffsetCommit]
    ) -> ErrorCode:
        """TxnOffsetCommit (after the group's checks): hold ``commits`` until the transaction ends."""
        if self._clustered and not self._coordinates(transactional_id):  # the marker settles them (txnoffsets.py)
            return await self._hold_offsets(producer_id, epoch, group_id, commits)
        current = self._current(transactional_id, producer_id, epoch)
        if current is ErrorCode.PRODUCER_FENCED:
            return ErrorCode.INVALID_PRODUCER_EPOCH  # what TxnOffsetCommit answers for a stale epoch
        if isinstance(current, ErrorCode):
            return current
        if current.state.preparing:
            return ErrorCode.CONCURRENT_TRANSACTIONS
        if current.state is not TxnState.ONGOING or group_id not in current.offsets:
            _invalid_state(transactional_id, f"TxnOffsetCommit for group {group_id!r}", current)
            return ErrorCode.INVALID_TXN_STATE
        held = dict(current.offsets[group_id]) | {TopicPartition(c.topic, c.partition): c for c in commits}
        outcome = current.to(TxnState.ONGOING, self._clock(), offsets=dict(current.offsets) | {group_id: held})
        return await self._transit(outcome)

    async def _hold_offsets(
        self, producer_id: int, epoch: int, group_id: str, commits: Sequence[OffsetCommit]
    ) -> ErrorCode:
        """Write a transaction's offsets into the group's ``__consumer_offsets`` partition as its transactional
        records (pending until its marker) and wait until they are durable."""
        try:
            written = self.confirm_write(self._store.offsets.hold(producer_id, epoch, group_id, commits))
        except StoreError as exc:
            log.error("offsets of producer %d for group %r not written: %s", producer_id, group_id, exc)
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        return await durable(written)

    async def end_transaction(self, transactional_id: str, producer_id: int, epoch: int, commit: bool) -> ErrorCode:
        """EndTxn: commit or abort the ongoing transaction; its markers are written once this returns NONE."""
        current = self._current(transactional_id, producer_id, epoch)
        if isinstance(current, ErrorCode):
            return current
        prepared = prepare_end(current, commit, self._clock())
        if prepared is ErrorCode.INVALID_TXN_STATE:
            _invalid_state(transactional_id, f"EndTxn({'COMMIT' if commit else 'ABORT'})", current)
        if isinstance(prepared, ErrorCode):
            return prepared
        return await self._end(prepared)

    # --- Produce ---

    def check_produce(
        self, transactional_id: str | None, topic: str, partition: int, header: BatchHeader
    ) -> ProduceRefused | None:
        """A transactional batch may be appended only within its producer's Ongoing transaction, to a partition
        added to it (Kafka's produce-side verification), when this broker coordinates the transactional id. A
        broker of a cluster that does not coordinate it accepts the batch (its producer's epoch is checked against
        the partition's producer state, as every idempotent batch's), as Kafka's leaders do without KIP-890's
        verification: the coordinator elsewhere ends the transaction with its markers."""
        if transactional_id is not None and self._clustered and not self._coordinates(transactional_id):
            return None
        metadata = None if transactional_id is None else self._txns.get(transactional_id)
        preparing = self._pending.preparing(transactional_id)
        refused = batch_refusal(metadata, preparing, transactional_id, topic, partition, header.producer_id,
                                header.producer_epoch)  # fmt: skip
        if refused is not None and refused.error is ErrorCode.INVALID_TXN_STATE and metadata is not None:
            _invalid_state(metadata.transactional_id, f"Produce to {topic}-{partition}", metadata)
        return refused

    # --- timers ---

    async def abort_timed_out(self) -> int:
        """Abort (fencing the producer) every Ongoing transaction older than its timeout; returns how many."""
        now = self._clock()
        due = [
            metadata
            for name, metadata in self._txns.items()
            if self._abortable(name, metadata) and now - metadata.start_ms > metadata.ids.timeout_ms
        ]
        aborted = 0
        for metadata in due:
            name = metadata.transactional_id
            if self._txns.get(name) is not metadata or name in self._pending:  # changed while an earlier one saved
                continue
            log.info("transactional id %r: transaction timed out after %d ms: aborted", name, metadata.ids.timeout_ms)
            await self._end(fence(metadata, now))
            aborted += 1
        return aborted

    async def time_out_now(self, transactional_id: str) -> bool:
        """Abort ``transactional_id``'s Ongoing transaction as if its timeout had passed, fencing its producer (a
        fault a test injected); False when it has none."""
        metadata = self._txns.get(transactional_id)
        if metadata is None or not self._abortable(transactional_id, metadata):
            return False
        log.info("transactional id %r: transaction timed out (forced by a test): aborted", transactional_id)
        await self._end(fence(metadata, self._clock()))
        return True

    def _coordinates(self, transactional_id: str) -> bool:
        """Whether this broker holds ``transactional_id``'s ``__transaction_state`` partition (leads it)."""
        state = self._store.transaction_partitions
        return state.partition_of(transactional_id) in state.loaded

    def _abortable(self, name: str, metadata: TransactionMetadata) -> bool:
        return metadata.state is TxnState.ONGOING and name not in self._pending

    def retry_completions(self) -> int:
        """Complete transactions left prepared by a failed marker write; returns how many completed."""
        busy = self._pending.names | self._delivering.keys()
        names = [n for n, m in self._txns.items() if m.state.preparing and n not in busy]
        return sum(self._finish(name) for name in names)

    def expire(self) -> int:
        """Forget ids with no transaction in progress, idle for ``transactional.id.expiration.ms``."""
        now = self._clock()
        expired = [
            name
            for name, metadata in self._txns.items()
            if metadata.state.settled
            and name not in self._pending
            and now - metadata.ids.updated_ms >= self._expiration_ms
        ]
        for name in expired:
            self._txns[name].to(TxnState.DEAD, now)
            del self._txns[name]
            self._store.transaction_state.delete(name)
            log.info("transactional id %r expired", name)
        return len(expired)

    # --- persistence and completion ---

    async def _transit(self, target: TransactionMetadata, *also: Future[None] | None) -> ErrorCode:
        """Save ``target`` (with ``also``, other saves it needs) and make it the id's state once confirmed; the id
        is pending meanwhile. A failed save leaves the state as it was; one whose partition's leadership moved
        meanwhile changes nothing here (``transitions.py``)."""
        transition = self._pending.begin(target)
        try:
            error = await save(self._store, self.confirm_write, target, *also)
        finally:
            still_here = self._pending.end(transition)
        if not still_here:
            return ErrorCode.NOT_COORDINATOR if error is ErrorCode.NONE else error
        if error is ErrorCode.NONE:
            self._txns[target.transactional_id] = target
        return error

    async def _end(self, prepared: TransactionMetadata) -> ErrorCode:
        """Make ``prepared`` (PrepareCommit/PrepareAbort) the id's state, then write its markers and complete it."""
        error = await self._transit(prepared)
        if error is ErrorCode.NONE:
            self._finish(prepared.transactional_id)
        return error

    def _finish(self, name: str) -> bool:
        """Write the markers of the prepared transaction ``name`` that this broker writes itself (its partitions;
        on commit, the held offsets of the groups it coordinates), start delivering the others to their leaders,
        and complete the transaction once none is left; True if it completed now."""
        if name in self._delivering or (self._clustered and self._delivery is None):
            return False  # a broker of a cluster writes markers once it knows who leads what (``use_cluster``)
        metadata = self._txns[name]
        commit = metadata.state is TxnState.PREPARE_COMMIT
        marker = Marker(metadata.producer_id, metadata.epoch, COORDINATOR_EPOCH, commit)
        count = self._offsets_partitions
        groups = {TopicPartition(OFFSETS_TOPIC, offsets_partition(g, count)) for g in metadata.offsets}
        local, remote = (
            (sorted(metadata.partitions, key=_in_order), [])
            if self._delivery is None
            else self._delivery.split(sorted(metadata.partitions | groups, key=_in_order))
        )
        try:
            for tp in local:
                if tp.topic != OFFSETS_TOPIC:
                    self._write_marker(marker, tp)
            if marker.commit:
                self._commit_offsets(metadata.offsets, remote)
        except StoreError as exc:
            _store_errors.refused(f"transactional id {name!r}: markers not written, will retry", exc)
            return False
        if remote:
            assert self._delivery is not None
            task = asyncio.get_running_loop().create_task(self._deliver(self._delivery, metadata, marker, remote))
            self._delivering[name] = task
            return False
        self._complete(name)
        return True

    def _commit_offsets(
        self, offsets: Mapping[str, Mapping[TopicPartition, OffsetCommit]], remote: list[TopicPartition]
    ) -> None:
        """Commit the offsets held in the transaction for the groups this broker coordinates (those whose
        ``__consumer_offsets`` partition is not in ``remote``)."""
        elsewhere = {tp.partition for tp in remote if tp.topic == OFFSETS_TOPIC}
        for group, commits in offsets.items():
            if commits and offsets_partition(group, self._offsets_partitions) not in elsewhere:
                self._store.offsets.commit(group, list(commits.values()))

    async def _deliver(
        self, delivery: MarkerDelivery, metadata: TransactionMetadata, marker: Marker, partitions: list[TopicPartition]
    ) -> None:
        name = metadata.transactional_id
        try:
            await delivery.deliver(marker, partitions)
        finally:
            if self._delivering.get(name) is asyncio.current_task():
                del self._delivering[name]
        if self._txns.get(name) is metadata:
            log.info("transactional id %r: %s markers written on %d partitions of other brokers", name, marker.name,
                     len(partitions))  # fmt: skip
            self._complete(name)

    def _complete(self, name: str) -> None:
        """Every marker is written: CompleteCommit/CompleteAbort, saved."""
        done = complete(self._txns[name], self._clock())
        self._txns[name] = done
        try:
            self._store.transaction_state.save(name, done.document())
        except StoreError as exc:  # the markers are written: a restart finds it prepared and writes them again
            log.error("transactional id %r: completion not saved: %s", name, exc)

    def _write_local(self, marker: Marker, tp: TopicPartition) -> bool:
        """A marker the delivery found this broker leads now (its leadership came here): written, or False to
        try again. A group's ``__consumer_offsets`` partition: the offsets held here for it are completed."""
        try:
            if tp.topic == OFFSETS_TOPIC:
                self.complete_held(marker, tp.partition)
            else:
                self._write_marker(marker, tp)
        except StoreError as exc:
            _store_errors.refused(f"{marker.name} marker for {tp.topic}-{tp.partition}: not written, will retry", exc)
            return False
        return True

    def _write_marker(self, marker: Marker, tp: TopicPartition) -> None:
        """Into this broker's partition, unless it holds a newer epoch of the producer (as WriteTxnMarkers refuses)."""
        if self._producers.marker_fenced(tp.topic, tp.partition, marker.producer_id, marker.producer_epoch):
            log.warning("%s marker of producer %d at epoch %d for %s-%d skipped: the partition holds a newer epoch",
                        marker.name, marker.producer_id, marker.producer_epoch, tp.topic, tp.partition)  # fmt: skip
            return
        write_marker(self._store, marker, tp)
        self._producers.transaction_ended(tp.topic, tp.partition, marker.producer_id, marker.producer_epoch)

    # --- the participant side: markers from other coordinators ---

    def complete_held(self, marker: Marker, offsets_partition: int) -> tuple[int, Future[None] | None]:
        """The marker for ``__consumer_offsets``-``offsets_partition`` of another broker's transaction: written
        there, its pending offsets of the groups there become committed (commit) or are dropped; (how many groups,
        the future of the marker's durability)."""
        return self._store.offsets.settle(
            marker.producer_id, marker.producer_epoch, marker.coordinator_epoch, offsets_partition, marker.commit
        )


def _invalid_state(transactional_id: str, request: str, metadata: TransactionMetadata) -> None:
    """Say why ``request`` is answered INVALID_TXN_STATE (fatal to the producer: worth a line)."""
    partitions = ", ".join(f"{tp.topic}-{tp.partition}" for tp in sorted(metadata.partitions, key=_in_order))
    log.info("transactional id %r: %s answered INVALID_TXN_STATE: the transaction is %s (epoch %d, partitions: %s)",
             transactional_id, request, metadata.state.value, metadata.epoch, partitions or "none")  # fmt: skip


def _in_order(tp: TopicPartition) -> tuple[str, int]:
    return tp.topic, tp.partition


def _in_partition(partition_of: Callable[[str], int], partition: int, key: str) -> bool:
    return partition_of(key) == partition
