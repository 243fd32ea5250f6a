"""Produce throughput with librdkafka (confluent-kafka) as the load generator.

The window runs from the first ``produce()`` through the end of ``flush()``; message ``seq`` goes to
partition ``seq % partitions``. Afterwards the whole topic is read back and checked (:mod:`payload`):
a run with a delivery error, a message left unflushed, or any message missing, doubled, out of place or
altered reports a failure instead of a rate.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from confluent_kafka import KafkaError, Message, Producer

from bench.suite.context import Context, Measurement, read_back
from bench.suite.payload import Ledger, Payloads, VerificationError

MAX_BYTES_PER_S = 600e6
MAX_MSGS_PER_S = 1.5e6


@dataclass(frozen=True, slots=True)
class ProduceSpec:
    value_size: int
    acks: str
    compression: str
    partitions: int


def producer(bootstrap: str, acks: str, compression: str, errors: list[str], **settings: object) -> Producer:
    def on_delivery(error: KafkaError | None, _message: Message) -> None:
        if error is not None and len(errors) < 5:
            errors.append(str(error))

    return Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": acks,
            "compression.type": compression,
            "enable.idempotence": False,
            "linger.ms": 5,
            "batch.size": 1_000_000,
            "delivery.report.only.error": True,
            "on_delivery": on_delivery,
            **settings,
        }
    )


def produce_for(client: Producer, topic: str, spec: ProduceSpec, payloads: Payloads, seconds: float) -> tuple[int, int]:
    """Produce as fast as the client takes messages for ``seconds`` (or up to a byte/message cap).
    Returns (messages sent, times the client's queue was full)."""
    cap = int(seconds * min(MAX_MSGS_PER_S, MAX_BYTES_PER_S / spec.value_size))
    deadline = time.perf_counter() + seconds
    partitions, value, produce = spec.partitions, payloads.value, client.produce
    seq = full = 0
    while seq < cap:
        if not seq & 1023:
            client.poll(0)
            if time.perf_counter() >= deadline:
                break
        try:
            produce(topic, value(seq), partition=seq % partitions)
        except BufferError:
            full += 1
            client.poll(0.0005)
            continue
        seq += 1
    return seq, full


def produce_scenario(ctx: Context, spec: ProduceSpec) -> Measurement:
    topic = ctx.topic(spec.partitions)
    payloads = Payloads.of(spec.value_size)
    errors: list[str] = []
    client = producer(ctx.bootstrap, spec.acks, spec.compression, errors)
    meter = ctx.meter()
    meter.start()
    sent, full = produce_for(client, topic, spec, payloads, ctx.seconds)
    unflushed = client.flush(60)
    usage = meter.stop()
    if errors or unflushed:
        raise VerificationError(f"{unflushed} messages unflushed; delivery errors: {errors}")
    read_back(ctx.bootstrap, topic, Ledger(payloads, sent, spec.partitions))
    gigabytes = sent * spec.value_size / 1e9
    metrics = {"messages": float(sent), "MB_per_s": sent * spec.value_size / 1e6 / usage.wall_s, "queue_full": full}
    if usage.broker_cpu_s is not None:
        metrics["broker_cpu_s_per_GB"] = usage.broker_cpu_s / gigabytes
    return Measurement(sent / usage.wall_s, metrics, usage)
