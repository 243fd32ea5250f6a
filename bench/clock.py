"""What a test broker's simulated clock costs its produce and fetch path: nothing, as nothing there reads it.

``python -m bench.clock`` starts two ``BrokerApp`` in this process, one on the real clock (what ``rockafka serve``
runs) and one on a ``ManualClock`` (``Broker(clock=...)`` of ``rockafka.testing``), and times ``--calls``
dispatches of an acks=1 Produce of a 16 KiB batch and of a Fetch reading it back, through each broker's
dispatcher, alternating, ``--rounds`` times. The figure is the ratio of the medians, manual/real, measured in
this one run (target: 1.00 within noise: the clock is read by the broker's timers, never per request). Results
go to ``bench/results/clock.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

from bench import write_table
from bench.codec import sixteen_kib_batch
from bench.faults import _time
from rockafka.facade.app import BrokerApp
from rockafka.facade.clock import REAL_CLOCK, Clock, ManualClock
from rockafka.facade.config import load_broker_config
from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.framing import encode_request
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchTopic
from rockafka.facade.protocol.messages.produce import PartitionProduceData, ProduceRequest, TopicProduceData
from rockafka.testing import TEST_SETTINGS

TOPIC = "bench-clock"


def _frames() -> dict[str, bytes]:
    data = [TopicProduceData(name=TOPIC, partition_data=[PartitionProduceData(index=0, records=sixteen_kib_batch())])]
    produce = ProduceRequest(transactional_id=None, acks=1, timeout_ms=30_000, topic_data=data)
    partition = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
    topics = [FetchTopic(topic=TOPIC, partitions=[partition])]
    fetch = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, topics=topics)
    return {"Produce v9 (16 KiB)": encode_request(produce, 9, 1)[4:], "Fetch v11": encode_request(fetch, 11, 2)[4:]}


async def _started(clock: Clock, data_dir: Path) -> BrokerApp:
    overrides = [f"{key}={value}" for key, value in TEST_SETTINGS.items()]
    overrides += ["listeners=PLAINTEXT://127.0.0.1:0", f"log.dirs={data_dir}", "rockafka.flush.mode=async"]
    app = BrokerApp(load_broker_config(None, overrides, {}), clock=clock)
    await app.start()
    assert app.broker is not None
    app.broker.store.topics.create(TOPIC, 1)
    return app


async def measure(calls: int, rounds: int, work: Path) -> dict[str, float]:
    apps = {"real": await _started(REAL_CLOCK, work / "real"), "manual": await _started(ManualClock(), work / "manual")}
    try:
        dispatchers = {name: RequestDispatcher(app.broker).dispatch for name, app in apps.items() if app.broker}
        ratios = {}
        for name, frame in _frames().items():
            times: dict[str, list[float]] = {"real": [], "manual": []}
            for dispatch in dispatchers.values():
                _time(dispatch, frame, calls // 10)  # warm up
            for index in range(rounds):
                order = ["real", "manual"] if index % 2 == 0 else ["manual", "real"]
                for which in order:
                    times[which].append(_time(dispatchers[which], frame, calls))
            ratios[name] = statistics.median(times["manual"]) / statistics.median(times["real"])
        return ratios
    finally:
        for app in apps.values():
            await app.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.clock", description=__doc__)
    parser.add_argument("--calls", type=int, default=300)  # 16 KiB each: a few MiB per round
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-clock-") as work:
        ratios = asyncio.run(measure(args.calls, args.rounds, Path(work)))
    note = (
        f"Median time of {args.calls} dispatches, broker on a ManualClock / on the real clock, {args.rounds} rounds "
        "alternating (`python -m bench.clock`)."
    )
    rows = [[name, f"{ratio:.3f}"] for name, ratio in ratios.items()]
    write_table("clock", "A simulated clock on the produce and fetch path", note, ["request", "ratio"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
