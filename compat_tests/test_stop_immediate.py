"""A stopping broker does not wait for its consumers: ``Broker.close()`` in-process, and SIGTERM or SIGINT on
``rockafka serve``, return at once while a group consumer of each client has a fetch parked for 20 s.

The bound asserted (``STOP_BOUND_S``, 5 s) is generous: the broker stops in well under a second (bench
``stop``), and the drain it must not run into is 10 s (``DRAIN_TIMEOUT_S``), after which it logs
``still busy after``. A failed start (the port in use) cleans up after itself and says why in one
``BrokerError``, with no "Task was destroyed but it is pending!" lines.
"""

from __future__ import annotations

import gc
import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from kafka import KafkaProducer

from rockafka.facade.app import DRAIN_TIMEOUT_S
from rockafka.testing import Broker, BrokerError

from .clients.kafkajs_driver import kafkajs_missing
from .groupscenario import Worker, kafkajs_worker, python_worker

STOP_BOUND_S = 5.0
FETCH_WAIT_MS = 20_000
SETTLE_TIMEOUT_S = 60.0
DRAIN_BOUND_LINE = "still busy after"
CLIENTS = ["kafka-python", "aiokafka", "confluent", "kafkajs"]

assert STOP_BOUND_S < DRAIN_TIMEOUT_S


def _worker(client: str, log_dir: Path, bootstrap: str, topic: str) -> Worker:
    if client == "kafkajs" and (missing := kafkajs_missing()) is not None:
        pytest.fail(missing)  # compat-deps installs it; a missing client is a broken set-up, not a skip
    make = kafkajs_worker(log_dir) if client == "kafkajs" else python_worker(client, log_dir)
    settings = {
        "bootstrap": bootstrap,
        "topic": topic,
        "group": f"{topic}-group",
        "assignor": "range",
        "session_timeout_ms": 10_000,
        "heartbeat_interval_ms": 1_000,
        "instance_id": None,
        "fetch_max_wait_ms": FETCH_WAIT_MS,
    }
    return make(f"{client}-consumer", settings).start()


@contextmanager
def consuming(client: str, broker: Broker, log_dir: Path) -> Iterator[Worker]:
    """A group consumer of ``client`` that has read the one record of a new topic (so its next fetch parks)."""
    topic = f"stop-{client}"
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    producer.send(topic, b"one").get(timeout=30)
    producer.close()
    worker = _worker(client, log_dir, broker.bootstrap, topic)
    try:
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while not worker.consumed() and time.monotonic() < deadline:
            assert worker.process is not None and worker.process.poll() is None, worker.log_tail()
            time.sleep(0.1)
        assert worker.consumed() == {(0, 0)}, worker.log_tail()
        yield worker
    finally:
        worker.kill()


def _parked_fetches(broker: Broker) -> int:
    """Fetches parked on an in-process broker (white-box: the waiters of its BrokerApp)."""
    runner = broker._runner
    app = getattr(runner, "_app", None)
    return 0 if app is None or app.broker is None else len(app.broker.waiters)


def _wait_parked(broker: Broker) -> None:
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while _parked_fetches(broker) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _parked_fetches(broker) > 0, "the consumer's fetch never parked"


@pytest.mark.parametrize("client", CLIENTS)
def test_close_of_an_in_process_broker_is_immediate(
    client: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broker = Broker(data_dir=tmp_path / "data").start()
    try:
        with consuming(client, broker, tmp_path):
            _wait_parked(broker)
            started = time.monotonic()
            broker.close()
            took = time.monotonic() - started
    finally:
        broker.close()
    assert took < STOP_BOUND_S, f"close() took {took:.2f} s with a {client} consumer parked"
    assert DRAIN_BOUND_LINE not in caplog.text


@pytest.mark.parametrize(
    ("client", "signum"),
    [(client, signal.SIGTERM) for client in CLIENTS] + [("aiokafka", signal.SIGINT)],
    ids=[f"{client}-SIGTERM" for client in CLIENTS] + ["aiokafka-SIGINT"],
)
def test_a_signal_stops_rockafka_serve_at_once(client: str, signum: signal.Signals, tmp_path: Path) -> None:
    broker = Broker(subprocess=True, data_dir=tmp_path / "data").start()
    process = broker._runner._process  # type: ignore[union-attr]
    assert process is not None
    try:
        with consuming(client, broker, tmp_path):
            time.sleep(1.0)  # the consumer's next fetch parks: nothing new to read for 20 s
            started = time.monotonic()
            process.send_signal(signum)
            code = process.wait(DRAIN_TIMEOUT_S * 2)
            took = time.monotonic() - started
    finally:
        log = broker.log_path.read_text(errors="replace")
        broker.kill()
        broker.close()
    assert code == 0, log
    assert took < STOP_BOUND_S, f"{signum.name} took {took:.2f} s with a {client} consumer parked:\n{log}"
    assert DRAIN_BOUND_LINE not in log, log


def test_a_start_on_a_taken_port_cleans_up_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the broker makes its temporary data directory
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        broker = Broker(port=port)
        with pytest.raises(BrokerError) as failure:
            broker.start()
    message = str(failure.value)
    del failure  # its traceback holds the failed start's event loop: let it go
    gc.collect()  # a task left pending is reported (logged, or printed without logging set up) when collected
    assert message.startswith(f"port {port} on 127.0.0.1 is in use: cannot listen on"), message
    assert not broker.running
    assert list(tmp_path.iterdir()) == [], "the failed start left its temporary data directory"
    captured = capfd.readouterr()
    assert "Task was destroyed" not in captured.err + captured.out + caplog.text
