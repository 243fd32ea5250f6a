"""InitProducerId's rules (``facade/producers/ids.py``): request checks, id blocks, every transactional row."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from rockafka.facade.producers.ids import (
    BLOCK_KEY,
    BLOCK_SIZE,
    MAX_EPOCH,
    InitRefused,
    ProducerIdAllocator,
    ProducerIdAndEpoch,
    TransactionalIdState,
    check_request,
    init_transactional,
)
from rockafka.facade.protocol.error_codes import ErrorCode

NOW = 1_700_000_000_000


class Ids:
    def __init__(self, first: int = 100) -> None:
        self.next = first

    def __call__(self) -> int:
        self.next += 1
        return self.next - 1


def state(epoch: int, last_epoch: int = -1, producer_id: int = 7, previous: int = -1) -> TransactionalIdState:
    return TransactionalIdState("t", producer_id, previous, epoch, last_epoch, 60_000, NOW - 1)


def init(current: TransactionalIdState | None, expected: tuple[int, int] | None) -> TransactionalIdState | InitRefused:
    given = None if expected is None else ProducerIdAndEpoch(*expected)
    return init_transactional(current, "t", given, 30_000, NOW, Ids())


@pytest.mark.parametrize(
    ("transactional_id", "timeout_ms", "producer_id", "epoch", "error"),
    [
        (None, 0, -1, -1, None),
        (None, 0, 5, 0, None),
        (None, 0, 5, -1, ErrorCode.INVALID_REQUEST),
        (None, 0, -1, 3, ErrorCode.INVALID_REQUEST),
        ("", 1000, -1, -1, ErrorCode.INVALID_REQUEST),
        ("t", 0, -1, -1, ErrorCode.INVALID_TRANSACTION_TIMEOUT),
        ("t", 900_001, -1, -1, ErrorCode.INVALID_TRANSACTION_TIMEOUT),
        ("t", 900_000, -1, -1, None),
    ],
)
def test_request_checks(
    transactional_id: str | None, timeout_ms: int, producer_id: int, epoch: int, error: ErrorCode | None
) -> None:
    refused = check_request(transactional_id, timeout_ms, producer_id, epoch, 900_000)
    assert (None if refused is None else refused.error) == error


def test_ids_come_from_blocks_saved_before_use() -> None:
    saved: list[int] = []

    def save(next_start: int) -> Future[None]:
        saved.append(next_start)
        return Future()

    allocator = ProducerIdAllocator(3000, save)
    first = allocator.allocate()
    assert (first.producer_id, saved) == (3000, [3000 + BLOCK_SIZE])
    assert first.durable is not None
    ids = [allocator.allocate().producer_id for _ in range(BLOCK_SIZE)]
    assert ids == list(range(3001, 3000 + BLOCK_SIZE + 1))
    assert saved == [3000 + BLOCK_SIZE, 3000 + 2 * BLOCK_SIZE]


def test_a_saved_block_needs_no_wait_once_fsynced() -> None:
    done: Future[None] = Future()
    done.set_result(None)
    allocator = ProducerIdAllocator(0, lambda _: done)
    assert allocator.allocate().durable is None


def test_block_start_reads_the_document() -> None:
    assert ProducerIdAllocator.block_start({}) == 0
    assert ProducerIdAllocator.block_start({BLOCK_KEY: {"version": 1, "next_block_start": 5000}}) == 5000


def test_an_unknown_transactional_id_gets_a_new_producer_id_and_epoch_0() -> None:
    assert init(None, None) == TransactionalIdState("t", 100, -1, 0, -1, 30_000, NOW)


def test_an_unknown_transactional_id_ignores_a_stale_expected_producer() -> None:
    assert init(None, (55, 3)) == TransactionalIdState("t", 100, -1, 0, -1, 30_000, NOW)


def test_without_expected_the_epoch_is_bumped_and_the_last_epoch_forgotten() -> None:
    assert init(state(4, last_epoch=3), None) == TransactionalIdState("t", 7, -1, 5, -1, 30_000, NOW)


def test_the_current_epoch_bumps_and_becomes_the_last() -> None:
    assert init(state(4), (7, 4)) == TransactionalIdState("t", 7, -1, 5, 4, 30_000, NOW)


def test_a_retry_with_the_last_epoch_returns_the_current_one_unchanged() -> None:
    outcome = init(state(5, last_epoch=4), (7, 4))
    assert isinstance(outcome, TransactionalIdState)
    assert (outcome.producer_id, outcome.epoch, outcome.last_epoch) == (7, 5, 4)


def test_an_older_epoch_is_fenced() -> None:
    outcome = init(state(5, last_epoch=4), (7, 2))
    assert isinstance(outcome, InitRefused)
    assert outcome.error == ErrorCode.PRODUCER_FENCED


def test_another_producer_id_is_fenced() -> None:
    outcome = init(state(5), (8, 5))
    assert isinstance(outcome, InitRefused)
    assert outcome.error == ErrorCode.PRODUCER_FENCED


def test_an_exhausted_epoch_rotates_to_a_new_producer_id() -> None:
    exhausted = MAX_EPOCH - 1
    assert init(state(exhausted), (7, exhausted)) == TransactionalIdState("t", 100, 7, 0, exhausted, 30_000, NOW)
    assert init(state(exhausted), None) == TransactionalIdState("t", 100, 7, 0, -1, 30_000, NOW)


def test_a_retry_of_a_rotation_is_answered_with_the_new_producer_id() -> None:
    exhausted = MAX_EPOCH - 1
    rotated = state(0, last_epoch=exhausted, producer_id=100, previous=7)
    outcome = init(rotated, (7, exhausted))
    assert isinstance(outcome, TransactionalIdState)
    assert (outcome.producer_id, outcome.epoch) == (100, 0)


def test_documents_round_trip() -> None:
    original = state(9, last_epoch=8, previous=3)
    assert TransactionalIdState.from_document("t", original.document()) == original
