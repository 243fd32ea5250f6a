"""What a fault run recorded: every acknowledgement, every read, every committed offset seen, and the log as
it stands after the run. Plain data, filled by the workloads (``workloads.py``) and judged by the pure
checker (``checker.py``); unit tests build histories by hand.

A record's value names its writer and its place in the writer's sequence, ``"<workload>:<seq>"``; each
workload writes its own topic, so a topic has one writer and the sequence gives the order it wrote in.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path


class Guarantee(enum.Enum):
    """What Kafka promises a producer's acknowledged records."""

    #: acks=all with retries, no idempotence: each acknowledged record is in the log, maybe more than once.
    AT_LEAST_ONCE = "at-least-once"
    #: The same, from a client whose one request in flight is per connection, not per partition (librdkafka:
    #: confluentinc/librdkafka#1969): a request still in flight to a deposed leader when the partition's next ones
    #: go to the new leader is retried after them, so a leader change may reorder its records, against Kafka too.
    AT_LEAST_ONCE_ANY_ORDER = "at-least-once, any order"
    #: enable.idempotence (and transactions): each acknowledged record is in the log exactly once.
    EXACTLY_ONCE = "exactly-once"


def value_of(workload: str, seq: int) -> str:
    return f"{workload}:{seq}"


def seq_of(value: str) -> int:
    """The writer's sequence number in ``value`` (-1 for a value no workload wrote)."""
    _, _, seq = value.rpartition(":")
    return int(seq) if seq.isdigit() else -1


@dataclass(frozen=True)
class Ack:
    """The broker acknowledged ``value`` at ``offset`` of ``topic``/``partition``."""

    topic: str
    partition: int
    offset: int
    value: str


@dataclass(frozen=True)
class Read:
    """Consumer ``reader`` was handed ``value`` at ``offset`` of ``topic``/``partition``."""

    reader: str
    topic: str
    partition: int
    offset: int
    value: str


@dataclass(frozen=True)
class CommittedSample:
    """The broker held ``offset`` as ``group``'s committed offset of ``topic``/``partition`` (samples in the order
    taken)."""

    group: str
    topic: str
    partition: int
    offset: int


#: (offset, value) of every record of one partition, in log order.
PartitionLog = list[tuple[int, str]]


@dataclass
class History:
    """Everything a run observed. Workloads append from their own threads through :meth:`add`."""

    #: each topic's writer guarantee
    topics: dict[str, Guarantee] = field(default_factory=dict)
    acks: list[Ack] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)
    committed: list[CommittedSample] = field(default_factory=list)
    #: values written in transactions that were aborted (read_committed must never see them)
    aborted: set[str] = field(default_factory=set)
    #: readers that read with isolation.level=read_committed
    read_committed_readers: set[str] = field(default_factory=set)
    #: (topic, reader group): every acknowledged record of the topic must reach the group at least once
    groups: set[tuple[str, str]] = field(default_factory=set)
    #: per topic, the first sequence number its writer sent after the last fault (it must acknowledge one)
    after_faults: dict[str, int] = field(default_factory=dict)
    #: after the run, per (topic, partition): the log read from the start (read_committed for transactional topics)
    final_log: dict[tuple[str, int], PartitionLog] = field(default_factory=dict)
    #: partitions ("topic-partition") that answered OUT_OF_ORDER_SEQUENCE_NUMBER to a producer that had skipped no
    #: sequence there (aiokafka's writer starts a new producer after any failed send, so the broker disagreed)
    sequence_refusals: list[str] = field(default_factory=list)
    #: failed or unknown deliveries, by topic (neither required nor forbidden in the log; reported)
    unacknowledged: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, event: Ack | Read | CommittedSample) -> None:
        with self._lock:
            if isinstance(event, Ack):
                self.acks.append(event)
            elif isinstance(event, Read):
                self.reads.append(event)
            else:
                self.committed.append(event)

    def add_aborted(self, values: list[str]) -> None:
        with self._lock:
            self.aborted.update(values)

    def add_unacknowledged(self, topic: str, count: int = 1) -> None:
        with self._lock:
            self.unacknowledged[topic] += count

    def add_sequence_refusal(self, where: str) -> None:
        with self._lock:
            self.sequence_refusals.append(where)

    def read_by_group(self, group: str) -> set[str]:
        """Values read by the members of ``group`` (readers named ``<group>/<member>``)."""
        with self._lock:
            return {read.value for read in self.reads if read.reader.partition("/")[0] == group}

    def summary(self) -> str:
        return (
            f"{len(self.acks)} acknowledged, {len(self.reads)} read, {len(self.committed)} committed offsets sampled, "
            f"{len(self.aborted)} aborted, unacknowledged {dict(self.unacknowledged)}"
        )

    def dump(self, path: Path) -> None:
        """The whole history as one JSON document, to study a failure after the cluster is gone."""
        with self._lock:
            document = {
                "topics": {topic: guarantee.value for topic, guarantee in self.topics.items()},
                "acks": [dataclasses.astuple(ack) for ack in self.acks],
                "reads": [dataclasses.astuple(read) for read in self.reads],
                "committed": [dataclasses.astuple(sample) for sample in self.committed],
                "aborted": sorted(self.aborted),
                "after_faults": self.after_faults,
                "unacknowledged": dict(self.unacknowledged),
                "sequence_refusals": self.sequence_refusals,
                "final_log": {f"{topic}-{partition}": log for (topic, partition), log in self.final_log.items()},
            }
        path.write_text(json.dumps(document))
