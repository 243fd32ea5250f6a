"""The nemesis: a schedule of faults drawn from a seed, and how each is done to a :class:`FaultCluster` and undone.

Faults (each one hits a group's leader, or with ``members > 1`` sometimes a follower, or etcd):

- ``kill``: SIGKILL the broker; start it again once etcd dropped its registration (its lease ran out).
- ``pause``: SIGSTOP it past its lease TTL, then SIGCONT: it must notice it lost its lease and come back.
- ``isolate``: cut its client and etcd links (:mod:`compat_tests.jepsen.netproxy`) past its lease, then heal.
- ``isolate-etcd``: cut only its etcd link, clients still reach it, past its lease, then heal: a leader that
  lost etcd while clients still write to it (the split-brain shape).
- ``restart-etcd``: stop etcd by its PID for a second, start it again.

After each fault the nemesis waits (bounded) until every broker is registered and every group led again.
:func:`schedule` is a pure function of the seed: the seed and the schedule are printed at the start of a run,
and ``ROCKAFKA_JEPSEN_SEED=<seed>`` replays it (the same faults on the same groups and roles, in order).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Final

from .topology import FaultCluster

KINDS: Final = ("kill", "pause", "isolate", "isolate-etcd", "restart-etcd")


@dataclass(frozen=True)
class Fault:
    kind: str
    #: the group it hits (unused by restart-etcd)
    group: str = ""
    #: -1: the group's leader; i >= 0: the i-th of its other members (when members > 1)
    follower: int = -1

    def __str__(self) -> str:
        if self.kind == "restart-etcd":
            return self.kind
        role = "leader" if self.follower < 0 else f"follower #{self.follower}"
        return f"{self.kind} {role} of {self.group}"


def schedule(seed: int, count: int, groups: list[str], members: int) -> list[Fault]:
    """``count`` faults: the kinds in rounds, each round in the order the seed draws; a group and a role for each."""
    rng = random.Random(seed)
    kinds = [kind for _ in range(count // len(KINDS) + 1) for kind in rng.sample(KINDS, len(KINDS))][:count]
    faults = []
    for kind in kinds:
        if kind == "restart-etcd":
            faults.append(Fault(kind))
            continue
        follower = rng.randrange(members - 1) if members > 1 and rng.random() < 0.3 else -1
        faults.append(Fault(kind, rng.choice(groups), follower))
    return faults


def target(cluster: FaultCluster, fault: Fault) -> int:
    """The node ``fault`` hits now: the group's leader as etcd names it, or one of its other members."""
    leader = cluster.leader(fault.group)
    if fault.follower < 0:
        return leader
    others = [node for node in cluster.groups[fault.group] if node != leader]
    return others[fault.follower % len(others)]


def inject(cluster: FaultCluster, fault: Fault) -> int:
    """Do ``fault``, undo it, wait until the cluster serves again; the node it hit (0: etcd)."""
    outage_s = cluster.lease_ttl_s + 1.0  # past the lease: etcd drops the broker, a new leader may be elected
    if fault.kind == "restart-etcd":
        cluster.restart_etcd()
        cluster.wait_serving()
        return 0
    node = target(cluster, fault)
    if fault.kind == "kill":
        cluster.kill(node)
        cluster.start_broker(node)
    elif fault.kind == "pause":
        cluster.pause(node)
        time.sleep(outage_s)
        cluster.resume(node)
    else:
        cluster.isolate(node, clients=fault.kind == "isolate")
        time.sleep(outage_s)
        cluster.heal(node)
    cluster.wait_serving()
    return node
