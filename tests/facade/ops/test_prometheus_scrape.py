"""A real Prometheus server (Debian's ``prometheus``; ``make prometheus`` installs it) scrapes a live broker while
real clients produce and consume; PromQL over its HTTP API sees the counts, a rate and the consumer lag, and the
scrape reports no error. The server is started here on 127.0.0.1 and stopped by its PID."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaConsumer, KafkaProducer

from rockafka.testing import Broker

from .helpers import free_port, get

TOPIC = "scraped"
ROUNDS = 6
PER_ROUND = 50
#: Bounds of the waits for Prometheus (start, a scrape to land); the test's assertions are on values, not speed.
WAIT_S = 90.0


def query(port: int, promql: str) -> list[dict[str, object]]:
    status, _, body = get(port, "/api/v1/query?query=" + urllib.parse.quote(promql))
    assert status == 200, body
    answer = json.loads(body)
    assert answer["status"] == "success", answer
    result: list[dict[str, object]] = answer["data"]["result"]
    return result


def scalar(port: int, promql: str) -> float | None:
    result = query(port, promql)
    return float(result[0]["value"][1]) if result else None  # type: ignore[index]


def wait_for(port: int, promql: str, expected: float) -> float | None:
    """The query's value once it equals ``expected``, or its last value after ``WAIT_S``."""
    deadline = time.monotonic() + WAIT_S
    seen = None
    while time.monotonic() < deadline:
        seen = scalar(port, promql)
        if seen == expected:
            break
        time.sleep(0.5)
    return seen


@pytest.fixture
def prometheus(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """(Prometheus' port, the broker HTTP port it scrapes every second)."""
    binary = shutil.which("prometheus")
    assert binary, "the prometheus server is not installed: run `make prometheus` (Debian package prometheus)"
    target = free_port()
    port = free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
        f"scrape_configs:\n  - job_name: rockafka\n    static_configs:\n      - targets: ['127.0.0.1:{target}']\n"
    )
    log = (tmp_path / "prometheus.log").open("wb")
    server = subprocess.Popen(
        [binary, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
         f"--web.listen-address=127.0.0.1:{port}"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                if get(port, "/-/ready")[0] == 200:
                    break
            except OSError:
                pass
            assert server.poll() is None, (tmp_path / "prometheus.log").read_text()
            time.sleep(0.5)
        yield port, target
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def test_prometheus_scrapes_the_broker_under_load(prometheus: tuple[int, int], tmp_path: Path) -> None:
    port, target = prometheus
    settings = {"rockafka.http.listener": f"127.0.0.1:{target}", "num.partitions": "1"}
    with Broker(data_dir=tmp_path / "data", settings=settings) as broker:
        assert wait_for(port, 'up{job="rockafka"}', 1.0) == 1.0  # scraping before the load starts
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, linger_ms=5)
        for round_ in range(ROUNDS):
            for n in range(PER_ROUND):
                producer.send(TOPIC, value=f"{round_}-{n}".encode())
            producer.flush()
            time.sleep(0.5)  # spread the load over several scrapes, so a rate has points to work on
        producer.close()
        consumer = KafkaConsumer(
            TOPIC, bootstrap_servers=broker.bootstrap, group_id="scraped-group", auto_offset_reset="earliest",
            enable_auto_commit=False, consumer_timeout_ms=10000, max_poll_records=100,
        )  # fmt: skip
        for taken, _ in enumerate(consumer, 1):
            if taken == 100:
                break
        consumer.commit()
        consumer.close()
        total = ROUNDS * PER_ROUND

        messages = f'kafka_server_brokertopicmetrics_messages_in_total{{topic="{TOPIC}"}}'
        assert wait_for(port, messages, total) == total
        lag = f'kafka_consumergroup_lag{{group="scraped-group",topic="{TOPIC}"}}'
        assert wait_for(port, lag, total - 100) == total - 100
        rate = scalar(port, f"increase({messages}[1m])")
        assert rate is not None and rate > 0
        produce_requests = scalar(port, 'sum(kafka_network_requestmetrics_requests_total{request="Produce"})')
        assert produce_requests is not None and produce_requests >= ROUNDS
        status, _, body = get(port, "/api/v1/targets")
        targets = json.loads(body)["data"]["activeTargets"]
        assert status == 200 and [(t["health"], t["lastError"]) for t in targets] == [("up", "")]
