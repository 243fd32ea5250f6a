"""SIGTERM stops a broker with connected, long-polling consumers at once, not after the 10 s drain.

A stopping broker takes no new requests and answers parked fetches with what it has; before that, a
consumer's fetch woken by the shutdown read again, found nothing and parked for the rest of its wait,
so the drain ran its full bound. The broker logs a line when the drain bound is reached: it must not.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kafka import KafkaConsumer, KafkaProducer

from .brokerproc import BrokerProcess

DRAIN_BOUND_LINE = "still busy after"
POLLS = 400
ASSIGN_TIMEOUT_S = 60.0


def _consume(
    bootstrap: str, topic: str, assigned: threading.Event, stop: threading.Event, errors: list[BaseException]
) -> None:
    try:
        consumer = KafkaConsumer(
            topic,
            bootstrap_servers=bootstrap,
            group_id=f"{topic}-group",
            auto_offset_reset="earliest",
            fetch_max_wait_ms=20_000,
            request_timeout_ms=40_000,
            reconnect_backoff_max_ms=200,
        )
        try:
            for _ in range(POLLS):
                if consumer.poll(timeout_ms=200) or consumer.assignment():
                    assigned.set()
                if stop.is_set():
                    return
        finally:
            consumer.close(autocommit=False)
    except BaseException as exc:  # reported by the caller
        errors.append(exc)
        assigned.set()


@contextmanager
def long_polling_consumer(bootstrap: str, topic: str) -> Iterator[None]:
    """A kafka-python group consumer of ``topic`` in a thread, polling with 20 s fetch waits; the body runs
    once it has its partitions and a fetch has had time to park."""
    assigned, stop, errors = threading.Event(), threading.Event(), []
    thread = threading.Thread(target=_consume, args=(bootstrap, topic, assigned, stop, errors), daemon=True)
    thread.start()
    try:
        assert assigned.wait(ASSIGN_TIMEOUT_S), "the consumer never got its partition"
        assert not errors, errors
        time.sleep(0.5)  # the next fetch parks: nothing new to read
        yield
    finally:
        stop.set()
        thread.join(ASSIGN_TIMEOUT_S)


def test_sigterm_with_a_long_polling_group_consumer_exits_cleanly_without_the_drain_bound(tmp_path: Path) -> None:
    broker = BrokerProcess(tmp_path / "broker", settings={"group.initial.rebalance.delay.ms": "0"}).start()
    try:
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        producer.send("stopping", b"one").get(timeout=30)
        producer.close()
        with long_polling_consumer(broker.bootstrap, "stopping"):
            code = broker.stop()
    finally:
        broker.kill()
    log = broker.log_text()
    assert code == 0, log
    assert DRAIN_BOUND_LINE not in log, log
