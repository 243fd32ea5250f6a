"""Log compaction figures (issue 23), all from one run on one store:

    python -m bench.compaction [--keys K] [--updates U] [--value-bytes V] [--dir DIR]

- disk: a compacted topic of K keys x U updates (batches of 10 records, one round of 10 keys each) is cleaned
  (``store.cleaner.clean``, repeated until nothing is left to clean) and retention deletes the dead CommitLog
  segments; the bytes left on disk (CommitLog + compacted log + ConsumeQueue) against the latest values' size
  plus one CommitLog segment. Target: at most 2x that.
- cleaner throughput: MB of log read per second by the passes (``cleaner_duty_cycle`` 1: unpaced), against
  the same run's disk rate of reading the same CommitLog files once and writing as many bytes (``read`` +
  ``write`` + ``fsync``).
- produce while cleaning: 1 KiB appends (one batch each, another topic) on the calling thread while the cleaner
  thread runs a pass (``store.cleaner.run``, the default ``cleaner_duty_cycle``), against the same appends with
  the cleaner idle for as long; rounds in ABBA order (pass, idle, idle, pass), the median of the rounds' ratios.
  Target: >= 0.9x.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.store import MessageStore, StoreConfig
from rockafka.store.config import DEFAULT_CLEANER_DUTY_CYCLE

RESULTS = Path(__file__).parent / "results" / "compaction.md"
SEGMENT = 64 << 20
COMPACTED = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "0"}


def keyed_batch(keys: range, round_: int, value_bytes: int) -> bytes:
    builder = DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, 1 << 24)
    for delta, key in enumerate(keys):
        value = f"{round_}-{key}-".encode().ljust(value_bytes, b".")
        builder.append(delta, timestamp=1_000 + round_, key=b"key-%06d" % key, value=value, headers=[])
    return bytes(builder.build())


def fill(store: MessageStore, keys: int, updates: int, value_bytes: int) -> None:
    for round_ in range(updates):
        for first in range(0, keys, 10):
            batch = keyed_batch(range(first, min(first + 10, keys)), round_, value_bytes)
            store.records.append("c", 0, batch, validate_batches(batch))


def disk_bytes(root: Path) -> int:
    return sum(
        p.stat().st_blocks * 512
        for sub in ("commitlog", "compacted", "consumequeue")
        for p in (root / sub).rglob("*")
        if p.is_file()
    )


def disk_rate(root: Path, scratch: Path) -> float:
    """Bytes per second of reading the CommitLog files once and writing as many bytes, fsynced."""
    files = sorted((root / "commitlog").iterdir())
    start = time.perf_counter()
    total = 0
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for path in files:
            with open(path, "rb") as file:
                while chunk := file.read(1 << 20):
                    total += len(chunk)
                    os.write(fd, chunk)
        os.fsync(fd)
    finally:
        os.close(fd)
        scratch.unlink()
    return 2 * total / (time.perf_counter() - start)


def append_rate(store: MessageStore, seconds: float, batch: bytes) -> float:
    headers = validate_batches(batch)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            store.records.append("p", 0, batch, headers)
        count += 100
    return count * len(batch) / (time.perf_counter() - start)


PLANNING: list[float] = []  # each pass's longest planning step on the loop thread (``run``), seconds


def appends_during_pass(store: MessageStore, keys: int, value_bytes: int, batch: bytes) -> tuple[float, float]:
    """(append bytes/s while a fresh pass runs on the cleaner thread, the pass's seconds)."""
    fill(store, keys, 20, value_bytes)  # something dirty to clean
    steps = []
    for _ in range(1_000):  # the loop plans in steps, each as long as one turn of the event loop would be held
        started = time.perf_counter()
        assert store.cleaner.run() == ()
        steps.append(time.perf_counter() - started)
        if not store.cleaner.planning:
            break
    assert store.cleaner._in_flight is not None
    PLANNING.append(max(steps))
    headers = validate_batches(batch)
    count, start = 0, time.perf_counter()
    while not store.cleaner._in_flight.done():
        for _ in range(100):
            store.records.append("p", 0, batch, headers)
        count += 100
    elapsed = time.perf_counter() - start
    store.cleaner.run()  # publish
    return count * len(batch) / elapsed, elapsed


def produce_while_cleaning(store: MessageStore, keys: int, value_bytes: int, rounds: int) -> list[tuple[float, float]]:
    """(append bytes/s while a pass runs, the same with the cleaner idle) per round; each round runs busy-idle-
    idle-busy (ABBA), the idle stretches as long as the round's first pass took, and gives each side's mean."""
    one_kib = keyed_batch(range(1), 0, 1000)
    results = []
    for _ in range(rounds):
        busy_first, seconds = appends_during_pass(store, keys, value_bytes, one_kib)
        idle = [append_rate(store, seconds, one_kib) for _ in range(2)]
        busy_last, _ = appends_during_pass(store, keys, value_bytes, one_kib)
        results.append(((busy_first + busy_last) / 2, sum(idle) / 2))
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compaction")
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=1000)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=5, help="ABBA rounds of produce with and without a pass")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="rockafka-bench-compaction-", dir=args.dir))
    lines = [f"# Compaction, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC", ""]
    try:
        root = base / "store"
        config = StoreConfig(
            root, commitlog_segment_bytes=SEGMENT, preallocate=False, index_enabled=False, cleaner_duty_cycle=1.0
        )
        with MessageStore.open(config) as store:
            store.topics.create("c", 1, COMPACTED)
            store.topics.create("p", 1)
            started = time.perf_counter()
            fill(store, args.keys, args.updates, args.value_bytes)
            store.flush()
            fill_s = time.perf_counter() - started
            before = disk_bytes(root)
            rate = disk_rate(root, base / "scratch.bin")
            cleaned = 0
            started = time.perf_counter()
            for _ in range(1000):
                report = store.cleaner.clean("c", 0)
                if report is None:
                    break
                cleaned += report.bytes_read
            clean_s = time.perf_counter() - started
            store.retention.enforce()
            after = disk_bytes(root)
            latest = args.keys * (args.value_bytes + 10)
        with MessageStore.open(replace(config, cleaner_duty_cycle=DEFAULT_CLEANER_DUTY_CYCLE)) as store:
            rounds = produce_while_cleaning(store, args.keys, args.value_bytes, args.rounds)
        ratios = sorted(busy / idle for busy, idle in rounds)
        median = ratios[len(ratios) // 2]
        lines += [
            f"- {args.keys} keys x {args.updates} updates, {args.value_bytes}-byte values, batches of 10 records:"
            f" written in {fill_s:.1f} s, {before / 1e6:.1f} MB on disk",
            f"- after compaction and retention: {after / 1e6:.2f} MB on disk; latest values {latest / 1e6:.2f} MB"
            f" + one segment {SEGMENT / 1e6:.1f} MB = {(latest + SEGMENT) / 1e6:.1f} MB:"
            f" {after / (latest + SEGMENT):.2f}x (target <= 2x)",
            f"- cleaner: {cleaned / 1e6:.1f} MB read in {clean_s:.2f} s = {cleaned / clean_s / 1e6:.1f} MB/s;"
            f" same-run disk read+write {rate / 1e6:.0f} MB/s: {cleaned / clean_s / rate:.3f}x",
            f"- 1 KiB appends while a pass runs on the cleaner thread against the cleaner idle, {len(rounds)} ABBA"
            f" rounds: median {median:.2f}x (target >= 0.9x); per round "
            + ", ".join(f"{busy / 1e6:.1f}/{idle / 1e6:.1f} MB/s = {busy / idle:.2f}x" for busy, idle in rounds),
            f"- planning a pass of {args.keys * 2} batches on the loop thread, in steps (``run``): the longest step"
            f" of each pass, median {sorted(PLANNING)[len(PLANNING) // 2] * 1e3:.0f} ms, longest"
            f" {max(PLANNING) * 1e3:.0f} ms",
        ]
    finally:
        shutil.rmtree(base, ignore_errors=True)
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
