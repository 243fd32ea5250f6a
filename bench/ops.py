"""What operating a broker costs: produce 1 KiB with ``/metrics`` on vs off, and one scrape at 10,000 partitions.

``python -m bench.ops`` prints, and writes to ``bench/results/ops.md``:

- **metrics overhead**: two broker subprocesses started alike, one with ``rockafka.http.listener`` set (its
  metrics counting) and one without; a librdkafka producer (``confluent-kafka``, acks=1) sends ``--messages``
  1 KiB records to each in turn, the order alternating, ``--rounds`` times. The figure is the ratio of the
  median broker CPU time per record (from ``/proc/PID/stat``), off/on, measured in this one run (target: at
  least 0.97); the ratio of the rates is printed too, but on a shared machine the wall clock mostly
  measures the neighbours (hardware counters, ``perf stat -e instructions:u``, are not available in a VM).
- **scrape at N partitions**: a store with one topic of ``--partitions`` partitions and a group that
  committed an offset on every one, so the lag covers them all. A scrape's snapshot is taken on an event
  loop while a ticker task on the same loop measures the longest time the loop was held; then the text is
  rendered in a worker thread, as the broker does. The figures: the longest hold, the snapshot's and the
  rendering's times, and the size of the text.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path
from typing import ClassVar

from rockafka.facade.ops.exposition import render, take_snapshot
from rockafka.facade.ops.metrics import BrokerMetrics, MeteredDispatcher
from rockafka.facade.server import ConnectionInfo
from rockafka.store import AppendResult, MessageStore, OffsetCommit, StoreConfig
from rockafka.testing import TEST_SETTINGS

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


class BrokerProcess:
    """``python -m rockafka serve`` in a child process whose CPU time can be read (``/proc/PID/stat``)."""

    def __init__(self, data_dir: Path, settings: dict[str, str]) -> None:
        self.port = free_port()
        overrides = {**TEST_SETTINGS, **settings, "listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
                     "log.dirs": str(data_dir)}  # fmt: skip
        command = [sys.executable, "-m", "rockafka", "serve", "--log-level", "WARNING"]
        for name, value in overrides.items():
            command += ["--override", f"{name}={value}"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the broker did not start within 60 s")

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def metrics_overhead(rounds: int, messages: int, scratch: Path) -> dict[str, dict[str, list[float]]]:
    """Per side ("on", "off"): every run's records per second and broker CPU microseconds per record."""
    sides = {"off": BrokerProcess(scratch / "off", {})}
    sides["on"] = BrokerProcess(scratch / "on", {"rockafka.http.listener": f"127.0.0.1:{free_port()}"})
    runs: dict[str, dict[str, list[float]]] = {side: {"rate": [], "cpu": []} for side in sides}
    try:
        for index in range(rounds):
            for side in ("on", "off") if index % 2 == 0 else ("off", "on"):
                broker = sides[side]
                cpu = broker.cpu_seconds()
                runs[side]["rate"].append(produce_rate(broker.bootstrap, f"bench-{index}", messages))
                runs[side]["cpu"].append((broker.cpu_seconds() - cpu) * 1e6 / messages)
    finally:
        for broker in sides.values():
            broker.stop()
    return runs


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


class _Answering:
    """A dispatcher that answers at once: what the metered wrapper adds is then all that is timed."""

    answer: ClassVar[list[bytes]] = [b""]

    def dispatch(self, frame: bytes, connection: ConnectionInfo) -> list[bytes]:
        return self.answer

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        return "User:ANONYMOUS"


def hook_cost(calls: int = 200_000) -> dict[str, float]:
    """Nanoseconds the metrics add per request (the dispatcher wrapper) and per appended partition."""
    metrics = BrokerMetrics()
    result = AppendResult("t", 0, 0, 99, None, 0, 102_400, None)
    frame = struct.pack(">hhi", 0, 9, 1) + bytes(64)
    connection = ConnectionInfo("127.0.0.1:1", "PLAINTEXT")
    bare, metered = _Answering(), MeteredDispatcher(_Answering(), metrics)
    figures = {}
    for name, call in (
        ("dispatch, bare", lambda: bare.dispatch(frame, connection)),
        ("dispatch, metered", lambda: metered.dispatch(frame, connection)),
        ("append listener", lambda: metrics.on_append(result)),
    ):
        figures[f"{name} ns"] = min(timeit.repeat(call, number=calls, repeat=5)) / calls * 1e9
    return figures


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
        hooks = hook_cost()
        lines += ["What the metrics add to serving, per call (best of 5):", ""]
        lines += [f"- {name}: {value:,.0f}" for name, value in hooks.items()]
        lines += [""]
        cost = scrape_cost(args.partitions, Path(scratch))
        lines += [f"Scrape at {args.partitions:,} partitions, every one with a committed offset:", ""]
        lines += [f"- {name}: {value:,.2f}" for name, value in cost.items()]
        if not args.skip_produce:
            runs = metrics_overhead(args.rounds, args.messages, Path(scratch))
            lines += [
                "",
                f"Produce 1 KiB, acks=1, {args.rounds} rounds of {args.messages:,} records per side, medians:",
            ]
            lines += ["", "| | metrics off | metrics on | on/off |", "|---|---|---|---|"]
            for key, label in (("cpu", "broker CPU us per record"), ("rate", "records/s (wall: the machine's noise)")):
                off, on = statistics.median(runs["off"][key]), statistics.median(runs["on"][key])
                ratio = off / on if key == "cpu" else on / off
                lines.append(f"| {label} | {off:,.2f} | {on:,.2f} | {ratio:.3f}x |")
            lines += ["", "The CPU ratio is off/on (higher is better, target: at least 0.97x). Every run:", ""]
            for side, figures in runs.items():
                lines += [
                    f"- {side}, {key}: " + ", ".join(f"{v:,.2f}" for v in values) for key, values in figures.items()
                ]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
