"""The package as a user gets it: ``python -m build`` makes a wheel, which installs into a fresh virtual
environment (its dependencies from the package index pip is configured with), and the broker it installs
serves a real client, with its Cython kernels compiled.

Nothing of this checkout is on the fresh environment's path: the broker runs with the test's temporary
directory as its working directory, from the environment's own ``rockafka`` script. One test, as the
wheel build compiles every kernel (minutes on a loaded machine): it is marked ``slow``.
"""

from __future__ import annotations

import json
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
import importlib, json, sys
names = json.loads(sys.argv[1])
print(json.dumps({name: importlib.import_module("rockafka.core_pyx." + name).__file__ for name in names}))
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


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT_S + INSTALL_TIMEOUT_S * 2)
def test_the_built_wheel_installs_into_a_fresh_venv_and_serves(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)], BUILD_TIMEOUT_S, ROOT)
    (wheel,) = dist.glob("rockafka-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], INSTALL_TIMEOUT_S, tmp_path)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], INSTALL_TIMEOUT_S, tmp_path)

    files = json.loads(
        _run([str(venv / "bin" / "python"), "-c", KERNEL_FILES, json.dumps(COMPILED_KERNELS)], TIMEOUT_S, tmp_path)
    )
    assert all(Path(path).suffix == ".so" and str(venv) in path for path in files.values()), files

    port = free_port()
    log = tmp_path / "broker.log"
    overrides = [
        f"listeners=PLAINTEXT://127.0.0.1:{port}",
        f"log.dirs={tmp_path / 'data'}",
        "log.segment.bytes=16777216",
    ]
    args = [str(venv / "bin" / "rockafka"), "serve"] + [f"--override={item}" for item in overrides]
    with log.open("wb") as output:
        process = subprocess.Popen(args, cwd=tmp_path, stdout=output, stderr=subprocess.STDOUT)
    try:
        _wait_listening(port, process, log)
        producer = KafkaProducer(bootstrap_servers=f"127.0.0.1:{port}")
        producer.send("from-the-wheel", b"installed").get(timeout=TIMEOUT_S)
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=f"127.0.0.1:{port}", consumer_timeout_ms=int(TIMEOUT_S * 1000))
        consumer.assign([TopicPartition("from-the-wheel", 0)])
        consumer.seek_to_beginning()
        assert next(consumer).value == b"installed"
        consumer.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(TIMEOUT_S) == 0, log.read_text(errors="replace")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT_S)
