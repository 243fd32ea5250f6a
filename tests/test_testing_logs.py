"""The in-process broker's log lines land in pytest's captured output: ``caplog`` sees them, and a failing test's
report shows them under "Captured log call"."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from rockafka.testing import Broker

pytest_plugins = ["pytester"]

FAILING_TEST = """
from rockafka.testing import Broker


def test_that_fails(tmp_path):
    with Broker(data_dir=tmp_path / "data"):
        pass
    assert False, "the application under test misbehaved"
"""


def test_caplog_sees_the_in_process_brokers_lines(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data"):
        pass
    lines = [(record.name, record.levelno, record.getMessage()) for record in caplog.records]
    assert any(name.startswith("rockafka.") and "started" in message for name, _, message in lines), lines
    assert ("rockafka.facade.app", logging.INFO, "Rockafka broker stopped") in lines


def test_a_failing_tests_report_shows_the_brokers_log_lines(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_app=FAILING_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*Captured log call*", "*rockafka*Rockafka broker * started*", "*rockafka*Rockafka broker stopped*"]
    )
