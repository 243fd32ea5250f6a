"""The benchmark's read-back check: a measurement counts only if this check would catch a broker's mistake."""

from __future__ import annotations

import pytest

from bench.suite.payload import Ledger, Payloads, VerificationError

PARTITIONS = 3
MESSAGES = 20


def ledger() -> Ledger:
    out = Ledger(Payloads.of(64), MESSAGES, PARTITIONS)
    out.keep_sent()
    return out


def sent(book: Ledger, partition: int) -> tuple[list[int | None], list[bytes | None]]:
    """What a correct broker returns for ``partition``: offsets 0.. and the values sent there, in order."""
    values: list[bytes | None] = [book.payloads.value(seq) for seq in range(partition, MESSAGES, PARTITIONS)]
    return list(range(len(values))), values


def test_sent_values_are_what_the_producer_sends() -> None:
    book = ledger()
    assert [book.sent_value(seq) for seq in range(MESSAGES)] == [book.payloads.value(seq) for seq in range(MESSAGES)]


def test_a_correct_read_back_in_uneven_runs_completes() -> None:
    book = ledger()
    for partition in range(PARTITIONS):
        offsets, values = sent(book, partition)
        book.add_run(partition, offsets[:1], values[:1])
        book.add_run(partition, offsets[1:4], values[1:4])
        book.add_run(partition, offsets[4:], values[4:])
    assert book.complete
    assert book.count == MESSAGES
    assert book.missing() == f"0 of {MESSAGES} messages not read back (first missing seq -1)"


def test_an_incomplete_read_back_is_not_complete_and_names_the_first_missing() -> None:
    book = ledger()
    offsets, values = sent(book, 0)
    book.add_run(0, offsets, values)
    offsets, values = sent(book, 1)
    book.add_run(1, offsets[:2], values[:2])
    assert not book.complete
    assert "first missing seq 2" in book.missing()


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("duplicate", "p1@1: seq 4 read twice"),
        ("gap", "p1: offset 3 where 2 was next"),
        ("flipped byte", "p1@1: seq 4 content differs from what was sent"),
        ("short value", "p1@1: value of 63 bytes"),
        ("missing value", "p1@1: value of None bytes"),
        ("seq out of place", "p1@1: seq 10 where 4 was sent"),
        ("seq of another partition", "p1@1: seq 5 belongs to partition 2"),
        ("beyond what was sent", "p1@7: seq 22 was never sent (sent 20)"),
    ],
)
def test_each_fault_in_a_run_is_refused_and_named(fault: str, message: str) -> None:
    book = ledger()
    offsets, values = sent(book, 1)
    value = values[1]
    assert value is not None
    if fault == "duplicate":
        offsets, values = offsets[:2] + offsets[1:], values[:2] + values[1:]
        book.add_run(1, offsets[:2], values[:2])
        offsets, values = offsets[2:], values[2:]
    elif fault == "gap":
        book.add_run(1, offsets[:2], values[:2])
        offsets, values = offsets[3:], values[3:]
    elif fault == "flipped byte":
        values[1] = value[:40] + bytes([value[40] ^ 1]) + value[41:]
    elif fault == "short value":
        values[1] = value[:-1]
    elif fault == "missing value":
        values[1] = None
    elif fault == "seq out of place":
        values[1] = book.payloads.value(10)
    elif fault == "seq of another partition":
        values[1] = book.payloads.value(5)
    elif fault == "beyond what was sent":
        offsets.append(7)
        values.append(book.payloads.value(22))
    with pytest.raises(VerificationError) as raised:
        book.add_run(1, offsets, values)
    assert str(raised.value) == message
    assert not book.complete


def test_a_partition_the_topic_does_not_have_is_refused() -> None:
    book = ledger()
    with pytest.raises(VerificationError, match="partition 3 of a 3-partition topic"):
        book.add_run(3, [0], [book.payloads.value(3)])
    with pytest.raises(VerificationError, match="partition None"):
        book.add_run(None, [0], [book.payloads.value(0)])
