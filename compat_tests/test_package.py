"""The package as a user gets it: ``python -m build`` makes an sdist and, from it, a wheel; the wheel installs into a
fresh virtual environment (its dependencies from the package index pip is configured with), and the broker it
installs serves a real client, with its Cython kernels compiled. The sdist installs where no C compiler works
too: without the kernels, with one warning, and that broker serves on the pure-Python twins.

Nothing of this checkout is on the fresh environment's path: the broker runs with the test's temporary
directory as its working directory, from the environment's own ``rockafka`` script. The wheel build compiles
every kernel (minutes on a loaded machine): these tests are marked ``slow``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from tests.conftest import COMPILED_KERNELS

from .brokerproc import free_port

ROOT = Path(__file__).resolve().parent.parent
BUILD_TIMEOUT_S = 1500
INSTALL_TIMEOUT_S = 900
START_TIMEOUT_S = 60.0
TIMEOUT_S = 30.0

KERNEL_FILES = """
import json, sys
from rockafka.core_pyx import kernel
names = json.loads(sys.argv[1])
print(json.dumps({name: kernel(name).__file__ for name in names}))
"""


def _run(args: list[str], timeout_s: float, cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout_s, check=False)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the installed broker did not listen:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An sdist and the wheel ``python -m build`` makes from it (so the sdist is shown to hold the kernels' sources)."""
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], BUILD_TIMEOUT_S, ROOT)
    return out


def _fresh_venv(tmp_path: Path, package: Path, environment: dict[str, str] | None = None) -> tuple[Path, str]:
    """A fresh venv with ``package`` installed; (its python, pip's verbose output)."""
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], INSTALL_TIMEOUT_S, tmp_path)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", str(package)], cwd=tmp_path, capture_output=True, text=True,
        timeout=INSTALL_TIMEOUT_S, check=False, env=None if environment is None else {**os.environ, **environment},
    )  # fmt: skip
    assert done.returncode == 0, f"pip install failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return python, done.stdout + done.stderr


def _kernel_files(python: Path, tmp_path: Path) -> dict[str, str]:
    output = _run([str(python), "-c", KERNEL_FILES, json.dumps(COMPILED_KERNELS)], TIMEOUT_S, tmp_path)
    return dict(json.loads(output.strip().splitlines()[-1]))


def _serves_a_round_trip(venv_bin: Path, tmp_path: Path, topic: str) -> str:
    """Start the installed ``rockafka serve``, produce and read back one record, stop it; returns its log."""
    port = free_port()
    log = tmp_path / "broker.log"
    overrides = [
        f"listeners=PLAINTEXT://127.0.0.1:{port}",
        f"log.dirs={tmp_path / 'data'}",
        "log.segment.bytes=16777216",
    ]
    args = [str(venv_bin / "rockafka"), "serve"] + [f"--override={item}" for item in overrides]
    with log.open("wb") as output:
        process = subprocess.Popen(args, cwd=tmp_path, stdout=output, stderr=subprocess.STDOUT)
    try:
        _wait_listening(port, process, log)
        producer = KafkaProducer(bootstrap_servers=f"127.0.0.1:{port}")
        producer.send(topic, b"installed").get(timeout=TIMEOUT_S)
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=f"127.0.0.1:{port}", consumer_timeout_ms=int(TIMEOUT_S * 1000))
        consumer.assign([TopicPartition(topic, 0)])
        consumer.seek_to_beginning()
        assert next(consumer).value == b"installed"
        consumer.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(TIMEOUT_S) == 0, log.read_text(errors="replace")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT_S)
    return log.read_text(errors="replace")


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT_S + INSTALL_TIMEOUT_S * 2)
def test_the_built_wheel_installs_into_a_fresh_venv_and_serves(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("rockafka-*.whl")
    python, _ = _fresh_venv(tmp_path, wheel)
    files = _kernel_files(python, tmp_path)
    assert all(Path(path).suffix == ".so" and str(tmp_path / "venv") in path for path in files.values()), files
    _serves_a_round_trip(python.parent, tmp_path, "from-the-wheel")


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT_S + INSTALL_TIMEOUT_S * 2)
def test_the_sdist_installs_without_a_compiler_on_the_pure_twins_with_a_warning(dist: Path, tmp_path: Path) -> None:
    (sdist,) = dist.glob("rockafka-*.tar.gz")
    python, pip_output = _fresh_venv(tmp_path, sdist, {"CC": "false", "CXX": "false", "LDSHARED": "false"})
    assert "rockafka's Cython kernels could not be compiled" in pip_output
    files = _kernel_files(python, tmp_path)
    assert all(path.endswith("_py.py") for path in files.values()), files
    log = _serves_a_round_trip(python.parent, tmp_path, "from-the-sdist")
    assert "running the much slower pure-Python twin" in log
