"""``python -m bench.mirror``: end-to-end lag of ``rockafka pipeline mirror`` at a steady produce rate.

Two brokers (subprocesses) and the mirror (``python -m rockafka pipeline mirror``, its own ``local[2]`` Spark,
the default 1 s trigger). Once the mirror has copied a first record, a confluent-kafka producer writes
``--rate`` records/s of ``--value-bytes`` bytes to the source for ``--seconds`` (paced every 10 ms, each
record's CreateTime set to the moment it is sent) over ``--partitions`` partitions, and a read_committed
confluent-kafka consumer on the target takes, for every record, the time it arrived minus its timestamp:
the mirror's end-to-end lag (produce, the micro-batch's read, the transactional write, the commit). The run
reports the percentiles of that lag and whether every record arrived. Results go to ``bench/results/mirror.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results" / "mirror.md"
START_WAIT_S = 600.0
DRAIN_WAIT_S = 120.0


def _mirror(source: str, target: str, work: Path, extra: list[str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "rockafka", "pipeline", "mirror", "--master", "local[2]",
               "--from", source, "--to", target, "--topics-pattern", "lagged",
               "--checkpoint", str(work / "checkpoint"), "--status", str(work / "status.json"), *extra]  # fmt: skip
    log = (work / "mirror.log").open("wb")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def _status(work: Path) -> dict[str, Any]:
    try:
        document: dict[str, Any] = json.loads((work / "status.json").read_text())
    except (FileNotFoundError, ValueError):
        return {}
    return document


def _produce_steadily(producer: Any, rate: int, seconds: float, value: bytes, partitions: int) -> int:
    sent, started = 0, time.monotonic()
    while (elapsed := time.monotonic() - started) < seconds:
        due = int(elapsed * rate)
        while sent < due:
            producer.produce("lagged", value, partition=sent % partitions, timestamp=int(time.time() * 1000))
            sent += 1
        producer.poll(0)
        time.sleep(0.01)
    producer.flush(30)
    return sent


def _consume(consumer: Any, wanted: int, lags: list[float], deadline: float) -> None:
    while len(lags) < wanted and time.monotonic() < deadline:
        for message in consumer.consume(1000, timeout=0.2):
            if message.error() is None:
                lags.append(time.time() * 1000 - message.timestamp()[1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mirror", description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=5000, help="records per second (default 5000)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--mirror-args", default="", metavar="ARGS",
                        help="more arguments for rockafka pipeline mirror, e.g. '--trigger 0.5'")  # fmt: skip
    parser.add_argument("--keep-log", type=Path, metavar="FILE", help="copy the mirror's output here")
    parser.add_argument("--no-write", action="store_true", help=f"print only, do not write {RESULTS}")
    args = parser.parse_args(argv)

    import threading

    from confluent_kafka import Consumer, Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    from rockafka.testing import Broker

    with Broker(subprocess=True) as source, Broker(subprocess=True) as target, tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        admin = AdminClient({"bootstrap.servers": source.bootstrap})
        admin.create_topics([NewTopic("lagged", args.partitions, 1)])["lagged"].result(30)
        producer = Producer({"bootstrap.servers": source.bootstrap, "linger.ms": 5, "acks": "all"})
        producer.produce("lagged", b"first", partition=0)
        producer.flush(30)
        mirror = _mirror(source.bootstrap, target.bootstrap, work, args.mirror_args.split())
        try:
            deadline = time.monotonic() + START_WAIT_S
            while _status(work).get("rows", 0) < 1 and time.monotonic() < deadline and mirror.poll() is None:
                time.sleep(0.5)
            if _status(work).get("rows", 0) < 1:
                raise SystemExit(f"the mirror copied nothing within {START_WAIT_S:.0f} s; see {work / 'mirror.log'}")
            warmed = _status(work)  # its first micro-batches (Spark's start-up) are left out of the phase means
            consumer = Consumer({"bootstrap.servers": target.bootstrap, "group.id": "bench-mirror",
                                 "isolation.level": "read_committed", "auto.offset.reset": "latest"})  # fmt: skip
            consumer.subscribe(["lagged"])
            consumer.consume(1, timeout=5)  # joined: reads from here on
            lags: list[float] = []
            wanted = int(args.rate * args.seconds)
            reader = threading.Thread(
                target=_consume, args=(consumer, wanted, lags, time.monotonic() + args.seconds + DRAIN_WAIT_S)
            )
            reader.start()
            sent = _produce_steadily(producer, args.rate, args.seconds, b"v" * args.value_bytes, args.partitions)
            reader.join()
            consumer.close()
            status = _status(work)
        finally:
            (work / "checkpoint" / "rockafka-stop").touch()
            try:
                mirror.wait(120)
            except subprocess.TimeoutExpired:
                mirror.kill()
                mirror.wait()
            if args.keep_log is not None:
                args.keep_log.write_bytes((work / "mirror.log").read_bytes())
    lines = _report(args, argv, sent, lags, status, warmed)
    print("\n".join(lines))
    if not args.no_write:
        RESULTS.write_text("\n".join(lines) + "\n")
    return 0


def _report(
    args: argparse.Namespace,
    argv: list[str],
    sent: int,
    lags: list[float],
    status: dict[str, Any],
    warmed: dict[str, Any],
) -> list[str]:
    ordered = sorted(lags)

    def pct(p: float) -> str:
        return f"{ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] / 1000:.2f}" if ordered else "-"

    batches = max(1, status.get("batches", 0) - warmed.get("batches", 0))
    before, after = warmed.get("batches_ms") or {}, status.get("batches_ms") or {}
    phases = ", ".join(f"{phase} {(ms - before.get(phase, 0)) / batches / 1000:.2f}" for phase, ms in after.items())
    return [
        "# Mirror end-to-end lag",
        "",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average at the end {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} CPUs; Linux {platform.release()}, Python {platform.python_version()}",
        f"- command: `{' '.join(['.venv/bin/python -m bench.mirror', *argv])}`",
        f"- workload: {args.rate:,} records/s of {args.value_bytes} bytes for {args.seconds:.0f} s over "
        f"{args.partitions} partitions; mirror exactly-once, Spark `local[2]`, "
        f"{'its defaults' if not args.mirror_args else 'with `' + args.mirror_args + '`'}",
        "",
        "| records sent | records arrived | p50 s | p90 s | p99 s | max s | micro-batches | mirror rows/s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {sent:,} | {len(lags):,} | {pct(50)} | {pct(90)} | {pct(99)} | {pct(100)} | {status.get('batches', '-')} "
        f"| {status.get('rows_per_s', '-')} |",
        "",
        f"Mean seconds per micro-batch with rows after the first ones (Spark's durationMs): {phases or '-'}",
    ]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
