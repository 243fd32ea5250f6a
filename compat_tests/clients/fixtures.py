"""Broker fixtures for the client compat modules: a subprocess broker with a small store geometry."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ..brokerproc import BrokerProcess
from .aiokafka_driver import AiokafkaDriver
from .confluent_driver import ConfluentDriver
from .driver import Driver
from .kafka_python_driver import KafkaPythonDriver
from .kafkajs_driver import KafkajsDriver, kafkajs_missing
from .kcat_driver import KcatDriver, kcat_missing

ALL_CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka", "kafkajs", "kcat")

#: Small files, so a test broker neither reserves a 1 GiB CommitLog segment nor maps 400 MB indexes.
SMALL_STORE = {
    "log.segment.bytes": str(16 << 20),
    "rockafka.consumequeue.units.per.file": "4096",
    "rockafka.index.slots": "4096",
    "rockafka.index.entries": "16384",
}


#: kafka-python loads its protocol schemas lazily through importlib.resources calls deprecated in 3.11
#: (pyproject.toml's filterwarnings also ignores them for every test).
QUIET_KAFKA_PYTHON = pytest.mark.filterwarnings(
    "ignore:read_text is deprecated:DeprecationWarning", "ignore:open_text is deprecated:DeprecationWarning"
)


def module_broker(*, fixture_name: str = "broker", **settings: str) -> Callable[..., Any]:
    """A module-scoped fixture (``broker`` unless named otherwise): one subprocess broker with ``settings``
    for the module's tests."""

    @pytest.fixture(scope="module", name=fixture_name)
    def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
        process = BrokerProcess(tmp_path_factory.mktemp("broker"), {**SMALL_STORE, **settings}).start()
        try:
            yield process
        finally:
            process.stop()

    return broker


def kafkajs_process() -> Callable[..., Any]:
    """A module-scoped ``kafkajs`` fixture: one kafkajs Node process for the module's tests (skipped,
    with the reason shown, without Node or kafkajs)."""

    @pytest.fixture(scope="module")
    def kafkajs() -> Iterator[KafkajsDriver]:
        if (missing := kafkajs_missing()) is not None:
            pytest.skip(missing)
        driver = KafkajsDriver()
        try:
            yield driver
        finally:
            driver.close()

    return kafkajs


def driver_named(name: str, request: pytest.FixtureRequest) -> Driver:
    """The driver of client ``name`` (one of :data:`ALL_CLIENTS`); skips when the client is not installed.
    kafkajs comes from the module's ``kafkajs`` fixture (``kafkajs = kafkajs_process()``)."""
    if name == "kafkajs":
        driver: Driver = request.getfixturevalue("kafkajs")
        return driver
    if name == "kcat":
        if (missing := kcat_missing()) is not None:
            pytest.skip(missing)
        return KcatDriver()
    return {"kafka-python": KafkaPythonDriver, "aiokafka": AiokafkaDriver, "confluent-kafka": ConfluentDriver}[name]()
