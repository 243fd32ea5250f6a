"""The Jepsen-style fault suite, short CI version (the long one: ``python -m bench.jepsen``).

A 2-group cluster (:data:`compat_tests.jepsen.topology.MEMBERS` broker(s) per group, each behind cuttable
proxies) under confluent-kafka and aiokafka acks=all writers (plain, idempotent, transactional with aborts), a
consumer group committing offsets and a read_committed reader, while the nemesis kills (SIGKILL) and restarts,
pauses (SIGSTOP/SIGCONT), isolates (from clients and etcd, or from etcd alone) a group's leader and restarts
etcd: one of each, in the order the seed draws. The checker's rules are in ``compat_tests/jepsen/checker.py``.
The seed and the schedule are printed (and shown on failure); ``ROCKAFKA_JEPSEN_SEED=N`` replays seed N.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .jepsen import nemesis
from .jepsen.run import run, seed_from_env
from .jepsen.topology import FaultCluster

pytestmark = [pytest.mark.slow]

SEED = seed_from_env(19)


def test_acknowledged_data_survives_every_fault_once_and_in_order(tmp_path: Path) -> None:
    with FaultCluster(groups=2) as cluster:
        verdict = run(cluster, SEED, faults=len(nemesis.KINDS), settle_s=2.0, history_file=tmp_path / "history.json")
    assert {fault.kind for fault in verdict.faults} == set(nemesis.KINDS)
    assert {ack.topic for ack in verdict.history.acks} == set(verdict.history.topics)  # every writer acknowledged
    assert verdict.history.reads and verdict.history.committed and verdict.history.aborted
    if verdict.problems and all(_known_aiokafka_loss(problem) for problem in verdict.problems):
        pytest.xfail(f"{KNOWN_AIOKAFKA_LOSS}\n{verdict.report()}")
    assert not verdict.problems, verdict.report()


#: Found by this suite on main (seeds 19 and 1901, 4 runs of 8): while a group's broker restarts after a SIGKILL,
#: an aiokafka batch (plain and idempotent alike) is acknowledged with base offset 0 and is not in the log; the
#: idempotent producer then fails every later record of that partition. The cause: a restarted broker serves
#: before it joins the cluster (facade/app.py listens before _join_cluster) with a single broker's topology,
#: leading every partition it knows, the other groups' too; aiokafka refreshes its metadata there and its batch
#: for another group's partition is appended to the broker's empty local copy (offset 0). See
#: docs/replication.md. Any other violation, or one on a confluent-kafka topic, fails the test.
KNOWN_AIOKAFKA_LOSS = "known: a restarting broker acknowledges other groups' partitions before it joins (aiokafka)"
KNOWN_AIOKAFKA_LINES = re.compile(
    r"lost: 'aio(-plain|-txn)?:|unread: group readers never read \d+ acknowledged aio(-plain)? records|silent: aio"
)


def _known_aiokafka_loss(problem: str) -> bool:
    return KNOWN_AIOKAFKA_LINES.match(problem) is not None
