"""``python -m bench.pipeline``: rows per second of the pipeline's Spark sources on this machine.

A broker (in-process, temporary directory) gets ``--records`` keyed records of ``--value-bytes`` bytes
over ``--partitions`` partitions (produced with confluent-kafka). Then a ``local[2]`` Spark session reads
them into Spark's ``noop`` sink (every row built and handed to Spark, nothing written):

- ``rockafka-store``, ``mode=cq``: the ConsumeQueue file reader;
- ``rockafka-store``, ``mode=segments``: the CommitLog segment scan (every CRC verified);
- ``rockafka``: the Kafka-protocol source (kafka-python in the executors), bounded to the first
  ``--wire-records`` records through ``endingOffsets``.

Each figure is the best of ``--rounds`` runs, after one warm-up read (the first Python data source query
of a session pays about 7 s of worker start-up). Results go to ``bench/results/pipeline.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results" / "pipeline.md"


def _produce(bootstrap: str, topic: str, records: int, partitions: int, value_bytes: int) -> None:
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 65536, "acks": "all"})
    value = b"v" * value_bytes
    for i in range(records):
        while True:
            try:
                producer.produce(topic, value, b"key-%d" % i, partition=i % partitions, headers=[("n", b"%d" % i)])
                break
            except BufferError:
                producer.poll(0.05)
    producer.flush(60)


def _rate(read: Callable[[], Any], rows: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        read().write.format("noop").mode("overwrite").save()
        best = min(best, time.perf_counter() - started)
    return rows / best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pipeline", description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=400_000)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--wire-records", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-write", action="store_true", help=f"print only, do not write {RESULTS}")
    args = parser.parse_args(argv)

    from rockafka.pipeline.session import spark_session
    from rockafka.testing import Broker

    topic = "bench"
    with Broker() as broker:
        started = time.perf_counter()
        _produce(broker.bootstrap, topic, args.records, args.partitions, args.value_bytes)
        produced_s = time.perf_counter() - started
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        spark = spark_session("local[2]", "bench.pipeline", {"spark.sql.shuffle.partitions": "2"})
        data_dir = str(broker.data_dir)

        def store(mode: str) -> Callable[[], Any]:
            return lambda: spark.read.format("rockafka-store").option("subscribe", topic).option(
                "includeHeaders", "true").option("mode", mode).load(data_dir)  # fmt: skip

        per_partition = args.wire_records // args.partitions
        ending = json.dumps({topic: {str(p): per_partition for p in range(args.partitions)}})

        def wire() -> Any:
            return (
                spark.read.format("rockafka").option("kafka.bootstrap.servers", broker.bootstrap)
                .option("subscribe", topic).option("includeHeaders", "true").option("endingOffsets", ending).load()
            )  # fmt: skip

        store("cq")().limit(10).collect()  # warm-up: Python workers and imports
        figures = {
            "rockafka-store, mode=cq (ConsumeQueue files)": _rate(store("cq"), args.records, args.rounds),
            "rockafka-store, mode=segments (CommitLog scan, CRCs verified)": _rate(
                store("segments"), args.records, args.rounds
            ),
            f"rockafka (Kafka protocol, kafka-python), first {per_partition * args.partitions:,} records": _rate(
                wire, per_partition * args.partitions, args.rounds
            ),
        }
        spark.stop()
    lines = _report(args, argv, figures, produced_s)
    print("\n".join(lines))
    if not args.no_write:
        RESULTS.write_text("\n".join(lines) + "\n")
    return 0


def _report(args: argparse.Namespace, argv: list[str], figures: dict[str, float], produced_s: float) -> list[str]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())  # fmt: skip
    return [
        "# Pipeline sources",
        "",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- machine: {cpu}, {os.cpu_count()} CPUs, Linux {platform.release()}, Python {platform.python_version()}",
        f"- command: `{' '.join(['.venv/bin/python -m bench.pipeline', *argv])}`",
        f"- workload: {args.records:,} keyed records of {args.value_bytes} bytes with one header, "
        f"{args.partitions} partitions (produced in {produced_s:.1f} s); Spark `local[2]`, read into the `noop` "
        f"sink with `includeHeaders=true`; best of {args.rounds} after a warm-up read",
        "",
        "| source | rows/s |",
        "|---|---:|",
        *(f"| {name} | {rate:,.0f} |" for name, rate in figures.items()),
    ]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
