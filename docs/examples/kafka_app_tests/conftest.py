"""A conftest for a project whose tests used a docker-started Kafka: one Rockafka broker for the whole session.

Copy it into your tests folder (``pip install rockafka`` brings the plugin). It overrides the plugin's
per-test ``kafka_broker`` with one broker for the session; the plugin's ``kafka_topic`` gives each test
its own topics on it, so tests stay apart without a broker each. Point your application at
``kafka_broker.bootstrap`` (here through the environment variable it reads, ``KAFKA_BOOTSTRAP_SERVERS``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rockafka.testing import Broker


@pytest.fixture(scope="session")
def kafka_broker() -> Iterator[Broker]:
    with Broker(settings={"num.partitions": "1"}) as broker:
        yield broker


@pytest.fixture(autouse=True)
def kafka_bootstrap_env(kafka_broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", kafka_broker.bootstrap)
