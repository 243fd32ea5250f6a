"""``python -m bench.catchup``: a follower catching up a leader's CommitLog from empty, in MB/s, against the
same-run read rate of those CommitLog files, and the leader's produce latency while it serves the copy.

A leader (``rockafka.replication.listener``) is started alone and ``--gib`` GiB of 1 KiB values are produced to
it (confluent-kafka, acks=1). Then, in the same run:

1. the disk read rate: every byte of the leader's CommitLog that a follower receives (whole closed segments,
   their BLANK tails included, and the last segment up to its end) is read with ``readinto`` 1 MiB at a time.
   ``--cold`` drops the page cache first (``echo 3 > /proc/sys/vm/drop_caches``, root only) and again before the
   follower starts, so both read from the disk; by default both read warm files (the page cache holds what was
   just written, as on a leader whose follower fell behind recently).
2. a probe producer sends one 1 KiB record every ``PROBE_INTERVAL_S`` with acks=1 and linger 0 (the leader
   appends alone: the follower is not in sync until it is caught up) for ``BEFORE_S`` seconds, and goes on
   while an empty follower (``rockafka.replication.leader``) starts and copies everything. The follower is caught
   up when every partition's end offset (ListOffsets on it) reaches the leader's.
3. the catch-up rate is the leader's CommitLog bytes over the seconds from starting the follower's process
   (a broker's start-up included) to caught up, and from its listening (it starts copying then: the handshake
   comes before, the copy after the broker is built) to caught up; the probe's latency percentiles before and
   during the copy say whether the leader's appends stalled.

Results go to ``bench/results/catchup.md``. Disk: the leader and the follower each hold ``--gib`` GiB (in a
temporary directory removed at the end).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from compat_tests.brokerproc import BrokerProcess, free_port
from rockafka.core_pyx.logrecord import END_OF_DATA, scan_records

RESULTS = Path(__file__).parent / "results" / "catchup.md"
SEGMENT_BYTES = 64 << 20
PARTITIONS = 4
VALUE_BYTES = 1024
PROBE_INTERVAL_S = 0.01
BEFORE_S = 5.0
CATCH_UP_LIMIT_S = 900.0
POLL_S = 0.2
DROP_CACHES = "/proc/sys/vm/drop_caches"


def _fill(bootstrap: str, total_bytes: int) -> None:
    value = os.urandom(VALUE_BYTES)
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 5, "enable.idempotence": False})
    for n in range(total_bytes // VALUE_BYTES):
        while True:
            try:
                producer.produce("bench", value, partition=n % PARTITIONS)
                break
            except BufferError:
                producer.poll(0.01)
        producer.poll(0)
    if producer.flush(300):
        raise SystemExit("the leader did not take every record")


def _commitlog_ranges(data_dir: Path) -> list[tuple[Path, int]]:
    """Each CommitLog file and the bytes of it a follower receives: closed segments whole, the last up to its end."""
    files = sorted((p for p in (data_dir / "commitlog").iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    ranges = []
    for path in files:
        data = path.read_bytes()
        _, position, stop, _ = scan_records(data, 0, int(path.name), 1 << 62, 1 << 30)
        if stop == END_OF_DATA or position == 0:
            if position:
                ranges.append((path, position))
            break
        ranges.append((path, len(data)))
    return ranges


def _drop_caches() -> None:
    os.sync()
    Path(DROP_CACHES).write_text("3\n")


def _read_rate(ranges: list[tuple[Path, int]]) -> float:
    """MB/s reading those bytes with ``readinto``."""
    buffer = bytearray(1 << 20)
    started = time.monotonic()
    for path, size in ranges:
        with path.open("rb", buffering=0) as file:
            left = size
            while left > 0:
                got = file.readinto(memoryview(buffer)[: min(left, len(buffer))])
                if not got:
                    break
                left -= got
    return sum(size for _, size in ranges) / (time.monotonic() - started) / 1e6


def _ends(bootstrap: str) -> list[int]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-catchup", "enable.auto.commit": False})
    try:
        return [consumer.get_watermark_offsets(TopicPartition("bench", p), timeout=10)[1] for p in range(PARTITIONS)]
    finally:
        consumer.close()


class Probe:
    """One record every PROBE_INTERVAL_S, acks=1, in a thread: each delivery's latency with the time it was sent."""

    def __init__(self, bootstrap: str) -> None:
        self._producer = Producer(
            {"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 0, "enable.idempotence": False}
        )
        self.samples: list[tuple[float, float]] = []  # (sent at, seconds to the acknowledgement)
        self.failed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Probe:
        self._thread.start()
        return self

    def _run(self) -> None:
        value = os.urandom(VALUE_BYTES)
        while not self._stop.is_set():
            sent = time.monotonic()
            self._producer.produce("bench", value, partition=0, on_delivery=lambda err, _m, s=sent: self._done(err, s))
            while (left := sent + PROBE_INTERVAL_S - time.monotonic()) > 0:
                self._producer.poll(left)
        self._producer.flush(30)

    def _done(self, err: object, sent: float) -> None:
        if err is not None:
            self.failed += 1
        else:
            self.samples.append((sent, time.monotonic() - sent))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(60)

    def between(self, start: float, end: float) -> list[float]:
        return sorted(latency for sent, latency in self.samples if start <= sent < end)


def _percentiles(latencies: list[float]) -> str:
    if not latencies:
        return "no samples"
    ms = [x * 1000 for x in latencies]
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} records)"


def _load() -> str:
    return ", ".join(f"{n:.2f}" for n in os.getloadavg())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.catchup", description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=1.0, help="GiB written before the follower starts")
    parser.add_argument("--cold", action="store_true", help="drop the page cache before reading (root)")
    parser.add_argument("--no-write", action="store_true", help=f"print only, do not write {RESULTS}")
    args = parser.parse_args(argv)
    if args.cold and not os.access(DROP_CACHES, os.W_OK):
        parser.error(f"--cold drops the page cache through {DROP_CACHES}, which only root may write")
    settings = {"log.segment.bytes": str(SEGMENT_BYTES)}
    address = f"127.0.0.1:{free_port()}"
    load_before = _load()
    with tempfile.TemporaryDirectory(prefix="bench-catchup-", dir=os.environ.get("BENCH_DIR")) as scratch:
        root = Path(scratch)
        leader = BrokerProcess(root / "leader", {**settings, "node.id": "1", "rockafka.replication.listener": address})
        follower = BrokerProcess(
            root / "follower", {**settings, "node.id": "2", "rockafka.replication.leader": address}
        )
        leader.start()
        probe: Probe | None = None
        try:
            admin = AdminClient({"bootstrap.servers": leader.bootstrap})
            admin.create_topics([NewTopic("bench", PARTITIONS, 1)])["bench"].result(30)
            _fill(leader.bootstrap, int(args.gib * (1 << 30)))
            ranges = _commitlog_ranges(leader.data_dir)
            copied = sum(size for _, size in ranges)
            if args.cold:
                _drop_caches()
            read_rate = _read_rate(ranges)
            if args.cold:
                _drop_caches()
            probe = Probe(leader.bootstrap).start()
            time.sleep(BEFORE_S)
            started = time.monotonic()
            follower.start()
            listening = time.monotonic()
            wanted = _ends(leader.bootstrap)
            while any(have < want for have, want in zip(_ends(follower.bootstrap), wanted, strict=True)):
                if time.monotonic() - started > CATCH_UP_LIMIT_S:
                    raise SystemExit(f"the follower did not catch up within {CATCH_UP_LIMIT_S:.0f} s")
                time.sleep(POLL_S)
                wanted = _ends(leader.bootstrap)
            caught_up = time.monotonic()
            probe.stop()
        finally:
            if probe is not None:
                probe.stop()
            follower.stop()
            leader.stop()
    seconds, copying = caught_up - started, caught_up - listening
    lines = [
        f"# Replication: a follower catching up {args.gib:g} GiB from empty",
        "",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average (1, 5, 15 min) before {load_before}, after "
        f"{_load()}, on {os.cpu_count()} CPUs; Linux {platform.release()}, Python {platform.python_version()}",
        f"- command: `{' '.join(['.venv/bin/python -m bench.catchup', *argv])}`",
        f"- the leader's CommitLog: {copied / 1e6:,.0f} MB in {len(ranges)} segment(s) of {SEGMENT_BYTES >> 20} MiB "
        f"({VALUE_BYTES}-byte values over {PARTITIONS} partitions, acks=1)",
        "- page cache: "
        + ("dropped before the read and before the follower started (cold)" if args.cold else "warm (just written)"),
        "",
        "| measure | result |",
        "|---|---|",
        f"| disk read of those bytes (`readinto`, 1 MiB) | {read_rate:,.0f} MB/s |",
        f"| follower catch-up (process start to every partition's end reached) | {copied / seconds / 1e6:,.0f} MB/s "
        f"({seconds:.1f} s) |",
        f"| the same from the follower listening (its copy starts then) | {copied / copying / 1e6:,.0f} MB/s "
        f"({copying:.1f} s) |",
        f"| catch-up from listening / disk read | {copied / copying / 1e6 / read_rate:.2f}x |",
        f"| probe produce latency before ({BEFORE_S:.0f} s, acks=1) | {_percentiles(probe.between(0, started))} |",
        f"| probe produce latency during the catch-up | {_percentiles(probe.between(started, caught_up))} |",
        "",
        f"Probe records that failed: {probe.failed}.",
    ]
    print("\n".join(lines))
    if not args.no_write:
        RESULTS.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
