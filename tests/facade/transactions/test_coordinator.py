"""``TransactionCoordinator`` over a real store: commits and aborts write their markers and move the last stable
offset, offsets held by a transaction show on commit only, fencing and timeouts bump the epoch, and the state
survives reopening, a crash, and a crash between PrepareCommit and its markers."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatch

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.facade.producers import InitRefused
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.transactions import TransactionMetadata, TxnState
from rockafka.store import AbortedTransaction, MessageStore, OffsetCommit, TopicPartition

from ..group.helpers import open_store
from .helpers import NOW, Setup, granted, new_setup, produce, refused, run, txn_batch

A, B = TopicPartition("t", 0), TopicPartition("t", 1)


def markers(store: MessageStore, tp: TopicPartition) -> list[tuple[int, int, bool]]:
    """(offset, producer epoch, commit) of each control batch on the partition."""
    found = []
    for view in store.records.read(tp.topic, tp.partition, 0, 1 << 24).batches:
        batch = DefaultRecordBatch(bytes(view))
        if batch.is_control_batch:
            (record,) = list(batch)
            found.append((batch.base_offset, batch.producer_epoch, record.type == 1))
    return found


async def begin(setup: Setup, name: str = "tx", *partitions: TopicPartition) -> tuple[int, int]:
    """A transactional producer with an ongoing transaction over ``partitions`` holding 2 records each."""
    init = granted(await setup.coordinator.init_producer_id(name, 60_000, -1, -1))
    pid, epoch = init.producer_id, init.epoch
    assert await setup.coordinator.add_partitions(name, pid, epoch, partitions) is ErrorCode.NONE
    for tp in partitions:
        assert isinstance(produce(setup, name, tp.topic, tp.partition, txn_batch(pid, epoch, 0)), int)
    return pid, epoch


def test_commit_writes_a_commit_marker_everywhere_and_makes_the_records_stable(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 2)
        pid, epoch = await begin(setup, "tx", A, B)
        assert [setup.store.records.last_stable_offset("t", p) for p in (0, 1)] == [0, 0]
        assert await setup.coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE
        assert [markers(setup.store, tp) for tp in (A, B)] == [[(2, epoch, True)], [(2, epoch, True)]]
        assert [setup.store.records.last_stable_offset("t", p) for p in (0, 1)] == [3, 3]
        assert setup.store.transactions.aborted("t", 0, 0, 3) == ()
        metadata = setup.coordinator.metadata("tx")
        assert metadata is not None and (metadata.state, metadata.partitions) == (TxnState.COMPLETE_COMMIT, frozenset())
        # a retry of the same EndTxn is answered NONE and writes nothing more
        assert await setup.coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE
        assert await setup.coordinator.end_transaction("tx", pid, epoch, False) is ErrorCode.INVALID_TXN_STATE
        assert markers(setup.store, A) == [(2, epoch, True)]

    run(tmp_path, scenario)


def test_abort_writes_abort_markers_and_an_aborted_range(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        pid, epoch = await begin(setup, "tx", A)
        assert await setup.coordinator.end_transaction("tx", pid, epoch, False) is ErrorCode.NONE
        assert markers(setup.store, A) == [(2, epoch, False)]
        assert setup.store.transactions.aborted("t", 0, 0, 3) == (AbortedTransaction(pid, 0),)
        assert setup.store.records.last_stable_offset("t", 0) == 3
        # the next transaction of the same producer begins afresh, its sequence going on
        assert await setup.coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.NONE
        assert produce(setup, "tx", "t", 0, txn_batch(pid, epoch, 2)) == 3
        assert setup.store.records.last_stable_offset("t", 0) == 3

    run(tmp_path, scenario)


def test_a_produce_outside_the_transaction_is_refused(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 2)
        init = granted(await setup.coordinator.init_producer_id("tx", 60_000, -1, -1))
        pid, epoch = init.producer_id, init.epoch
        assert refused(produce(setup, "tx", "t", 0, txn_batch(pid, epoch, 0))).error is ErrorCode.INVALID_TXN_STATE
        assert await setup.coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.NONE
        assert refused(produce(setup, "tx", "t", 1, txn_batch(pid, epoch, 0))).error is ErrorCode.INVALID_TXN_STATE
        assert refused(produce(setup, "other", "t", 0, txn_batch(pid, epoch, 0))).error is (
            ErrorCode.INVALID_PRODUCER_ID_MAPPING
        )
        assert refused(produce(setup, "tx", "t", 0, txn_batch(pid, epoch - 1 if epoch else 5, 0))).error is (
            ErrorCode.INVALID_PRODUCER_EPOCH
        )
        assert produce(setup, "tx", "t", 0, txn_batch(pid, epoch, 0)) == 0
        # an idempotent, non-transactional producer is not the coordinator's business
        idempotent = granted(await setup.coordinator.init_producer_id(None, 0, -1, -1))
        assert produce(setup, None, "t", 1, txn_batch(idempotent.producer_id, 0, 0, transactional=False)) == 0

    run(tmp_path, scenario)


def test_held_offsets_become_the_groups_on_commit_only(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        coordinator = setup.coordinator
        pid, epoch = await begin(setup, "tx", A)
        commit = [OffsetCommit("in", 0, 7, 3, "m")]
        assert await coordinator.commit_offsets("tx", pid, epoch, "g", commit) is ErrorCode.INVALID_TXN_STATE
        assert await coordinator.add_offsets("tx", pid, epoch, "g") is ErrorCode.NONE
        assert await coordinator.commit_offsets("tx", pid, epoch, "g", commit) is ErrorCode.NONE
        assert await coordinator.commit_offsets("tx", pid, epoch + 1, "g", commit) is ErrorCode.INVALID_PRODUCER_EPOCH
        assert coordinator.pending_offsets("g") == {TopicPartition("in", 0)}
        assert setup.store.offsets.fetch("g") == {}
        assert await coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE
        committed = setup.store.offsets.fetch("g")[TopicPartition("in", 0)]
        assert (committed.offset, committed.leader_epoch, committed.metadata) == (7, 3, "m")
        assert coordinator.pending_offsets("g") == frozenset()
        # an aborted transaction's offsets are dropped
        assert await coordinator.add_offsets("tx", pid, epoch, "g") is ErrorCode.NONE
        assert await coordinator.commit_offsets("tx", pid, epoch, "g", [OffsetCommit("in", 0, 99)]) is ErrorCode.NONE
        assert await coordinator.end_transaction("tx", pid, epoch, False) is ErrorCode.NONE
        assert setup.store.offsets.fetch("g")[TopicPartition("in", 0)].offset == 7

    run(tmp_path, scenario)


def test_a_new_producer_aborts_the_ongoing_transaction_and_fences_the_old(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        coordinator = setup.coordinator
        pid, epoch = await begin(setup, "tx", A)
        retry = await coordinator.init_producer_id("tx", 60_000, -1, -1)
        assert isinstance(retry, InitRefused) and retry.error is ErrorCode.CONCURRENT_TRANSACTIONS
        assert markers(setup.store, A) == [(2, epoch + 1, False)]
        assert setup.store.transactions.aborted("t", 0, 0, 3) == (AbortedTransaction(pid, 0),)
        new = granted(await coordinator.init_producer_id("tx", 60_000, -1, -1))
        assert (new.producer_id, new.epoch) == (pid, epoch + 2)
        # the zombie is fenced everywhere
        assert await coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.PRODUCER_FENCED
        assert await coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.PRODUCER_FENCED
        assert refused(produce(setup, "tx", "t", 0, txn_batch(pid, epoch, 2))).error is ErrorCode.INVALID_PRODUCER_EPOCH
        assert await coordinator.add_partitions("tx", pid, new.epoch, [A]) is ErrorCode.NONE
        assert produce(setup, "tx", "t", 0, txn_batch(pid, new.epoch, 0)) == 3

    run(tmp_path, scenario)


def test_a_transaction_past_its_timeout_is_aborted_with_a_bumped_epoch(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        coordinator = setup.coordinator
        pid, epoch = await begin(setup, "tx", A)
        setup.clock.now_ms += 60_000
        assert await coordinator.abort_timed_out() == 0
        setup.clock.now_ms += 1
        assert await coordinator.abort_timed_out() == 1
        assert markers(setup.store, A) == [(2, epoch + 1, False)]
        assert setup.store.records.last_stable_offset("t", 0) == 3
        metadata = coordinator.metadata("tx")
        assert metadata is not None and (metadata.state, metadata.epoch) == (TxnState.COMPLETE_ABORT, epoch + 1)
        assert await coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.PRODUCER_FENCED

    run(tmp_path, scenario)


def test_completing_is_answered_concurrent_transactions(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        coordinator = setup.coordinator
        pid, epoch = await begin(setup, "tx", A)
        ending = asyncio.ensure_future(coordinator.end_transaction("tx", pid, epoch, True))
        await asyncio.sleep(0)  # the EndTxn waits for its PrepareCommit to be fsynced
        assert await coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.CONCURRENT_TRANSACTIONS
        assert refused(produce(setup, "tx", "t", 0, txn_batch(pid, epoch, 2))).error is ErrorCode.NOT_ENOUGH_REPLICAS
        init = await coordinator.init_producer_id("tx", 60_000, -1, -1)
        assert isinstance(init, InitRefused) and init.error is ErrorCode.CONCURRENT_TRANSACTIONS
        assert await ending is ErrorCode.NONE

    run(tmp_path, scenario)


def test_prepared_transactions_are_completed_at_load_after_a_crash(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    setup = new_setup(store)

    async def prepared() -> tuple[int, int]:
        setup.store.topics.create("t", 2)
        pid, epoch = await begin(setup, "tx", A, B)
        assert await setup.coordinator.add_offsets("tx", pid, epoch, "g") is ErrorCode.NONE
        assert (
            await setup.coordinator.commit_offsets("tx", pid, epoch, "g", [OffsetCommit("in", 0, 5)]) is ErrorCode.NONE
        )
        return pid, epoch

    pid, epoch = asyncio.run(prepared())
    current = setup.coordinator.metadata("tx")
    assert current is not None
    # the PrepareCommit was saved, then the broker died before any marker
    prepare = current.to(TxnState.PREPARE_COMMIT, NOW)
    store.transaction_state.save("tx", prepare.document(), durable=True).result(timeout=10)  # type: ignore[union-attr]
    store._lock.release()  # no close: as after kill -9
    with open_store(tmp_path) as reopened:
        after = new_setup(reopened)
        report = after.coordinator.load()
        assert (report.transactional_ids, report.completed) == (1, 1)
        assert [markers(reopened, tp) for tp in (A, B)] == [[(2, epoch, True)], [(2, epoch, True)]]
        assert reopened.records.last_stable_offset("t", 0) == 3
        assert reopened.offsets.fetch("g")[TopicPartition("in", 0)].offset == 5
        metadata = after.coordinator.metadata("tx")
        assert metadata is not None and (metadata.state, metadata.producer_id) == (TxnState.COMPLETE_COMMIT, pid)


def test_a_transaction_open_in_the_store_that_no_id_holds_is_aborted_at_load(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1)
        setup = new_setup(store)
        assert produce(setup, None, "t", 0, txn_batch(77, 0, 0, transactional=False)) == 0
        header_only = txn_batch(77, 0, 2)  # transactional, but no coordinator ever saw it
        store.records.append("t", 0, header_only, validate_batches(header_only))
        assert store.records.last_stable_offset("t", 0) == 2
        report = setup.coordinator.load()
        assert report.orphans_aborted == 1
        assert markers(store, A) == [(4, 0, False)]
        assert (store.records.last_stable_offset("t", 0), store.transactions.aborted("t", 0, 0, 5)) == (
            5, (AbortedTransaction(77, 2),),
        )  # fmt: skip
        assert new_setup(store).coordinator.load().orphans_aborted == 0


def test_an_ongoing_transaction_survives_a_crash_and_commits_after(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    setup = new_setup(store)

    async def ongoing() -> tuple[int, int]:
        setup.store.topics.create("t", 1)
        return await begin(setup, "tx", A)

    pid, epoch = asyncio.run(ongoing())
    store._lock.release()  # no close: as after kill -9
    with open_store(tmp_path) as reopened:
        after = new_setup(reopened)
        after.coordinator.load()
        metadata = after.coordinator.metadata("tx")
        assert metadata is not None and (metadata.state, metadata.partitions) == (TxnState.ONGOING, frozenset({A}))
        assert reopened.records.last_stable_offset("t", 0) == 0
        assert produce(after, "tx", "t", 0, txn_batch(pid, epoch, 2)) == 2
        assert asyncio.run(after.coordinator.end_transaction("tx", pid, epoch, True)) is ErrorCode.NONE
        assert reopened.records.last_stable_offset("t", 0) == 5


def test_the_transactional_mapping_survives_reopen_and_fences(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        coordinator = new_setup(store).coordinator
        one = granted(asyncio.run(coordinator.init_producer_id("tx", 60_000, -1, -1)))
        two = granted(asyncio.run(coordinator.init_producer_id("tx", 60_000, -1, -1)))
        assert (two.producer_id, two.epoch) == (one.producer_id, 1)
    with open_store(tmp_path) as store:
        coordinator = new_setup(store).coordinator
        coordinator.load()
        fenced = asyncio.run(coordinator.init_producer_id("tx", 60_000, one.producer_id, 0))
        assert isinstance(fenced, InitRefused) and fenced.error is ErrorCode.PRODUCER_FENCED
        bumped = granted(asyncio.run(coordinator.init_producer_id("tx", 60_000, one.producer_id, 1)))
        assert (bumped.producer_id, bumped.epoch) == (one.producer_id, 2)
        too_long = asyncio.run(coordinator.init_producer_id("tx", 900_001, -1, -1))
        assert isinstance(too_long, InitRefused) and too_long.error is ErrorCode.INVALID_TRANSACTION_TIMEOUT


def test_idle_transactional_ids_expire_but_not_during_a_transaction(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        await begin(setup, "busy", A)
        granted(await setup.coordinator.init_producer_id("idle", 60_000, -1, -1))
        setup.clock.now_ms += 1000
        assert setup.coordinator.expire() == 1
        assert setup.coordinator.metadata("idle") is None and setup.coordinator.metadata("busy") is not None
        assert "idle" not in setup.store.transaction_state.documents()

    run(tmp_path, scenario, **{"transactional.id.expiration.ms": "1000"})


def test_describe_and_list(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 2)
        coordinator = setup.coordinator
        pid, epoch = await begin(setup, "tx", B, A)
        assert await coordinator.add_offsets("tx", pid, epoch, "test") is ErrorCode.NONE
        granted(await coordinator.init_producer_id("other", 30_000, -1, -1))
        described = coordinator.describe("tx")
        assert (described.error, described.state, described.producer_id, described.epoch, described.start_ms) == (
            ErrorCode.NONE, "Ongoing", pid, epoch, NOW,
        )  # fmt: skip
        # "test".hashCode() is 3556498 in Java: partition 48 of 50
        assert described.partitions == (TopicPartition("__consumer_offsets", 48), A, B)
        assert coordinator.describe("nope").error is ErrorCode.TRANSACTIONAL_ID_NOT_FOUND
        assert coordinator.describe("").error is ErrorCode.INVALID_REQUEST
        unknown, listed = coordinator.list_transactions([], [])
        assert (unknown, [(x.transactional_id, x.state) for x in listed]) == (
            [],
            [("other", "Empty"), ("tx", "Ongoing")],
        )
        unknown, listed = coordinator.list_transactions(["Ongoing", "Bogus"], [pid])
        assert (unknown, [x.transactional_id for x in listed]) == (["Bogus"], ["tx"])
        setup.clock.now_ms += 500
        assert [x.transactional_id for x in coordinator.list_transactions([], [], 400)[1]] == ["tx"]
        assert coordinator.list_transactions([], [], 600)[1] == []
        assert isinstance(coordinator.metadata("tx"), TransactionMetadata)

    run(tmp_path, scenario)


def test_transactional_ids_leave_with_their_partition_and_come_back_as_they_were(tmp_path: Path) -> None:
    """What a cluster broker does when the leadership of a ``__transaction_state`` partition leaves it and returns."""

    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        pid, epoch = await begin(setup, "tx", A)
        state = setup.store.transaction_partitions
        every, moved = frozenset(range(state.count)), state.partition_of("tx")
        setup.coordinator.coordinate(every - {moved})
        assert setup.coordinator.metadata("tx") is None
        setup.coordinator.coordinate(every)
        back = setup.coordinator.metadata("tx")
        assert back is not None and back.state is TxnState.ONGOING and (back.producer_id, back.epoch) == (pid, epoch)
        assert await setup.coordinator.end_transaction("tx", pid, epoch, commit=True) is ErrorCode.NONE

    run(tmp_path, scenario)
