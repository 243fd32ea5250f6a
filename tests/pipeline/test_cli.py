"""``rockafka pipeline`` mistakes: one line on stderr, exit code 2, no traceback, before any Spark starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rockafka.pipeline import SparkUnavailableError
from rockafka.pipeline.session import check_spark
from rockafka.testing import Broker


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rockafka", "pipeline", *args], capture_output=True, text=True, timeout=60
    )


PROPERTIES = {
    "jks": "security.protocol=SSL\nssl.truststore.location=/etc/kafka/truststore.jks",
    "kerberos": "sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;",
    "unknown": "linger=5",
}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "--data-dir", "{missing}", "--topics", "a", "--to", "parquet", "{out}"], "is not a directory"),
        (["export", "--data-dir", "{empty}", "--topics", "a", "--to", "parquet", "{out}"], "not a Rockafka store"),
        (["export", "--data-dir", "{store}", "--topics", "nope", "--to", "parquet", "{out}"], "not in the store"),
        (["export", "--data-dir", "{store}", "--topics", "a", "--to", "csv", "{out}"], "format must be one of"),
        (["migrate", "--from", "{bootstrap}", "--to", "{bootstrap}", "--topics", "nope"], "not on the source"),
        (["export", "--data-dir", "{store}", "--topics", "a", "--to", "parquet", "{out}", "--conf", "x"], "KEY=VALUE"),
        (["migrate", "--from-config", "{missing}", "--to", "{bootstrap}", "--topics", "a"], "cannot read the client"),
        (
            ["migrate", "--from-config", "{jks}", "--to", "{bootstrap}", "--topics", "a"],
            "convert the truststore to PEM",
        ),
        (["migrate", "--from-config", "{kerberos}", "--to", "{bootstrap}", "--topics", "a"], "only PlainLoginModule"),
        (["migrate", "--from-config", "{unknown}", "--to", "{bootstrap}", "--topics", "a"], "has no setting 'linger'"),
        (["migrate", "--to", "{bootstrap}", "--topics", "a"], "the source has no bootstrap servers"),
        (
            ["mirror", "--from", "{bootstrap}", "--to", "{bootstrap}", "--topics-pattern", "a("],
            "not a regular expression",
        ),
        (["mirror", "--from", "{bootstrap}", "--topics-pattern", "a"], "the target has no bootstrap servers"),
        (
            ["mirror", "--from", "{bootstrap}", "--to", "{bootstrap}", "--topics-pattern", "a", "--trigger", "0"],
            "seconds",
        ),
    ],
)
def test_mistakes_are_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path, broker: Broker) -> None:
    places = {"missing": str(tmp_path / "missing"), "empty": str(tmp_path), "store": str(broker.data_dir),
              "out": str(tmp_path / "out"), "bootstrap": broker.bootstrap}  # fmt: skip
    for name, lines in PROPERTIES.items():
        (tmp_path / f"{name}.properties").write_text(f"bootstrap.servers={broker.bootstrap}\n{lines}\n")
        places[name] = str(tmp_path / f"{name}.properties")
    result = _run(*(arg.format(**places) for arg in args))
    assert result.returncode == 2
    assert message in result.stderr.strip().splitlines()[-1]  # argparse's usage lines may come first
    assert "Traceback" not in result.stderr


def test_missing_java_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(SparkUnavailableError, match="Java runtime"):
        check_spark()
