"""The HTTP listener of a real broker: /metrics read by prometheus-client's parser after real clients produced
and consumed, /healthz, /readyz, and the listener's answers to requests it does not serve."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import (
    ACLFilter,
    ACLOperation,
    ACLPermissionType,
    ACLResourcePatternType,
    NewTopic,
    ResourcePatternFilter,
    ResourceType,
)
from kafka.errors import MessageSizeTooLargeError, OffsetOutOfRangeError
from prometheus_client.parser import text_string_to_metric_families

from rockafka.testing import Broker

from .helpers import free_port, get

TOPIC = "ops-metrics"
MESSAGES = 200


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Broker, int]]:
    port = free_port()
    settings = {"rockafka.http.listener": f"127.0.0.1:{port}", "num.partitions": "2"}
    with Broker(data_dir=tmp_path_factory.mktemp("ops"), settings=settings) as running:
        yield running, port


def samples(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    status, _, body = get(port, "/metrics")
    assert status == 200
    found = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return found[(name, tuple(sorted(labels.items())))]


def produce(bootstrap: str, count: int, size: int = 100) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    for n in range(count):
        producer.send(TOPIC, key=str(n).encode(), value=b"v" * size)
    producer.flush()
    producer.close()


def test_traffic_and_lag_are_exported_as_the_clients_made_them(broker: tuple[Broker, int]) -> None:
    running, port = broker
    produce(running.bootstrap, MESSAGES)
    stored = value(samples(port), "kafka_server_brokertopicmetrics_bytes_in_total", topic=TOPIC)
    consumer = KafkaConsumer(
        TOPIC, bootstrap_servers=running.bootstrap, group_id="ops-group", auto_offset_reset="earliest",
        enable_auto_commit=False, consumer_timeout_ms=10000,
    )  # fmt: skip
    seen = 0
    for seen, _ in enumerate(consumer, 1):
        if seen == MESSAGES:
            break
    consumer.commit()
    consumer.close()
    assert seen == MESSAGES
    produce(running.bootstrap, 30)

    found = samples(port)
    assert value(found, "kafka_server_brokertopicmetrics_messages_in_total", topic=TOPIC) == MESSAGES + 30
    bytes_in = value(found, "kafka_server_brokertopicmetrics_bytes_in_total", topic=TOPIC)
    assert bytes_in > (MESSAGES + 30) * 100
    assert value(found, "kafka_server_brokertopicmetrics_bytes_out_total", topic=TOPIC) == stored  # each batch once
    assert value(found, "kafka_server_brokertopicmetrics_total_fetch_requests_total", topic=TOPIC) >= 1
    lags = {k: v for k, v in found.items() if k[0] == "kafka_consumergroup_lag" and ("group", "ops-group") in k[1]}
    assert len(lags) == 2 and sum(lags.values()) == 30
    committed = sum(v for k, v in found.items() if k[0] == "kafka_consumergroup_current_offset")
    assert committed == MESSAGES


def test_requests_are_counted_and_timed_per_api_and_version(broker: tuple[Broker, int]) -> None:
    running, port = broker
    produce(running.bootstrap, 10)
    connected = KafkaProducer(bootstrap_servers=running.bootstrap)
    assert connected.partitions_for(TOPIC)  # a connection the broker has answered on, open during the scrape
    found = samples(port)
    connected.close()
    produce_counts = {
        dict(labels)["version"]: v
        for (name, labels), v in found.items()
        if name == "kafka_network_requestmetrics_requests_total" and ("request", "Produce") in labels
    }
    assert produce_counts and sum(produce_counts.values()) >= 1
    for version, count in produce_counts.items():
        histogram = value(
            found, "kafka_network_requestmetrics_total_time_seconds_count", request="Produce", version=version
        )
        infinite = value(
            found,
            "kafka_network_requestmetrics_total_time_seconds_bucket",
            request="Produce",
            version=version,
            le="+Inf",
        )
        assert histogram == infinite == count
    assert value(found, "kafka_server_socket_server_metrics_connection_count", listener="PLAINTEXT",
                 security_protocol="PLAINTEXT") >= 1  # fmt: skip
    assert value(found, "rockafka_store_offline") == 0
    assert value(found, "rockafka_ready") == 1
    assert value(found, "kafka_server_replicamanager_partitioncount") >= 2


def test_a_request_failing_as_a_whole_is_counted_by_error_code(broker: tuple[Broker, int]) -> None:
    running, port = broker
    key = ("kafka_network_requestmetrics_errors_total", (("error", "SECURITY_DISABLED"), ("request", "DescribeAcls")))
    before = samples(port).get(key, 0.0)
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    everything = ACLFilter(
        principal=None, host="*", operation=ACLOperation.ANY, permission_type=ACLPermissionType.ANY,
        resource_pattern=ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY),
    )  # fmt: skip
    try:
        with pytest.raises(Exception, match="SecurityDisabled"):
            admin.describe_acls(everything)
    finally:
        admin.close()
    assert samples(port)[key] == before + 1


def test_health_and_readiness(broker: tuple[Broker, int]) -> None:
    _, port = broker
    assert get(port, "/healthz")[::2] == (200, b"live\n")
    status, _, body = get(port, "/readyz")
    assert status == 200
    assert body.decode().splitlines() == ["ready", "listeners: bound", "store: online", "index: running"]


def test_the_listener_refuses_what_it_does_not_serve(broker: tuple[Broker, int]) -> None:
    _, port = broker
    assert get(port, "/nothing")[0] == 404
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/metrics", body=b"x")
    answer = connection.getresponse()
    assert (answer.status, answer.getheader("Allow")) == (405, "GET, HEAD")
    connection.close()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(b"NOT HTTP\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.1 400 ")


def test_no_http_listener_unless_configured(tmp_path: pytest.TempPathFactory) -> None:
    port = free_port()
    with Broker() as running:
        assert running.bootstrap
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()


def rockafka(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``rockafka`` console script, run as a user runs it."""
    command = [str(Path(sys.executable).parent / "rockafka"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_status_prints_liveness_and_readiness(broker: tuple[Broker, int]) -> None:
    _, port = broker
    done = rockafka("status", "--http", f"127.0.0.1:{port}")
    assert (done.returncode, done.stdout.splitlines()) == (
        0,
        ["live", "ready", "listeners: bound", "store: online", "index: running"],
    )


def test_status_of_nothing_or_of_a_bad_address_is_one_line() -> None:
    unreachable = rockafka("status", "--http", f"127.0.0.1:{free_port()}")
    assert unreachable.returncode == 1 and unreachable.stdout == ""
    assert len(unreachable.stderr.splitlines()) == 1
    assert unreachable.stderr.startswith("rockafka status: no broker answers on http://127.0.0.1:")
    malformed = rockafka("status", "--http", "localhost")
    assert (malformed.returncode, malformed.stderr) == (
        2,
        "rockafka status: rockafka.http.listener must be HOST:PORT, got 'localhost'\n",
    )


def test_each_partition_error_of_produce_and_fetch_is_counted_by_error_code(broker: tuple[Broker, int]) -> None:
    running, port = broker
    too_large = ("kafka_network_requestmetrics_errors_total", (("error", "MESSAGE_TOO_LARGE"), ("request", "Produce")))
    out_of_range = (
        "kafka_network_requestmetrics_errors_total",
        (("error", "OFFSET_OUT_OF_RANGE"), ("request", "Fetch")),
    )
    before = samples(port)
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    admin.create_topics([NewTopic("ops-small", 1, 1, topic_configs={"max.message.bytes": "1000"})])
    admin.close()
    producer = KafkaProducer(bootstrap_servers=running.bootstrap, retries=0)
    with pytest.raises(MessageSizeTooLargeError):
        producer.send("ops-small", b"x" * 4000).get(timeout=30)
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=running.bootstrap, auto_offset_reset="none", consumer_timeout_ms=10000)
    partition = TopicPartition("ops-small", 0)
    consumer.assign([partition])
    consumer.seek(partition, 1_000_000)
    try:
        with pytest.raises(OffsetOutOfRangeError):
            for _ in range(20):  # each poll waits at most 0.5 s; the first fetch answers the error
                consumer.poll(timeout_ms=500)
    finally:
        consumer.close()
    after = samples(port)
    assert after[too_large] == before.get(too_large, 0.0) + 1
    assert after[out_of_range] >= before.get(out_of_range, 0.0) + 1


def test_flush_rounds_are_timed_in_a_histogram(broker: tuple[Broker, int]) -> None:
    running, port = broker
    name = "kafka_log_logflushstats_log_flush_time_seconds"
    produce(running.bootstrap, 10)
    found = samples(port)
    for _ in range(50):  # async rounds run every flush interval: wait for one after the produce, 10 s at most
        if value(found, f"{name}_count") >= 1:
            break
        time.sleep(0.2)
        found = samples(port)
    count = value(found, f"{name}_count")
    assert count >= 1
    assert value(found, f"{name}_bucket", le="+Inf") == count
    assert value(found, f"{name}_bucket", le="0.0001") <= value(found, f"{name}_bucket", le="5.0") == count
    assert value(found, f"{name}_sum") > 0
