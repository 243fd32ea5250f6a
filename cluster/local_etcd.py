"""A one-node etcd on 127.0.0.1 for tests and ``rockafka cluster up``: Debian's ``etcd`` binary, free ports,
its own data directory, stopped by its PID.

::

    with LocalEtcd() as etcd:          # temporary data directory, removed at the end
        etcd.endpoint                  # "127.0.0.1:PORT", for rockafka.cluster.etcd.endpoints

The binary is ``etcd`` on PATH (``make test`` installs Debian's ``etcd-server`` when run as root), or the
``ROCKAFKA_ETCD_BINARY`` environment variable. A missing binary is :class:`EtcdNotInstalledError` with a
sentence that says how to install it. The process writes its log to ``etcd.log`` in the data directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Final

from .errors import ClusterError

HOST: Final = "127.0.0.1"
START_TIMEOUT_S: Final = 30.0
STOP_TIMEOUT_S: Final = 10.0
BINARY_VARIABLE: Final = "ROCKAFKA_ETCD_BINARY"


class EtcdNotInstalledError(ClusterError):
    """No etcd binary to run."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def etcd_binary() -> str:
    """The etcd executable to run, or :class:`EtcdNotInstalledError`."""
    binary = os.environ.get(BINARY_VARIABLE) or shutil.which("etcd")
    if not binary:
        raise EtcdNotInstalledError(
            "etcd is not installed: apt-get install etcd-server (or set ROCKAFKA_ETCD_BINARY to an etcd 3.4+ binary)"
        )
    return binary


class LocalEtcd:
    """One etcd process serving clients on a free loopback port (context manager; restartable)."""

    def __init__(self, data_dir: Path | None = None, client_port: int | None = None) -> None:
        self._owned = data_dir is None
        self.data_dir = Path(tempfile.mkdtemp(prefix="rockafka-etcd-")) if data_dir is None else data_dir
        self.client_port = client_port or _free_port()
        self.peer_port = _free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"{HOST}:{self.client_port}"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> LocalEtcd:
        """Start etcd and return once it answers on its client port (``ClusterError`` if it does not)."""
        client_url = f"http://{self.endpoint}"
        peer_url = f"http://{HOST}:{self.peer_port}"
        args = [
            etcd_binary(),
            "--name=rockafka-test",
            f"--data-dir={self.data_dir / 'member-data'}",
            f"--listen-client-urls={client_url}",
            f"--advertise-client-urls={client_url}",
            f"--listen-peer-urls={peer_url}",
            f"--initial-advertise-peer-urls={peer_url}",
            f"--initial-cluster=rockafka-test={peer_url}",
            "--log-level=warn",
            "--logger=zap",
        ]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with (self.data_dir / "etcd.log").open("ab") as log:
            self._process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        self._wait_serving()
        return self

    def _wait_serving(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise ClusterError(f"etcd exited with {self._process.returncode}: see {self.data_dir / 'etcd.log'}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.client_port), timeout=0.5):
                return
            time.sleep(0.05)
        self.kill()
        raise ClusterError(f"etcd did not listen within {START_TIMEOUT_S}s: see {self.data_dir / 'etcd.log'}")

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if etcd is still there after ``STOP_TIMEOUT_S``."""
        process = self._process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(STOP_TIMEOUT_S)

    def close(self) -> None:
        """Stop etcd and remove a temporary data directory."""
        self.stop()
        if self._owned:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> LocalEtcd:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
