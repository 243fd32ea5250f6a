"""pytest plugin (entry point ``pytest11``): the ``kafka_broker`` fixture, a real Rockafka broker per test.

::

    def test_roundtrip(kafka_broker):
        producer = KafkaProducer(bootstrap_servers=kafka_broker.bootstrap)

    @pytest.mark.kafka_broker(subprocess=True, settings={"num.partitions": "3"})
    def test_in_a_child_process(kafka_broker):
        ...

The marker's keyword arguments go to :class:`rockafka.testing.Broker`; the data directory is the
test's ``tmp_path``. For one broker shared by many tests, make a session fixture around ``Broker``
named ``kafka_broker``. The ``kafka_topic`` fixture creates topics named after the test on it::

    def test_orders(kafka_broker, kafka_topic):
        topic = kafka_topic(partitions=3)
The ``kafka_cluster`` fixture is a :class:`rockafka.testing.Cluster` (a local etcd and subprocess brokers, one
per broker group) for tests of what a cluster does when a broker dies::

    @pytest.mark.kafka_cluster(groups=2)
    def test_the_leader_dies(kafka_cluster):
        leader = kafka_cluster.leader_of("orders", 0)
        kafka_cluster.restart(leader)           # SIGKILL, wait for its lease to expire, start, wait until it leads

The broker is imported only when a test asks for it, so the plugin costs nothing otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from rockafka.testing import Broker, Cluster
    from rockafka.testing_topics import TopicFactory


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "kafka_broker(subprocess=False, settings=None, faults=False, clock=None): how the kafka_broker fixture runs"
        " its Rockafka broker (clock: a rockafka.testing.ManualClock for simulated time)",
    )
    config.addinivalue_line(
        "markers",
        "kafka_cluster(groups=3, settings=None, lease_ttl_ms=2000): the kafka_cluster fixture's Rockafka cluster",
    )


@pytest.fixture
def kafka_broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Broker]:
    """A running Rockafka broker on a free 127.0.0.1 port; ``.bootstrap`` is its address."""
    from rockafka.testing import Broker

    marker = request.node.get_closest_marker("kafka_broker")
    options = dict(marker.kwargs) if marker is not None else {}
    options.setdefault("data_dir", tmp_path / "rockafka-data")
    broker = Broker(**options)
    broker.start()
    try:
        yield broker
    finally:
        broker.close()


@pytest.fixture
def kafka_topic(kafka_broker: Broker, request: pytest.FixtureRequest) -> TopicFactory:
    """A factory of new topics on ``kafka_broker``, named after the test: ``kafka_topic(partitions=1, config=None)``
    returns a new topic's name (:mod:`rockafka.testing_topics`). Override ``kafka_broker`` with a session-scoped
    fixture and the topics still stay apart per test."""
    from rockafka.testing_topics import TopicFactory

    return TopicFactory(kafka_broker.bootstrap, request.node.name)


@pytest.fixture
def kafka_cluster(request: pytest.FixtureRequest) -> Iterator[Cluster]:
    """A running Rockafka cluster (etcd from Debian's ``etcd-server``, one subprocess broker per group);
    ``.bootstrap`` lists every broker. Stopped, with its data, after the test."""
    from rockafka.testing import Cluster

    marker = request.node.get_closest_marker("kafka_cluster")
    with Cluster(**(dict(marker.kwargs) if marker is not None else {})) as cluster:
        yield cluster
