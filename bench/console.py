"""What a console page costs on a large broker: 10,000 partitions and 1,000 consumer groups.

``python -m bench.console`` builds a store offline (``--topics`` topics of ``--partitions-per-topic``
partitions, a few records in each, and ``--groups`` groups that committed an offset on every partition of one
topic each), starts a broker on it with the console on, and asks each page's JSON API ``--rounds`` times over
loopback. The figure per page is the median and the worst request time, which on loopback is the broker's own
time (a request is one connection, no keep-alive, as the console's pages make them). Target: each page under one
second. It prints the table and writes it to ``bench/results/console.md``.
"""

from __future__ import annotations

import argparse
import http.client
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rockafka.store import MessageStore, OffsetCommit, StoreConfig

RESULTS = Path(__file__).parent / "results" / "console.md"


def build_store(root: Path, topics: int, partitions: int, groups: int) -> None:
    config = StoreConfig(
        root, commitlog_segment_bytes=64 << 20, consume_queue_units_per_file=256, preallocate=False,
        index_enabled=False,
    )  # fmt: skip
    store = MessageStore.open(config)
    try:
        for number in range(topics):
            store.topics.create(f"topic-{number:05d}", partitions)
        for number in range(groups):
            topic = f"topic-{number % topics:05d}"
            store.offsets.commit(f"group-{number:05d}", [OffsetCommit(topic, p, 0) for p in range(partitions)])
    finally:
        store.close()


def start_broker(root: Path, http_port: int) -> tuple[subprocess.Popen[bytes], float]:
    """A ``rockafka serve`` on the store; returns it once its HTTP listener answers, with the seconds that took
    (opening a store of many partitions takes a while: the figure is printed too)."""
    from bench.ops import free_port

    overrides = {
        "log.dirs": str(root),
        "listeners": f"PLAINTEXT://127.0.0.1:{free_port()}",
        "rockafka.http.listener": f"127.0.0.1:{http_port}",
        "rockafka.consumequeue.units.per.file": "256",
        "log.segment.bytes": str(64 << 20),
    }
    command = [sys.executable, "-m", "rockafka", "serve", "--log-level", "WARNING"]
    for key, value in overrides.items():
        command += ["--override", f"{key}={value}"]
    started = time.perf_counter()
    process = subprocess.Popen(command)
    while time.perf_counter() - started < 600:
        try:
            get_seconds(http_port, "/readyz")
            return process, time.perf_counter() - started
        except (OSError, RuntimeError):
            if process.poll() is not None:
                raise RuntimeError(f"the broker exited with {process.returncode}") from None
            time.sleep(0.5)
    process.kill()
    raise RuntimeError("the broker did not answer within 600 s")


def get_seconds(port: int, path: str) -> float:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{path} answered {answer.status}")
    finally:
        connection.close()
    return time.perf_counter() - started


def pages(topics: int, partitions: int) -> dict[str, str]:
    last = max(1, -(-topics // 50))
    return {
        "overview": "/api/overview",
        "topics, first page": "/api/topics?page=1&size=50",
        f"topics, page {last}": f"/api/topics?page={last}&size=50",
        "topics, filtered": "/api/topics?filter=topic-0099",
        "topic": f"/api/topic?name=topic-00000&size={min(partitions, 100)}",
        "messages": "/api/messages?topic=topic-00000&partition=0&order=newest&limit=50",
        "groups, first page": "/api/groups?page=1&size=50",
        "group": "/api/group?id=group-00000",
        "store": "/api/store?page=1&size=100",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--partitions-per-topic", type=int, default=10)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    from bench.ops import free_port

    scratch = Path(tempfile.mkdtemp(prefix="bench-console-"))
    try:
        root = scratch / "data"
        started = time.perf_counter()
        build_store(root, args.topics, args.partitions_per_topic, args.groups)
        print(f"store built in {time.perf_counter() - started:.1f} s")
        port = free_port()
        process, start_s = start_broker(root, port)
        print(f"broker serving after {start_s:.1f} s")
        rows = []
        try:
            for name, path in pages(args.topics, args.partitions_per_topic).items():
                get_seconds(port, path)  # warm
                times = [get_seconds(port, path) for _ in range(args.rounds)]
                rows.append((name, path, statistics.median(times), max(times)))
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(120)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    partitions = args.topics * args.partitions_per_topic
    lines = [
        f"# Console page times: {args.topics} topics, {partitions} partitions, {args.groups} groups",
        "",
        f"`python -m bench.console --topics {args.topics} --partitions-per-topic {args.partitions_per_topic} "
        f"--groups {args.groups} --rounds {args.rounds}`; one request per connection over loopback, after a warm-up.",
        f"The broker (a `rockafka serve` subprocess) answered its first request {start_s:.0f} s after it started.",
        "",
        "| page | request | median ms | worst ms |",
        "|---|---|---:|---:|",
        *(f"| {name} | `{path}` | {median * 1000:.0f} | {worst * 1000:.0f} |" for name, path, median, worst in rows),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text)


if __name__ == "__main__":
    main()
