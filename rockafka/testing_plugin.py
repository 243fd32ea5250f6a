"""pytest plugin (entry point ``pytest11``): the ``kafka_broker`` fixture, a real Rockafka broker per test.

::

    def test_roundtrip(kafka_broker):
        producer = KafkaProducer(bootstrap_servers=kafka_broker.bootstrap)

    @pytest.mark.kafka_broker(subprocess=True, settings={"num.partitions": "3"})
    def test_in_a_child_process(kafka_broker):
        ...

The marker's keyword arguments go to :class:`rockafka.testing.Broker`; the data directory is a fresh
temporary directory. For one broker shared by all tests, set ``rockafka_broker_scope = session`` (or
``module``) in the pytest ini file: the fixture then starts one broker with default settings (markers do not
apply). The ``kafka_topic`` fixture creates topics named after the test on it::

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
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from rockafka.testing import Broker, Cluster
    from rockafka.testing_topics import TopicFactory


BROKER_SCOPES = ("function", "module", "session")


def pytest_configure(config: pytest.Config) -> None:
    scope = str(config.getini("rockafka_broker_scope"))
    if scope not in BROKER_SCOPES:
        raise pytest.UsageError(f"rockafka_broker_scope = {scope!r}: expected one of {', '.join(BROKER_SCOPES)}")
    config.addinivalue_line(
        "markers",
        "kafka_broker(subprocess=False, settings=None, faults=False, clock=None): how the kafka_broker fixture runs"
        " its Rockafka broker (clock: a rockafka.testing.ManualClock for simulated time)",
    )
    config.addinivalue_line(
        "markers",
        "kafka_cluster(groups=3, settings=None, lease_ttl_ms=2000): the kafka_cluster fixture's Rockafka cluster",
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "rockafka_broker_scope",
        "the kafka_broker fixture's scope: function (a broker per test, as its kafka_broker marker says), module or"
        " session (one broker shared, with default settings; kafka_topic keeps the tests' topics apart)",
        default="function",
    )


def _broker_scope(fixture_name: str, config: pytest.Config) -> str:
    scope = str(config.getini("rockafka_broker_scope"))
    return scope if scope in BROKER_SCOPES else "function"  # pytest_configure has refused any other


@pytest.fixture(scope=_broker_scope)  # type: ignore[arg-type]
def kafka_broker(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """A running Rockafka broker on a free 127.0.0.1 port; ``.bootstrap`` is its address. Per test by default
    (configured by the test's ``kafka_broker`` marker); one per module or session with ``rockafka_broker_scope``."""
    from rockafka.testing import Broker

    per_test = request.scope == "function"
    marker = request.node.get_closest_marker("kafka_broker") if per_test else None
    options = dict(marker.kwargs) if marker is not None else {}
    if per_test:
        options.setdefault("data_dir", request.getfixturevalue("tmp_path") / "rockafka-data")
    else:
        options.setdefault("data_dir", tmp_path_factory.mktemp("rockafka-data"))
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
