"""``TransactionCoordinator``: Kafka's transaction coordinator for one broker, its state kept in the store.

What the broker holds (``Broker.transactions``). The rules of each request are ``metadata.py``'s; this module
keeps every transactional id's ``TransactionMetadata``, makes each change durable before answering, writes
the markers, and runs the timers. Everything runs on the broker's event loop thread.

Durability: each change is the transactional id's document (see ``metadata.py``), a record of its
``__transaction_state`` partition (``store.transaction_state``), saved with an fsync awaited before the answer
(Kafka answers once its transaction log write is replicated). Ending a transaction (EndTxn, the transaction
timeout, fencing by a new InitProducerId):

1. the transaction goes to PrepareCommit/PrepareAbort, saved and fsynced; while that runs, requests for the id
   answer CONCURRENT_TRANSACTIONS;
2. a COMMIT or ABORT control batch is written to every partition of the transaction
   (``MessageStore.write_transaction_marker``, coordinator epoch 0: one broker is the coordinator forever);
   on commit the offsets TxnOffsetCommit left pending are committed to the group; on abort they are dropped;
3. the transaction goes to CompleteCommit/CompleteAbort (saved; a restart redoes step 2 while it is not).

The EndTxn answer goes out after step 2 (Kafka answers after step 1 and writes the markers later; here they
are local appends). After a restart or a kill -9, transactions found in PrepareCommit/PrepareAbort are
completed by writing their markers again before the broker serves (a second marker for a producer with no
open transaction on a partition is harmless, as in Kafka); a marker write that fails is retried by the
periodic pass. A transaction the store finds open on a partition that no Ongoing transaction holds (its
document lost or unreadable) is aborted at load, so that it cannot hold the last stable offset back forever.

Timers, every ``transaction.abort.timed.out.transaction.cleanup.interval.ms``: an Ongoing transaction older
than its timeout is aborted with its epoch bumped (``metadata.fence``), so its producer is fenced (its next
request gets PRODUCER_FENCED / INVALID_PRODUCER_EPOCH); a transaction whose marker writes failed is completed.
Every ``transaction.remove.expired.transaction.cleanup.interval.ms``: ids with no transaction in progress and
no InitProducerId or transaction for ``transactional.id.expiration.ms`` go Dead and are forgotten.

InitProducerId for a transactional id (``rockafka.facade.producers.ids`` has the epoch table): PrepareCommit or
PrepareAbort answer CONCURRENT_TRANSACTIONS; an Ongoing transaction is aborted with a bumped epoch (fencing the
producer that holds it) and the request answered CONCURRENT_TRANSACTIONS, so the client retries and gets the
next epoch, as Kafka does.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Collection, Iterable, Sequence
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
    UnknownTopicOrPartitionError,
    key_partition,
)

from ..clock import REAL_CLOCK, Clock
from ..config import BrokerConfig
from ..errors import StoreErrorLog
from ..group import OFFSETS_TOPIC
from ..producers import InitGranted, InitRefused, ProducerService
from ..producers.ids import ProducerIdAndEpoch, check_request, init_transactional, known_producer
from .metadata import (
    TransactionMetadata,
    TxnState,
    add,
    check_producer,
    complete,
    fence,
    prepare_end,
)

log = logging.getLogger(__name__)
_store_errors = StoreErrorLog(log)

COORDINATOR_EPOCH: Final = 0
TRANSACTION_STATE_TOPIC: Final = "__transaction_state"
STATE_NAMES: Final = frozenset(state.value for state in TxnState)


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class ProduceRefused:
    """A transactional batch the coordinator refuses (Produce answers ``error`` for the partition)."""

    error: ErrorCode
    message: str


@dataclass(frozen=True, slots=True)
class TransactionDescription:
    """DescribeTransactions' answer for one id (fields other than ``error`` mean nothing unless it is NONE)."""

    transactional_id: str
    error: ErrorCode
    state: str = ""
    timeout_ms: int = 0
    start_ms: int = -1
    producer_id: int = -1
    epoch: int = -1
    partitions: tuple[TopicPartition, ...] = ()


@dataclass(frozen=True, slots=True)
class TransactionListing:
    transactional_id: str
    producer_id: int
    state: str


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
        self._txns: dict[str, TransactionMetadata] = {}
        #: Ids whose PrepareCommit/PrepareAbort is being made durable (requests answer CONCURRENT_TRANSACTIONS).
        self._preparing: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []

    # --- lifecycle ---

    def load(self) -> LoadReport:
        """Read every transactional id, then complete the transactions a stop left prepared."""
        read, unreadable = self._read(lambda name: True)
        completed = sum(self._finish(name) for name in read if self._txns[name].state.preparing)
        return LoadReport(len(self._txns), completed, unreadable, self._abort_orphans())

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
            leaving = [n for n in self._txns if state.partition_of(n) == partition and n not in self._preparing]
            for name in leaving:
                del self._txns[name]
            state.unload(partition)
            log.info("%s-%d is led elsewhere now: %d transactional ids unloaded", TRANSACTION_STATE_TOPIC,
                     partition, len(leaving))  # fmt: skip
        for partition in sorted(partitions - state.loaded):
            state.load(partition)
            read, _ = self._read(functools.partial(_in_partition, state.partition_of, partition))
            completed = sum(self._finish(name) for name in read if self._txns[name].state.preparing)
            log.info("%s-%d is led here now: %d transactional ids loaded, %d prepared transactions completed",
                     TRANSACTION_STATE_TOPIC, partition, len(read), completed)  # fmt: skip

    def _abort_orphans(self) -> int:
        """Abort every transaction open on a partition that no Ongoing transaction holds (its coordinator state
        was lost or unreadable): left open, it would hold the partition's last stable offset back forever."""
        held = {
            (metadata.producer_id, tp)
            for metadata in self._txns.values()
            if metadata.state is TxnState.ONGOING
            for tp in metadata.partitions
        }
        aborted = 0
        for topic in self._store.topics.list():
            for partition in range(topic.partitions):
                for orphan in self._store.transactions.open(topic.name, partition):
                    if (orphan.producer_id, TopicPartition(topic.name, partition)) in held:
                        continue
                    log.warning("%s-%d: transaction of producer %d (from offset %d) has no coordinator state: aborted",
                                topic.name, partition, orphan.producer_id, orphan.first_offset)  # fmt: skip
                    self._store.records.write_transaction_marker(
                        topic.name, partition, producer_id=orphan.producer_id, producer_epoch=orphan.producer_epoch,
                        coordinator_epoch=COORDINATOR_EPOCH, commit=False,
                    )  # fmt: skip
                    aborted += 1
        return aborted

    def start(self) -> None:
        """``load``, then run the timeout and expiry passes on the running event loop."""
        log.info("transactions: %s", self.load())
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._timeout_loop()), loop.create_task(self._expiry_loop())]

    def shutdown(self) -> None:
        for task in self._tasks:
            task.cancel()
        self._tasks = []

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
        """DescribeTransactions for one id (a group's offsets show as its ``__consumer_offsets`` partition)."""
        if not transactional_id:
            return TransactionDescription(transactional_id, ErrorCode.INVALID_REQUEST)
        metadata = self._txns.get(transactional_id)
        if metadata is None or metadata.state is TxnState.DEAD:
            return TransactionDescription(transactional_id, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND)
        groups = {
            TopicPartition(OFFSETS_TOPIC, offsets_partition(g, self._offsets_partitions)) for g in metadata.offsets
        }
        partitions = tuple(sorted(metadata.partitions | groups, key=lambda tp: (tp.topic, tp.partition)))
        return TransactionDescription(
            transactional_id, ErrorCode.NONE, metadata.state.value, metadata.ids.timeout_ms, metadata.start_ms,
            metadata.producer_id, metadata.epoch, partitions,
        )  # fmt: skip

    def list_transactions(
        self, states: Collection[str], producer_ids: Collection[int], min_duration_ms: int = -1
    ) -> tuple[list[str], list[TransactionListing]]:
        """ListTransactions: the state filters this broker does not know, and the ids matching every filter."""
        unknown = [state for state in states if state not in STATE_NAMES]
        now = self._clock()
        listings = [
            TransactionListing(name, metadata.producer_id, metadata.state.value)
            for name, metadata in sorted(self._txns.items())
            if (not states or metadata.state.value in states)
            and (not producer_ids or metadata.producer_id in producer_ids)
            and (min_duration_ms < 0 or (metadata.start_ms >= 0 and now - metadata.start_ms >= min_duration_ms))
        ]
        return unknown, listings

    def pending_offsets(self, group_id: str) -> frozenset[TopicPartition]:
        """Partitions of ``group_id`` with an offset a transaction holds uncommitted (OffsetFetch require_stable)."""
        pending: set[TopicPartition] = set()
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
            if not await _durable(granted.durable):
                return InitRefused(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the producer id block was not saved")
            return InitGranted(granted.producer_id, granted.epoch, None)
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
        self._txns[transactional_id] = metadata
        error = await self._persist(metadata, *block_saves)
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
        if current.state is TxnState.ONGOING and name not in self._preparing:
            log.info("transactional id %r: a new producer aborts the ongoing transaction and fences the old one", name)
            error = await self._end(current, fence(current, self._clock()))
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
        if transactional_id in self._preparing:
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
        self._txns[transactional_id] = outcome
        return await self._persist(outcome)

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
        current = self._current(transactional_id, producer_id, epoch)
        if current is ErrorCode.PRODUCER_FENCED:
            return ErrorCode.INVALID_PRODUCER_EPOCH  # what TxnOffsetCommit answers for a stale epoch
        if isinstance(current, ErrorCode):
            return current
        if current.state.preparing:
            return ErrorCode.CONCURRENT_TRANSACTIONS
        if current.state is not TxnState.ONGOING or group_id not in current.offsets:
            return ErrorCode.INVALID_TXN_STATE
        held = dict(current.offsets[group_id]) | {TopicPartition(c.topic, c.partition): c for c in commits}
        outcome = current.to(TxnState.ONGOING, self._clock(), offsets=dict(current.offsets) | {group_id: held})
        self._txns[transactional_id] = outcome
        return await self._persist(outcome)

    async def end_transaction(self, transactional_id: str, producer_id: int, epoch: int, commit: bool) -> ErrorCode:
        """EndTxn: commit or abort the ongoing transaction; its markers are written once this returns NONE."""
        current = self._current(transactional_id, producer_id, epoch)
        if isinstance(current, ErrorCode):
            return current
        prepared = prepare_end(current, commit, self._clock())
        if isinstance(prepared, ErrorCode):
            return prepared
        return await self._end(current, prepared)

    # --- Produce ---

    def check_produce(
        self, transactional_id: str | None, topic: str, partition: int, header: BatchHeader
    ) -> ProduceRefused | None:
        """A transactional batch may be appended only within its producer's Ongoing transaction, to a partition
        added to it (Kafka's produce-side verification)."""
        metadata = None if transactional_id is None else self._txns.get(transactional_id)
        if metadata is None or metadata.producer_id != header.producer_id:
            return ProduceRefused(
                ErrorCode.INVALID_PRODUCER_ID_MAPPING,
                f"producer {header.producer_id} is not transactional id {transactional_id!r}'s",
            )
        if header.producer_epoch != metadata.epoch:
            return ProduceRefused(
                ErrorCode.INVALID_PRODUCER_EPOCH,
                f"epoch {header.producer_epoch} is not {transactional_id!r}'s epoch {metadata.epoch}: fenced",
            )
        if metadata.state.preparing or transactional_id in self._preparing:
            return ProduceRefused(ErrorCode.NOT_ENOUGH_REPLICAS, f"{transactional_id!r} is completing a transaction")
        if metadata.state is not TxnState.ONGOING or TopicPartition(topic, partition) not in metadata.partitions:
            return ProduceRefused(
                ErrorCode.INVALID_TXN_STATE, f"{topic}-{partition} was not added to {transactional_id!r}'s transaction"
            )
        return None

    # --- timers ---

    async def abort_timed_out(self) -> int:
        """Abort (fencing the producer) every Ongoing transaction older than its timeout; returns how many."""
        now = self._clock()
        due = [
            metadata
            for name, metadata in self._txns.items()
            if self._abortable(name, metadata) and now - metadata.start_ms > metadata.ids.timeout_ms
        ]
        for metadata in due:
            log.info("transactional id %r: transaction timed out after %d ms: aborted", metadata.transactional_id,
                     metadata.ids.timeout_ms)  # fmt: skip
            await self._end(metadata, fence(metadata, now))
        return len(due)

    async def time_out_now(self, transactional_id: str) -> bool:
        """Abort ``transactional_id``'s Ongoing transaction as if its timeout had passed, fencing its producer (a
        fault a test injected); False when it has none."""
        metadata = self._txns.get(transactional_id)
        if metadata is None or not self._abortable(transactional_id, metadata):
            return False
        log.info("transactional id %r: transaction timed out (forced by a test): aborted", transactional_id)
        await self._end(metadata, fence(metadata, self._clock()))
        return True

    def _abortable(self, name: str, metadata: TransactionMetadata) -> bool:
        return metadata.state is TxnState.ONGOING and name not in self._preparing

    def retry_completions(self) -> int:
        """Complete transactions left prepared by a failed marker write; returns how many completed."""
        names = [n for n, m in self._txns.items() if m.state.preparing and n not in self._preparing]
        return sum(self._finish(name) for name in names)

    def expire(self) -> int:
        """Forget ids with no transaction in progress, idle for ``transactional.id.expiration.ms``."""
        now = self._clock()
        expired = [
            name
            for name, metadata in self._txns.items()
            if metadata.state.settled and now - metadata.ids.updated_ms >= self._expiration_ms
        ]
        for name in expired:
            self._txns[name].to(TxnState.DEAD, now)
            del self._txns[name]
            self._store.transaction_state.delete(name)
            log.info("transactional id %r expired", name)
        return len(expired)

    # --- persistence and completion ---

    async def _persist(self, metadata: TransactionMetadata, *also: Future[None] | None) -> ErrorCode:
        """Save ``metadata``'s document and wait for it (and ``also``) to be fsynced."""
        try:
            saved = self._store.transaction_state.save(metadata.transactional_id, metadata.document(), durable=True)
        except StoreError as exc:
            log.error("transactional id %r not saved: %s", metadata.transactional_id, exc)
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        for future in (saved, *also):
            if not await _durable(future):
                return ErrorCode.COORDINATOR_NOT_AVAILABLE
        return ErrorCode.NONE

    async def _end(self, before: TransactionMetadata, prepared: TransactionMetadata) -> ErrorCode:
        """Make ``prepared`` (PrepareCommit/PrepareAbort) durable, then write its markers and complete it."""
        name = prepared.transactional_id
        self._txns[name] = prepared
        self._preparing.add(name)
        try:
            error = await self._persist(prepared)
        finally:
            self._preparing.discard(name)
        if error is not ErrorCode.NONE:
            self._txns[name] = before
            return error
        self._finish(name)
        return ErrorCode.NONE

    def _finish(self, name: str) -> bool:
        """Write the markers of the prepared transaction ``name``, commit or drop its offsets, complete it."""
        metadata = self._txns[name]
        commit = metadata.state is TxnState.PREPARE_COMMIT
        try:
            self._write_markers(metadata, commit)
            if commit:
                for group, commits in metadata.offsets.items():
                    if commits:
                        self._store.offsets.commit(group, list(commits.values()))
        except StoreError as exc:
            _store_errors.refused(f"transactional id {name!r}: markers not written, will retry", exc)
            return False
        done = complete(metadata, self._clock())
        self._txns[name] = done
        try:
            self._store.transaction_state.save(name, done.document())
        except StoreError as exc:  # the markers are written: a restart finds it prepared and writes them again
            log.error("transactional id %r: completion not saved: %s", name, exc)
        return True

    def _write_markers(self, metadata: TransactionMetadata, commit: bool) -> None:
        for tp in sorted(metadata.partitions, key=lambda tp: (tp.topic, tp.partition)):
            try:
                self._store.records.write_transaction_marker(
                    tp.topic, tp.partition, producer_id=metadata.producer_id, producer_epoch=metadata.epoch,
                    coordinator_epoch=COORDINATOR_EPOCH, commit=commit,
                )  # fmt: skip
            except UnknownTopicOrPartitionError:
                log.info("transaction marker for %s-%d skipped: the partition is gone", tp.topic, tp.partition)


def _in_partition(partition_of: Callable[[str], int], partition: int, key: str) -> bool:
    return partition_of(key) == partition


def offsets_partition(group_id: str, partitions: int) -> int:
    """The ``__consumer_offsets`` partition of a group (the one FindCoordinator and the store use)."""
    return key_partition(group_id, partitions)


async def _durable(future: Future[None] | None) -> bool:
    if future is None:
        return True
    try:
        await asyncio.wrap_future(future)
    except Exception as exc:
        log.error("a transaction state save was not made durable: %s", exc)
        return False
    return True
