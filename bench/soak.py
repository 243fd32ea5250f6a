"""``python -m bench.soak [--minutes 30]``: a broker under steady load for a long time, watched for leaks.

One broker subprocess (``rockafka serve``, async flush, 16 MiB CommitLog segments, 16 MiB retention per
partition checked every 30 s, so segments are written, mapped, read and deleted throughout). Load, all
from this process:

- a producer (confluent-kafka, acks=all, linger 2 ms) sends ``--rate`` messages a second, message ``seq``
  to partition ``seq % partitions``, its value ``seq``, the send time and a filler known from ``seq``;
- a reader (assigned every partition, no group) checks every message once, in order, byte-exact
  (:class:`bench.suite.payload.Ledger`) and takes its produce->consume latency;
- a consumer group of ``--members`` members (auto commit) churns: every ``--churn-s`` seconds the
  oldest member leaves (closes: LeaveGroup) and a new one joins; every second time a ghost member, a
  child process that consumes without committing, is killed with SIGKILL (a departed client: no
  LeaveGroup, the broker notices at its session timeout) and another starts. The group must see every
  message at least once, intact; redeliveries after a rebalance are counted, not failed.

Every ``--interval-s`` the broker's RSS, its anonymous RSS (the heap: RSS without the mapped files),
its open descriptors and CPU are sampled, with the interval's latency percentiles. After the load the
producer stops and both the reader and the group must catch up with everything sent. The clients
are in :mod:`bench.soak_load`.

Verdicts, reported and never asserted (the samples of the first ``WARMUP_FRACTION`` are warm-up; the
rest split into thirds, the last third compared with the first):

- heap flat: the last third's largest anonymous RSS at most 10% + 10 MB above the first third's;
- descriptors flat: the last third's most open descriptors at most 4 above the first third's;
- p99 steady: the last third's median interval p99 at most twice the first third's + 2 ms.

Total RSS is shown too; it counts the page cache of mapped CommitLog segments, so it follows what is
mapped and read rather than what leaks. The results go to ``bench/results/soak-<date>.md`` and
``.json`` (``--out`` elsewhere). Exit status 1 when a message was lost, damaged or never seen by the
group, or the load could not run; the verdicts do not change it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from bench.soak_load import Group, GroupTally, Reader, Sender
from bench.suite.payload import Ledger, Payloads, VerificationError
from compat_tests.brokerproc import BrokerProcess

RESULTS = Path(__file__).parent / "results"
WARMUP_FRACTION = 0.1
HEAP_TOLERANCE = (0.10, 10.0)  # relative, MB
FD_TOLERANCE = 4
P99_TOLERANCE = (2.0, 2.0)  # factor, ms
BROKER_SETTINGS = {
    "log.segment.bytes": str(16 << 20),
    "log.retention.bytes": str(16 << 20),
    "log.retention.check.interval.ms": "30000",
    "rockafka.consumequeue.units.per.file": "65536",
    "rockafka.index.slots": "65536",
    "rockafka.index.entries": "262144",
    "group.min.session.timeout.ms": "1000",
    "group.initial.rebalance.delay.ms": "300",
}


@dataclass(frozen=True, slots=True)
class SoakConfig:
    minutes: float = 30.0
    rate: int = 1000
    partitions: int = 6
    value_size: int = 200
    members: int = 3
    churn_s: float = 20.0
    interval_s: float = 30.0
    drain_s: float = 90.0

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0

    @property
    def capacity(self) -> int:
        """More sequence numbers than the producer can send (it stops there)."""
        return int(self.rate * (self.seconds + 60) * 1.5) + 10_000


@dataclass(frozen=True, slots=True)
class Sample:
    t_s: float
    rss_mb: float
    anon_mb: float
    fds: int
    threads: int
    broker_cpu_pct: float
    produced: int
    read: int
    group_seen: int
    members: int
    churns: int
    latency_count: int
    p50_ms: float | None
    p99_ms: float | None
    max_ms: float | None


@dataclass(frozen=True, slots=True)
class Verdict:
    name: str
    ok: bool
    first: float
    last: float
    rule: str


@dataclass(slots=True)
class SoakResult:
    config: SoakConfig
    started: str
    wall_s: float = 0.0
    produced: int = 0
    delivery_failures: int = 0
    read: int = 0
    read_error: str = ""
    group_seen: int = 0
    group_redelivered: int = 0
    group_damaged: list[str] = field(default_factory=list)
    group_errors: dict[str, int] = field(default_factory=dict)
    churns: int = 0
    kills: int = 0
    assignments: int = 0
    broker_tracebacks: int = 0
    samples: list[Sample] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return self.produced - self.read

    @property
    def group_missing(self) -> int:
        return self.produced - self.group_seen

    @property
    def intact(self) -> bool:
        """Everything sent was acknowledged, read once in order by the reader and seen by the group."""
        clean = not (self.delivery_failures or self.read_error or self.group_damaged)
        return clean and self.produced > 0 and self.lost == 0 and self.group_missing == 0

    def to_json(self) -> dict[str, object]:
        out = asdict(self)
        out.update(lost=self.lost, group_missing=self.group_missing, intact=self.intact)
        return out


class _Probe:
    """The broker process as Linux's /proc shows it (no psutil: CI runs this too), sampled per interval."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.ticks = os.sysconf("SC_CLK_TCK")
        self.last = (time.monotonic(), self._cpu_s())

    def _cpu_s(self) -> float:
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks  # utime, stime

    def status(self) -> dict[str, int]:
        """VmRSS and RssAnon in kB, Threads, from /proc/<pid>/status."""
        out: dict[str, int] = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "RssAnon", "Threads"):
                    out[key] = int(value.split()[0])
        return out

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def cpu_pct(self) -> float:
        now, cpu = time.monotonic(), self._cpu_s()
        (then, before), self.last = self.last, (now, cpu)
        return 100.0 * (cpu - before) / max(now - then, 1e-9)


def _percentiles(latencies_ns: list[int]) -> tuple[float | None, float | None, float | None]:
    if not latencies_ns:
        return None, None, None
    ordered = sorted(latencies_ns)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] / 1e6

    return at(0.5), at(0.99), ordered[-1] / 1e6


def _sample(t_s: float, probe: _Probe, producer: Sender, reader: Reader, group: Group) -> Sample:
    latencies = reader.take_latencies()
    p50, p99, worst = _percentiles(latencies)
    status = probe.status()
    return Sample(
        t_s=round(t_s, 1),
        rss_mb=status["VmRSS"] * 1024 / 1e6,
        anon_mb=status.get("RssAnon", 0) * 1024 / 1e6,
        fds=probe.fds(),
        threads=status["Threads"],
        broker_cpu_pct=probe.cpu_pct(),
        produced=producer.sent,
        read=reader.ledger.count,
        group_seen=group.tally.distinct,
        members=len(group.members),
        churns=group.churns,
        latency_count=len(latencies),
        p50_ms=p50,
        p99_ms=p99,
        max_ms=worst,
    )


def verdicts(samples: list[Sample], seconds: float) -> list[Verdict]:
    """The flatness verdicts over the samples past warm-up (none when fewer than three remain)."""
    steady = [s for s in samples if s.t_s > seconds * WARMUP_FRACTION]
    if len(steady) < 3:
        return []
    third = len(steady) // 3
    first, last = steady[:third], steady[-third:]
    heap_first, heap_last = max(s.anon_mb for s in first), max(s.anon_mb for s in last)
    fds_first, fds_last = max(s.fds for s in first), max(s.fds for s in last)
    rel, slack = HEAP_TOLERANCE
    factor, p99_slack = P99_TOLERANCE
    out = [
        Verdict("heap flat", heap_last <= heap_first * (1 + rel) + slack, heap_first, heap_last,
                f"last third's max anonymous RSS <= first third's x {1 + rel:g} + {slack:g} MB"),
        Verdict("descriptors flat", fds_last <= fds_first + FD_TOLERANCE, fds_first, fds_last,
                f"last third's most open descriptors <= first third's + {FD_TOLERANCE}"),
    ]  # fmt: skip
    p99_first = [s.p99_ms for s in first if s.p99_ms is not None]
    p99_last = [s.p99_ms for s in last if s.p99_ms is not None]
    if p99_first and p99_last:
        a, b = statistics.median(p99_first), statistics.median(p99_last)
        rule = f"last third's median interval p99 <= first third's x {factor:g} + {p99_slack:g} ms"
        out.append(Verdict("p99 steady", b <= a * factor + p99_slack, a, b, rule))
    return out


def _create_topic(bootstrap: str, partitions: int) -> str:
    name = f"soak-{os.getpid()}-{int(time.time())}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        topic = admin.list_topics(name, timeout=10).topics.get(name)
        if topic is not None and topic.error is None and len(topic.partitions) == partitions:
            return name
        time.sleep(0.2)
    raise VerificationError(f"topic {name} never showed in metadata")


def _drive(config: SoakConfig, bootstrap: str, pid: int, result: SoakResult) -> None:
    """Run the load for the configured time, sampling each interval, then drain and tally."""
    topic = _create_topic(bootstrap, config.partitions)
    payloads = Payloads.of(config.value_size, stamped=True)
    ledger = Ledger(payloads, config.capacity, config.partitions)
    tally = GroupTally(payloads, config.partitions, bytearray(config.capacity))
    probe = _Probe(pid)
    reader, producer = (
        Reader(bootstrap, topic, ledger),
        Sender(bootstrap, topic, payloads, config.rate, config.partitions, config.capacity),
    )
    group = Group(bootstrap, topic, tally, config.members)
    start = time.monotonic()
    reader.start()
    producer.start()
    next_sample, next_churn = start + config.interval_s, start + config.churn_s
    try:
        while (now := time.monotonic()) < start + config.seconds and reader.is_alive():
            time.sleep(max(0.0, min(next_sample, next_churn, start + config.seconds) - now))
            if time.monotonic() >= next_churn:
                group.replace()
                next_churn += config.churn_s
            if time.monotonic() >= next_sample:
                result.samples.append(_sample(time.monotonic() - start, probe, producer, reader, group))
                _print_sample(result.samples[-1])
                next_sample += config.interval_s
        producer.stopping.set()
        group.kill_ghost()
        producer.join(90)
        _drain(config, producer, reader, tally)
        result.samples.append(_sample(time.monotonic() - start, probe, producer, reader, group))
    finally:
        producer.stopping.set()
        reader.stopping.set()
        group.stop()
        reader.join(30)
    result.wall_s = time.monotonic() - start
    result.produced, result.delivery_failures = producer.sent, producer.failures
    result.read, result.read_error = ledger.count, reader.error
    result.group_seen, result.group_redelivered = tally.distinct, tally.redelivered
    result.group_damaged, result.group_errors = tally.damaged[:20], dict(tally.errors)
    result.churns, result.kills, result.assignments = group.churns, group.kills, tally.assignments


def _drain(config: SoakConfig, producer: Sender, reader: Reader, tally: GroupTally) -> None:
    deadline = time.monotonic() + config.drain_s
    while time.monotonic() < deadline and reader.is_alive():
        if reader.ledger.count >= producer.sent and tally.distinct >= producer.sent:
            return
        time.sleep(0.2)


def _print_sample(s: Sample) -> None:
    p99 = "-" if s.p99_ms is None else f"{s.p99_ms:.1f}"
    print(
        f"t={s.t_s:7.0f}s rss={s.rss_mb:7.1f}MB anon={s.anon_mb:6.1f}MB fds={s.fds:4d} cpu={s.broker_cpu_pct:5.1f}% "
        f"produced={s.produced} read={s.read} group={s.group_seen} churns={s.churns} p99={p99}ms",
        flush=True,
    )


def run(config: SoakConfig, workdir: Path | None = None) -> SoakResult:
    """Start a broker, soak it, stop it (by PID) and return what was seen."""
    result = SoakResult(config, time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
    scratch = Path(tempfile.mkdtemp(prefix="rockafka-soak-", dir=workdir))
    broker = BrokerProcess(scratch, dict(BROKER_SETTINGS)).start()
    try:
        assert broker.process is not None
        _drive(config, broker.bootstrap, broker.process.pid, result)
    finally:
        broker.stop()
        result.broker_tracebacks = broker.log_path.read_text(errors="replace").count("Traceback")
        shutil.rmtree(scratch, ignore_errors=True)
    result.verdicts = verdicts(result.samples, config.seconds)
    return result


def render(result: SoakResult) -> str:
    """The Markdown report."""
    c = result.config
    lines = [
        f"# Soak, {result.started}",
        "",
        f"{c.minutes:g} minutes at {c.rate} msg/s of {c.value_size} B over {c.partitions} partitions (acks=all); "
        f"a reader on every partition; a group of {c.members} members, one replaced every {c.churn_s:g} s, "
        f"and a member in a child process killed (SIGKILL) and started again every {2 * c.churn_s:g} s; "
        f"samples every {c.interval_s:g} s; {os.cpu_count()} CPUs. "
        f"Command: `python -m bench.soak --minutes {c.minutes:g}`.",
        "",
        f"- produced {result.produced}, delivery failures {result.delivery_failures}",
        f"- reader: read {result.read} once, in order, intact; lost {result.lost}"
        + (f"; error: {result.read_error}" if result.read_error else ""),
        f"- group: saw {result.group_seen} (missing {result.group_missing}), redelivered {result.group_redelivered}, "
        f"damaged {len(result.group_damaged)}; {result.churns} members left, {result.kills} killed, "
        f"{result.assignments} assignments",
        f"- consumer errors seen by the group: {result.group_errors or 'none'}",
        f"- tracebacks in the broker log: {result.broker_tracebacks}",
        f"- **intact: {'yes' if result.intact else 'NO'}**",
        "",
        "| verdict | first third | last third | rule | |",
        "|---|---|---|---|---|",
    ]
    for v in result.verdicts:
        lines.append(f"| {v.name} | {v.first:.1f} | {v.last:.1f} | {v.rule} | {'ok' if v.ok else 'NOT MET'} |")
    lines += [
        "",
        "| t (s) | RSS (MB) | anon (MB) | fds | threads | CPU % | produced | read | group | churns "
        "| p50 ms | p99 ms | max ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in result.samples:
        lat = " | ".join("-" if x is None else f"{x:.1f}" for x in (s.p50_ms, s.p99_ms, s.max_ms))
        lines.append(
            f"| {s.t_s:.0f} | {s.rss_mb:.1f} | {s.anon_mb:.1f} | {s.fds} | {s.threads} | {s.broker_cpu_pct:.0f} | "
            f"{s.produced} | {s.read} | {s.group_seen} | {s.churns} | {lat} |"
        )
    return "\n".join(lines) + "\n"


def write(result: SoakResult, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"soak-{time.strftime('%Y%m%d-%H%M', time.gmtime())}"
    markdown, data = stem.with_suffix(".md"), stem.with_suffix(".json")
    markdown.write_text(render(result))
    data.write_text(json.dumps(result.to_json(), indent=1) + "\n")
    return markdown, data


def parse(argv: list[str]) -> tuple[SoakConfig, Path]:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n")[0])
    default = SoakConfig()
    parser.add_argument("--minutes", type=float, default=default.minutes)
    parser.add_argument("--rate", type=int, default=default.rate, help="messages a second")
    parser.add_argument("--partitions", type=int, default=default.partitions)
    parser.add_argument("--value-size", type=int, default=default.value_size)
    parser.add_argument("--members", type=int, default=default.members, help="group members at any time")
    parser.add_argument("--churn-s", type=float, default=default.churn_s, help="seconds between member changes")
    parser.add_argument("--interval-s", type=float, default=None, help="sampling interval (default: 1/60 of the run)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the report goes")
    args = parser.parse_args(argv)
    interval = args.interval_s if args.interval_s is not None else max(2.0, min(30.0, args.minutes))
    config = SoakConfig(args.minutes, args.rate, args.partitions, args.value_size, args.members, args.churn_s, interval)
    return config, args.out


def main(argv: list[str] | None = None) -> int:
    config, out = parse(sys.argv[1:] if argv is None else argv)
    result = run(config)
    markdown, _ = write(result, out)
    print(render(result), flush=True)
    print(f"written to {markdown} (and .json)", flush=True)
    return 0 if result.intact else 1


if __name__ == "__main__":
    sys.exit(main())
