"""What operating a broker costs: produce 1 KiB with ``/metrics`` on vs off, and one scrape at 10,000 partitions.

``python -m bench.ops`` prints, and writes to ``bench/results/ops.md``:

- **metrics overhead**: two broker subprocesses started alike, one with ``rockafka.http.listener`` set (its
  metrics counting) and one without; a librdkafka producer (``confluent-kafka``, acks=1) sends ``--messages``
  1 KiB records to each in turn, the order alternating, ``--rounds`` times. The figure is the ratio of the
  median rates, on/off, measured in this one run (target: at least 0.97).
- **scrape at N partitions**: a store with one topic of ``--partitions`` partitions and a group that
  committed an offset on every one, so the lag covers them all. A scrape's snapshot is taken on an event
  loop while a ticker task on the same loop measures the longest time the loop was held; then the text is
  rendered in a worker thread, as the broker does. The figures: the longest hold, the snapshot's and the
  rendering's times, and the size of the text.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import tempfile
import time
from pathlib import Path

from rockafka.facade.ops.exposition import render, take_snapshot
from rockafka.facade.ops.metrics import BrokerMetrics
from rockafka.store import MessageStore, OffsetCommit, StoreConfig
from rockafka.testing import Broker

RESULTS = Path(__file__).parent / "results" / "ops.md"
PAYLOAD = b"x" * 1024


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def produce_rate(bootstrap: str, topic: str, count: int) -> float:
    """Records per second of one producer sending ``count`` 1 KiB records, delivery confirmed."""
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 5, "batch.size": 1 << 20})
    producer.produce(topic, PAYLOAD)  # the topic exists and the connection is up before timing starts
    producer.flush(30)
    started = time.perf_counter()
    for _ in range(count):
        while True:
            try:
                producer.produce(topic, PAYLOAD)
                break
            except BufferError:
                producer.poll(0.01)
    left = producer.flush(120)
    elapsed = time.perf_counter() - started
    if left:
        raise RuntimeError(f"{left} records not delivered")
    return count / elapsed


def metrics_overhead(rounds: int, messages: int, scratch: Path) -> tuple[float, float, float, dict[str, list[float]]]:
    """(median rate off, median rate on, on/off, every run's rate per side)."""
    on = Broker(
        data_dir=scratch / "on", subprocess=True, settings={"rockafka.http.listener": f"127.0.0.1:{free_port()}"}
    )
    off = Broker(data_dir=scratch / "off", subprocess=True)
    rates: dict[str, list[float]] = {"on": [], "off": []}
    with on, off:
        for index in range(rounds):
            order = [("on", on), ("off", off)] if index % 2 == 0 else [("off", off), ("on", on)]
            for name, broker in order:
                rates[name].append(produce_rate(broker.bootstrap, f"bench-{index}", messages))
    rate_on, rate_off = statistics.median(rates["on"]), statistics.median(rates["off"])
    return rate_off, rate_on, rate_on / rate_off, rates


async def _held_while(work: asyncio.Future[object] | asyncio.Task[object]) -> tuple[float, float]:
    """The longest gap between ticks of a task that yields to the loop as often as it can, while ``work`` runs:
    in wall time (which counts the machine's other load too) and in the loop thread's CPU time (the work alone)."""
    longest_wall = longest_cpu = 0.0
    last_wall, last_cpu = time.perf_counter(), time.thread_time()
    while not work.done():
        await asyncio.sleep(0)
        wall, cpu = time.perf_counter(), time.thread_time()
        longest_wall, longest_cpu = max(longest_wall, wall - last_wall), max(longest_cpu, cpu - last_cpu)
        last_wall, last_cpu = wall, cpu
    return longest_wall, longest_cpu


def scrape_cost(partitions: int, scratch: Path) -> dict[str, float]:
    config = StoreConfig(
        scratch / "store", commitlog_segment_bytes=64 << 20, consume_queue_units_per_file=256, preallocate=False,
        index_enabled=False,
    )  # fmt: skip
    store = MessageStore.open(config)
    try:
        store.topics.create("wide", partitions)
        store.offsets.commit("bench-group", [OffsetCommit("wide", n, 0) for n in range(partitions)])

        async def scrape() -> dict[str, float]:
            idle_wall, _ = await _held_while(asyncio.ensure_future(asyncio.sleep(0.2)))
            started = time.perf_counter()
            task = asyncio.ensure_future(take_snapshot(BrokerMetrics(), store, [], ready=True))
            held_wall, held_cpu = await _held_while(task)
            snapshot = task.result()
            snapshot_s = time.perf_counter() - started
            started = time.perf_counter()
            text = await asyncio.get_running_loop().run_in_executor(None, render, snapshot)
            return {
                "lag series": len(snapshot.lags), "longest loop hold, loop thread CPU ms": held_cpu * 1000,
                "longest loop hold, wall ms": held_wall * 1000,
                "longest hold of an idle loop, wall ms": idle_wall * 1000,
                "snapshot ms": snapshot_s * 1000, "render ms (worker thread)": (time.perf_counter() - started) * 1000,
                "text bytes": len(text),
            }  # fmt: skip

        asyncio.run(scrape())  # the first scrape maps every partition's ConsumeQueue: a broker's are mapped already
        return asyncio.run(scrape())
    finally:
        store.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ops", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="produce runs per broker (default 5)")
    parser.add_argument("--messages", type=int, default=100_000, help="1 KiB records per run (default 100,000)")
    parser.add_argument("--partitions", type=int, default=10_000, help="partitions of the scrape (default 10,000)")
    parser.add_argument("--skip-produce", action="store_true", help="only the scrape figure")
    args = parser.parse_args(argv)
    lines = ["# Operations overhead (python -m bench.ops)", ""]
    with tempfile.TemporaryDirectory(prefix="bench-ops-") as scratch:
        cost = scrape_cost(args.partitions, Path(scratch))
        lines += [f"Scrape at {args.partitions:,} partitions, every one with a committed offset:", ""]
        lines += [f"- {name}: {value:,.2f}" for name, value in cost.items()]
        if not args.skip_produce:
            off, on, ratio, runs = metrics_overhead(args.rounds, args.messages, Path(scratch))
            lines += ["", f"Produce 1 KiB, acks=1, {args.rounds} rounds of {args.messages:,} records, median:", ""]
            lines += [f"- metrics off: {off:,.0f} records/s", f"- metrics on: {on:,.0f} records/s"]
            lines += [f"- on/off: {ratio:.3f}x (target: at least 0.97x)"]
            lines += [f"- runs {side}: " + ", ".join(f"{rate:,.0f}" for rate in rates) for side, rates in runs.items()]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
