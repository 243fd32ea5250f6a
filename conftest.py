"""For tests/ and compat_tests/ alike: a kafka-python client a test leaves open is named at the end of the run.

kafka-python (3.x) gives every client (KafkaConsumer, KafkaProducer, KafkaAdminClient) a daemon I/O thread named
``kafka-io-<client id>``, which ``close()`` joins. A client never closed keeps that thread retrying its broker after
the test stopped it, and its log lines ("No node available for metadata refresh") land in a later test's caplog.
Each test's new I/O threads are noted with the test's id (a look at ``threading.enumerate()`` before and after it);
those still alive when the session ends, every fixture torn down, are listed in the summary as the tests that leaked
them. Reported, not failed: a failing test may leave its client open, and that failure is the one to read.
librdkafka's threads are not Python threads and aiokafka runs on the test's event loop, so neither is seen here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

CLIENT_THREAD_PREFIX = "kafka-io-"
_started_by: dict[threading.Thread, str] = {}


def _client_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith(CLIENT_THREAD_PREFIX)}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    before = _client_threads()
    try:
        return (yield)
    finally:
        for thread in _client_threads() - before:
            _started_by.setdefault(thread, item.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    leaked = sorted((test, thread.name) for thread, test in _started_by.items() if thread.is_alive())
    if leaked:
        terminalreporter.section("kafka-python clients left open (close them: their threads log into later tests)")
        for test, name in leaked:
            terminalreporter.line(f"{test}: {name}")
