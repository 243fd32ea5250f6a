"""The transaction coordinator on a replicated leader when a ``__transaction_state`` save is not confirmed in time,
and what the client's retries meet afterwards, on this coordinator or the next one (``transactions/transitions.py``).

Real stores: a leader with its ``ReplicationLeader`` on 127.0.0.1 and a follower copying its CommitLog. The
coordinator's saves wait for the in-sync members (``CoordinatorWrites``). The follower is connected through a relay
that can hold the leader's bytes back: the follower stays connected and in the in-sync set but copies nothing, so a
save goes unconfirmed; released, the bytes reach it and the save turns out replicated. A failover is the follower's
store promoted (``replica.lead()``) under a new coordinator, which loads the ``__transaction_state`` records it
copied, as a promoted broker does.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from rockafka.cluster.replication.follower import ReplicationFollower
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.facade.producers import InitGranted, InitRefused
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.replication import CoordinatorWrites, Replication
from rockafka.facade.transactions import TransactionMetadata, TxnState
from rockafka.facade.transactions.markers import Place
from rockafka.store import MessageStore, TopicPartition

from ...cluster.replication.relay import Relay
from ...store.helpers import small_config
from ..replicated import BrokerHolder, replicate, until
from .helpers import Setup, granted, new_setup, produce, txn_batch
from .test_coordinator import markers

A = TopicPartition("t", 0)
CLUSTERED = {"rockafka.cluster.etcd.endpoints": "127.0.0.1:1"}  # read as a setting only: nothing connects
UNCONFIRMED_MS = 300  # how long a save waits for the held follower before COORDINATOR_NOT_AVAILABLE
CONFIRMED_MS = 20_000  # ... and for a follower that copies (generous: the machine may be loaded)


class HoldingRelay(Relay):
    """The replication tests' relay, which can also hold the leader's bytes back (``held``) and pass them on later,
    in order (``release``)."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self.held = False
        self._kept: list[tuple[asyncio.StreamWriter, bytes]] = []

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, from_leader: bool) -> None:
        try:
            while data := await source.read(1 << 16):
                if from_leader and self.held:
                    self._kept.append((sink, data))
                else:
                    sink.write(data)
        except OSError:
            pass
        finally:
            sink.close()

    def release(self) -> None:
        self.held = False
        for sink, data in self._kept:
            sink.write(data)
        self._kept.clear()


@dataclass
class Pair:
    """A leader's coordinator (``setup``) whose saves wait for the follower store's copy."""

    setup: Setup
    follower_store: MessageStore
    leader: ReplicationLeader
    follower: ReplicationFollower
    relay: HoldingRelay
    writes: CoordinatorWrites

    def hold(self) -> None:
        """The follower copies nothing until ``release``, staying in the in-sync set: saves go unconfirmed."""
        self.relay.held = True
        self.writes.timeout_ms = UNCONFIRMED_MS

    def release(self) -> None:
        """What the leader sent meanwhile reaches the follower: what was unconfirmed turns out replicated."""
        self.relay.release()
        self.writes.timeout_ms = CONFIRMED_MS

    async def confirmed(self) -> None:
        """Wait until every in-sync member holds the leader's log as it ends now."""
        everything = self.writes.confirmed(None)
        assert everything is not None
        await asyncio.wrap_future(everything)

    async def caught_up(self) -> None:
        end = self.setup.store.replica.published_end
        await until(lambda: self.follower_store.replica.end == end, "the follower holds the leader's log")


@contextlib.asynccontextmanager
async def replicated(root: Path) -> AsyncIterator[Pair]:
    with (
        MessageStore.open(small_config(root / "leader")) as leader_store,
        MessageStore.open(small_config(root / "follower")) as follower_store,
    ):
        leader_store.topics.create("t", 1, topic_id=uuid.UUID(int=0x79))
        setup = new_setup(leader_store, **CLUSTERED)
        setup.coordinator.load()
        setup.coordinator.use_cluster(lambda tp: Place.LOCAL)
        leader, relay, follower = await replicate(leader_store, follower_store, HoldingRelay)
        holder = BrokerHolder(Replication(leader=leader), leader_store)
        writes = CoordinatorWrites(holder, timeout_ms=CONFIRMED_MS, min_insync=2)  # type: ignore[arg-type]
        setup.coordinator.confirm_write = writes.confirmed
        try:
            await until(lambda: leader.in_sync.size == 2, "the follower joined the in-sync set")
            yield Pair(setup, follower_store, leader, follower, relay, writes)
        finally:
            setup.coordinator.shutdown()
            follower.cancel()
            await follower.stop()
            await relay.stop()
            await leader.stop()


async def _promoted(pair: Pair, route: Callable[[TopicPartition], Place]) -> Setup:
    """The follower store leads now, under a coordinator of its own that takes up every ``__transaction_state``
    partition (having led none while it followed), as a promoted broker's does."""
    pair.follower.cancel()
    await pair.follower.stop()
    await pair.leader.stop()
    store = pair.follower_store
    store.replica.lead()
    store.records.set_confirmed(None)  # reads no longer stop at the old leader's confirm offset, as at a promotion
    promoted = new_setup(store, **CLUSTERED)
    promoted.coordinator.load()
    promoted.coordinator.use_cluster(route)
    every = frozenset(range(store.transaction_partitions.count))
    promoted.coordinator.coordinate(frozenset())  # a follower leads no partition ...
    promoted.coordinator.coordinate(every)  # ... and the promoted one all of them, replayed from its copy
    return promoted


async def _ongoing(setup: Setup) -> tuple[int, int]:
    """Transactional id ``tx`` with an ongoing transaction holding 2 records on A."""
    init = granted(await setup.coordinator.init_producer_id("tx", 60_000, -1, -1))
    pid, epoch = init.producer_id, init.epoch
    assert await setup.coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.NONE
    assert isinstance(produce(setup, "tx", A.topic, A.partition, txn_batch(pid, epoch, 0)), int)
    return pid, epoch


def _refusal(outcome: InitGranted | InitRefused) -> ErrorCode:
    assert isinstance(outcome, InitRefused), outcome
    return outcome.error


def _state(setup: Setup) -> TransactionMetadata:
    metadata = setup.coordinator.metadata("tx")
    assert metadata is not None
    return metadata


def _run(tmp_path: Path, scenario: Callable[[Pair], Awaitable[None]]) -> None:
    async def main() -> None:
        async with replicated(tmp_path) as pair:
            await scenario(pair)

    asyncio.run(main())


def test_an_unconfirmed_save_changes_nothing_and_the_retry_is_saved_again(tmp_path: Path) -> None:
    """As Kafka's TransactionStateManager: the change is pending until confirmed (other requests answer
    CONCURRENT_TRANSACTIONS), and a failed save leaves the transaction as it was, so the retry is not answered
    from a change no in-sync member confirmed."""

    async def scenario(pair: Pair) -> None:
        coordinator = pair.setup.coordinator
        init = granted(await coordinator.init_producer_id("tx", 60_000, -1, -1))
        pid, epoch = init.producer_id, init.epoch
        pair.hold()
        adding = asyncio.create_task(coordinator.add_partitions("tx", pid, epoch, [A]))
        await asyncio.sleep(0)  # the save is in flight
        assert await coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.CONCURRENT_TRANSACTIONS
        assert await coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.CONCURRENT_TRANSACTIONS
        again = await coordinator.init_producer_id("tx", 60_000, -1, -1)
        assert _refusal(again) is ErrorCode.CONCURRENT_TRANSACTIONS
        assert await adding is ErrorCode.COORDINATOR_NOT_AVAILABLE
        assert (_state(pair.setup).state, _state(pair.setup).partitions) == (TxnState.EMPTY, frozenset())
        assert await coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.COORDINATOR_NOT_AVAILABLE

        pair.release()
        assert await coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.NONE
        assert (_state(pair.setup).state, _state(pair.setup).partitions) == (TxnState.ONGOING, frozenset({A}))

    _run(tmp_path, scenario)


def test_a_prepare_commit_unconfirmed_but_copied_is_completed_by_the_next_coordinator(tmp_path: Path) -> None:
    """EndTxn(COMMIT) answered COORDINATOR_NOT_AVAILABLE leaves the transaction Ongoing here, but its PrepareCommit
    reached the follower: promoted, it completes the commit, and the client's retries get Kafka's answers there
    (CONCURRENT_TRANSACTIONS while the markers are pending, then NONE for the same result, INVALID_TXN_STATE for
    the other, and InitProducerId the next epoch)."""

    async def scenario(pair: Pair) -> None:
        coordinator = pair.setup.coordinator
        pid, epoch = await _ongoing(pair.setup)
        pair.hold()
        assert await coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.COORDINATOR_NOT_AVAILABLE
        assert _state(pair.setup).state is TxnState.ONGOING
        pair.release()
        await pair.caught_up()  # the PrepareCommit record turns out replicated

        leaderless = {A}
        promoted = await _promoted(pair, lambda tp: Place.UNAVAILABLE if tp in leaderless else Place.LOCAL)
        new = promoted.coordinator
        assert _state(promoted).state is TxnState.PREPARE_COMMIT
        assert await new.end_transaction("tx", pid, epoch, True) is ErrorCode.CONCURRENT_TRANSACTIONS
        assert await new.add_partitions("tx", pid, epoch, [A]) is ErrorCode.CONCURRENT_TRANSACTIONS
        busy = await new.init_producer_id("tx", 60_000, pid, epoch)
        assert _refusal(busy) is ErrorCode.CONCURRENT_TRANSACTIONS
        leaderless.clear()  # A's leader is back (here): the delivery writes its marker
        await until(lambda: _state(promoted).state is TxnState.COMPLETE_COMMIT, "the commit completed")
        assert markers(promoted.store, A) == [(2, epoch, True)]
        assert await new.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE
        assert await new.end_transaction("tx", pid, epoch, False) is ErrorCode.INVALID_TXN_STATE
        bumped = granted(await new.init_producer_id("tx", 60_000, pid, epoch))
        assert (bumped.producer_id, bumped.epoch) == (pid, epoch + 1)
        new.shutdown()

    _run(tmp_path, scenario)


def test_a_save_that_ends_after_its_partition_left_changes_nothing_here(tmp_path: Path) -> None:
    """Leadership of the id's ``__transaction_state`` partition leaves while its PrepareCommit is saved, then comes
    back: the failed save restores nothing (no stale Ongoing kept in memory), and the partition led here again is
    read from the store, where the PrepareCommit turned out replicated, and completed."""

    async def scenario(pair: Pair) -> None:
        coordinator = pair.setup.coordinator
        pid, epoch = await _ongoing(pair.setup)
        state = pair.setup.store.transaction_partitions
        every, moved = frozenset(range(state.count)), state.partition_of("tx")
        pair.hold()
        ending = asyncio.create_task(coordinator.end_transaction("tx", pid, epoch, True))
        await asyncio.sleep(0)
        coordinator.coordinate(every - {moved})
        assert await ending is ErrorCode.COORDINATOR_NOT_AVAILABLE
        assert coordinator.metadata("tx") is None
        pair.release()
        await pair.confirmed()  # the PrepareCommit turns out replicated, below the high watermark a replay reads to
        coordinator.coordinate(every)
        assert _state(pair.setup).state is TxnState.COMPLETE_COMMIT
        await pair.confirmed()  # reads stop at the high watermark
        assert markers(pair.setup.store, A) == [(2, epoch, True)]
        assert await coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE

    _run(tmp_path, scenario)


def test_a_save_confirmed_after_its_partition_left_answers_not_coordinator(tmp_path: Path) -> None:
    """Kafka's coordinator epoch check: the AddPartitionsToTxn save is confirmed after the partition's leadership
    left, so it answers NOT_COORDINATOR (the client finds the new coordinator) and leaves nothing in memory."""

    async def scenario(pair: Pair) -> None:
        coordinator = pair.setup.coordinator
        init = granted(await coordinator.init_producer_id("tx", 60_000, -1, -1))
        state = pair.setup.store.transaction_partitions
        every, moved = frozenset(range(state.count)), state.partition_of("tx")
        pair.hold()
        pair.writes.timeout_ms = CONFIRMED_MS  # held until released below, well within this
        adding = asyncio.create_task(coordinator.add_partitions("tx", init.producer_id, init.epoch, [A]))
        await asyncio.sleep(0)
        coordinator.coordinate(every - {moved})
        pair.release()
        assert await adding is ErrorCode.NOT_COORDINATOR
        assert coordinator.metadata("tx") is None
        coordinator.coordinate(every)
        assert (_state(pair.setup).state, _state(pair.setup).partitions) == (TxnState.ONGOING, frozenset({A}))

    _run(tmp_path, scenario)


def test_the_timeout_pass_leaves_an_id_being_saved_alone(tmp_path: Path) -> None:
    """Kafka skips a timed-out transaction with a transition in flight; the next pass aborts it."""

    async def scenario(pair: Pair) -> None:
        coordinator = pair.setup.coordinator
        pid, epoch = await _ongoing(pair.setup)
        pair.hold()
        adding = asyncio.create_task(coordinator.add_offsets("tx", pid, epoch, "group"))
        await asyncio.sleep(0)
        pair.setup.clock.now_ms += 61_000  # past the transaction's 60 s
        assert await coordinator.abort_timed_out() == 0
        assert await adding is ErrorCode.COORDINATOR_NOT_AVAILABLE
        pair.release()
        assert await coordinator.abort_timed_out() == 1
        aborted = _state(pair.setup)
        assert (aborted.state, aborted.epoch) == (TxnState.COMPLETE_ABORT, epoch + 1)

    _run(tmp_path, scenario)
