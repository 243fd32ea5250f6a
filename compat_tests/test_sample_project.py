"""docs/examples/kafka_app_tests: the conftest docs/testing.md offers to projects leaving a docker-started Kafka,
with tests written as such a project would write them, run by pytest in a child process from a folder of
their own (only the installed plugin and the copied files)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "kafka_app_tests"
RUN_TIMEOUT_S = 240


def test_the_sample_project_passes_with_only_the_plugin(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(project), str(project)]
    done = subprocess.run(args, cwd=project, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "3 passed" in done.stdout, done.stdout[-3000:]
