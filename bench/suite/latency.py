"""Latency scenarios.

- ``e2e``: one producer (acks=all, linger 0) sends 100 B values at a fixed rate, each stamped with its
  send time; a consumer thread (assign, from the start; fetch.wait.max.ms 500, librdkafka's default, or 10) takes each
  message's latency on arrival. The first second is warm-up (sent, checked, not counted). Every message
  must arrive once, in order, byte-exact.
- ``rtt``: aiokafka ``send_and_wait`` of one 100 B value at a time to one partition: requests per second,
  their latency, and the client's and the broker's CPU per round trip. Each answer must carry the next
  offset; the topic is read back and checked afterwards. The client runs on asyncio's standard event loop,
  or on uvloop in the ``-uvloop`` variant. ``bench.suite.ceiling`` runs the same loop against a responder
  that only answers.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from typing import TypeVar

from aiokafka import AIOKafkaProducer
from confluent_kafka import OFFSET_BEGINNING, TopicPartition

from bench.suite.context import Context, Measurement, check, consumer, read_back
from bench.suite.meter import Meter, Usage
from bench.suite.payload import Ledger, Payloads, VerificationError
from bench.suite.produce import producer

WARMUP_S = 1.0
T = TypeVar("T")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class _Receiver(threading.Thread):
    """Consumes the topic, checking each message and noting its latency (ns) once past warm-up."""

    def __init__(self, ctx: Context, topic: str, ledger: Ledger, warmup: int, fetch_wait_ms: int) -> None:
        super().__init__(daemon=True)
        self.reader = consumer(ctx.bootstrap, **{"fetch.wait.max.ms": fetch_wait_ms})
        self.reader.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(ledger.partitions)])
        self.ledger, self.warmup = ledger, warmup
        self.latencies_ns: list[int] = []
        self.error: Exception | None = None
        self.stop_at = time.monotonic() + 3600.0

    def run(self) -> None:
        try:
            while not self.ledger.complete and time.monotonic() < self.stop_at:
                # poll(), not consume(n, timeout): a batch call holds what it has until n arrive or the time is up
                message = self.reader.poll(0.05)
                if message is None:
                    continue
                arrived = time.perf_counter_ns()
                check(message)
                value = message.value() or b""
                self.ledger.add(message.partition(), message.offset(), value)
                if int.from_bytes(value[:8], "big") >= self.warmup:
                    self.latencies_ns.append(arrived - int.from_bytes(value[8:16], "big"))
        except Exception as error:  # reported by the main thread
            self.error = error
        finally:
            self.reader.close()


def e2e_scenario(ctx: Context, rate: int, partitions: int, fetch_wait_ms: int = 500) -> Measurement:
    topic = ctx.topic(partitions)
    payloads = Payloads.of(100, stamped=True)
    warmup = int(rate * WARMUP_S)
    total = warmup + int(rate * ctx.seconds)
    ledger = Ledger(payloads, total, partitions)
    receiver = _Receiver(ctx, topic, ledger, warmup, fetch_wait_ms)
    receiver.start()
    errors: list[str] = []
    client = producer(ctx.bootstrap, "all", "none", errors, **{"linger.ms": 0})
    meter = ctx.meter()
    sending = time.perf_counter()
    lags = _send_paced(client, topic, payloads, partitions, rate, total, warmup, meter)
    sending = time.perf_counter() - sending
    unflushed = client.flush(30)
    usage = meter.stop()
    receiver.stop_at = time.monotonic() + 30.0
    receiver.join(40.0)
    if receiver.error is not None:
        raise receiver.error
    if errors or unflushed:
        raise VerificationError(f"{unflushed} unflushed; delivery errors: {errors}")
    if not ledger.complete:
        raise VerificationError(ledger.missing())
    ms = [ns / 1e6 for ns in receiver.latencies_ns]
    metrics = {"p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99), "p99.9_ms": percentile(ms, 0.999)}
    metrics |= {"max_ms": max(ms), "sender_lag_p99_ms": percentile(lags, 0.99) * 1e3}
    metrics["achieved_msg_per_s"] = total / sending
    return Measurement(metrics["p99_ms"], metrics, usage)


def _send_paced(client, topic, payloads, partitions, rate, total, warmup, meter) -> list[float]:  # type: ignore[no-untyped-def]
    """Send ``total`` stamped messages at ``rate``/s; start the meter once the warm-up is sent; lags (s)."""
    lags: list[float] = []
    start = time.perf_counter()
    for seq in range(total):
        due = start + seq / rate
        now = time.perf_counter()
        if due > now:
            time.sleep(due - now)
        if seq == warmup:
            meter.start()
        lags.append(max(0.0, time.perf_counter() - due))
        client.produce(topic, payloads.stamped(seq, time.perf_counter_ns()), partition=seq % partitions)
        client.poll(0)
    return lags


def rtt_scenario(ctx: Context, acks: int | str, client_loop: str = "asyncio") -> Measurement:
    topic = ctx.topic(1)
    payloads = Payloads.of(100)
    trips = round_trips(ctx.bootstrap, topic, payloads, acks, ctx.meter(), ctx.seconds)
    latencies, usage = run_client(trips, client_loop)
    read_back(ctx.bootstrap, topic, Ledger(payloads, len(latencies) + 1, 1))
    return round_trip_measurement(latencies, usage)


def run_client(work: Coroutine[object, object, T], client_loop: str) -> T:
    """Run the client's coroutine on the event loop named: ``asyncio`` (the standard one) or ``uvloop``."""
    if client_loop == "uvloop":
        import uvloop

        return uvloop.run(work)
    if client_loop != "asyncio":
        raise ValueError(f"unknown client event loop {client_loop!r}")
    return asyncio.run(work)


def round_trip_measurement(latencies: list[float], usage: Usage) -> Measurement:
    """Round trips per second; latency percentiles; each side's CPU per round trip (us)."""
    ms = [s * 1e3 for s in latencies]
    metrics = {"p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99), "max_ms": max(ms)}
    metrics["client_cpu_us_per_rt"] = usage.loadgen_cpu_s / len(latencies) * 1e6
    if usage.broker_cpu_s is not None:
        metrics["broker_cpu_us_per_rt"] = usage.broker_cpu_s / len(latencies) * 1e6
    return Measurement(len(latencies) / usage.wall_s, metrics, usage)


async def round_trips(
    bootstrap: str, topic: str, payloads: Payloads, acks: int | str, meter: Meter, seconds: float
) -> tuple[list[float], Usage]:
    """``send_and_wait`` one value at a time to partition 0 for ``seconds``: each round trip's latency (s)
    and what the window cost. Every answer must carry the offset after the previous one."""
    client = AIOKafkaProducer(bootstrap_servers=bootstrap, acks=acks, enable_idempotence=False, linger_ms=0)
    await client.start()
    try:
        first = await client.send_and_wait(topic, payloads.value(0), partition=0)  # warm-up: metadata, connection
        latencies: list[float] = []
        meter.start()
        deadline = time.perf_counter() + seconds
        seq = 1
        while time.perf_counter() < deadline and seq < 1_000_000:
            sent = time.perf_counter()
            answer = await client.send_and_wait(topic, payloads.value(seq), partition=0)
            latencies.append(time.perf_counter() - sent)
            if answer.offset != first.offset + seq:
                raise VerificationError(f"round trip {seq} answered offset {answer.offset}, not {first.offset + seq}")
            seq += 1
        return latencies, meter.stop()
    finally:
        await client.stop()
