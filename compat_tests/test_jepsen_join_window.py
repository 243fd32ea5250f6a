"""The fault suite's finding on main, as its own test: a broker restarted after a SIGKILL serves clients before it
joins the cluster, as a single broker that leads every partition it knows, the other groups' included. Held
open here by cutting its etcd link (``compat_tests/jepsen/netproxy.py``) while it starts: a produce to another
group's partition sent to it then must not be acknowledged unless the record can be read back from that
partition once the cluster serves again (it was, until the broker started serving only once it joined:
``compat_tests/test_cluster_rejoin.py`` is the same check with another client)."""

from __future__ import annotations

import time

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from .jepsen.topology import WAIT_S, FaultCluster

pytestmark = [pytest.mark.slow]


def _read(bootstrap: str, topic: str, partition: int) -> list[tuple[int, bytes]]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused", "enable.partition.eof": True})
    records: list[tuple[int, bytes]] = []
    try:
        consumer.assign([TopicPartition(topic, partition, OFFSET_BEGINNING)])
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is None:
                continue
            if message.error() is not None:
                if message.error().code() == KafkaError._PARTITION_EOF:
                    return records
                continue
            records.append((message.offset(), message.value()))
        return records
    finally:
        consumer.close()


def test_a_broker_that_has_not_joined_yet_acknowledges_nothing_it_does_not_hold() -> None:
    with FaultCluster(groups=2, members=1) as cluster:
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        admin.create_topics([NewTopic("joins", 2, 1)])["joins"].result(timeout=WAIT_S)
        snapshot = cluster.snapshot_when(lambda s: "joins" in s.topics, what="topic joins known")
        elsewhere = snapshot.topics["joins"].placement.index("group-1")  # a partition broker 2 does not hold
        cluster.kill(2)
        cluster.snapshot_when(lambda s: 2 not in s.brokers, what="broker 2 unregistered")
        cluster.isolate(2, clients=False)  # etcd cut: it starts and serves, but cannot join
        cluster.brokers[2].start()
        reports: list[tuple[KafkaError | None, int]] = []

        def report(error: KafkaError | None, message: Message) -> None:
            reports.append((error, message.offset() or 0))

        producer = Producer({"bootstrap.servers": cluster.client_proxies[2].address, "message.timeout.ms": 5000})
        producer.produce("joins", b"sent-before-the-join", partition=elsewhere, on_delivery=report)
        producer.flush(WAIT_S)
        cluster.heal(2)
        cluster.wait_serving()
        ((error, offset),) = reports
        if error is None:  # acknowledged: it must be there
            assert (offset, b"sent-before-the-join") in _read(cluster.bootstrap, "joins", elsewhere)
