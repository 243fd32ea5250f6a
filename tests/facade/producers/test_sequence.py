"""A batch's verdict on one partition (``facade/producers/sequence.py``): every rule, wrapping, the 5 kept."""

from __future__ import annotations

import pytest

from rockafka.facade.producers.sequence import (
    BATCHES_KEPT,
    INT32_MAX,
    RULES,
    Accepted,
    Duplicate,
    IncomingBatch,
    ProducerEntry,
    Refused,
    check,
    last_sequence,
    record,
)
from rockafka.facade.protocol.error_codes import ErrorCode

PID = 42


def batch(first: int, count: int = 1, epoch: int = 0, timestamp: int = 1000) -> IncomingBatch:
    return IncomingBatch(PID, epoch, first, count, timestamp)


def written(*batches: IncomingBatch, base: int = 0) -> ProducerEntry:
    """The entry after writing ``batches`` one after another from offset ``base``."""
    entry = None
    for incoming in batches:
        entry = record(entry, incoming, base)
        base += incoming.record_count
    assert entry is not None
    return entry


def refused(verdict: object) -> ErrorCode:
    assert isinstance(verdict, Refused), verdict
    return verdict.error


def test_the_rules_are_tried_in_the_documented_order() -> None:
    assert [name for name, _ in RULES] == ["no_sequence", "duplicate", "stale_epoch", "new_epoch", "out_of_order"]


def test_no_sequence_is_an_invalid_record() -> None:
    assert refused(check(None, batch(-1))) == ErrorCode.INVALID_RECORD


@pytest.mark.parametrize("first", [0, 7, INT32_MAX])
def test_a_producer_unknown_to_the_partition_is_accepted_at_any_sequence(first: int) -> None:
    assert check(None, batch(first)) == Accepted()


def test_the_next_sequence_is_accepted() -> None:
    assert check(written(batch(0, 3)), batch(3, 2)) == Accepted()


@pytest.mark.parametrize("first", [2, 4, 10])
def test_out_of_order_is_refused(first: int) -> None:
    assert refused(check(written(batch(0, 3)), batch(first))) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_a_retry_of_any_of_the_last_five_batches_is_a_duplicate_with_its_original_offsets() -> None:
    entry = written(*(batch(2 * i, 2) for i in range(7)), base=100)
    assert len(entry.batches) == BATCHES_KEPT
    for i in range(2, 7):
        assert check(entry, batch(2 * i, 2)) == Duplicate(100 + 2 * i, 101 + 2 * i)


def test_a_batch_older_than_the_five_kept_is_out_of_order() -> None:
    entry = written(*(batch(2 * i, 2) for i in range(7)), base=100)
    assert refused(check(entry, batch(2, 2))) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_a_retry_with_another_range_is_not_a_duplicate() -> None:
    entry = written(batch(0, 3), batch(3, 3))
    assert refused(check(entry, batch(3, 2))) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_a_stale_epoch_is_refused_even_for_a_kept_range() -> None:
    entry = written(batch(0, 2, epoch=3))
    assert refused(check(entry, batch(0, 2, epoch=2))) == ErrorCode.INVALID_PRODUCER_EPOCH


def test_a_new_epoch_must_start_at_sequence_zero() -> None:
    entry = written(batch(0, 2, epoch=3))
    assert check(entry, batch(0, 1, epoch=4)) == Accepted()
    assert refused(check(entry, batch(2, 1, epoch=4))) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_a_new_epoch_replaces_the_kept_batches() -> None:
    entry = written(batch(0, 2, epoch=3))
    entry = record(entry, batch(0, 1, epoch=4), 50)
    assert entry.epoch == 4
    assert [(b.first_sequence, b.base_offset) for b in entry.batches] == [(0, 50)]


def test_sequences_wrap_after_int32_max() -> None:
    assert last_sequence(INT32_MAX - 1, 2) == INT32_MAX
    assert last_sequence(INT32_MAX - 1, 4) == 1
    entry = written(batch(INT32_MAX - 1, 2))
    assert entry.last_sequence == INT32_MAX
    assert check(entry, batch(0, 3)) == Accepted()
    wrapped = written(batch(INT32_MAX - 1, 4))
    assert check(wrapped, batch(2)) == Accepted()
    assert check(wrapped, batch(INT32_MAX - 1, 4)) == Duplicate(0, 3)


def test_record_keeps_the_largest_timestamp() -> None:
    entry = written(batch(0, timestamp=5000), batch(1, timestamp=3000))
    assert entry.last_timestamp == 5000
