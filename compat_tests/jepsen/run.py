"""One fault run: a :class:`FaultCluster`, the workloads of ``workloads.py``, the nemesis's schedule, then the
final logs read back and the checker's verdict.

Topics (``partitions`` each, spread over the groups), one per writer: ``plain`` and ``aio-plain`` (confluent-kafka
and aiokafka, acks=all with retries: at least once), ``idem`` and ``aio`` (idempotent: exactly once), ``txn``
and ``aio-txn`` (transactions, some aborted: exactly once for the committed ones). Group ``readers`` (two
members) reads the four non-transactional topics and commits; one read_committed consumer reads the two
transactional ones; a sampler records ``readers``' committed offsets.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from confluent_kafka.admin import AdminClient, NewTopic

from .checker import check
from .history import Guarantee, History
from .nemesis import Fault, inject, schedule
from .topology import FaultCluster
from .workloads import (
    WAIT_S,
    AiokafkaWriter,
    ConfluentWriter,
    GroupMember,
    OffsetSampler,
    ReadCommittedReader,
    TransactionalWriter,
    Worker,
    Writer,
    read_final_log,
    wait_until,
)

#: The seed of the schedule; ``ROCKAFKA_JEPSEN_SEED=N`` replays run N.
SEED_VARIABLE: Final = "ROCKAFKA_JEPSEN_SEED"
GROUP: Final = "readers"
GROUP_TOPICS: Final = ("plain", "idem", "aio", "aio-plain")
TRANSACTIONAL_TOPICS: Final = ("txn", "aio-txn")


def seed_from_env(default: int) -> int:
    return int(os.environ.get(SEED_VARIABLE, default))


@dataclass
class Verdict:
    seed: int
    faults: list[Fault]
    history: History
    problems: list[str] = field(default_factory=list)

    def report(self) -> str:
        lines = [
            f"jepsen: seed {self.seed} (replay: {SEED_VARIABLE}={self.seed}), schedule {[str(f) for f in self.faults]}",
            f"jepsen: {self.history.summary()}",
            *(f"jepsen: VIOLATION {problem}" for problem in self.problems),
        ]
        return "\n".join(lines)


def create_topics(cluster: FaultCluster, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    topics = [NewTopic(topic, partitions, 1) for topic in (*GROUP_TOPICS, *TRANSACTIONAL_TOPICS)]
    for future in admin.create_topics(topics).values():
        future.result(timeout=WAIT_S)
    for topic in (*GROUP_TOPICS, *TRANSACTIONAL_TOPICS):  # every broker's watch brings the topic before the load starts
        cluster.snapshot_when(lambda s, t=topic: t in s.topics, what=f"topic {topic} known")
    time.sleep(1.0)


def start_load(
    cluster: FaultCluster, history: History, partitions: int, rate: float, *, transactions: bool = True
) -> tuple[list[Writer], list[Worker]]:
    """The writers and readers, started; without ``transactions``, no transactional writer nor read_committed
    reader."""
    bootstrap = cluster.bootstrap
    transactional = TRANSACTIONAL_TOPICS if transactions else ()
    history.topics.update({topic: Guarantee.EXACTLY_ONCE for topic in ("idem", "aio", *transactional)})
    history.topics.update({"plain": Guarantee.AT_LEAST_ONCE_ANY_ORDER, "aio-plain": Guarantee.AT_LEAST_ONCE})
    history.groups.update((topic, GROUP) for topic in GROUP_TOPICS)
    common = (history, bootstrap)
    writers: list[Writer] = [
        ConfluentWriter(*common, "plain", partitions, rate, idempotent=False),
        ConfluentWriter(*common, "idem", partitions, rate, idempotent=True),
        AiokafkaWriter(*common, "aio", partitions, rate, mode="idempotent"),
        AiokafkaWriter(*common, "aio-plain", partitions, rate, mode="plain"),
    ]
    readers: list[Worker] = [
        *(GroupMember(*common, GROUP, member, list(GROUP_TOPICS)) for member in (1, 2)),
        OffsetSampler(*common, GROUP, list(GROUP_TOPICS), partitions),
    ]
    if transactions:
        writers += [
            TransactionalWriter(*common, "txn", partitions, rate),
            AiokafkaWriter(*common, "aio-txn", partitions, rate, mode="transactional"),
        ]
        readers.append(ReadCommittedReader(*common, list(TRANSACTIONAL_TOPICS), partitions))
    for worker in [*writers, *readers]:
        worker.start()
    return writers, readers


def run(cluster: FaultCluster, seed: int, faults: int, *, partitions: int = 4, settle_s: float = 3.0,
        rate: float = 40.0, history_file: Path | None = None, transactions: bool = True) -> Verdict:  # fmt: skip
    """Load, ``faults`` faults of the seed's schedule ``settle_s`` apart, drain, read back, check; the history is
    written to ``history_file`` (JSON) when given. ``transactions=False`` leaves out the transactional writers
    and the read_committed reader."""
    plan = schedule(seed, faults, list(cluster.groups), cluster.members)
    history = History()
    verdict = Verdict(seed, plan, history)
    print(f"jepsen: seed {seed} (replay: {SEED_VARIABLE}={seed}), {cluster.members} member(s) per group, "
          f"schedule {[str(f) for f in plan]}", flush=True)  # fmt: skip
    create_topics(cluster, partitions)
    writers, readers = start_load(cluster, history, partitions, rate, transactions=transactions)
    try:
        time.sleep(settle_s)
        for fault in plan:
            node = inject(cluster, fault)
            print(f"jepsen: {fault} hit node {node}", flush=True)
            time.sleep(settle_s)
        history.after_faults = {writer.topic: writer.sent for writer in writers}
        time.sleep(settle_s)
    finally:
        for writer in writers:
            writer.stop()
        acked = {ack.value for ack in history.acks if ack.topic in GROUP_TOPICS}
        wait_until(lambda: acked <= history.read_by_group(GROUP))
        time.sleep(1.0)  # the members' last commit
        for reader in readers:
            reader.stop()
    for topic in history.topics:
        read_final_log(history, cluster.bootstrap, topic, partitions, read_committed=topic in TRANSACTIONAL_TOPICS)
    if history_file is not None:
        history.dump(history_file)
        print(f"jepsen: history in {history_file}", flush=True)
    verdict.problems = [worker.error for worker in [*writers, *readers] if worker.error] + check(history)
    print(verdict.report(), flush=True)
    return verdict
