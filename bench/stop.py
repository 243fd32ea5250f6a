"""How long a broker takes to stop with a group consumer's fetch parked, per client.

``python -m bench.stop`` prints, and writes to ``bench/results/stop.md``, for each of kafka-python, aiokafka,
confluent-kafka and kafkajs (when Node and ``make compat-deps`` are there): the time ``Broker.close()`` of an
in-process broker takes, and the time ``rockafka serve`` takes to exit after SIGTERM, while one group
consumer of that client (a child process, ``fetch.max.wait.ms`` 20 s) has read everything and has a fetch
parked. ``--rounds`` repeats each and the median is reported. The broker's drain bound is 10 s
(``DRAIN_TIMEOUT_S``); the target is well under a second. compat_tests/test_stop_immediate.py asserts a
5 s bound for each.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import write_table
from compat_tests.clients.kafkajs_driver import kafkajs_missing
from compat_tests.test_stop_immediate import CLIENTS, consuming
from rockafka.testing import Broker


def close_in_process(client: str, work: Path) -> float:
    broker = Broker(data_dir=work / "data").start()
    try:
        with consuming(client, broker, work):
            time.sleep(1.0)  # the consumer's next fetch parks
            started = time.monotonic()
            broker.close()
            return time.monotonic() - started
    finally:
        broker.close()


def sigterm_subprocess(client: str, work: Path) -> float:
    broker = Broker(subprocess=True, data_dir=work / "data").start()
    process = broker._runner._process  # type: ignore[union-attr]
    assert process is not None
    try:
        with consuming(client, broker, work):
            time.sleep(1.0)
            started = time.monotonic()
            process.send_signal(signal.SIGTERM)
            process.wait(30)
            return time.monotonic() - started
    finally:
        broker.kill()
        broker.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stop", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    clients = [c for c in CLIENTS if c != "kafkajs" or kafkajs_missing() is None]
    rows = []
    for client in clients:
        closes, sigterms = [], []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="bench-stop-") as work:
                closes.append(close_in_process(client, Path(work)))
            with tempfile.TemporaryDirectory(prefix="bench-stop-") as work:
                sigterms.append(sigterm_subprocess(client, Path(work)))
        rows.append([client, f"{statistics.median(closes):.3f}", f"{statistics.median(sigterms):.3f}"])
        print(rows[-1], flush=True)
    header = ["client", "Broker.close() in-process, s", "rockafka serve after SIGTERM, s"]
    note = f"Median of {args.rounds} rounds (`python -m bench.stop`)."
    write_table("stop", "Stopping with a parked consumer", note, header, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
