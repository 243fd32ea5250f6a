"""What message-format conversion costs: 1 KiB messages produced and fetched through the old formats (Produce v2
with a MessageSet of format v1, Fetch v3 down-converted to it) against the RecordBatch v2 path (Produce v9,
Fetch v11), measured in the same run; and the converters alone against the v2 path's own work.

    python -m bench.conversion [--requests N] [--no-write]

Broker: a subprocess (``rockafka.testing.Broker(subprocess=True)``), one client connection, one request at a time,
each request carrying 16 messages of 1 KiB (one batch or one MessageSet) and each fetch up to 64 KiB. Each figure
is the best of five rounds; the paths alternate within a round so machine load falls on both alike. The ratios
are what this reports: old path / v2 path, in requests per second (below 1: the old path is slower).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.core_pyx.records import walk_records
from rockafka.facade.legacy import down_convert, up_convert
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchResponse, FetchTopic
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)
from rockafka.testing import Broker
from rockafka.wire_client import WireClient

RESULTS = Path(__file__).parent / "results" / "conversion.md"
MESSAGES_PER_REQUEST = 16
VALUE = b"v" * 1024
FETCH_BYTES = 64 * 1024
ROUNDS = 5
TOPIC = "conversion-bench"
UP, VALIDATE = "up_convert (16 x 1 KiB)", "v2 validation (16 x 1 KiB)"


def message_set() -> bytes:
    builder = LegacyRecordBatchBuilder(magic=1, compression_type=0, batch_size=1 << 20)
    for index in range(MESSAGES_PER_REQUEST):
        builder.append(index, timestamp=1_700_000_000_000 + index, key=b"key-%d" % index, value=VALUE)
    return bytes(builder.build())


def record_batch() -> bytes:
    builder = DefaultRecordBatchBuilder(2, 0, False, -1, -1, -1, 1 << 20)
    for index in range(MESSAGES_PER_REQUEST):
        builder.append(index, timestamp=1_700_000_000_000 + index, key=b"key-%d" % index, value=VALUE, headers=[])
    return bytes(builder.build())


def _produce(client: WireClient, version: int, records: bytes) -> Callable[[], None]:
    data = TopicProduceData(name=TOPIC, partition_data=[PartitionProduceData(index=0, records=records)])
    request = ProduceRequest(acks=1, timeout_ms=5000, topic_data=[data])

    def once() -> None:
        answer = client.request(request, version, ProduceResponse)
        assert answer.responses[0].partition_responses[0].error_code == 0

    return once


def _fetch(client: WireClient, version: int, high_watermark: int) -> Callable[[], None]:
    position = [0]

    def once() -> None:
        partition = FetchPartition(partition=0, fetch_offset=position[0], partition_max_bytes=FETCH_BYTES)
        request = FetchRequest(max_wait_ms=0, min_bytes=1, max_bytes=FETCH_BYTES, topics=[
            FetchTopic(topic=TOPIC, partitions=[partition])])  # fmt: skip
        part = client.request(request, version, FetchResponse).responses[0].partitions[0]
        assert part.error_code == 0 and part.records
        position[0] = (position[0] + 4 * MESSAGES_PER_REQUEST) % (high_watermark - 4 * MESSAGES_PER_REQUEST)

    return once


def best_rates(paths: dict[str, Callable[[], None]], count: int) -> dict[str, float]:
    """Calls per second of each path: the best of ROUNDS rounds of ``count`` calls, the paths alternating."""
    best = dict.fromkeys(paths, 0.0)
    for _ in range(ROUNDS):
        for name, call in paths.items():
            started = time.perf_counter()
            for _ in range(count):
                call()
            best[name] = max(best[name], count / (time.perf_counter() - started))
    return best


def wire_rates(count: int) -> dict[str, float]:
    with Broker(subprocess=True, settings={"num.partitions": "1"}) as broker, WireClient(broker.bootstrap) as client:
        _create_topic(client)
        old, new = message_set(), record_batch()
        produced = best_rates({"Produce v2 (MessageSet v1)": _produce(client, 2, old),
                               "Produce v9 (RecordBatch v2)": _produce(client, 9, new)}, count)  # fmt: skip
        high_watermark = 2 * ROUNDS * count * MESSAGES_PER_REQUEST
        fetched = best_rates({"Fetch v3 (down-converted)": _fetch(client, 3, high_watermark),
                              "Fetch v11 (stored batches)": _fetch(client, 11, high_watermark)}, count)  # fmt: skip
    return {**produced, **fetched}


def _create_topic(client: WireClient) -> None:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=TOPIC)], allow_auto_topic_creation=True)
    for _ in range(20):
        if client.request(request, 12, MetadataResponse).topics[0].error_code == 0:
            return
        time.sleep(0.1)
    raise RuntimeError(f"topic {TOPIC} was not created")


def kernel_rates(count: int) -> dict[str, float]:
    old, new = message_set(), record_batch()
    stored = [memoryview(new)] * (FETCH_BYTES // len(new))

    def validate() -> None:
        header = validate_batches(new)[0]
        walk_records(memoryview(new)[61 : header.size])

    return best_rates({
        UP: lambda: up_convert(old),
        VALIDATE: validate,
        "down_convert (64 KiB)": lambda: down_convert(stored, 1, 0, FETCH_BYTES),
    }, count * 10)  # fmt: skip


def report(wire: dict[str, float], kernels: dict[str, float]) -> str:
    rows = [f"| {name} | {rate:,.0f} |" for name, rate in {**wire, **kernels}.items()]
    names = list(wire)
    return "\n".join([
        f"## {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}",
        "", "| path | per second (best of 5) |", "|---|---|", *rows, "",
        f"- Produce through up-conversion / v2: **{wire[names[0]] / wire[names[1]]:.2f}**",
        f"- Fetch through down-conversion / v2: **{wire[names[2]] / wire[names[3]]:.2f}**",
        f"- up_convert / v2 validation: {kernels[UP] / kernels[VALIDATE]:.2f}",
        "",
    ])  # fmt: skip


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.conversion", description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per path and round")
    parser.add_argument("--no-write", action="store_true", help=f"do not append to {RESULTS}")
    args = parser.parse_args(argv)
    text = report(wire_rates(args.requests), kernel_rates(args.requests))
    print(text)
    if not args.no_write:
        with RESULTS.open("a") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
