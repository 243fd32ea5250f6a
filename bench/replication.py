"""``python -m bench.replication``: produce throughput with acks=all to a 3-member broker group (a leader and two
followers), against acks=1 on a single broker, in one run.

Four broker processes (``compat_tests.brokerproc``): a single broker, and a group leader
(``rockafka.replication.listener``) with ``--followers`` followers (``rockafka.replication.leader``, the static
pair settings; default 2, a 3-member group). Each round, a
confluent-kafka producer writes ``--records`` records of ``--value-bytes`` bytes over ``--partitions``
partitions with acks=1 to the single broker, then the same with acks=all to the leader; rounds alternate the two
so load on the shared machine falls on both. Reported per setup: the median rate over rounds (MB/s of values),
the CPU seconds the brokers used per GB of values (every member of the group together for acks=all, and each
member's share) and the producer's (this process: confluent-kafka's threads included), the ratio acks=all /
acks=1 of the medians, and the median of each round's own ratio (steadier on a shared machine, whose load swings
between rounds), with the load average (``uptime``) before and after. The run checks that every follower ends
with the leader's CommitLog, byte for byte. Results go to ``bench/results/replication.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from compat_tests.brokerproc import BrokerProcess, free_port

RESULTS = Path(__file__).parent / "results" / "replication.md"
SEGMENT_BYTES = 64 << 20
CATCH_UP_S = 120.0


def _cpu_seconds(process: BrokerProcess) -> float:
    assert process.process is not None
    fields = Path(f"/proc/{process.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _create(bootstrap: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic("bench", partitions, 1)])["bench"].result(30)


def _produce(bootstrap: str, acks: str, records: int, value: bytes, partitions: int) -> float:
    """Seconds to have every record acknowledged."""
    failed: list[object] = []
    producer = Producer({"bootstrap.servers": bootstrap, "acks": acks, "linger.ms": 5, "enable.idempotence": False})
    started = time.monotonic()
    for n in range(records):
        while True:
            try:
                producer.produce("bench", value, partition=n % partitions,
                                 on_delivery=lambda err, _m: err is not None and failed.append(err))  # fmt: skip
                break
            except BufferError:
                producer.poll(0.01)
        producer.poll(0)
    if producer.flush(300) or failed:
        raise SystemExit(f"acks={acks}: {len(failed)} records failed, e.g. {failed[:1]}")
    return time.monotonic() - started


def _commitlog(process: BrokerProcess) -> bytes:
    files = sorted(p for p in (process.data_dir / "commitlog").iterdir() if p.name.isdigit())
    return b"".join(p.read_bytes() for p in files).rstrip(b"\0")


def _commitlogs_agree(leader: BrokerProcess, followers: list[BrokerProcess]) -> None:
    """Wait (bounded) until every follower holds the leader's CommitLog byte for byte."""
    deadline = time.monotonic() + CATCH_UP_S
    while any(_commitlog(leader) != _commitlog(f) for f in followers):
        if time.monotonic() > deadline:
            raise SystemExit("a follower's CommitLog differs from the leader's after the run")
        time.sleep(0.5)


def _load() -> str:
    return ", ".join(f"{n:.2f}" for n in os.getloadavg())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replication", description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--value-bytes", type=int, default=1024)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--followers", type=int, default=2, help="followers of the group's leader (2: 3 members)")
    parser.add_argument("--no-write", action="store_true", help=f"print only, do not write {RESULTS}")
    args = parser.parse_args(argv)
    value = os.urandom(args.value_bytes)
    settings = {"log.segment.bytes": str(SEGMENT_BYTES)}
    address = f"127.0.0.1:{free_port()}"
    load_before = _load()
    with tempfile.TemporaryDirectory(prefix="bench-replication-") as scratch:
        root = Path(scratch)
        single = BrokerProcess(root / "single", {**settings, "node.id": "0"})
        leader = BrokerProcess(root / "leader", {**settings, "node.id": "1", "rockafka.replication.listener": address})
        followers = [
            BrokerProcess(
                root / f"follower{n}", {**settings, "node.id": str(2 + n), "rockafka.replication.leader": address}
            )
            for n in range(args.followers)
        ]
        group = [leader, *followers]
        processes = [single.start(), *(member.start() for member in group)]
        try:
            _create(single.bootstrap, args.partitions)
            _create(leader.bootstrap, args.partitions)
            rates: dict[str, list[float]] = {"acks=1": [], "acks=all": []}
            cpu: dict[str, float] = {"acks=1": 0.0, "acks=all": 0.0}
            client_cpu: dict[str, float] = {"acks=1": 0.0, "acks=all": 0.0}
            member_cpu = [0.0] * len(group)
            for _ in range(args.rounds):
                for name, acks, brokers in (("acks=1", "1", [single]), ("acks=all", "all", group)):
                    before, client_before = [_cpu_seconds(b) for b in brokers], time.process_time()
                    seconds = _produce(brokers[0].bootstrap, acks, args.records, value, args.partitions)
                    client_cpu[name] += time.process_time() - client_before
                    used = [_cpu_seconds(b) - was for b, was in zip(brokers, before, strict=True)]
                    cpu[name] += sum(used)
                    if brokers is group:
                        member_cpu = [total + more for total, more in zip(member_cpu, used, strict=True)]
                    rates[name].append(args.records * args.value_bytes / seconds / 1e6)
            _commitlogs_agree(leader, followers)
        finally:
            for process in processes:
                process.stop()
    gigabytes = args.rounds * args.records * args.value_bytes / 1e9
    medians = {name: statistics.median(values) for name, values in rates.items()}
    paired = statistics.median(a / b for a, b in zip(rates["acks=all"], rates["acks=1"], strict=True))
    shares = ", ".join(
        f"{'leader' if n == 0 else f'follower {n}'} {used / gigabytes:.1f}" for n, used in enumerate(member_cpu)
    )
    lines = [
        f"# Replication: acks=all to a {len(group)}-member group vs acks=1 on a single broker",
        "",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average (1, 5, 15 min) before {load_before}, after "
        f"{_load()}, on {os.cpu_count()} CPUs; Linux {platform.release()}, Python {platform.python_version()}",
        f"- command: `{' '.join(['.venv/bin/python -m bench.replication', *argv])}`",
        f"- workload: {args.rounds} rounds of {args.records:,} records of {args.value_bytes} bytes over "
        f"{args.partitions} partitions per setup, alternating; confluent-kafka, linger.ms=5, no idempotence",
        f"- the group: a leader and {len(followers)} followers (static `rockafka.replication.listener` / "
        "`rockafka.replication.leader`); every follower's CommitLog equalled the leader's, byte for byte, at the end",
        "",
        "| setup | MB/s per round | median MB/s | broker CPU s per GB | producer CPU s per GB |",
        "|---|---|---:|---:|---:|",
        *(
            f"| {name} | {', '.join(f'{r:.1f}' for r in rates[name])} | {medians[name]:.1f} | "
            f"{cpu[name] / gigabytes:.1f} | {client_cpu[name] / gigabytes:.1f} |"
            for name in rates
        ),
        "",
        f"Of the acks=all brokers' CPU, s per GB: {shares}.",
        "",
        f"Ratio acks=all / acks=1 (medians): **{medians['acks=all'] / medians['acks=1']:.2f}x**; median of the "
        f"rounds' own ratios (each acks=all round against the acks=1 round just before it): **{paired:.2f}x**",
    ]
    print("\n".join(lines))
    if not args.no_write:
        RESULTS.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
