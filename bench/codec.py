"""Hot-message codec rates: decode a Produce v9 request carrying one 16 KiB batch, encode a Fetch v12 response
with one partition and one batch, and (for scale) validate that batch; the compiled kernel, its pure-Python
twin and kafka-python 3.0.12's generic classes, measured in the same run. Targets (issue 2), compiled, on a
2-core machine: Produce decode >= 400k/s and Fetch encode >= 300k/s.

    python -m bench.codec [--seconds S] [--no-write]

Bodies only (no request/response header, no frame), for every contender alike. Each figure is the best of
five timed rounds of about ``S``/5 seconds each, so other load on the machine lowers it less.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from kafka.protocol.consumer import FetchResponse as KpFetchResponse
from kafka.protocol.producer import ProduceRequest as KpProduceRequest
from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

from rockafka.core_pyx import hotcodec, twins

RESULTS = Path(__file__).parent / "results" / "codec.md"
BATCH_BYTES = 16 * 1024
TARGETS = {"Produce v9 decode": 400_000, "Fetch v12 encode": 300_000}


def _batch(first_value_size: int) -> bytes:
    builder = DefaultRecordBatchBuilder(2, 0, False, -1, -1, -1, 1 << 20)
    for offset in range(16):
        value = b"v" * (first_value_size if offset == 0 else 1000)
        builder.append(offset, timestamp=1_700_000_000_000 + offset, key=b"key-%d" % offset, value=value, headers=[])
    return bytes(builder.build())


def sixteen_kib_batch() -> bytes:
    """One uncompressed RecordBatch of 16 KiB (give or take a varint byte), as kafka-python's producer builds it."""
    batch = _batch(1000 + BATCH_BYTES - len(_batch(1000)))
    assert abs(len(batch) - BATCH_BYTES) <= 4, len(batch)
    return batch


def rate(call: Callable[[], object], seconds: float) -> float:
    """Calls per second: the best of five rounds."""
    timer = timeit.Timer(call)
    number, elapsed = timer.autorange()
    per_round = max(1, int(number * (seconds / 5) / max(elapsed, 1e-9)))
    return per_round / min(timer.repeat(repeat=5, number=per_round))


def fetch_bytes(impl: ModuleType, response: object) -> bytes:
    """A Fetch v12 body as one ``bytes``, the batch copied into it once (no part is big enough to go uncopied)."""
    parts: list[bytes] = impl.encode_fetch_response_parts(12, response, None, 1 << 62)
    return parts[0]


def contenders(batch: bytes) -> dict[str, dict[str, Callable[[], object]]]:
    request = hotcodec.ProduceRequest(
        None,
        -1,
        30_000,
        [hotcodec.TopicProduceData("bench-topic", [hotcodec.PartitionProduceData(0, memoryview(batch))])],
    )
    kp_request = KpProduceRequest[9](
        transactional_id=None,
        acks=-1,
        timeout_ms=30_000,
        topic_data=[
            KpProduceRequest.TopicProduceData(
                name="bench-topic",
                partition_data=[KpProduceRequest.TopicProduceData.PartitionProduceData(index=0, records=batch)],
            )
        ],
    )
    body = bytes(kp_request.encode())
    response = hotcodec.FetchResponse(
        responses=[
            hotcodec.FetchableTopicResponse(
                "bench-topic",
                partitions=[hotcodec.PartitionData(0, 0, 16, 16, 0, aborted_transactions=None, records=[batch])],
            )
        ]
    )
    partition = KpFetchResponse.FetchableTopicResponse.PartitionData(
        partition_index=0, error_code=0, high_watermark=16, last_stable_offset=16, log_start_offset=0,
        aborted_transactions=None, records=batch,
    )  # fmt: skip
    kp_response = KpFetchResponse[12](
        throttle_time_ms=0,
        error_code=0,
        session_id=0,
        responses=[KpFetchResponse.FetchableTopicResponse(topic="bench-topic", partitions=[partition])],
    )
    impls: dict[str, ModuleType] = twins("_hotcodec")
    decoders = impls
    for impl in impls.values():  # all contenders do the same work
        assert fetch_bytes(impl, response) == bytes(kp_response.encode())
    for decoder in decoders.values():
        assert decoder.decode_produce_request(body, 9) == request
    table: dict[str, dict[str, Callable[[], object]]] = {"Produce v9 decode": {}, "Fetch v12 encode": {}}
    for name in ("compiled", "pure"):
        impl, decoder = impls.get(name), decoders.get(name)
        if decoder is not None:
            table["Produce v9 decode"][name] = lambda decoder=decoder: decoder.decode_produce_request(body, 9)
        if impl is not None:
            table["Fetch v12 encode"][name] = lambda impl=impl: fetch_bytes(impl, response)
    table["Produce v9 decode"]["kafka-python"] = lambda: KpProduceRequest.decode(body, version=9)
    table["Fetch v12 encode"]["kafka-python"] = lambda: kp_response.encode()
    table["RecordBatch validate (CRC-32C)"] = batch_validation(batch)
    return table


def batch_validation(batch: bytes) -> dict[str, Callable[[], object]]:
    """What the broker does per batch on Produce, besides decoding: header, lengths, CRC-32C, counts."""
    calls: dict[str, Callable[[], object]] = {}
    for name, impl in twins("_recordbatch").items():
        calls[name] = lambda impl=impl: impl.validate_batch(batch)
    calls["kafka-python"] = lambda: DefaultRecordBatch(batch).validate_crc()
    return calls


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (
        f"{model}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def report(figures: dict[str, dict[str, float]], seconds: float) -> str:
    lines = [
        "# Hot-message codec rates",
        "",
        f"- date: {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {machine()}",
        f"- command: `.venv/bin/python -m bench.codec --seconds {seconds:g}`",
        f"- workload: bodies only; one topic, one partition, one uncompressed {BATCH_BYTES // 1024} KiB RecordBatch",
        "",
        "| operation | compiled | pure twin | kafka-python 3.0.12 | target (compiled) | met |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for operation, rates in figures.items():
        cells = [
            f"{rates[name] / 1000:,.0f}k/s" if name in rates else "—" for name in ("compiled", "pure", "kafka-python")
        ]
        target = TARGETS.get(operation)
        if target is None:
            lines.append(f"| {operation} | {' | '.join(cells)} | — | — |")
            continue
        met = "yes" if rates.get("compiled", 0) >= target else "NO"
        lines.append(f"| {operation} | {' | '.join(cells)} | {target // 1000}k/s | {met} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.codec", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure (default 2)")
    parser.add_argument("--no-write", action="store_true", help=f"print only; do not write {RESULTS}")
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, float]] = {}
    for operation, calls in contenders(sixteen_kib_batch()).items():
        figures[operation] = {name: rate(call, args.seconds) for name, call in calls.items()}
    text = report(figures, args.seconds)
    print(text, end="")
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
