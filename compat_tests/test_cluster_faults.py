"""A 3-group cluster under faults, with real clients: etcd lost while serving, brokers and the controller
killed (SIGKILL) and restarted, a broker paused (SIGSTOP) past its lease and resumed, etcd restarted.

The short CI version of ``bench/cluster_faults.py``: one round of each fault (``compat_tests/clusterfaults.py``
has the load and the checker; the seed and the schedule are printed, and shown when the test fails).
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Iterator

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.testing import Cluster

from . import clusterfaults
from .clients.cluster import wait_known_everywhere
from .clients.records import unique_topic

pytestmark = [pytest.mark.slow]

PARTITIONS = 6
DEADLINE_S = 60.0
#: Seed of the fault schedule; another with ROCKAFKA_FAULT_SEED=N.
SEED = int(os.environ.get("ROCKAFKA_FAULT_SEED", "18"))


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=3, lease_ttl_ms=2000) as running:
        yield running


def _create(cluster: Cluster, topic: str, partitions: int = PARTITIONS) -> None:
    admin = AdminClient({"bootstrap.servers": cluster.brokers[1].bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result(timeout=DEADLINE_S)
    wait_known_everywhere(cluster, topic, DEADLINE_S)


def _produce_and_read_back(cluster: Cluster, topic: str, count: int) -> None:
    """``count`` records to every partition (confluent-kafka, acks=all), every one read back in order."""
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "message.timeout.ms": 30000})
    errors: list[str] = []
    for partition in range(PARTITIONS):
        for index in range(count):
            value = f"{partition}-{index}".encode()
            producer.produce(topic, value=value, partition=partition, on_delivery=lambda e, _m: e and errors.append(e))
    assert producer.flush(DEADLINE_S) == 0
    assert not errors
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "unused", "enable.auto.commit": False})
    read: dict[int, list[bytes]] = defaultdict(list)
    try:
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline and sum(map(len, read.values())) < PARTITIONS * count:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                read[message.partition()].append(message.value())
    finally:
        consumer.close()
    assert read == {p: [f"{p}-{i}".encode() for i in range(count)] for p in range(PARTITIONS)}


def test_produce_and_fetch_go_on_while_etcd_is_lost_and_admin_changes_wait_for_it(cluster: Cluster) -> None:
    topic = unique_topic("etcd-lost")
    _create(cluster, topic)
    assert cluster.etcd.pid is not None
    cluster.etcd.stop()  # SIGTERM to etcd's PID
    try:
        assert not cluster.etcd.running()
        _produce_and_read_back(cluster, topic, 20)  # nothing on their path touches etcd
        admin = AdminClient({"bootstrap.servers": cluster.brokers[2].bootstrap})
        future = admin.create_topics([NewTopic(unique_topic("refused"), 1, 1)])
        with pytest.raises(KafkaException) as refused:
            next(iter(future.values())).result(timeout=DEADLINE_S)
        assert refused.value.args[0].code() == ErrorCode.REQUEST_TIMED_OUT
        assert "cluster metadata did not take the change" in refused.value.args[0].str()
    finally:
        cluster.etcd.start()
    cluster.wait_ready()  # etcd listens before it serves; then every broker is still registered and leads
    later = unique_topic("etcd-back")
    _create(cluster, later)  # every broker lists it: each one's watch is re-established
    _produce_and_read_back(cluster, later, 5)


def test_acked_records_survive_killed_and_paused_brokers_a_killed_controller_and_etcd_restart(cluster: Cluster) -> None:
    topic = unique_topic("faults")
    _create(cluster, topic)
    problems = clusterfaults.run(cluster, topic, PARTITIONS, seed=SEED, rounds=1, settle_s=2.0)
    assert not problems, f"seed {SEED}: " + "; ".join(problems)
