"""Ctrl-C during a migration's copy: the micro-batch in flight completes, then one line, exit 130, no stack
trace; the same command run again resumes from the checkpoint and leaves the target verified equal (no record
twice), with the checkpoint removed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rockafka.testing import Broker

from .kafkadata import consume_all, create_topic, produce

pytestmark = pytest.mark.spark
WAIT_S = 240


def _migrate(broker: Broker, target: Broker, report: Path) -> list[str]:
    return [sys.executable, "-m", "rockafka", "pipeline", "migrate", "--master", "local[2]",
            "--from", broker.bootstrap, "--to", target.bootstrap, "--topics", "halted", "--report", str(report),
            "--max-offsets-per-trigger", "60"]  # fmt: skip


def test_ctrl_c_during_the_copy_then_a_resume_verifies_equal(
    spark: Any, broker: Broker, target_broker: Broker, tmp_path: Path
) -> None:
    create_topic(broker.bootstrap, "halted", 2)
    produce(broker.bootstrap, "halted", 600, partitions=2)
    report = tmp_path / "report.json"
    command = _migrate(broker, target_broker, report)

    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen: list[str] = []
        deadline = time.monotonic() + WAIT_S
        assert child.stderr is not None
        while time.monotonic() < deadline and not any(line.startswith("copy: batch") for line in seen):
            line = child.stderr.readline()
            if not line:
                break
            seen.append(line)
        assert any(line.startswith("copy: batch") for line in seen), "".join(seen)
        child.send_signal(signal.SIGINT)
        _, rest = child.communicate(timeout=WAIT_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    err = "".join(seen) + rest
    assert child.returncode == 130, err
    assert rest.strip().splitlines()[-1] == (
        "rockafka pipeline: interrupted; run the same command again to resume from its checkpoint"
    )
    assert "copy: stopping after the micro-batch in flight" in rest
    assert "Traceback" not in err and "\tat " not in err
    assert (tmp_path / "report.json.checkpoint").is_dir()

    resumed = subprocess.run(command, capture_output=True, text=True, timeout=WAIT_S)

    assert resumed.returncode == 0, resumed.stderr
    document = json.loads(report.read_text())
    assert document["equal"] is True
    assert 0 < document["copied"]["rows"] < 600  # the resumed run copied only what the first had not
    assert consume_all(target_broker.bootstrap, "halted") == consume_all(broker.bootstrap, "halted")
    assert not (tmp_path / "report.json.checkpoint").exists()
