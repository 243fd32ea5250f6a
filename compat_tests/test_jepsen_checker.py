"""The fault suite's checker (``compat_tests/jepsen/checker.py``) on hand-made histories: a clean one passes,
and each history that breaks one rule is caught by that rule (and only that one)."""

from __future__ import annotations

import pytest

from .jepsen import checker
from .jepsen.history import Ack, CommittedSample, Guarantee, History, Read


def clean() -> History:
    """Two topics of one partition: ``idem`` (exactly once, read by group ``g``) and ``txn`` (transactional:
    seq 2 aborted, read by a read_committed reader); three committed offsets sampled."""
    history = History(topics={"idem": Guarantee.EXACTLY_ONCE, "txn": Guarantee.EXACTLY_ONCE})
    for offset in range(3):
        history.add(Ack("idem", 0, offset, f"idem:{offset}"))
        history.add(Read("g/1", "idem", 0, offset, f"idem:{offset}"))
    history.add(Ack("txn", 0, 0, "txn:0"))
    history.add(Ack("txn", 0, 1, "txn:1"))
    history.add_aborted(["txn:2"])
    history.add(Ack("txn", 0, 5, "txn:3"))  # offsets 2-4: the aborted record and two markers
    history.add(Read("rc", "txn", 0, 5, "txn:3"))
    history.read_committed_readers.add("rc")
    history.groups.add(("idem", "g"))
    for offset in (1, 1, 3):
        history.add(CommittedSample("g", "idem", 0, offset))
    history.after_faults = {"idem": 2, "txn": 3}
    history.final_log = {
        ("idem", 0): [(0, "idem:0"), (1, "idem:1"), (2, "idem:2")],
        ("txn", 0): [(0, "txn:0"), (1, "txn:1"), (5, "txn:3")],
    }
    return history


def broken(rule: str) -> History:
    """:func:`clean`, changed to break ``rule`` alone."""
    history = clean()
    log = history.final_log
    if rule == "lost_or_moved":  # a failover lost an acknowledged record nobody had read yet
        del log["txn", 0][1]
    elif rule == "duplicated":  # an idempotent retry written twice
        log["idem", 0].append((3, "idem:2"))
    elif rule == "out_of_order":
        log["idem", 0][1:3] = [(1, "idem:2"), (2, "idem:1")]
        history.acks = [a for a in history.acks if a.topic != "idem"]
        history.reads = [r for r in history.reads if r.topic != "idem"]
        history.acks += [Ack("idem", 0, 0, "idem:0"), Ack("idem", 0, 1, "idem:2"), Ack("idem", 0, 2, "idem:1")]
        history.reads += [Read("g/1", "idem", 0, o, v) for o, v in log["idem", 0]]
    elif rule == "vanished_reads":  # a consumer read an unacknowledged record that a failover then replaced
        history.add(Read("g/1", "idem", 0, 3, "idem:3"))
        log["idem", 0].append((3, "idem:4"))
    elif rule == "committed_backwards":
        history.add(CommittedSample("g", "idem", 0, 2))
    elif rule == "aborted_seen":
        history.add(Read("rc", "txn", 0, 2, "txn:2"))
        log["txn", 0].insert(2, (2, "txn:2"))
    elif rule == "unread_by_group":
        history.reads = [r for r in history.reads if r.value != "idem:1"]
    elif rule == "silent_after_faults":
        history.after_faults["txn"] = 4
    elif rule == "refused_in_sequence":  # the broker's producer state behind its log
        history.add_sequence_refusal("txn-0")
    return history


def test_a_clean_history_breaks_no_rule() -> None:
    assert checker.check(clean()) == []


@pytest.mark.parametrize("rule", [rule.__name__ for rule in checker.RULES])
def test_each_rule_catches_the_history_that_breaks_it_and_only_it(rule: str) -> None:
    history = broken(rule)
    by_rule = {each.__name__: each(history) for each in checker.RULES}
    assert by_rule[rule], f"{rule} missed its violation"
    assert {name for name, found in by_rule.items() if found} == {rule}
    assert checker.check(history)  # and check() reports it


def test_at_least_once_topics_may_hold_a_value_twice_but_not_out_of_order() -> None:
    history = clean()
    history.topics["idem"] = Guarantee.AT_LEAST_ONCE
    history.final_log["idem", 0].append((3, "idem:2"))  # a retry written again: allowed
    assert checker.check(history) == []
    history.final_log["idem", 0].append((4, "idem:1"))  # a duplicate of an earlier value: its first copy counts
    assert checker.check(history) == []
    history.final_log["idem", 0].insert(0, (-1, "idem:9"))
    assert checker.out_of_order(history)
    history.topics["idem"] = Guarantee.AT_LEAST_ONCE_ANY_ORDER  # librdkafka without idempotence: order not kept
    assert checker.check(history) == []


def test_a_duplicate_names_the_offsets_of_its_copies() -> None:
    """Two offsets: a retry written twice; one offset twice: the final read handed one record twice."""
    assert checker.duplicated(broken("duplicated")) == ["duplicated: 1 values twice in idem-0, first 'idem:2' at 2, 3"]
    history = clean()
    history.final_log["idem", 0].append((2, "idem:2"))
    assert checker.duplicated(history) == ["duplicated: 1 values twice in idem-0, first 'idem:2' at 2, 2"]


def test_a_committed_offset_that_stays_or_moves_on_is_fine_per_partition() -> None:
    history = clean()
    history.add(CommittedSample("g", "idem", 1, 0))  # another partition starts lower: not backwards
    history.add(CommittedSample("other", "idem", 0, 0))  # another group too
    assert checker.committed_backwards(history) == []


def test_check_caps_each_rule_and_counts_the_rest() -> None:
    history = clean()
    history.final_log["idem", 0] = []
    lines = checker.check(history, limit=2)
    assert lines[:2] == [
        "lost: 'idem:0' acknowledged at idem-0@0, missing",
        "lost: 'idem:1' acknowledged at idem-0@1, missing",
    ]
    assert "lost_or_moved: 1 more" in lines
