"""The checker: pure functions from a :class:`~compat_tests.jepsen.history.History` to the rules it breaks.

Each rule returns one line per violation (empty: it holds); :func:`check` runs them all.

- :func:`lost_or_moved`: every acknowledged record is in the final log at the offset it was acknowledged at.
- :func:`duplicated`: a value of an exactly-once topic (idempotent or transactional writer) is in the log once;
  an at-least-once topic (plain acks=all with retries, Kafka's own guarantee for it) may hold a value twice.
- :func:`out_of_order`: along each partition, a writer's values first appear in the order it wrote them (but for
  a writer whose client may reorder across a leader change, ``Guarantee.AT_LEAST_ONCE_ANY_ORDER``).
- :func:`vanished_reads`: no consumer was ever handed a record the final log does not hold at that offset (a
  record that a failover later lost or replaced).
- :func:`committed_backwards`: a group's committed offset of a partition never goes back between samples.
- :func:`aborted_seen`: no read_committed consumer, nor the final read_committed log, holds an aborted value.
- :func:`unread_by_group`: every acknowledged record of a topic reached its consumer group at least once.
- :func:`silent_after_faults`: every writer had a record acknowledged after the last fault (the cluster serves).
- :func:`refused_in_sequence`: no partition answered OUT_OF_ORDER_SEQUENCE_NUMBER to a producer that had skipped
  no sequence on it (the broker's producer state disagreeing with its log: a batch it holds but never counted).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from .history import Guarantee, History, seq_of

Rule = Callable[[History], list[str]]


def lost_or_moved(history: History) -> list[str]:
    logs = {key: dict(records) for key, records in history.final_log.items()}
    problems = []
    for ack in history.acks:
        found = logs.get((ack.topic, ack.partition), {}).get(ack.offset)
        if found != ack.value:
            where = "missing" if found is None else f"replaced by {found!r}"
            problems.append(f"lost: {ack.value!r} acknowledged at {ack.topic}-{ack.partition}@{ack.offset}, {where}")
    return problems


def duplicated(history: History) -> list[str]:
    problems = []
    for (topic, partition), records in sorted(history.final_log.items()):
        if history.topics.get(topic) is not Guarantee.EXACTLY_ONCE:
            continue
        offsets: defaultdict[str, list[int]] = defaultdict(list)
        for offset, value in records:
            offsets[value].append(offset)
        twice = sorted(value for value, found in offsets.items() if len(found) > 1)
        if twice:  # the offsets tell a retry written twice (two offsets) from one record read twice (one offset)
            at = ", ".join(str(offset) for offset in offsets[twice[0]])
            problems.append(f"duplicated: {len(twice)} values twice in {topic}-{partition}, first {twice[0]!r} at {at}")
    return problems


def out_of_order(history: History) -> list[str]:
    problems = []
    for (topic, partition), records in sorted(history.final_log.items()):
        if history.topics.get(topic) is Guarantee.AT_LEAST_ONCE_ANY_ORDER:
            continue
        seen: set[str] = set()
        last = -1
        for offset, value in records:
            if value in seen:
                continue  # an at-least-once duplicate: its first copy holds its place
            seen.add(value)
            seq = seq_of(value)
            if seq < last:
                problems.append(f"out of order: {value!r} at {topic}-{partition}@{offset} after seq {last}")
                break
            last = seq
    return problems


def vanished_reads(history: History) -> list[str]:
    logs = {key: dict(records) for key, records in history.final_log.items()}
    problems = []
    for read in history.reads:
        found = logs.get((read.topic, read.partition), {}).get(read.offset)
        if found != read.value:
            now = "is gone" if found is None else f"now holds {found!r}"
            problems.append(
                f"vanished: {read.reader} read {read.value!r} at {read.topic}-{read.partition}@{read.offset}, "
                f"which {now}"
            )
    return problems


def committed_backwards(history: History) -> list[str]:
    last: dict[tuple[str, str, int], int] = {}
    problems = []
    for sample in history.committed:
        key = (sample.group, sample.topic, sample.partition)
        if key in last and sample.offset < last[key]:
            problems.append(
                f"committed offset went back: {sample.group} {sample.topic}-{sample.partition} "
                f"{last[key]} -> {sample.offset}"
            )
        last[key] = max(sample.offset, last.get(key, sample.offset))
    return problems


def aborted_seen(history: History) -> list[str]:
    problems = [
        f"aborted data read: {read.reader} (read_committed) read {read.value!r} at "
        f"{read.topic}-{read.partition}@{read.offset}"
        for read in history.reads
        if read.reader in history.read_committed_readers and read.value in history.aborted
    ]
    for (topic, partition), records in sorted(history.final_log.items()):
        problems += [
            f"aborted data in the final read_committed log: {value!r} at {topic}-{partition}@{offset}"
            for offset, value in records
            if value in history.aborted
        ]
    return problems


def unread_by_group(history: History) -> list[str]:
    acked: dict[str, set[str]] = defaultdict(set)
    for ack in history.acks:
        acked[ack.topic].add(ack.value)
    problems = []
    for topic, group in sorted(history.groups):
        unread = acked[topic] - history.read_by_group(group)
        if unread:
            first = min(unread, key=seq_of)
            problems.append(f"unread: group {group} never read {len(unread)} acknowledged {topic} records, {first!r}")
    return problems


def silent_after_faults(history: History) -> list[str]:
    latest: dict[str, int] = defaultdict(lambda: -1)
    for ack in history.acks:
        latest[ack.topic] = max(latest[ack.topic], seq_of(ack.value))
    return [
        f"silent: {topic} had nothing acknowledged from seq {first} on (after the last fault)"
        for topic, first in sorted(history.after_faults.items())
        if latest[topic] < first
    ]


def refused_in_sequence(history: History) -> list[str]:
    return [
        f"sequence refused: {where} answered OUT_OF_ORDER_SEQUENCE_NUMBER to a producer that skipped no sequence"
        for where in history.sequence_refusals
    ]


RULES: tuple[Rule, ...] = (
    lost_or_moved,
    duplicated,
    out_of_order,
    vanished_reads,
    committed_backwards,
    aborted_seen,
    unread_by_group,
    silent_after_faults,
    refused_in_sequence,
)


def check(history: History, *, limit: int = 20) -> list[str]:
    """Every rule's violations, at most ``limit`` lines per rule (and a count of the rest)."""
    problems = []
    for rule in RULES:
        found = rule(history)
        problems += found[:limit]
        if len(found) > limit:
            problems.append(f"{rule.__name__}: {len(found) - limit} more")
    return problems
