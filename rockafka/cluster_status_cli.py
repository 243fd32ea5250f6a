"""``rockafka cluster status --etcd HOST:PORT``: each broker group's leader, epoch, in-sync set and follower lag.

Reads the cluster's keys from etcd once (no broker is asked) and prints the controller, then one block per group::

    group-1: leader 1, epoch 3, in sync [1, 2], live members [1, 2, 3]
      follower 2: 0 bytes behind the leader's end, in sync
      follower 3: 1048576 bytes behind the leader's end (reported 2 s ago)

The in-sync set is etcd's (``groups/<group>``), the one an election picks from. Lag is the leader's
``replica_lag/<group>`` report: its CommitLog end and each connected follower's acknowledged end, in bytes of
CommitLog, written at most every five seconds and only when something changed, so it is as old as the "reported"
age says (a key under the leader's lease: gone with the leader). A group without a report prints "lag: not
reported" (one member, no follower connected yet, or a leader not publishing it). Exit 1 with one line when
etcd cannot be read or holds no cluster of that name.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import Any

from rockafka.cluster import NO_LEADER, ClusterError, ClusterSnapshot

DEFAULT_NAME = "rockafka"


def add_action(actions: Any) -> None:
    status = actions.add_parser("status", help="each group's leader, epoch, in-sync set and follower lag (etcd)")
    status.add_argument("--etcd", required=True, metavar="HOST:PORT[,HOST:PORT]", help="the cluster's etcd endpoints")
    status.add_argument("--name", default=DEFAULT_NAME, help=f"the cluster's name (default {DEFAULT_NAME})")
    status.set_defaults(func=run_status)


def run_status(args: argparse.Namespace) -> int:
    endpoints = [endpoint for endpoint in args.etcd.split(",") if endpoint.strip()]
    try:
        snapshot = asyncio.run(_read(endpoints, args.name))
    except ClusterError as exc:
        print(f"rockafka cluster status: {exc}", file=sys.stderr)
        return 1
    if snapshot.cluster_id is None:
        print(f"rockafka cluster status: no cluster named {args.name!r} in etcd at {args.etcd}", file=sys.stderr)
        return 1
    print("\n".join(describe(snapshot, now_ms=int(time.time() * 1000))))
    return 0


async def _read(endpoints: list[str], name: str) -> ClusterSnapshot:
    from rockafka.cluster.etcd import Etcd
    from rockafka.cluster.layout import KeyLayout
    from rockafka.cluster.snapshot import snapshot_from_keys

    etcd = await Etcd.connect(endpoints)
    try:
        layout = KeyLayout(name)
        entries, revision = await etcd.get_prefix(layout.prefix)
        return snapshot_from_keys(layout, ((entry.key, entry.value) for entry in entries), revision)
    finally:
        await etcd.close()


def describe(snapshot: ClusterSnapshot, now_ms: int) -> list[str]:
    """The lines ``status`` prints for ``snapshot``."""
    controller = "none" if snapshot.controller is None else f"node {snapshot.controller}"
    lines = [f"cluster {snapshot.cluster_id}, controller: {controller}"]
    for group in sorted({info.group for info in snapshot.brokers.values()} | set(snapshot.groups)):
        state, members = snapshot.groups.get(group), snapshot.group_members(group)
        if state is None:
            lines.append(f"{group}: no leader elected yet, live members {members}")
            continue
        leader = "none" if state.leader == NO_LEADER else str(state.leader)
        lines.append(f"{group}: leader {leader}, epoch {state.epoch}, in sync {list(state.in_sync)}, "
                     f"live members {members}")  # fmt: skip
        lag = snapshot.replica_lag.get(group)
        if lag is None:
            lines.append("  lag: not reported")
            continue
        age = max(now_ms - lag.at_ms, 0) // 1000
        for node, end in sorted(lag.ends.items()):
            where = "in sync" if node in state.in_sync else f"reported {age} s ago"
            lines.append(f"  follower {node}: {max(lag.end - end, 0)} bytes behind the leader's end, {where}")
    return lines
