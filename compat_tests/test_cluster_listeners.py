"""A cluster tells each client the other brokers' addresses on the listener the client came in on.

Two brokers of a cluster (a local etcd, ``rockafka serve`` subprocesses), each with two listeners: PLAINTEXT
and a second one, OTHER (PLAINTEXT too, so a plain client reaches both). Every advertised listener is in the
broker's registration in etcd, so Metadata, DescribeCluster and FindCoordinator answered on broker 1's OTHER
listener name broker 2 at its OTHER address, and on PLAINTEXT at its PLAINTEXT address. (With one address per
broker, a TLS or SASL client was sent to the other brokers' PLAINTEXT ports: the upstream suites' TLS and SASL
tests against a cluster failed so.) A kafka-python producer bootstrapped on OTHER writes to partitions on both.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaProducer, TopicPartition

from rockafka.cluster.readiness import wait_until_serving
from rockafka.facade.protocol.messages.describe_cluster import DescribeClusterRequest, DescribeClusterResponse
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.testing import TEST_SETTINGS, LocalEtcd
from rockafka.wire_client import WireClient

from .brokerproc import BrokerProcess, free_port

NAME = "listeners"


@pytest.fixture(scope="module")
def brokers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, dict[str, int]]]:
    """Node id -> listener name -> port, of two brokers serving one cluster."""
    root: Path = tmp_path_factory.mktemp("cluster-listeners")
    ports = {node: {"PLAINTEXT": free_port(), "OTHER": free_port()} for node in (1, 2)}
    with LocalEtcd(root / "etcd") as etcd:
        processes = []
        try:
            for node, own in ports.items():
                listeners = ",".join(f"{name}://127.0.0.1:{port}" for name, port in own.items())
                settings = {
                    **TEST_SETTINGS,
                    "listeners": listeners,
                    "advertised.listeners": listeners,
                    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,OTHER:PLAINTEXT",
                    "node.id": str(node),
                    "num.partitions": "4",
                    "rockafka.cluster.etcd.endpoints": etcd.endpoint,
                    "rockafka.cluster.name": NAME,
                    "rockafka.cluster.lease.ttl.ms": "6000",
                }
                broker = BrokerProcess(root / f"broker-{node}", settings=settings, port=own["PLAINTEXT"])
                processes.append(broker.start())
            asyncio.run(wait_until_serving(etcd.endpoint, NAME, list(ports), 60.0))
            yield ports
        finally:
            for broker in processes:
                broker.stop()


def addresses(port: int) -> dict[str, dict[int, tuple[str, int]]]:
    """What broker 1, asked on ``port``, says of every broker: by Metadata and by DescribeCluster."""
    with WireClient(f"127.0.0.1:{port}") as client:
        metadata = client.request(MetadataRequest(topics=[]), 12, MetadataResponse)
        cluster = client.request(DescribeClusterRequest(), 0, DescribeClusterResponse)
    return {
        "metadata": {b.node_id: (b.host, b.port) for b in metadata.brokers},
        "describe cluster": {b.broker_id: (b.host, b.port) for b in cluster.brokers},
    }


@pytest.mark.parametrize("listener", ["PLAINTEXT", "OTHER"])
def test_every_broker_is_named_at_the_listener_asked_on(brokers: dict[int, dict[str, int]], listener: str) -> None:
    wanted = {node: ("127.0.0.1", own[listener]) for node, own in brokers.items()}
    assert addresses(brokers[1][listener]) == {"metadata": wanted, "describe cluster": wanted}


def test_the_coordinator_is_named_at_the_listener_asked_on(brokers: dict[int, dict[str, int]]) -> None:
    seen = {}
    with WireClient(f"127.0.0.1:{brokers[1]['OTHER']}") as client:
        for group in (f"group-{index}" for index in range(40)):
            request = FindCoordinatorRequest(key=group, key_type=0)
            for _ in range(50):  # the first asks create __consumer_offsets in etcd: not available until it is
                found = client.request(request, 3, FindCoordinatorResponse)
                if found.error_code == 0:
                    break
                time.sleep(0.1)
            assert found.error_code == 0
            seen[found.node_id] = (found.host, found.port)
    assert seen == {node: ("127.0.0.1", own["OTHER"]) for node, own in brokers.items()}


def test_a_client_of_the_second_listener_writes_to_every_broker(brokers: dict[int, dict[str, int]]) -> None:
    producer = KafkaProducer(bootstrap_servers=f"127.0.0.1:{brokers[1]['OTHER']}", acks=1)
    try:
        sent = [producer.send("listeners-topic", b"v", partition=p) for p in range(4)]
        offsets = [future.get(timeout=30).offset for future in sent]
        leaders = {p: producer._metadata.leader_for_partition(TopicPartition("listeners-topic", p)) for p in range(4)}
    finally:
        producer.close()
    assert set(leaders.values()) == {1, 2}
    assert offsets == [0, 0, 0, 0]
