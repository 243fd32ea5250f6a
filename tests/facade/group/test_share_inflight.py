"""A share-partition's in-flight records: acquisition, acknowledgement, lock expiry, the delivery limit, the
start offset's advance, and the saved runs (against a model of per-offset states for random operations)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.facade.group.share.inflight import (
    AcknowledgeType,
    AcquiredRange,
    InvalidRecordStateError,
    RecordState,
    SharePartition,
    StateRun,
)

LIMIT = 3
ACCEPT, RELEASE, REJECT, GAP = (int(t) for t in (AcknowledgeType.ACCEPT, AcknowledgeType.RELEASE,
                                               AcknowledgeType.REJECT, AcknowledgeType.GAP))  # fmt: skip


def acquire(p: SharePartition, member: str, first: int, last: int, *, now: float = 0.0, most: int = 100) -> list:
    """Acquire among one-record batches ``first``..``last``."""
    p.first_available(now, LIMIT)
    batches = [(offset, offset) for offset in range(first, last + 1)]
    return p.acquire(member, batches, max_records=most, max_locks=1000, deadline=now + 10)


def test_two_members_acquire_disjoint_records_and_accepting_moves_the_start() -> None:
    p = SharePartition(0)
    assert acquire(p, "a", 0, 9, most=4) == [AcquiredRange(0, 3, 1)]
    assert acquire(p, "b", 0, 9, most=4) == [AcquiredRange(4, 7, 1)]
    assert (p.start, p.end) == (0, 8)
    assert p.acknowledge("b", 4, 7, [ACCEPT], 1.0, LIMIT)
    assert p.start == 0  # a's records still hold it
    assert p.acknowledge("a", 0, 3, [ACCEPT], 1.0, LIMIT)
    assert (p.start, p.end, p.records) == (8, 8, {})


def test_a_released_record_is_delivered_again_with_its_count_until_the_limit_archives_it() -> None:
    p = SharePartition(0)
    for delivery in range(1, LIMIT + 1):
        assert acquire(p, "a", 0, 0) == [AcquiredRange(0, 0, delivery)]
        p.acknowledge("a", 0, 0, [RELEASE], 1.0, LIMIT)
    assert p.start == 1  # archived at the limit: never delivered again
    assert acquire(p, "a", 0, 0) == []


def test_a_rejected_record_is_archived_and_a_gap_too() -> None:
    p = SharePartition(10)
    acquire(p, "a", 10, 13)
    p.acknowledge("a", 10, 13, [REJECT, ACCEPT, GAP, RELEASE], 1.0, LIMIT)
    assert p.start == 13 and p.records[13].state is RecordState.AVAILABLE
    assert acquire(p, "b", 10, 13) == [AcquiredRange(13, 13, 2)]


def test_an_expired_lock_makes_the_record_available_to_another_member() -> None:
    p = SharePartition(0)
    acquire(p, "a", 0, 4, now=0.0)
    assert acquire(p, "b", 0, 4, now=5.0) == []  # still locked
    assert p.first_available(10.0, LIMIT) == 0
    assert acquire(p, "b", 0, 4, now=10.0) == [AcquiredRange(0, 4, 2)]
    with pytest.raises(InvalidRecordStateError):
        p.acknowledge("a", 0, 4, [ACCEPT], 10.5, LIMIT)  # a's lock is gone


def test_acknowledging_records_not_held_changes_nothing() -> None:
    p = SharePartition(0)
    acquire(p, "a", 0, 4)
    for member, first, last, types in [("b", 0, 0, [ACCEPT]), ("a", 3, 6, [ACCEPT]), ("a", 0, 1, [ACCEPT, 9]),
                                       ("a", 0, 2, [ACCEPT, ACCEPT])]:  # fmt: skip
        with pytest.raises(InvalidRecordStateError):
            p.acknowledge(member, first, last, types, 1.0, LIMIT)
    assert all(e.state is RecordState.ACQUIRED for e in p.records.values())


def test_release_member_and_control_offsets_left_out() -> None:
    p = SharePartition(0)
    p.first_available(0.0, LIMIT)
    assert p.acquire("a", [(0, 1), (3, 4)], max_records=10, max_locks=100, deadline=5.0) == [
        AcquiredRange(0, 1, 1),
        AcquiredRange(3, 4, 1),
    ]
    assert p.release_member("a", LIMIT)
    with pytest.raises(InvalidRecordStateError):  # a holds nothing any more
        p.acknowledge("a", 0, 0, [ACCEPT], 0.0, LIMIT)
    # offset 2 (a control record) has no entry and does not hold the start back
    acquire(p, "b", 0, 4)
    p.acknowledge("b", 0, 4, [ACCEPT], 1.0, LIMIT)
    assert (p.start, p.records) == (5, {})


def test_whole_batches_are_acquired_past_max_records_but_never_past_max_locks() -> None:
    p = SharePartition(0)
    p.first_available(0.0, LIMIT)
    assert p.acquire("a", [(0, 4), (5, 9)], max_records=2, max_locks=100, deadline=5.0) == [AcquiredRange(0, 4, 1)]
    assert p.acquire("b", [(5, 99)], max_records=100, max_locks=10, deadline=5.0) == [AcquiredRange(5, 9, 1)]
    assert p.first_available(5.0, LIMIT) == 0  # the locks of a window cut at max_locks still expire


def test_runs_save_acquired_as_available_and_load_back() -> None:
    p = SharePartition(0)
    acquire(p, "a", 0, 5)
    p.acknowledge("a", 1, 2, [ACCEPT], 1.0, LIMIT)
    p.acknowledge("a", 3, 3, [REJECT], 1.0, LIMIT)
    runs = list(p.runs())
    assert runs == [
        StateRun(0, 0, RecordState.AVAILABLE, 1),
        StateRun(1, 2, RecordState.ACKNOWLEDGED, 1),
        StateRun(3, 3, RecordState.ARCHIVED, 1),
        StateRun(4, 5, RecordState.AVAILABLE, 1),
    ]
    loaded = SharePartition(p.start, p.end, runs)
    assert acquire(loaded, "b", 0, 5) == [AcquiredRange(0, 0, 2), AcquiredRange(4, 5, 2)]


OPS = st.lists(
    st.tuples(
        st.sampled_from(["acquire", "ack", "tick", "leave"]),
        st.sampled_from("ab"),
        st.integers(0, 15),
        st.integers(0, 5),
        st.sampled_from([ACCEPT, RELEASE, REJECT]),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_model_no_record_is_held_twice_and_done_records_never_return(ops: list) -> None:
    p = SharePartition(0)
    now = 0.0
    done: set[int] = set()
    for op, member, offset, span, kind in ops:
        if op == "tick":
            now += span * 3
            p.expire(now, LIMIT)
        elif op == "leave":
            p.release_member(member, LIMIT)
        elif op == "acquire":
            p.first_available(now, LIMIT)
            got = p.acquire(member, [(0, 15)], max_records=span + 1, max_locks=12, deadline=now + 5)
            for r in got:
                assert not done & set(range(r.first_offset, r.last_offset + 1))
                assert 1 <= r.delivery_count <= LIMIT
        else:
            try:
                p.acknowledge(member, offset, offset + span, [kind], now, LIMIT)
            except InvalidRecordStateError:
                continue
            if kind != RELEASE:
                done |= set(range(offset, offset + span + 1))
        assert all(o >= p.start for o in p.records)
        assert p.start <= p.end <= p.start + 12 or not p.records
        assert all(not (e.state is RecordState.ACQUIRED and e.member_id is None) for e in p.records.values())
