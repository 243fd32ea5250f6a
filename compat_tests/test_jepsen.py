"""The Jepsen-style fault suite, short CI version (the long one: ``python -m bench.jepsen``).

A 2-group cluster (:data:`MEMBERS` broker(s) per group, each behind cuttable proxies) under confluent-kafka and
aiokafka acks=all writers (plain, idempotent, transactional with aborts), a consumer group committing offsets
and a read_committed reader, while the nemesis kills (SIGKILL) and restarts, pauses (SIGSTOP/SIGCONT), isolates
(from clients and etcd, or from etcd alone) a group's leader and restarts etcd: one of each, in the order the
seed draws. The checker's rules are in ``compat_tests/jepsen/checker.py``. The seed and the schedule are
printed (and shown on failure); ``ROCKAFKA_JEPSEN_SEED=N`` replays seed N; every broker's log and etcd's are
kept in the test's ``tmp_path`` beside ``history.json``.

Replicated groups (3 members each) run in ``python -m bench.jepsen --members 3``, not here yet: the hang after
an etcd restart is fixed, but two rules still break in about 1 run of 3 of seed 19, both where a coordinator
answers before the group's in-sync members hold its write (a committed offset read back from the coordinator
before it was replicated, then lost with its leader; a committed transaction lost with the coordinator's
group): see docs/replication.md. Once they are fixed, ``members=3`` here is the switch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from .jepsen import nemesis
from .jepsen.run import Verdict, run, seed_from_env
from .jepsen.topology import FaultCluster

pytestmark = [pytest.mark.slow]

SEED = seed_from_env(19)
#: Members per group here, whatever ``ROCKAFKA_JEPSEN_MEMBERS`` says (that sets the benchmark's default).
MEMBERS: Final = 1


def test_acknowledged_data_survives_every_fault_once_and_in_order(tmp_path: Path) -> None:
    with FaultCluster(groups=2, members=MEMBERS, logs_to=tmp_path) as cluster:
        verdict = run(cluster, SEED, faults=len(nemesis.KINDS), settle_s=2.0, history_file=tmp_path / "history.json")
    assert_clean(verdict)


def assert_clean(verdict: Verdict) -> None:
    assert {fault.kind for fault in verdict.faults} == set(nemesis.KINDS)
    assert {ack.topic for ack in verdict.history.acks} == set(verdict.history.topics)  # every writer acknowledged
    assert verdict.history.reads and verdict.history.committed and verdict.history.aborted
    assert not verdict.problems, verdict.report()
