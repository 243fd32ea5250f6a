"""Consume throughput from earliest: a topic prefilled (outside the window) with ``messages`` values, then
one librdkafka consumer reads it all, in a group (``subscribe``) or by ``assign``.

The rate covers the first batch received through the last message; the group join (subscribe to first
message) is reported apart as ``join_s``. Every message is checked as it arrives (:mod:`payload`), and
the run fails unless all arrive, once each, in order, byte-exact. The check compares each batch's runs of
one partition with the values sent there as whole lists, so that it costs the one Python thread that also
reads the messages little: checked one by one in Python, the check was a third of that thread's time, and
that thread was the limit of the measurement on every broker.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import groupby

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, TopicPartition

from bench.suite.context import Context, Measurement, consumer
from bench.suite.meter import Meter
from bench.suite.payload import Ledger, Payloads, VerificationError
from bench.suite.produce import ProduceSpec, producer

PREFILL_SECONDS_MAX = 120.0
FETCH_QUEUE_BACKOFF_MS = 10
"""librdkafka pauses a partition's fetching for ``fetch.queue.backoff.ms`` (1,000 by default) whenever its local
queue is full, i.e. whenever the broker serves faster than the application reads: with the default the rate
would measure that pause. 10 ms keeps the pause short on every broker alike."""


def prefill(ctx: Context, topic: str, spec: ProduceSpec, value: Callable[[int], bytes], messages: int) -> None:
    errors: list[str] = []
    client = producer(ctx.bootstrap, "1", "none", errors)
    deadline = time.monotonic() + PREFILL_SECONDS_MAX
    for seq in range(messages):
        while True:
            try:
                client.produce(topic, value(seq), partition=seq % spec.partitions)
                break
            except BufferError:
                client.poll(0.001)
                if time.monotonic() > deadline:
                    raise VerificationError("prefill did not finish in time") from None
    if client.flush(60) or errors:
        raise VerificationError(f"prefill failed: {errors}")


def consume_scenario(ctx: Context, value_size: int, partitions: int, messages: int, *, group: bool) -> Measurement:
    if group:
        ctx.require_groups()
    spec = ProduceSpec(value_size, "1", "none", partitions)
    payloads = Payloads.of(value_size)
    topic = ctx.topic(partitions)
    count = max(1000, int(messages * ctx.scale))
    ledger = Ledger(payloads, count, partitions)
    ledger.keep_sent()
    prefill(ctx, topic, spec, ledger.sent_value, count)
    reader = consumer(ctx.bootstrap, **{"fetch.queue.backoff.ms": FETCH_QUEUE_BACKOFF_MS})
    meter = ctx.meter()
    try:
        begun = time.perf_counter()
        if group:
            reader.subscribe([topic])
        else:
            reader.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        with gc_paused():
            first, first_batch, last = _drain(reader, ledger, meter, deadline=time.monotonic() + 60 + count / 20_000)
        usage = meter.stop()
    finally:
        reader.close()
    window = last - first
    if window <= 0:
        raise VerificationError("everything arrived in one batch: too few messages to time (raise --scale)")
    metrics = {
        "messages": float(count),
        "join_s": first - begun,
        "MB_per_s": (count - first_batch) * value_size / 1e6 / window,
    }
    return Measurement((count - first_batch) / window, metrics, usage)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while messages are read. Every message object the client makes
    is tracked by it, so with it on a collection ran every 700 messages and, in a py-spy profile of this
    loop, took 45% of the reading thread: the client's overhead, not the broker's. Nothing read here forms
    cycles; reference counting frees it all the same."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def _drain(reader: Consumer, ledger: Ledger, meter: Meter, deadline: float) -> tuple[float, int, float]:
    """Consume until the ledger is complete; (time of the first batch, its size, time of the last message)."""
    first = last = 0.0
    first_batch = 0
    while not ledger.complete:
        if time.monotonic() > deadline:
            raise VerificationError(ledger.missing())
        # never ask for more than is left: a batch call waits until it has all it asked for or times out
        batch = reader.consume(min(10_000, ledger.expected - ledger.count), 0.1)
        if not batch:
            continue
        last = time.perf_counter()
        if not first:
            first, first_batch = last, len(batch)
            meter.start()
        check_batch(batch, ledger)
    return first, first_batch, last


def check_batch(batch: list[Message], ledger: Ledger) -> None:
    """Hand ``batch`` to ``ledger`` run by run (messages of one partition in a row), each run whole."""
    errors = [error for error in map(Message.error, batch) if error is not None]
    if any(error.code() != KafkaError._PARTITION_EOF for error in errors):
        raise VerificationError(f"consumer error: {errors[0]}")
    if errors:
        batch = [message for message in batch if message.error() is None]
    offsets = list(map(Message.offset, batch))
    values = list(map(Message.value, batch))
    start = 0
    for partition, run in groupby(map(Message.partition, batch)):
        end = start + len(list(run))
        ledger.add_run(partition, offsets[start:end], values[start:end])
        start = end
