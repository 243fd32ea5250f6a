"""``python -m bench.migrate``: rows/s and MB/s of ``migrate``'s copy (Kafka-protocol source into the ``rockafka``
sink) on this machine, with the sink's old and new producer settings in one run.

Two in-process brokers; the source gets ``--records`` keyed records of ``--value-bytes`` bytes over
``--partitions`` partitions (produced with confluent-kafka). A ``local[2]`` Spark session then copies them with
:func:`rockafka.pipeline.jobs.copy_topics` (``availableNow``, checkpointed, as ``migrate`` does) into a fresh
target topic each round, alternating the variants ABBA so that a machine whose load drifts favours neither:

- ``before``: the producer settings the sink had before (kafka-python's defaults: ``batch.size=16384``,
  ``linger.ms=0``), given as ``kafka.*`` options;
- ``after``: the sink's defaults (:data:`rockafka.pipeline.wire.PRODUCER_DEFAULTS`).

Both run the same row path (Arrow columns zipped into ``send`` calls). A round's time is the copy's, from
``start()`` to the end of the last micro-batch: Spark's planning and task start-up are in it (one warm-up read
first pays the Python workers' start). MB/s counts keys and values. Results go to ``bench/results/migrate.md``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results" / "migrate.md"
VARIANTS = {
    "before": {"kafka.batch.size": "16384", "kafka.linger.ms": "0"},
    "after": {},
}


def _copy_round(spark: Any, source: str, target: str, topic: str, partitions: int, variant: str) -> float:
    from confluent_kafka.admin import AdminClient, NewTopic

    from rockafka.pipeline.jobs import copy_topics

    admin = AdminClient({"bootstrap.servers": target})
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result(30)
    checkpoint = tempfile.mkdtemp(prefix="bench-migrate-")
    try:
        target_options = {"kafka.bootstrap.servers": target, **VARIANTS[variant]}
        started = time.perf_counter()
        copy_topics(spark, {"kafka.bootstrap.servers": source}, target_options, [topic], checkpoint=checkpoint)
        return time.perf_counter() - started
    finally:
        shutil.rmtree(checkpoint, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.migrate", description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2, help="ABBA pairs")
    parser.add_argument("--no-write", action="store_true", help=f"print only, do not write {RESULTS}")
    args = parser.parse_args(argv)

    from bench.pipeline import _produce
    from rockafka.pipeline.session import spark_session
    from rockafka.testing import Broker

    payload = sum(len(b"key-%d" % i) for i in range(args.records)) + args.records * args.value_bytes
    seconds: dict[str, list[float]] = {name: [] for name in VARIANTS}
    with Broker() as source:
        _produce(source.bootstrap, "bench", args.records, args.partitions, args.value_bytes)
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        spark = spark_session("local[2]", "bench.migrate", {"spark.sql.shuffle.partitions": "2"})
        reader = spark.read.format("rockafka").option("kafka.bootstrap.servers", source.bootstrap)
        reader.option("subscribe", "bench").load().limit(10).collect()  # warm-up: Python workers and imports
        order = [name for _ in range(args.rounds) for name in ("before", "after", "after", "before")]
        for name in order:
            seconds[name].append(_round(spark, source.bootstrap, args, name))
            print(f"{name}: {args.records / seconds[name][-1]:,.0f} rows/s", flush=True)
        spark.stop()
    lines = _report(args, argv, seconds, payload)
    print("\n".join(lines))
    if not args.no_write:
        RESULTS.write_text("\n".join(lines) + "\n")
    return 0


def _round(spark: Any, source: str, args: argparse.Namespace, variant: str) -> float:
    """One copy of the source's ``bench`` topic into a new target broker (a fresh topic, bounded disk use)."""
    from rockafka.testing import Broker

    with Broker() as fresh:
        return _copy_round(spark, source, fresh.bootstrap, "bench", args.partitions, variant)


def _report(args: argparse.Namespace, argv: list[str], seconds: dict[str, list[float]], payload: int) -> list[str]:
    import platform

    load = os.getloadavg()[0]
    rows = [
        f"| {name} | {len(runs)} | {args.records / min(runs):,.0f} | {args.records / (sum(runs) / len(runs)):,.0f} "
        f"| {payload / min(runs) / 1e6:.2f} |"
        for name, runs in seconds.items()
    ]
    ratio = min(seconds["before"]) / min(seconds["after"])
    return [
        "# Migration copy: sink producer settings before and after",
        "",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average at the end {load:.1f} on {os.cpu_count()} CPUs",
        f"- machine: Linux {platform.release()}, Python {platform.python_version()}",
        f"- command: `{' '.join(['.venv/bin/python -m bench.migrate', *argv])}`",
        f"- workload: {args.records:,} keyed records of {args.value_bytes} bytes, {args.partitions} partitions, "
        f"{payload / 1e6:.1f} MB of keys and values; Spark `local[2]`; rounds ABBA",
        "",
        "| sink settings | rounds | best rows/s | mean rows/s | best MB/s |",
        "|---|---:|---:|---:|---:|",
        *rows,
        "",
        f"after / before (best): {ratio:.2f}",
    ]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
