"""``rockafka cluster up --groups N --replicas R``: a local cluster for development, in one command (``cluster
move`` and ``cluster moves``: ``cluster_moves_cli.py``; ``cluster status``: ``cluster_status_cli.py``).

Starts a one-node etcd (Debian's ``etcd``, see docs/cluster.md) and N groups of R brokers (``rockafka serve``
processes, node ids 1..N*R, group ``group-g`` holding ``(g-1)*R+1 .. g*R``; with R > 1 each broker has its own
``rockafka.replication.listener`` and etcd names each group's leader) on 127.0.0.1 with free ports, each with its
own data directory; once every group has a leader and a controller is elected it prints two lines, ``bootstrap:
HOST:PORT[,HOST:PORT...]`` and then ``etcd: HOST:PORT`` (for ``cluster status --etcd``), and serves until Ctrl-C (or
SIGTERM), then stops every process by its PID. With ``--data-dir`` the directories are kept there
(``broker-<id>/data``, ``etcd``); without it they are temporary and removed. The brokers use the small store files
of ``rockafka.testing`` (this is a developer's cluster, not a deployment); each broker's output is ``broker.log``
beside its data directory.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from rockafka.cluster import ClusterError

from .cluster_moves_cli import add_actions as add_move_actions
from .cluster_status_cli import add_action as add_status_action


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "cluster", help="run a local Rockafka cluster (etcd and N broker groups) for development"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    up = actions.add_parser("up", help="start etcd and N brokers on 127.0.0.1; Ctrl-C stops them")
    up.add_argument("--groups", type=int, default=3, help="broker groups (default 3)")
    up.add_argument("--replicas", type=int, default=1, help="brokers per group (default 1: no replication)")
    up.add_argument("--data-dir", type=Path, default=None, help="keep data here (default: temporary)")
    up.add_argument("--name", default="local", help="the cluster's name (its key prefix in etcd)")
    up.set_defaults(func=run_up)
    add_move_actions(actions)
    add_status_action(actions)


def run_up(args: argparse.Namespace) -> int:
    from rockafka.testing import BrokerError, Cluster

    if not 1 <= args.groups <= 64:
        print("rockafka cluster: --groups must be between 1 and 64", file=sys.stderr)
        return 2
    if not 1 <= args.replicas <= 5 or args.groups * args.replicas > 64:
        print("rockafka cluster: --replicas must be between 1 and 5, and --groups times --replicas at most 64",
              file=sys.stderr)  # fmt: skip
        return 2
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    cluster = Cluster(
        groups=args.groups, replicas=args.replicas, name=args.name, lease_ttl_ms=2000, data_root=args.data_dir
    )
    try:
        cluster.start()
    except (BrokerError, ClusterError) as exc:
        cluster.close()
        print(f"rockafka cluster: {exc}", file=sys.stderr)
        return 1
    print(f"bootstrap: {cluster.bootstrap}", flush=True)
    print(f"etcd: {cluster.etcd.endpoint}", flush=True)
    try:
        stop.wait()
    finally:
        cluster.close()
    return 0
