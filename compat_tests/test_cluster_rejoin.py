"""A broker of a cluster that starts again answers clients only once it has joined the cluster.

Before it joins, its store alone would have it lead every partition of every topic it holds: the Jepsen suite
(seed 19) saw a broker restarted after a SIGKILL acknowledge an aiokafka record to a partition of another group
at offset 0 of its own copy, where no reader ever finds it. Here the restarting broker's link to etcd is cut
while it starts, so its join waits, and a client that knows only that broker produces to a partition of the other
group: the record must be acknowledged by that partition's leader and read back there at the offset acknowledged.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.testing import BrokerError

from .jepsen.topology import WAIT_S, FaultCluster

pytestmark = [pytest.mark.slow]

TOPIC = "rejoin"
PARTITIONS = 4
#: How long the client tries the restarting broker while its etcd link is cut (the join tries for 18 s).
CUT_S = 2.0


def _partition_of_group_2(cluster: FaultCluster) -> int:
    snapshot = cluster.snapshot_when(lambda s: TOPIC in s.topics, what=f"topic {TOPIC} known")
    placement = snapshot.topics[TOPIC].placement
    return next(index for index, group in enumerate(placement) if group == "group-2")


def _wait_bound(log: Path, since: int) -> None:
    """Until the broker writing ``log`` says, past byte ``since``, that it bound its listener."""
    deadline = time.monotonic() + WAIT_S
    while b"listening on" not in log.read_bytes()[since:]:
        assert time.monotonic() < deadline, f"the broker did not bind its listener:\n{log.read_text()[-4000:]}"
        time.sleep(0.05)


def _start(cluster: FaultCluster, node: int, failed: list[BaseException]) -> None:
    try:
        cluster.brokers[node].start()
    except BrokerError as exc:
        failed.append(exc)


def _read(bootstrap: str, partition: int) -> list[tuple[int, bytes]]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused", "enable.auto.commit": False})
    read: list[tuple[int, bytes]] = []
    try:
        consumer.assign([TopicPartition(TOPIC, partition, 0)])
        deadline = time.monotonic() + WAIT_S
        while not read and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                read.append((message.offset(), message.value()))
    finally:
        consumer.close()
    return read


def test_a_restarting_broker_acknowledges_nothing_before_it_has_joined_the_cluster() -> None:
    with FaultCluster(groups=2, name="rejoin") as cluster:
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        admin.create_topics([NewTopic(TOPIC, PARTITIONS, 1)])[TOPIC].result(timeout=WAIT_S)
        elsewhere = _partition_of_group_2(cluster)
        cluster.brokers[1].stop()
        cluster.snapshot_when(lambda s: 1 not in s.brokers, what="broker 1 unregistered")
        cluster.etcd_proxies[1].cut_link()
        log = cluster.brokers[1].log_path
        since = log.stat().st_size
        failed: list[BaseException] = []
        starting = threading.Thread(target=lambda: _start(cluster, 1, failed))
        starting.start()
        try:
            _wait_bound(log, since)
            acks: list[tuple[object, int | None]] = []
            producer = Producer({"bootstrap.servers": cluster.client_proxies[1].address, "acks": "all"})
            producer.produce(TOPIC, b"once", partition=elsewhere, on_delivery=lambda e, m: acks.append((e, m.offset())))
            producer.flush(CUT_S)  # broker 1 is bound, not joined: it must not take the record meanwhile
        finally:
            cluster.etcd_proxies[1].heal()
            starting.join(WAIT_S)
        assert not failed, failed
        assert producer.flush(WAIT_S) == 0
        [(error, offset)] = acks
        assert error is None
        assert _read(cluster.client_proxies[2].address, elsewhere) == [(offset, b"once")]  # from its leader
