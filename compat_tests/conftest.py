"""Fixtures for the compat tests: a live Rockafka broker in a child process, per test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka.admin import KafkaAdminClient

from .brokerproc import BrokerProcess


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    """A broker on a free port with a fresh data directory, stopped (by PID) after the module's tests."""
    process = BrokerProcess(tmp_path_factory.mktemp("broker")).start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def fresh_broker(tmp_path: Path) -> Iterator[BrokerProcess]:
    """A broker of the test's own, for tests that restart or kill it."""
    process = BrokerProcess(tmp_path / "broker").start()
    try:
        yield process
    finally:
        process.kill()


@pytest.fixture(scope="module")
def group_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    """A broker with the group settings the group scenarios use (short session timeouts, no join delay)."""
    from .groupscenario import GROUP_BROKER_SETTINGS

    process = BrokerProcess(tmp_path_factory.mktemp("broker"), settings=dict(GROUP_BROKER_SETTINGS)).start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def admin(group_broker: BrokerProcess) -> Iterator[KafkaAdminClient]:
    """kafka-python's admin client on the group broker."""
    client = KafkaAdminClient(bootstrap_servers=group_broker.bootstrap)
    try:
        yield client
    finally:
        client.close()
