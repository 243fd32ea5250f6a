"""The command line of a cluster: `rockafka cluster up`, and `rockafka serve` refusing to join, in one line."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from kafka import KafkaAdminClient

from rockafka.cluster import NO_LEADER
from rockafka.cluster.layout import (
    BrokerInfo,
    GroupState,
    KeyLayout,
    ReplicaLag,
    encode_broker,
    encode_controller,
    encode_group,
    encode_replica_lag,
)
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.readiness import wait_until_serving
from rockafka.cluster.snapshot import snapshot_from_keys
from rockafka.cluster_status_cli import describe
from rockafka.testing import Broker

START_S = 60.0


def _serve(tmp_path: Path, *overrides: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "rockafka", "serve", "--override", f"log.dirs={tmp_path / 'data'}"]
    args += ["--override", "listeners=PLAINTEXT://127.0.0.1:0"]
    for item in overrides:
        args += ["--override", item]
    return subprocess.run(args, capture_output=True, text=True, timeout=START_S, check=False)


def _errors(stderr: str) -> list[str]:
    """stderr without the broker's INFO/WARNING log lines: what the user is told."""
    return [line for line in stderr.splitlines() if " INFO " not in line and " WARNING " not in line]


def test_serve_with_an_unreachable_etcd_tries_for_the_join_timeout_then_says_so_in_one_line(tmp_path: Path) -> None:
    done = _serve(tmp_path, "rockafka.cluster.etcd.endpoints=127.0.0.1:1", "rockafka.cluster.join.timeout.ms=1500")
    assert done.returncode == 1
    assert _errors(done.stderr) == ["rockafka serve: etcd is not reachable at 127.0.0.1:1"]
    [warning] = [line for line in done.stderr.splitlines() if " WARNING " in line]
    assert warning.endswith("cannot join the cluster yet (trying for 2 s): etcd is not reachable at 127.0.0.1:1")


def test_serve_with_a_node_id_another_live_broker_holds_is_refused(tmp_path: Path, etcd: LocalEtcd) -> None:
    settings = {"rockafka.cluster.etcd.endpoints": etcd.endpoint, "rockafka.cluster.name": "twins", "node.id": "4"}
    with Broker(subprocess=True, settings=settings):
        asyncio.run(wait_until_serving(etcd.endpoint, "twins", [4], START_S))
        done = _serve(tmp_path, "rockafka.cluster.join.timeout.ms=1000", *(f"{k}={v}" for k, v in settings.items()))
    assert done.returncode == 1
    [line] = _errors(done.stderr)
    assert line.startswith("rockafka serve: node.id 4 is already registered by a live broker (group group-4 at")


def test_a_broker_killed_and_started_again_inside_its_lease_joins_once_the_old_registration_expires(
    etcd: LocalEtcd,
) -> None:
    settings = {
        "rockafka.cluster.etcd.endpoints": etcd.endpoint, "rockafka.cluster.name": "again", "node.id": "5",
        # the default 2 s lease could expire before a loaded machine has started the broker again: then it would
        # join at once, with nothing to wait out; 10 s keeps the restart inside the lease (and the 18 s join)
        "rockafka.cluster.lease.ttl.ms": "10000",
    }  # fmt: skip
    with Broker(subprocess=True, settings=settings) as broker:
        asyncio.run(wait_until_serving(etcd.endpoint, "again", [5], START_S))
        broker.kill()
        broker.start()  # its registration lives on for up to the lease TTL: the join waits it out
        asyncio.run(wait_until_serving(etcd.endpoint, "again", [5], START_S))
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        try:
            assert admin.describe_cluster()["brokers"][0]["broker_id"] == 5
        finally:
            admin.close()  # left open, its I/O thread retries the stopped broker and logs into later tests
        assert (
            "cannot join the cluster yet (trying for 18 s): node.id 5 is already registered"
            in broker.log_path.read_text()
        )


def test_a_bad_group_name_is_one_line(tmp_path: Path, etcd: LocalEtcd) -> None:
    done = _serve(tmp_path, f"rockafka.cluster.etcd.endpoints={etcd.endpoint}", "rockafka.cluster.group=no spaces")
    assert done.returncode == 1
    assert _errors(done.stderr) == [
        "rockafka serve: broker group name 'no spaces' must be 1-249 characters of a-z, A-Z, 0-9, '.', '_', '-'"
    ]


def test_a_single_broker_never_loads_the_etcd_client() -> None:
    probe = (
        "import sys\nfrom rockafka.testing import Broker\nwith Broker():\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('aetcd', 'grpc')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=START_S, check=True)
    assert done.stdout.strip() == "[]"


def test_cluster_up_prints_the_bootstrap_serves_and_stops_everything_on_ctrl_c(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "rockafka", "cluster", "up", "--groups", "2", "--data-dir", str(tmp_path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the process prints it once the cluster serves, or exits
        assert line.startswith("bootstrap: "), process.stderr.read() if process.stderr else line
        bootstrap = line.removeprefix("bootstrap: ").strip()
        assert len(bootstrap.split(",")) == 2
        admin = KafkaAdminClient(bootstrap_servers=bootstrap.split(",")[1])
        try:
            assert sorted(b["broker_id"] for b in admin.describe_cluster()["brokers"]) == [1, 2]
        finally:
            admin.close()
        process.send_signal(signal.SIGINT)
        assert process.wait(START_S) == 0
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(START_S)
    for node in (1, 2):
        assert (tmp_path / f"broker-{node}" / "data").is_dir()
        log = (tmp_path / f"broker-{node}" / "broker.log").read_text()
        assert "Rockafka broker stopped" in log


def _move(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", "127.0.0.1:1", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=START_S, check=False)


def test_cluster_move_says_what_is_wrong_with_its_arguments_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "moves.json"
    bad.write_text('{"version": 1, "partitions": [{"topic": "t"}]}', encoding="utf-8")
    cases = {
        ("--topic", "t"): "name the partition: --topic T --partition P (or --reassignment-json-file)",
        ("--topic", "t", "--partition", "0"): "say where to: --to-group G or --to-broker N",
        ("--reassignment-json-file", str(bad)): f"{bad} is not a reassignment file: it lacks the key 'replicas'",
        ("--topic", "t", "--partition", "0", "--to-broker", "2"): "cannot connect to 127.0.0.1:1",
    }
    for args, message in cases.items():
        done = _move(*args)
        assert done.returncode == 1, args
        assert done.stdout == "" and done.stderr.startswith(f"rockafka cluster move: {message}"), done.stderr
        assert len(done.stderr.splitlines()) == 1


def test_cluster_up_with_replicas_and_cluster_status_show_each_groups_leader_epoch_and_in_sync_set(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-m", "rockafka", "cluster", "up", "--groups", "2", "--replicas", "2", "--name", "rs"]
    process = subprocess.Popen([*command, "--data-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("bootstrap: "), process.stderr.read() if process.stderr else line
        assert len(line.split(",")) == 4
        endpoint = process.stdout.readline().removeprefix("etcd: ").strip()
        status = [sys.executable, "-m", "rockafka", "cluster", "status", "--etcd", endpoint, "--name", "rs"]
        done = subprocess.run(status, capture_output=True, text=True, timeout=START_S, check=False)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].startswith("cluster ") and " controller: node " in lines[0]
        groups = [row for row in lines if row.startswith("group-")]
        assert [row.split(", in sync")[0] for row in groups] == [
            "group-1: leader 1, epoch 0",
            "group-2: leader 3, epoch 0",
        ]
        assert groups[0].endswith("live members [1, 2]") and groups[1].endswith("live members [3, 4]")
        for row in groups:  # the leader is in its set; followers join once they caught up
            in_sync = row.split("in sync [")[1].split("]")[0]
            assert row.split("leader ")[1].split(",")[0] in in_sync.split(", ")
        process.send_signal(signal.SIGINT)
        assert process.wait(START_S) == 0
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(START_S)
    logs = {node: (tmp_path / f"broker-{node}" / "broker.log").read_text() for node in (1, 2, 3, 4)}
    for leader, follower in ((1, 2), (3, 4)):  # each group's leader served its follower, which followed it
        assert "replication: serving followers on 127.0.0.1:" in logs[leader]
        assert "replication: following 127.0.0.1:" in logs[follower]


def test_cluster_status_with_an_unreachable_etcd_is_one_line() -> None:
    command = [sys.executable, "-m", "rockafka", "cluster", "status", "--etcd", "127.0.0.1:1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=START_S, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "rockafka cluster status: etcd is not reachable at 127.0.0.1:1\n"


def test_cluster_status_prints_lag_per_follower_from_the_leaders_report() -> None:
    layout = KeyLayout("c")
    keys = [
        (layout.cluster_id(), b"id-1"),
        (layout.controller(), encode_controller(1)),
        (layout.broker(1), encode_broker(BrokerInfo(1, "g1", "127.0.0.1", 9001))),
        (layout.broker(2), encode_broker(BrokerInfo(2, "g1", "127.0.0.1", 9002))),
        (layout.group("g1"), encode_group(GroupState("g1", 1, 4, (1, 2)))),
        (layout.replica_lag("g1"), encode_replica_lag(ReplicaLag("g1", 5000, 4000, {2: 4000, 3: 1000}, 10_000))),
        (layout.group("g2"), encode_group(GroupState("g2", NO_LEADER, 2, (5,)))),
    ]
    assert describe(snapshot_from_keys(layout, keys, 1), now_ms=13_500) == [
        "cluster id-1, controller: node 1",
        "g1: leader 1, epoch 4, in sync [1, 2], live members [1, 2]",
        "  follower 2: 1000 bytes behind the leader's end, in sync",
        "  follower 3: 4000 bytes behind the leader's end, reported 3 s ago",
        "g2: leader none, epoch 2, in sync [5], live members []",
        "  lag: not reported",
    ]


def test_cluster_status_of_a_cluster_etcd_does_not_hold_is_one_line(etcd: LocalEtcd) -> None:
    command = [sys.executable, "-m", "rockafka", "cluster", "status", "--etcd", etcd.endpoint, "--name", "nobody"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=START_S, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"rockafka cluster status: no cluster named 'nobody' in etcd at {etcd.endpoint}\n"
