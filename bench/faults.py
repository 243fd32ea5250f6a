"""What fault injection costs a test broker's requests while no fault is installed.

``python -m bench.faults`` starts a ``BrokerApp(fault_injection=True)`` (what ``rockafka.testing`` runs) on an
event loop in this process and times ``--calls`` dispatches of a Metadata and a Fetch request (an empty
partition, ``max_wait_ms`` 0: answered at once) through its idle :class:`FaultInjector` and through the
dispatcher it wraps, alternating, ``--rounds`` times. The figure is the ratio of the medians, wrapped/direct,
measured in this one run (target: 1.00 within noise: the idle injector's ``dispatch`` *is* the dispatcher's
bound method). ``rockafka serve`` never builds an injector at all. Results go to ``bench/results/faults.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench import write_table
from rockafka.facade.app import BrokerApp
from rockafka.facade.config import load_broker_config
from rockafka.facade.protocol.framing import encode_request
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchTopic
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic
from rockafka.facade.server import ConnectionInfo
from rockafka.testing import TEST_SETTINGS

TOPIC = "bench-faults"


def _frames() -> dict[str, bytes]:
    metadata = MetadataRequest(topics=[MetadataRequestTopic(name=TOPIC)], allow_auto_topic_creation=True)
    partition = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
    topics = [FetchTopic(topic=TOPIC, partitions=[partition])]
    fetch = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, topics=topics)
    return {"Metadata v9": encode_request(metadata, 9, 1)[4:], "Fetch v11": encode_request(fetch, 11, 2)[4:]}


def _time(dispatch: Callable[[bytes, ConnectionInfo], object], frame: bytes, calls: int) -> float:
    info = ConnectionInfo("127.0.0.1:1", "PLAINTEXT", host="127.0.0.1")
    started = time.perf_counter()
    for _ in range(calls):
        dispatch(frame, info)
    return time.perf_counter() - started


async def measure(calls: int, rounds: int, data_dir: Path) -> dict[str, float]:
    overrides = [f"{key}={value}" for key, value in TEST_SETTINGS.items()]
    overrides += ["listeners=PLAINTEXT://127.0.0.1:0", f"log.dirs={data_dir}"]
    app = BrokerApp(load_broker_config(None, overrides, {}), fault_injection=True)
    await app.start()
    try:
        assert app.faults is not None and app.faults.dispatch == app.faults._inner.dispatch
        direct = app.faults._inner.dispatch
        ratios = {}
        for name, frame in _frames().items():
            _time(direct, frame, calls // 10)  # warm up: the topic is created by the first Metadata
            wrapped_times: list[float] = []
            direct_times: list[float] = []
            for index in range(rounds):
                order = [(app.faults, wrapped_times), (None, direct_times)]
                for handler, times in order if index % 2 == 0 else reversed(order):
                    times.append(_time(direct if handler is None else handler.dispatch, frame, calls))
            ratios[name] = statistics.median(wrapped_times) / statistics.median(direct_times)
        return ratios
    finally:
        await app.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as work:
        ratios = asyncio.run(measure(args.calls, args.rounds, Path(work)))
    note = (
        f"Median time of {args.calls} dispatches, through the idle injector / direct, {args.rounds} rounds "
        "alternating (`python -m bench.faults`)."
    )
    rows = [[name, f"{ratio:.3f}"] for name, ratio in ratios.items()]
    write_table("faults", "An idle fault injector on the request path", note, ["request", "ratio"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
