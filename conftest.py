"""For tests/ and compat_tests/ alike: what a test leaves open is named at the end of the run.

Two leaks are reported, both because they break LATER tests, far from their cause:

- kafka-python clients. kafka-python (3.x) gives every client (KafkaConsumer, KafkaProducer, KafkaAdminClient) a
  daemon I/O thread named ``kafka-io-<client id>``, which ``close()`` joins. A client never closed keeps that thread
  retrying its broker after the test stopped it, and its log lines ("No node available for metadata refresh") land
  in a later test's caplog. Each test's new I/O threads are noted with the test's id (a look at
  ``threading.enumerate()`` before and after it); those still alive when the session ends are listed.
- File descriptors. The whole suite runs in one process; descriptors a test leaves open (sockets of a client or an
  in-process broker, files of a store) add up, and once the process reaches its limit (``ulimit -n``) a later test
  fails somewhere else: a proxy's ``accept()`` gets EMFILE and its client times out. Each test's growth in
  ``/proc/self/fd`` is noted; those that left many open are listed with the count at the end. (It was a test
  proxy whose port was its own upstream's: it forwarded every connection to itself until fd 19,999.)

Reported, not failed: a failing test may leave its client open, and that failure is the one to read. librdkafka's
threads are not Python threads and aiokafka runs on the test's event loop, so neither is seen in the first list.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

CLIENT_THREAD_PREFIX = "kafka-io-"
FD_DIRECTORY = "/proc/self/fd"
FD_LEAK_LISTED = 15  # at most this many tests are listed, those that left the most descriptors open
FD_LEAK_NOTED = 50  # a test that left fewer open is not listed (a client library's pool or cache, the log files)
FD_RUNAWAY = 1_000  # a test that held this many more while it ran is listed even if its teardown closed them
_started_by: dict[threading.Thread, str] = {}
_fds_left_by: dict[str, int] = {}
_fds_held_by: dict[str, int] = {}
_fds_at_start = 0


def _client_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith(CLIENT_THREAD_PREFIX)}


def _open_fds() -> int:
    try:
        return len(os.listdir(FD_DIRECTORY))
    except OSError:  # not Linux, or no descriptor left to list with
        return 0


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    global _fds_at_start
    before, fds_before = _client_threads(), _open_fds()
    _fds_at_start = fds_before
    try:
        return (yield)
    finally:
        for thread in _client_threads() - before:
            _started_by.setdefault(thread, item.nodeid)
        if (grown := _open_fds() - fds_before) > 0:
            _fds_left_by[item.nodeid] = grown


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    try:
        return (yield)
    finally:
        if (held := _open_fds() - _fds_at_start) >= FD_RUNAWAY:
            _fds_held_by[item.nodeid] = held


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    leaked = sorted((test, thread.name) for thread, test in _started_by.items() if thread.is_alive())
    if leaked:
        terminalreporter.section("kafka-python clients left open (close them: their threads log into later tests)")
        for test, name in leaked:
            terminalreporter.line(f"{test}: {name}")
    worst = sorted(((t, n) for t, n in _fds_left_by.items() if n >= FD_LEAK_NOTED), key=lambda item: -item[1])
    if (worst := worst[:FD_LEAK_LISTED]) or _fds_held_by:
        terminalreporter.section(f"file descriptors: {_open_fds()} open at the end; the tests that left or held many")
        for test, grown in worst:
            terminalreporter.line(f"+{grown}: {test}")
    for test, held in sorted(_fds_held_by.items(), key=lambda item: -item[1])[:FD_LEAK_LISTED]:
        terminalreporter.line(f"{held} more open at the end of its body (closed by its teardown): {test}")
