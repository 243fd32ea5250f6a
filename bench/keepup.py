"""``python -m bench.keepup``: what a follower pays to keep its idempotent producers' tables up with the log it
copies (``ProducerService.keep_up``, once a second on every follower of a replicated group), against what it
pays to store the same bytes, both measured in this run.

A store of ``--partitions`` partitions is written the way a follower writes it: batches of ``--records`` records
of ``--value-bytes`` bytes from ``--producers`` idempotent producers, appended with their validated headers and
no producer check (a follower's copy). After every ``--pass-mb`` MB appended, one ``keep_up`` pass replays what
arrived since the last one, as the once-a-second pass does at that copy rate. The calling thread's CPU time
(``time.thread_time``) is summed apart for the appends and for the passes (the store's own threads, flush,
dispatch and index, work for the appends only and are not counted).

The yardstick is the per-batch append (validation and ``records.append``, the store's part of a produce): a
follower's own copy appends whole frames and costs less, so keep-up / append understates keep-up's share of a
follower's work; the follower's whole CPU per GB is in ``bench/results/replication.md``. Results go to
``bench/results/keepup.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.facade.config import load_broker_config
from rockafka.facade.producers import ProducerService
from rockafka.store import MessageStore, StoreConfig

RESULTS = Path(__file__).parent / "results" / "keepup.md"
SEGMENT_BYTES = 64 << 20
TOPIC = "t"


def _batch(producer_id: int, first_sequence: int, records: int, value: bytes) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=0, producer_id=producer_id, producer_epoch=0,
        base_sequence=first_sequence, batch_size=1 << 22,
    )  # fmt: skip
    now = int(time.time() * 1000)
    for delta in range(records):
        builder.append(delta, timestamp=now, key=None, value=value, headers=[])
    return bytes(builder.build())


def measure(root: Path, args: argparse.Namespace) -> dict[str, float]:
    """Append ``--mb`` MB as a follower does, with a keep-up pass every ``--pass-mb``; CPU seconds of each."""
    value = os.urandom(args.value_bytes)
    config = load_broker_config(overrides=[])
    store_config = StoreConfig(root, commitlog_segment_bytes=SEGMENT_BYTES, preallocate=False)
    append_s = keep_up_s = 0.0
    appended = passes = replayed = batches = 0
    sequences = [0] * args.producers
    with MessageStore.open(store_config) as store:
        store.topics.create(TOPIC, args.partitions)
        producers = ProducerService(config, store)
        producers.load()
        producers.follow()
        since_pass = 0
        while appended < args.mb << 20:
            producer = batches % args.producers
            batch = _batch(1000 + producer, sequences[producer], args.records, value)
            sequences[producer] += args.records
            started = time.thread_time()
            store.records.append(TOPIC, batches % args.partitions, batch, validate_batches(batch))
            append_s += time.thread_time() - started
            appended, since_pass, batches = appended + len(batch), since_pass + len(batch), batches + 1
            if since_pass >= args.pass_mb << 20:
                started = time.thread_time()
                replayed += asyncio.run(producers.keep_up())
                keep_up_s += time.thread_time() - started
                passes, since_pass = passes + 1, 0
        store.flush()
    gigabytes = appended / 1e9
    return {
        "gb": gigabytes, "batches": batches, "passes": passes, "replayed": replayed,
        "append_s_per_gb": append_s / gigabytes, "keep_up_s_per_gb": keep_up_s / gigabytes,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.keepup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=1024, help="MB appended in all")
    parser.add_argument("--pass-mb", type=int, default=64, help="MB appended between keep-up passes")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--records", type=int, default=16, help="records per batch")
    parser.add_argument("--value-bytes", type=int, default=1024)
    parser.add_argument("--dir", default=None, help="where the temporary store goes")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    base = Path(tempfile.mkdtemp(prefix="rockafka-bench-keepup-", dir=args.dir))
    try:
        figures = measure(base / "store", args)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    ratio = figures["keep_up_s_per_gb"] / figures["append_s_per_gb"]
    text = "\n".join([
        "# A follower keeping its producers' tables up (`ProducerService.keep_up`)",
        "",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average before {load_before[0]:.2f}, after"
        f" {os.getloadavg()[0]:.2f}, on {os.cpu_count()} CPUs; Linux {platform.release()}, Python"
        f" {platform.python_version()}",
        f"- command: `python -m bench.keepup --mb {args.mb} --pass-mb {args.pass_mb} --records {args.records}"
        f" --value-bytes {args.value_bytes}`",
        f"- {figures['gb']:.2f} GB in {figures['batches']:,} batches of {args.records} records of {args.value_bytes}"
        f" bytes from {args.producers} idempotent producers over {args.partitions} partitions; {figures['passes']}"
        f" keep-up passes replayed {figures['replayed']:,} batches",
        "",
        "| work (calling thread) | CPU s per GB |",
        "|---|---:|",
        f"| per-batch append (validate + `records.append`) | {figures['append_s_per_gb']:.3f} |",
        f"| keep-up passes | {figures['keep_up_s_per_gb']:.3f} |",
        "",
        f"Keep-up / per-batch append: **{ratio:.2f}x**; keep-up costs"
        f" {figures['keep_up_s_per_gb'] * figures['gb'] / max(figures['replayed'], 1) * 1e6:.1f} µs per batch"
        " replayed (fewer, larger batches cost less per GB).",
        "",
    ])  # fmt: skip
    RESULTS.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
