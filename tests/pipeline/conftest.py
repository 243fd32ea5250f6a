"""Fixtures for the pipeline tests: one local SparkSession for the whole run, and Rockafka brokers.

The Spark tests are marked ``spark``. Without Java (or PySpark) they fail with a message saying what to
install: they are part of ``make test`` and must not pass silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from rockafka.testing import Broker

from .kafkadata import BROKER_SETTINGS

SPARK_SETTINGS = {
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
}


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """A ``local[2]`` session with both formats registered, shared by every Spark test."""
    from rockafka.pipeline import SparkUnavailableError
    from rockafka.pipeline.session import spark_session

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    try:
        session = spark_session("local[2]", "rockafka-tests", SPARK_SETTINGS)
    except SparkUnavailableError as exc:
        pytest.fail(f"the spark tests need PySpark and Java 17: {exc}", pytrace=False)
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture(scope="session")
def broker() -> Iterator[Broker]:
    """An in-process broker shared by the pipeline tests (each test uses topics of its own), keeping every record."""
    with Broker(settings=BROKER_SETTINGS) as running:
        yield running


@pytest.fixture(scope="session")
def target_broker() -> Iterator[Broker]:
    """A second broker: the target of copies and migrations."""
    with Broker(settings=BROKER_SETTINGS) as running:
        yield running
