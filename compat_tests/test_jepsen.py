"""The Jepsen-style fault suite, short CI version (the long one: ``python -m bench.jepsen``).

A 2-group cluster (1 or 3 brokers per group, each behind cuttable proxies) under confluent-kafka and
aiokafka acks=all writers (plain, idempotent, transactional with aborts), a consumer group committing offsets
and a read_committed reader, while the nemesis kills (SIGKILL) and restarts, pauses (SIGSTOP/SIGCONT), isolates
(from clients and etcd, or from etcd alone) a group's leader (with 3 members, now and then a follower) and
restarts etcd: one of each, in the order the
seed draws. The checker's rules are in ``compat_tests/jepsen/checker.py``. The seed and the schedule are
printed (and shown on failure); ``ROCKAFKA_JEPSEN_SEED=N`` replays seed N; every broker's log and etcd's are
kept in the test's ``tmp_path`` beside ``history.json``.

With 3 members a group has a leader and two followers copying its CommitLog (roles from etcd), so a fault
also moves leadership, coordinators and producer state between members; with 1 the broker is the group, and a
fault takes its partitions away until it returns. ``python -m bench.jepsen`` runs more seeds and faults.
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
MEMBERS: Final = (1, 3)


@pytest.mark.parametrize("members", MEMBERS)
def test_acknowledged_data_survives_every_fault_once_and_in_order(tmp_path: Path, members: int) -> None:
    with FaultCluster(groups=2, members=members, logs_to=tmp_path) as cluster:
        verdict = run(cluster, SEED, faults=len(nemesis.KINDS), settle_s=2.0, history_file=tmp_path / "history.json")
    assert_clean(verdict)


def assert_clean(verdict: Verdict) -> None:
    assert {fault.kind for fault in verdict.faults} == set(nemesis.KINDS)
    assert {ack.topic for ack in verdict.history.acks} == set(verdict.history.topics)  # every writer acknowledged
    assert verdict.history.reads and verdict.history.committed and verdict.history.aborted
    assert not verdict.problems, verdict.report()
