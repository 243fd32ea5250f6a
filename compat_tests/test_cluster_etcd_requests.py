"""The data path of a cluster never calls etcd: counted on each broker's ``/metrics``, not assumed.

A 2-group ``rockafka.testing.Cluster`` with an HTTP listener per broker. Each broker's
``rockafka_etcd_requests_total`` (by kind, cluster/etcd_requests.py) is read before and after confluent-kafka
produces to a 4-partition topic spread over both groups and a consumer reads every record back from the
leaders: no kind but the lease's keep-alive (a timer) moves. The same counters do move when a topic is
created, so the figure is a live counter and not a constant. ``python -m bench.cluster`` is the long version.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.cluster.etcd_requests import KEEPALIVE
from rockafka.testing import Cluster

from .brokerproc import free_port

PARTITIONS = 4
RECORDS = 4000
WAIT_S = 60.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Cluster, list[str]]]:
    http = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    cluster = Cluster(groups=2, lease_ttl_ms=6000)
    for address, broker in zip(http, cluster.brokers.values(), strict=True):
        broker.settings["rockafka.http.listener"] = address
    with cluster:
        for address in http:  # the HTTP listener opens just after the broker joins
            metrics_text(address)
        yield cluster, http


def metrics_text(address: str) -> str:
    """``/metrics`` of the broker whose HTTP listener is ``address`` (waits up to WAIT_S for it to open)."""
    for _ in range(int(WAIT_S * 10)):
        try:
            with urllib.request.urlopen(f"http://{address}/metrics", timeout=WAIT_S) as reply:
                return str(reply.read().decode())
        except ConnectionRefusedError:
            time.sleep(0.1)
        except urllib.error.URLError as exc:
            if not isinstance(exc.reason, ConnectionRefusedError):
                raise
            time.sleep(0.1)
    raise AssertionError(f"no HTTP listener at {address} within {WAIT_S}s")


def etcd_request_counts(address: str) -> dict[str, int]:
    """``rockafka_etcd_requests_total`` by kind, from the ``/metrics`` at ``address``."""
    counts: dict[str, int] = {}
    for line in metrics_text(address).splitlines():
        if line.startswith('rockafka_etcd_requests_total{kind="'):
            counts[line.split('"', 2)[1]] = int(float(line.rsplit(" ", 1)[1]))
    return counts


def etcd_requests(http: list[str]) -> dict[str, int]:
    """The brokers' etcd requests by broker and kind, but the lease keep-alives."""
    return {
        f"{address} {kind}": count
        for address in http
        for kind, count in etcd_request_counts(address).items()
        if kind != KEEPALIVE
    }


def create(bootstrap: str, topic: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept referenced until the result is in
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(timeout=WAIT_S)


def produce_and_read_back(bootstrap: str, topic: str, stored: int) -> list[bytes]:
    """Produce RECORDS records, then read the topic from the start until ``stored`` records are read."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for index in range(RECORDS):
        producer.produce(topic, b"%d" % index, key=b"%d" % (index % 16))
    assert producer.flush(WAIT_S) == 0
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "etcd-requests", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
    values: list[bytes] = []
    try:
        for _ in range(int(WAIT_S)):
            values += [m.value() for m in consumer.consume(1000, 1.0) if m.error() is None]
            if len(values) >= stored:
                break
    finally:
        consumer.close()
    return values


def test_creating_a_topic_is_counted(cluster: tuple[Cluster, list[str]]) -> None:
    nodes, http = cluster
    before = etcd_requests(http)
    create(nodes.bootstrap, "etcd-counted")
    after = etcd_requests(http)
    assert sum(after.values()) > sum(before.values())


def test_produce_and_fetch_send_no_etcd_request(cluster: tuple[Cluster, list[str]]) -> None:
    nodes, http = cluster
    topic = "etcd-data-path"
    create(nodes.bootstrap, topic)
    produce_and_read_back(nodes.bootstrap, topic, RECORDS)  # clients learn the leaders; the brokers see the topic
    before = etcd_requests(http)
    values = produce_and_read_back(nodes.bootstrap, topic, 2 * RECORDS)
    after = etcd_requests(http)
    assert sorted(values) == sorted([b"%d" % i for i in range(RECORDS)] * 2)
    assert after == before
