"""``python -m bench.failover [--kills 20] [--members M] [--lease-ttl-ms 2000]``: time from a group leader's
SIGKILL to the first acknowledged acks=all produce after it, p50/p99 over ``--kills`` kills.

A ``FaultCluster`` of 2 groups of ``--members`` brokers (``ROCKAFKA_JEPSEN_MEMBERS`` or 1) and a topic of one
partition per group; a confluent-kafka producer (acks=all, retries) writes to group-1's partition at ``--rate``
records a second the whole time and notes when each record was sent and acknowledged. Each round SIGKILLs the
leader etcd names for group-1 at t0 and measures t0 to the first acknowledgement of a record *sent after* t0
(only a live leader can have acknowledged it); then brings the killed broker back and waits until the cluster
serves before the next round.

With several members a second row gives the kill to the moment etcd names another member leader (the lease
running out, then the controller's election): the rest of the first figure is the promotion, the remaining
follower reaching the new leader and the client finding it.

Each round is broken down (``bench/failover_timeline.py``): kill to the lease's expiry in etcd, the election, the
new leader's role, the survivors' Metadata, the producer's move of the partition (librdkafka's debug lines) and
its first acknowledgement; ``--client-log`` keeps the producer's lines of every round. Rounds are ``--between-s``
apart (see :data:`BETWEEN_S`).

With 1 member per group there is no other leader to fail over to: the killed broker is started again as soon
as etcd drops its registration (after the lease TTL), so the figure is **kill to first ack after restart**, not
failover, and the table says so. With ``--members 3`` the killed broker is started
again only after the measurement: the figure is then failover to the new leader. The issue's target for
failover with default settings (lease TTL 2 s): p50 <= 3 s, p99 <= 6 s over >= 20 kills.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from confluent_kafka import KafkaError, Message, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench import RESULTS_DIR, write_table
from bench.failover_timeline import (
    ClientLog,
    EtcdTimeline,
    MetadataPoller,
    breakdown_rows,
    phases,
    rebuild_seconds,
    role_taken,
)
from compat_tests.jepsen.topology import MEMBERS, FaultCluster

TOPIC = "failover"
ROUND_S = 60.0
#: The pause after a round (the killed broker back, the cluster serving) before the next kill: longer than
#: librdkafka's ``reconnect.backoff.max.ms`` (10 s). The next round's new leader is the broker killed in this one
#: (the lowest in-sync member); the producer keeps its handle to that broker, and with it the reconnect backoff it
#: built up while the broker was dead, until that backoff is older than the maximum: a round started sooner
#: measures that remembered backoff (up to 10 s), not the failover.
BETWEEN_S = 11.0


class Prober:
    """Produces to one partition at ``rate`` a second; ``(sent, acknowledged)`` monotonic times of each success."""

    def __init__(
        self, bootstrap: str, partition: int, rate: float, client_log: ClientLog, settings: dict[str, str]
    ) -> None:
        self.producer = Producer(
            {
                "bootstrap.servers": bootstrap,
                "acks": "all",
                "linger.ms": 0,
                "message.timeout.ms": int(ROUND_S * 1000),
                "debug": "metadata,topic,broker",
                "logger": client_log.logger(),
                **settings,
            }
        )
        self.partition, self.interval = partition, 1 / rate
        self.acked: list[tuple[float, float]] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _report(self, error: KafkaError | None, message: Message) -> None:
        if error is None:
            with self.lock:
                self.acked.append((float(message.value()), time.monotonic()))

    def _run(self) -> None:
        deadline = time.monotonic() + 24 * 3600
        while not self.stopping.is_set() and time.monotonic() < deadline:
            value = str(time.monotonic()).encode()
            with contextlib.suppress(BufferError):  # the local queue is full while the leader is away
                self.producer.produce(TOPIC, value, partition=self.partition, on_delivery=self._report)
            self.producer.poll(self.interval)

    def first_ack_after(self, t0: float, timeout_s: float) -> float | None:
        """Seconds from ``t0`` to the first acknowledgement of a record sent at or after ``t0``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.lock:
                acks = [acked for sent, acked in self.acked if sent >= t0]
            if acks:
                return min(acks) - t0
            time.sleep(0.01)
        return None

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(ROUND_S)
        self.producer.flush(ROUND_S)


def partition_of(cluster: FaultCluster, group: str) -> int:
    snapshot = cluster.snapshot_when(lambda s: TOPIC in s.topics, what=f"topic {TOPIC} known")
    return snapshot.topics[TOPIC].placement.index(group)


def elected_after(cluster: FaultCluster, group: str, killed: int, t0: float) -> float:
    """Seconds from ``t0`` until etcd names a live leader of ``group`` other than ``killed``."""
    cluster.snapshot_when(
        lambda s: cluster.led(s, group) and s.groups[group].leader != killed, ROUND_S, f"{group} led by another"
    )
    return time.monotonic() - t0


def measure(
    kills: int,
    members: int,
    lease_ttl_ms: int,
    rate: float,
    between_s: float,
    client_log_path: Path | None = None,
    producer_settings: dict[str, str] | None = None,
) -> tuple[list[float], list[float], int, list[dict[str, float | None]]]:
    """Each round's seconds to the first ack, to the new leader named in etcd (``members`` > 1), how many
    rounds saw no ack within :data:`ROUND_S`, and each round's phases (``failover_timeline.phases``)."""
    times: list[float] = []
    elections: list[float] = []
    rounds: list[dict[str, float | None]] = []
    missed = 0
    client_log = ClientLog()
    with FaultCluster(groups=2, members=members, lease_ttl_ms=lease_ttl_ms, name="failover") as cluster:
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        admin.create_topics([NewTopic(TOPIC, len(cluster.groups), 1)])[TOPIC].result(timeout=ROUND_S)
        partition = partition_of(cluster, "group-1")
        prober = Prober(cluster.bootstrap, partition, rate, client_log, producer_settings or {})
        group = cluster.groups["group-1"]
        timeline = EtcdTimeline(cluster.etcd.endpoint, cluster.name)
        poller = MetadataPoller({node: cluster.brokers[node].bootstrap for node in group}, TOPIC, partition)
        try:
            if prober.first_ack_after(time.monotonic(), ROUND_S) is None:
                raise SystemExit("failover: the producer was never acknowledged before the first kill")
            for round_ in range(kills):
                node = cluster.leader("group-1")
                poller.down = {node}
                wall0, t0 = time.time(), time.monotonic()
                cluster.kill(node)
                if members == 1:
                    cluster.start_broker(node)
                if members > 1:
                    elections.append(elected_after(cluster, "group-1", node, t0))
                took = prober.first_ack_after(t0, ROUND_S)
                if members > 1:
                    new = cluster.leader("group-1")
                    time.sleep(0.5)  # the poller's last survivor answers
                    events = {
                        "expired": timeline.first(t0, lambda s, n=node: n not in s.brokers),
                        "elected": timeline.first(t0, lambda s, n=node: cluster.led(s, "group-1")
                                                  and s.groups["group-1"].leader != n),
                        "role": role_taken(cluster.brokers[new].log_path, wall0, wall0 - t0),
                        "rebuild": rebuild_seconds(cluster.brokers[new].log_path, wall0),
                        "metadata": poller.all_name(t0, new, [m for m in group if m != node]),
                        "client_moved": client_log.moved_to(t0, partition, new),
                        "acked": None if took is None else t0 + took,
                    }  # fmt: skip
                    rounds.append(phases(t0, events))
                    if client_log_path is not None:
                        with client_log_path.open("a") as out:
                            out.write(f"--- kill {round_ + 1} of node {node} at {t0:.3f}, new leader {new}\n")
                            out.writelines(f"{t:.3f} {text}\n" for t, text in client_log.after(t0 - 0.1))
                    cluster.start_broker(node)
                cluster.wait_serving()
                poller.down = set()
                elected = f", new leader named after {elections[-1]:.3f} s" if members > 1 else ""
                parts = "".join(f", {k} {v:.3f}" for k, v in rounds[-1].items() if v is not None) if rounds else ""
                print(f"failover: kill {round_ + 1} of node {node}: {'none' if took is None else f'{took:.3f} s'}"
                      f"{elected}{parts}", flush=True)  # fmt: skip
                missed += took is None
                if took is not None:
                    times.append(took)
                time.sleep(between_s)
        finally:
            poller.close()
            timeline.close()
            prober.stop()
    return times, elections, missed, rounds


def spread(times: list[float]) -> list[str]:
    """p50, p99 and max of ``times``, formatted (dashes when there are none)."""
    if not times:
        return ["-"] * 3
    quantiles = statistics.quantiles(times, n=100, method="inclusive") if len(times) >= 2 else times * 99
    return [f"{statistics.median(times):.2f}", f"{quantiles[98]:.2f}", f"{max(times):.2f}"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.failover", description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--members", type=int, default=MEMBERS)
    parser.add_argument("--lease-ttl-ms", type=int, default=2000, help="the broker's default")
    parser.add_argument("--rate", type=float, default=100.0, help="records a second")
    parser.add_argument("--between-s", type=float, default=BETWEEN_S, help="pause between a round and the next kill")
    parser.add_argument("--producer", action="append", default=[], metavar="KEY=VALUE",
                        help="a librdkafka setting of the producer (default: librdkafka's)")  # fmt: skip
    parser.add_argument("--client-log", type=Path, help="append the producer's librdkafka lines of each round here")
    args = parser.parse_args(argv)
    times, elections, missed, rounds = measure(
        args.kills,
        args.members,
        args.lease_ttl_ms,
        args.rate,
        args.between_s,
        args.client_log,
        dict(item.split("=", 1) for item in args.producer),
    )
    what = "failover to a new leader" if args.members > 1 else "kill to first ack after restart (1 member: no failover)"
    rows = [[what, str(args.members), str(len(times)), str(missed), *spread(times)]]
    if elections:
        rows.append(["kill to the new leader named in etcd", str(args.members), str(len(elections)), "-",
                     *spread(elections)])  # fmt: skip
    note = (
        f"`python -m bench.failover {' '.join(argv)}`: SIGKILL of group-1's leader to the first acks=all "
        f"acknowledgement of a record sent after the kill, lease TTL {args.lease_ttl_ms} ms, {args.rate:g} records/s, "
        f"{args.between_s:g} s between a round's end and the next kill."
    )
    header = ["measured", "members", "kills", "no ack in 60 s", "p50 s", "p99 s", "max s"]
    note += f" Load (uptime) at the end: {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[1]:.1f} (5 min)."
    text = write_table("failover", "Leader SIGKILL to the first acknowledged produce", note, header, rows)
    if rounds:
        table = ["", "Where the time goes (`bench/failover_timeline.py`), seconds per kill:", "",
                 "| phase | kills | p50 s | p90 s | max s |", "|---|---|---|---|---|"]  # fmt: skip
        table += ["| " + " | ".join(row) + " |" for row in breakdown_rows(rounds)]
        print("\n".join(table))
        (RESULTS_DIR / "failover.md").write_text(text + "\n".join(table) + "\n")
    return 1 if missed or not times else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
