"""A Rockafka broker run as a child process on a free loopback port, for tests that drive real clients.

The process is started with ``python -m rockafka serve --override ...``, exactly as a user would run
it, and stopped by its PID: SIGTERM for a clean stop (bounded wait, then SIGKILL), or SIGKILL to
simulate a crash. Its output goes to a log file in the data directory's parent, shown on failure.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 20.0
TEST_SEGMENT_BYTES = 32 << 20
"""CommitLog segment size unless a test sets ``log.segment.bytes``: a broker pre-allocates its segment and the
next one, and at Kafka's 1 GiB default the suite's brokers would hold tens of GB of disk at once."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class BrokerProcess:
    """A broker child process; ``start()`` waits until it accepts connections."""

    workdir: Path
    settings: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def data_dir(self) -> Path:
        return self.workdir / "data"

    @property
    def log_path(self) -> Path:
        return self.workdir / "broker.log"

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        settings = {
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "log.dirs": str(self.data_dir),
            "log.segment.bytes": str(TEST_SEGMENT_BYTES),
            **self.settings,
        }
        args = [sys.executable, "-m", "rockafka", "serve"]
        for key, value in settings.items():
            args += ["--override", f"{key}={value}"]
        return args

    def start(self) -> BrokerProcess:
        self.workdir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"broker exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"broker did not listen within {START_TIMEOUT_S}s:\n{self.log_text()}")

    def stop(self) -> int | None:
        """SIGTERM and wait (a clean shutdown); SIGKILL if it does not exit in time. Returns the exit code."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()
            raise RuntimeError(f"broker ignored SIGTERM for {STOP_TIMEOUT_S}s:\n{self.log_text()}") from None

    def kill(self) -> None:
        """SIGKILL: a crash, for durability tests."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(STOP_TIMEOUT_S)

    def restart(self, *, crash: bool = False) -> BrokerProcess:
        if crash:
            self.kill()
        else:
            self.stop()
        return self.start()

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-8000:]
        except OSError:
            return "(no broker log)"
