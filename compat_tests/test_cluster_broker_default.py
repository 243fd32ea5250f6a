"""The cluster-wide dynamic broker default lives in etcd: set through one broker, described and enforced by another.

A 2-group ``rockafka.testing.Cluster`` (node ids 1 and 2). ``kafka-configs.sh --entity-default`` bootstrapped at
broker 1 only (the broker resource "") writes the default to etcd; broker 2's watch applies it: DescribeConfigs of
broker 2 (kafka-python) reports the value with source DYNAMIC_DEFAULT_BROKER_CONFIG, and a producer writing to a
partition broker 2 leads is refused above the new ``message.max.bytes``. Kafka's precedence holds: broker 2's own
dynamic value wins over the default on broker 2 only; deleting the default brings broker 1 back to its static
default.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import kafka.errors as errors
import pytest
from kafka import KafkaAdminClient, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource as KpConfigResource
from kafka.admin import ConfigResourceType, NewTopic

from rockafka.testing import Cluster

TIMEOUT_S = 30
SCRIPTS = Path(sys.executable).parent
LIMIT = "2000"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=2, lease_ttl_ms=6000) as cluster:
        yield cluster


def configs_tool(bootstrap: str, entity: str, *args: str) -> None:
    """``kafka-configs.sh --entity-type brokers`` against the one broker at ``bootstrap``: ``entity`` is
    ``--entity-default`` or a node id."""
    chosen = ["--entity-default"] if entity == "" else ["--entity-name", entity]
    command = [str(SCRIPTS / "kafka-configs.sh"), "--bootstrap-server", bootstrap, "--entity-type", "brokers"]
    done = subprocess.run([*command, *chosen, "--alter", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def entry(cluster: Cluster, node: int, name: str) -> dict[str, object]:
    """``name`` as broker ``node`` describes it for itself (kafka-python sends a broker resource to that broker)."""
    admin = KafkaAdminClient(bootstrap_servers=cluster.bootstrap)
    try:
        found = admin.describe_configs(
            [KpConfigResource(ConfigResourceType.BROKER, str(node))], config_filter="all", include_synonyms=True
        )
    finally:
        admin.close()
    return dict(found["broker"][str(node)][name])


def partition_led_by(cluster: Cluster, topic: str, node: int) -> int:
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap)
    try:
        for partition in sorted(producer.partitions_for(topic)):
            if producer._metadata.leader_for_partition(TopicPartition(topic, partition)) == node:
                return partition
    finally:
        producer.close()
    raise AssertionError(f"no partition of {topic} is led by broker {node}")


def send(cluster: Cluster, topic: str, partition: int, size: int) -> None:
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, max_request_size=1 << 20, retries=0, acks=1)
    try:
        producer.send(topic, b"x" * size, partition=partition).get(timeout=TIMEOUT_S)
    finally:
        producer.close()


def test_the_default_set_on_one_broker_applies_on_the_other(cluster: Cluster) -> None:
    topic = "broker-default"
    admin = KafkaAdminClient(bootstrap_servers=cluster.bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 2, 1)])
    finally:
        admin.close()
    on_two = partition_led_by(cluster, topic, 2)
    send(cluster, topic, on_two, 5000)  # the static default (1 MiB) lets it through

    configs_tool(cluster.brokers[1].bootstrap, "", "--add-config", f"message.max.bytes={LIMIT}")

    described = entry(cluster, 2, "message.max.bytes")
    assert (described["value"], described["config_source"]) == (LIMIT, "DYNAMIC_DEFAULT_BROKER_CONFIG")
    with pytest.raises(errors.MessageSizeTooLargeError):
        send(cluster, topic, on_two, 5000)
    send(cluster, topic, on_two, 500)


def test_a_broker_s_own_value_wins_over_the_default_there_only(cluster: Cluster) -> None:
    configs_tool(cluster.brokers[1].bootstrap, "", "--add-config", f"message.max.bytes={LIMIT}")
    configs_tool(cluster.brokers[2].bootstrap, "2", "--add-config", "message.max.bytes=3000")
    own = entry(cluster, 2, "message.max.bytes")
    assert (own["value"], own["config_source"]) == ("3000", "DYNAMIC_BROKER_CONFIG")
    default = entry(cluster, 1, "message.max.bytes")
    assert (default["value"], default["config_source"]) == (LIMIT, "DYNAMIC_DEFAULT_BROKER_CONFIG")

    configs_tool(cluster.brokers[2].bootstrap, "", "--delete-config", "message.max.bytes")
    assert entry(cluster, 1, "message.max.bytes")["config_source"] == "DEFAULT_CONFIG"
    assert entry(cluster, 2, "message.max.bytes")["value"] == "3000"
