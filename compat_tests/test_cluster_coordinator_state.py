"""Coordinator state in a 3-group cluster: committed offsets live in ``__consumer_offsets`` on the broker that
leads the group's partition, and come back with that broker.

Until issue 19 replicates a broker group, a group's partition has one copy, on its leader: what survives a
coordinator's kill -9 and restart is everything it had acknowledged (this test), while a move to another broker
group would find there only what that group itself wrote.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer, KafkaException, TopicPartition

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.testing import Cluster

from .clients.records import unique_topic
from .clients.wire import RawClient
from .test_cluster_clients import DEADLINE_S, _create_topic, _wait_known_everywhere

pytestmark = [pytest.mark.slow]

PARTITIONS = 3


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=3) as running:
        yield running


def _coordinator(cluster: Cluster, group: str) -> int:
    """The node FindCoordinator names for ``group`` (the first lookup creates ``__consumer_offsets`` in etcd)."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        with RawClient(cluster.brokers[1].bootstrap) as raw:
            found = raw.request(FindCoordinatorRequest(key=group, key_type=0), 3, FindCoordinatorResponse)
        if found.error_code == ErrorCode.NONE or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert found.error_code == ErrorCode.NONE, found
    return int(found.node_id)


def _consumer(cluster: Cluster, group: str) -> Consumer:
    return Consumer(
        {"bootstrap.servers": cluster.bootstrap, "group.id": group, "enable.auto.commit": False, "log_level": 0}
    )


def _committed(cluster: Cluster, group: str, topic: str) -> dict[int, int]:
    """The group's committed offsets as a new consumer fetches them (retried while the coordinator is not back)."""
    deadline = time.monotonic() + DEADLINE_S
    consumer = _consumer(cluster, group)
    try:
        while True:
            try:
                found = consumer.committed([TopicPartition(topic, p) for p in range(PARTITIONS)], timeout=10)
                return {tp.partition: tp.offset for tp in found}
            except KafkaException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        consumer.close()


def test_committed_offsets_survive_a_kill_and_restart_of_the_coordinator(cluster: Cluster) -> None:
    topic, group = unique_topic("state"), unique_topic("state-group")
    _create_topic(cluster.brokers[1].bootstrap, topic, PARTITIONS)
    _wait_known_everywhere(cluster, topic)
    node = _coordinator(cluster, group)
    consumer = _consumer(cluster, group)
    try:
        wanted = [TopicPartition(topic, p, 100 + p) for p in range(PARTITIONS)]
        consumer.commit(offsets=wanted, asynchronous=False)
    finally:
        consumer.close()
    assert _committed(cluster, group, topic) == {p: 100 + p for p in range(PARTITIONS)}
    cluster.restart(node)  # SIGKILL, then a start once its registration expired (a live one is refused)
    config = cluster.brokers[node].data_dir / "config"
    assert not (config / "consumerOffsets.log").exists()  # the commits are records of __consumer_offsets
    cluster.wait_ready()
    assert _coordinator(cluster, group) == node  # its broker group's only member leads it again
    assert _committed(cluster, group, topic) == {p: 100 + p for p in range(PARTITIONS)}
