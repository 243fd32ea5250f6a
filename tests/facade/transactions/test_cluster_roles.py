"""A broker of a cluster in its two roles of a transaction spanning broker groups, over a real store: as the
coordinator, a transaction stays PrepareCommit until the marker of a partition with no leader is written and then
completes; as a leader that does not coordinate the transactional id, it accepts the transactional batches, keeps
the transaction open for the last stable offset, aborts nothing at load, and holds a TxnOffsetCommit's offsets
until the marker for the group's ``__consumer_offsets`` partition settles them.

The route (who leads each partition) is a function the test changes, in place of the cluster's snapshot; the
delivery to other brokers over the wire is checked by ``compat_tests/test_cluster_transactions.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.topology import BrokerAddress
from rockafka.facade.transactions import TxnState
from rockafka.facade.transactions.markers import Marker, Place
from rockafka.store import OffsetCommit, TopicPartition, key_partition

from ..group.helpers import open_store
from .helpers import Setup, new_setup, produce, run, txn_batch
from .test_coordinator import begin, markers

A, B = TopicPartition("t", 0), TopicPartition("t", 1)
CLUSTERED = {"rockafka.cluster.etcd.endpoints": "127.0.0.1:1"}  # read as a setting only: nothing connects
COMMIT, ABORT = Marker(77, 3, 0, commit=True), Marker(77, 3, 0, commit=False)


def test_the_coordinator_completes_a_transaction_once_a_leaderless_partition_has_its_marker(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 2)
        leaderless = {B}
        setup.coordinator.use_cluster(lambda tp: Place.UNAVAILABLE if tp in leaderless else Place.LOCAL)
        pid, epoch = await begin(setup, "tx", A, B)
        assert await setup.coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE
        prepared = setup.coordinator.metadata("tx")
        assert prepared is not None and prepared.state is TxnState.PREPARE_COMMIT
        assert (markers(setup.store, A), markers(setup.store, B)) == ([(2, epoch, True)], [])
        assert await setup.coordinator.add_partitions("tx", pid, epoch, [A]) is ErrorCode.CONCURRENT_TRANSACTIONS
        leaderless.clear()  # B's leader is back, here
        for _ in range(200):
            done = setup.coordinator.metadata("tx")
            if done is not None and done.state is TxnState.COMPLETE_COMMIT:
                break
            await asyncio.sleep(0.05)
        assert done is not None and done.state is TxnState.COMPLETE_COMMIT
        assert markers(setup.store, B) == [(2, epoch, True)]
        assert setup.store.records.last_stable_offset("t", 1) == 3
        setup.coordinator.shutdown()

    run(tmp_path, scenario, **CLUSTERED)


def test_a_coordinator_sends_the_markers_of_partitions_led_elsewhere(tmp_path: Path) -> None:
    """A partition another broker leads gets no marker from this store; the delivery keeps the transaction
    prepared while that broker does not answer (nothing listens at its address here)."""

    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 2)
        elsewhere = BrokerAddress(2, "127.0.0.1", 1)
        setup.coordinator.use_cluster(lambda tp: elsewhere if tp == B else Place.LOCAL)
        pid, epoch = await begin(setup, "tx", A, B)
        assert await setup.coordinator.end_transaction("tx", pid, epoch, False) is ErrorCode.NONE
        await asyncio.sleep(0.3)  # a few delivery rounds, all refused
        prepared = setup.coordinator.metadata("tx")
        assert prepared is not None and prepared.state is TxnState.PREPARE_ABORT
        assert (markers(setup.store, A), markers(setup.store, B)) == ([(2, epoch, False)], [])
        setup.coordinator.shutdown()

    run(tmp_path, scenario, **CLUSTERED)


def _elsewhere(setup: Setup) -> None:
    """This broker coordinates no transactional id (it leads no ``__transaction_state`` partition)."""
    setup.coordinator.coordinate(frozenset())


def test_a_leader_that_does_not_coordinate_accepts_the_batches_and_waits_for_the_marker(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        _elsewhere(setup)
        assert produce(setup, "remote", "t", 0, txn_batch(77, 3, 0)) == 0
        assert produce(setup, "remote", "t", 0, txn_batch(77, 3, 2)) == 2
        assert [t.producer_id for t in setup.store.transactions.open("t", 0)] == [77]
        assert setup.store.records.last_stable_offset("t", 0) == 0

    run(tmp_path, scenario, **CLUSTERED)


def test_a_broker_of_a_cluster_aborts_no_transaction_it_finds_open_at_load(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        _elsewhere(setup)
        produce(setup, "remote", "t", 0, txn_batch(77, 3, 0))

    run(tmp_path, scenario, **CLUSTERED)
    store = open_store(tmp_path)
    try:
        reopened = new_setup(store, **CLUSTERED)
        report = reopened.coordinator.load()
        assert report.orphans_aborted == 0
        assert [t.producer_id for t in store.transactions.open("t", 0)] == [77]
    finally:
        store.close()


def test_offsets_of_a_transaction_coordinated_elsewhere_wait_for_their_marker(tmp_path: Path) -> None:
    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("in", 1)
        _elsewhere(setup)
        coordinator, offsets_partition = setup.coordinator, key_partition("g", 50)
        held = [OffsetCommit("in", 0, 7, None, "")]
        assert await coordinator.commit_offsets("remote", 77, 3, "g", held) is ErrorCode.NONE
        assert coordinator.pending_offsets("g") == {TopicPartition("in", 0)}
        assert setup.store.offsets.fetch("g") == {}
        assert coordinator.complete_held(COMMIT, (offsets_partition + 1) % 50)[0] == 0  # another partition
        assert coordinator.complete_held(COMMIT, offsets_partition)[0] == 1
        assert setup.store.offsets.fetch("g")[TopicPartition("in", 0)].offset == 7
        assert coordinator.pending_offsets("g") == frozenset()
        dropped = [OffsetCommit("in", 0, 9, None, "")]
        assert await coordinator.commit_offsets("remote", 77, 3, "g", dropped) is ErrorCode.NONE
        assert coordinator.complete_held(ABORT, offsets_partition)[0] == 1
        assert setup.store.offsets.fetch("g")[TopicPartition("in", 0)].offset == 7
        assert coordinator.pending_offsets("g") == frozenset()

    run(tmp_path, scenario, **CLUSTERED)


@pytest.mark.parametrize("marker", [COMMIT, ABORT], ids=["commit", "abort"])
def test_held_offsets_outlive_a_restart_of_the_group_coordinator(tmp_path: Path, marker: Marker) -> None:
    """TxnOffsetCommit written, the store closed before the marker (as a kill -9 would: the records are in the
    CommitLog) and opened again: the offsets are pending again, and the marker that comes then settles them; a
    second reopening replays the marker too (committed offsets stay, nothing is pending)."""

    async def hold(setup: Setup) -> None:
        setup.store.topics.create("in", 1)
        _elsewhere(setup)
        commits = [OffsetCommit("in", 0, 7, 4, "meta"), OffsetCommit("in", 0, 8, 4, "later")]
        assert await setup.coordinator.commit_offsets("remote", 77, 3, "g", commits) is ErrorCode.NONE

    async def settle(setup: Setup) -> None:
        _elsewhere(setup)
        assert setup.coordinator.pending_offsets("g") == {TopicPartition("in", 0)}
        assert setup.store.offsets.fetch("g") == {}
        assert setup.coordinator.complete_held(marker, key_partition("g", 50))[0] == 1

    async def after(setup: Setup) -> dict[TopicPartition, tuple[int, int | None, str]]:
        assert setup.coordinator.pending_offsets("g") == frozenset()
        return {tp: (c.offset, c.leader_epoch, c.metadata) for tp, c in setup.store.offsets.fetch("g").items()}

    run(tmp_path, hold, **CLUSTERED)
    run(tmp_path, settle, **CLUSTERED)
    expected = {TopicPartition("in", 0): (8, 4, "later")} if marker.commit else {}
    assert run(tmp_path, after, **CLUSTERED) == expected


def test_the_latest_record_wins_between_a_plain_commit_and_a_transactions(tmp_path: Path) -> None:
    """A plain commit written after a transaction's pending offset keeps its place when the transaction commits;
    one written before is replaced. The same after a replay of the partition."""
    first, second = TopicPartition("in", 0), TopicPartition("in", 1)

    async def scenario(setup: Setup) -> dict[TopicPartition, int]:
        setup.store.topics.create("in", 2)
        _elsewhere(setup)
        setup.store.offsets.commit("g", [OffsetCommit("in", 1, 5, None, "")])  # before the transaction's
        held = [OffsetCommit("in", 0, 7, None, ""), OffsetCommit("in", 1, 7, None, "")]
        assert await setup.coordinator.commit_offsets("remote", 77, 3, "g", held) is ErrorCode.NONE
        setup.store.offsets.commit("g", [OffsetCommit("in", 0, 9, None, "")])  # after it
        assert setup.coordinator.complete_held(COMMIT, key_partition("g", 50))[0] == 1
        return await committed(setup)

    async def committed(setup: Setup) -> dict[TopicPartition, int]:
        return {tp: c.offset for tp, c in setup.store.offsets.fetch("g").items()}

    assert run(tmp_path, scenario, **CLUSTERED) == {first: 9, second: 7}
    assert run(tmp_path, committed, **CLUSTERED) == {first: 9, second: 7}  # replayed


def test_a_broker_of_a_cluster_writes_no_marker_before_it_knows_who_leads_what(tmp_path: Path) -> None:
    """Between the store's opening and joining the cluster, a prepared transaction waits (its partitions may be
    led elsewhere); ``use_cluster`` then completes it."""

    async def scenario(setup: Setup) -> None:
        setup.store.topics.create("t", 1)
        pid, epoch = await begin(setup, "tx", A)
        assert await setup.coordinator.end_transaction("tx", pid, epoch, True) is ErrorCode.NONE
        assert setup.coordinator.retry_completions() == 0
        waiting = setup.coordinator.metadata("tx")
        assert waiting is not None and waiting.state is TxnState.PREPARE_COMMIT and markers(setup.store, A) == []
        assert setup.coordinator.use_cluster(lambda tp: Place.LOCAL) == 1
        done = setup.coordinator.metadata("tx")
        assert (
            done is not None
            and done.state is TxnState.COMPLETE_COMMIT
            and markers(setup.store, A) == [(2, epoch, True)]
        )

    run(tmp_path, scenario, **CLUSTERED)
