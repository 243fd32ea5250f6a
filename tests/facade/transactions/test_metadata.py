"""The transaction state machine: Kafka's transition table, each request's rules, and the document."""

from __future__ import annotations

import pytest

from rockafka.facade.producers.ids import MAX_EPOCH, TransactionalIdState
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.transactions.metadata import (
    VALID_PREVIOUS,
    IllegalTransitionError,
    TransactionMetadata,
    TxnState,
    add,
    check_producer,
    complete,
    fence,
    prepare_end,
)
from rockafka.store import OffsetCommit, TopicPartition

NOW = 1_700_000_000_000
S = TxnState
A, B = TopicPartition("t", 0), TopicPartition("t", 1)


def empty(epoch: int = 3) -> TransactionMetadata:
    return TransactionMetadata(TransactionalIdState("tx", 42, -1, epoch, -1, 60_000, NOW - 5))


def ongoing(*partitions: TopicPartition, groups: tuple[str, ...] = ()) -> TransactionMetadata:
    outcome = add(empty(), partitions, groups, NOW - 1)
    assert isinstance(outcome, TransactionMetadata)
    return outcome


def test_the_transition_table_is_kafkas() -> None:
    assert {state.value: sorted(s.value for s in previous) for state, previous in VALID_PREVIOUS.items()} == {
        "Empty": ["CompleteAbort", "CompleteCommit", "Empty"],
        "Ongoing": ["CompleteAbort", "CompleteCommit", "Empty", "Ongoing"],
        "PrepareCommit": ["Ongoing"],
        "PrepareAbort": ["Ongoing", "PrepareEpochFence"],
        "CompleteCommit": ["PrepareCommit"],
        "CompleteAbort": ["PrepareAbort"],
        "Dead": ["CompleteAbort", "CompleteCommit", "Empty"],
        "PrepareEpochFence": ["Ongoing"],
    }


@pytest.mark.parametrize(("start", "target"), [(S.EMPTY, S.PREPARE_COMMIT), (S.ONGOING, S.COMPLETE_ABORT),
                                               (S.PREPARE_COMMIT, S.ONGOING), (S.DEAD, S.EMPTY)])  # fmt: skip
def test_a_transition_outside_the_table_is_refused(start: TxnState, target: TxnState) -> None:
    metadata = TransactionMetadata(empty().ids, start)
    with pytest.raises(IllegalTransitionError):
        metadata.to(target, NOW)


def test_the_producer_must_be_the_ids_at_its_epoch() -> None:
    assert check_producer(empty(), 41, 3) is ErrorCode.INVALID_PRODUCER_ID_MAPPING
    assert check_producer(empty(), 42, 2) is ErrorCode.PRODUCER_FENCED
    assert check_producer(empty(), 42, 4) is ErrorCode.PRODUCER_FENCED
    assert check_producer(empty(), 42, 3) is None


def test_adding_to_an_empty_id_begins_a_transaction_now() -> None:
    started = add(empty(), [A], ["g"], NOW)
    assert isinstance(started, TransactionMetadata)
    assert (started.state, started.start_ms, started.partitions, dict(started.offsets)) == (
        S.ONGOING, NOW, frozenset({A}), {"g": {}},
    )  # fmt: skip
    assert started.ids.updated_ms == NOW


def test_adding_to_an_ongoing_transaction_keeps_its_start_and_adds() -> None:
    grown = add(ongoing(A), [B], [], NOW + 10)
    assert isinstance(grown, TransactionMetadata)
    assert (grown.start_ms, grown.partitions) == (NOW - 1, frozenset({A, B}))
    assert add(ongoing(A, groups=("g",)), [A], ["g"], NOW) is ErrorCode.NONE


def test_after_a_completed_transaction_the_next_starts_afresh() -> None:
    done = complete(fence(ongoing(A, groups=("g",)), NOW), NOW)
    again = add(done, [B], [], NOW + 5)
    assert isinstance(again, TransactionMetadata)
    assert (again.state, again.partitions, dict(again.offsets), again.start_ms) == (
        S.ONGOING,
        frozenset({B}),
        {},
        NOW + 5,
    )


@pytest.mark.parametrize("state", [S.PREPARE_COMMIT, S.PREPARE_ABORT])
def test_nothing_is_added_while_a_transaction_completes(state: TxnState) -> None:
    assert add(TransactionMetadata(empty().ids, state), [A], [], NOW) is ErrorCode.CONCURRENT_TRANSACTIONS


@pytest.mark.parametrize(
    ("state", "commit", "answer"),
    [
        (S.COMPLETE_COMMIT, True, ErrorCode.NONE),
        (S.COMPLETE_ABORT, False, ErrorCode.NONE),
        (S.PREPARE_COMMIT, True, ErrorCode.CONCURRENT_TRANSACTIONS),
        (S.PREPARE_ABORT, False, ErrorCode.CONCURRENT_TRANSACTIONS),
        (S.COMPLETE_COMMIT, False, ErrorCode.INVALID_TXN_STATE),
        (S.COMPLETE_ABORT, True, ErrorCode.INVALID_TXN_STATE),
        (S.PREPARE_COMMIT, False, ErrorCode.INVALID_TXN_STATE),
        (S.EMPTY, True, ErrorCode.INVALID_TXN_STATE),
        (S.EMPTY, False, ErrorCode.INVALID_TXN_STATE),
    ],
)
def test_end_txn_outside_an_ongoing_transaction(state: TxnState, commit: bool, answer: ErrorCode) -> None:
    assert prepare_end(TransactionMetadata(empty().ids, state), commit, NOW) is answer


@pytest.mark.parametrize(("commit", "prepared", "completed"), [(True, S.PREPARE_COMMIT, S.COMPLETE_COMMIT),
                                                               (False, S.PREPARE_ABORT, S.COMPLETE_ABORT)])  # fmt: skip
def test_end_txn_prepares_then_completes_clearing_the_transaction(
    commit: bool, prepared: TxnState, completed: TxnState
) -> None:
    outcome = prepare_end(ongoing(A, groups=("g",)), commit, NOW)
    assert isinstance(outcome, TransactionMetadata)
    assert (outcome.state, outcome.partitions, outcome.epoch) == (prepared, frozenset({A}), 3)
    done = complete(outcome, NOW + 1)
    assert (done.state, done.partitions, dict(done.offsets), done.epoch) == (completed, frozenset(), {}, 3)


def test_fencing_bumps_the_epoch_and_prepares_an_abort() -> None:
    fenced = fence(ongoing(A), NOW)
    assert (fenced.state, fenced.epoch, fenced.ids.last_epoch, fenced.partitions) == (
        S.PREPARE_ABORT,
        4,
        -1,
        frozenset({A}),
    )
    at_max = TransactionMetadata(empty(MAX_EPOCH).ids, S.ONGOING, NOW, frozenset({A}))
    assert fence(at_max, NOW).epoch == MAX_EPOCH


def test_documents_round_trip_in_every_state() -> None:
    commits = {A: OffsetCommit("t", 0, 17, 2, "meta"), B: OffsetCommit("t", 1, 5, None, "")}
    metadata = TransactionMetadata(empty().ids, S.PREPARE_COMMIT, NOW, frozenset({A, B}), {"g": commits, "h": {}})
    assert TransactionMetadata.from_document("tx", metadata.document()) == metadata
    for state in S:
        plain = TransactionMetadata(empty().ids, state)
        assert TransactionMetadata.from_document("tx", plain.document()) == plain


def test_a_version_1_document_is_an_empty_transactional_id() -> None:
    ids = empty().ids
    assert TransactionMetadata.from_document("tx", ids.document()) == TransactionMetadata(ids)
    with pytest.raises(ValueError, match="version"):
        TransactionMetadata.from_document("tx", ids.document() | {"version": 3})
