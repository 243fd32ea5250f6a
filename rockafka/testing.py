"""An embeddable Rockafka broker for tests: a real broker on a free loopback port, in one line.

::

    from rockafka.testing import Broker

    with Broker() as broker:                      # in-process, temporary data directory
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)

    async with Broker(settings={"num.partitions": "3"}) as broker:   # the same, from async code
        ...

    with Broker(subprocess=True) as broker:       # `python -m rockafka serve` in a child process
        broker.kill()                             # SIGKILL: a crash
        broker.start()                            # recovers from the same data directory

In-process, the broker (:class:`rockafka.facade.app.BrokerApp`) runs on its own event loop in a
daemon thread, so it serves synchronous and asynchronous clients of the test alike. As a subprocess
it is started exactly as a user starts it, and stopped by PID (SIGTERM, or SIGKILL for
:meth:`Broker.kill`); its output goes to ``broker.log`` beside the data directory.

Settings use Kafka's names (``settings={"auto.create.topics.enable": "false"}``); they are applied
over :data:`TEST_SETTINGS` (small store files, no group rebalance delay), and environment variables
are ignored so a test sees the same broker everywhere. The port is chosen free on 127.0.0.1 at the
first start and kept across restarts, so clients reconnect to the same address. A temporary data
directory is removed by :meth:`Broker.close` (the end of a ``with`` block); a given one is kept.

:class:`LocalEtcd` (from :mod:`rockafka.cluster.local_etcd`) runs a one-node etcd on free loopback ports,
for brokers that join a cluster (docs/cluster.md).

``broker.faults`` makes a running broker misbehave (error codes, latency, dropped or refused connections,
rebalances, coordinator moves, a failing store; :mod:`rockafka.testing_faults`, docs/testing.md): always
in-process, and for a subprocess broker started with ``faults=True``.

``Broker(clock=ManualClock())`` runs an in-process broker's own timers (group sessions, transaction timeouts,
retention, the cleaner) on simulated time: ``clock.advance(seconds)`` fires them, without sleeping.

The pytest plugin :mod:`rockafka.testing_plugin` (entry point ``pytest11``) offers this broker as
the ``kafka_broker`` fixture, and new topics per test as ``kafka_topic``. ``RockafkaContainer`` is the
container image as a testcontainers-python container (:mod:`rockafka.testing_container`; imported on first
use, as it needs ``testcontainers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess as _subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final

from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.facade.app import BrokerApp, StartupError
from rockafka.facade.clock import REAL_CLOCK, Clock, ManualClock
from rockafka.facade.config import BROKER_CONFIGS, BrokerConfig, ConfigError, load_broker_config
from rockafka.facade.config.broker import ENV_PREFIX

from .testing_faults import FaultCommandError, Faults, Send, channel_sender, in_process_sender

if TYPE_CHECKING:
    from rockafka.cluster.snapshot import ClusterSnapshot

# and RockafkaContainer, imported on first use
__all__ = ["TEST_SETTINGS", "Broker", "BrokerError", "Cluster", "Faults", "LocalEtcd", "ManualClock"]


def __getattr__(name: str) -> object:
    """``RockafkaContainer``, imported on first use (it needs the optional ``testcontainers`` package)."""
    if name == "RockafkaContainer":
        from .testing_container import RockafkaContainer

        return RockafkaContainer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Applied under the caller's settings: small files (a test broker neither reserves a 1 GiB CommitLog
#: segment nor maps 400 MB index files) and consumer groups that form at once.
TEST_SETTINGS: Final[Mapping[str, str]] = {
    "log.segment.bytes": str(32 << 20),
    "rockafka.consumequeue.units.per.file": "16384",
    "rockafka.index.slots": "16384",
    "rockafka.index.entries": "65536",
    "group.initial.rebalance.delay.ms": "0",
}
#: Where the broker listens and keeps its data: chosen by :class:`Broker` itself. (``advertised.listeners``
#: may be set, e.g. with ``port=...`` to advertise that address explicitly, or a proxy in front of it.)
PLACEMENT_SETTINGS: Final = frozenset({"listeners", "log.dirs", "log.dir"})
START_TIMEOUT_S: Final = 30.0
STOP_TIMEOUT_S: Final = 20.0
HOST: Final = "127.0.0.1"


class BrokerError(Exception):
    """The test broker could not start, stop or do what was asked; the message says why."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class Broker:
    """A Rockafka broker for one test (or session): start, stop, restart, and for subprocesses kill."""

    def __init__(
        self,
        *,
        settings: Mapping[str, str] | None = None,
        data_dir: str | os.PathLike[str] | None = None,
        subprocess: bool = False,
        port: int | None = None,
        faults: bool = False,
        clock: ManualClock | None = None,
    ) -> None:
        """``faults``: a subprocess broker opens the test-only fault channel (``broker.faults``); an in-process
        broker always takes faults (free while none is installed). ``clock``: an in-process broker's timers run on
        it (sessions, transaction timeouts, retention, the cleaner; ``clock.advance(seconds)`` moves them on)."""
        if clock is not None and subprocess:
            raise BrokerError("a subprocess broker runs on real time: Broker(clock=...) is for an in-process broker")
        placed = sorted(PLACEMENT_SETTINGS & set(settings or {}))
        if placed:
            raise BrokerError(f"set {', '.join(placed)} through Broker(port=..., data_dir=...), not settings")
        self.settings: dict[str, str] = {**TEST_SETTINGS, **(settings or {})}
        self.subprocess = subprocess
        self._owns_data_dir = data_dir is None
        self._data_dir = Path(data_dir) if data_dir is not None else None
        self._port = port
        self._runner: _InProcess | _Subprocess | None = None
        self._fault_channel = faults and subprocess
        self.clock: Clock = clock if clock is not None else REAL_CLOCK
        self._started_once = False

    # --- where it is ---

    @property
    def port(self) -> int:
        if self._port is None:
            raise BrokerError("the broker has no port until it is started")
        return self._port

    @property
    def bootstrap(self) -> str:
        """``host:port`` for a client's ``bootstrap_servers``."""
        return f"{HOST}:{self.port}"

    @property
    def data_dir(self) -> Path:
        if self._data_dir is None:
            self._data_dir = Path(tempfile.mkdtemp(prefix="rockafka-test-")) / "data"
        return self._data_dir

    @property
    def log_path(self) -> Path:
        """Where a subprocess broker's output goes."""
        return self.data_dir.parent / "broker.log"

    @property
    def running(self) -> bool:
        return self._runner is not None and self._runner.alive()

    # --- lifecycle ---

    def start(self) -> Broker:
        """Start (or start again, on the same port and data directory); returns once it accepts clients.

        A first start that fails removes the temporary data directory it made; :class:`BrokerError` says why."""
        if self.running:
            raise BrokerError(f"the broker on {self.bootstrap} is already running")
        self._runner = None
        try:
            self._start_runner()
        except BaseException:
            if not self._started_once:
                self._remove_own_data_dir()
            raise
        self._started_once = True
        return self

    @property
    def faults(self) -> Faults:
        """Make this running broker misbehave (:mod:`rockafka.testing_faults`, docs/testing.md)."""
        runner = self._runner
        if runner is None or not runner.alive():
            raise BrokerError("faults need a running broker")
        return Faults(_broker_errors(runner.fault_sender()))

    def _start_runner(self) -> None:
        first = self._port is None
        cause = ""
        for _ in range(3 if first else 1):
            if first:
                self._port = _free_port()
            overrides = self._overrides()
            try:
                config = load_broker_config(None, overrides, {})
            except ConfigError as exc:
                raise BrokerError(str(exc)) from None
            runner = _Subprocess(self, overrides) if self.subprocess else _InProcess(self, config)
            try:
                runner.start()
            except _PortTaken as taken:
                cause = str(taken).strip().splitlines()[-1]
                continue  # another process took the free port between the probe and the bind
            self._runner = runner
            return
        raise BrokerError(f"port {self._port} on {HOST} is in use: {cause}")

    def stop(self) -> None:
        """A clean shutdown (SIGTERM for a subprocess): requests in flight finish, the store is closed."""
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.stop()

    def kill(self) -> None:
        """SIGKILL the subprocess broker: a crash, for recovery tests (``start()`` recovers)."""
        if not self.subprocess:
            raise BrokerError("kill() needs Broker(subprocess=True); an in-process broker can only stop()")
        runner, self._runner = self._runner, None
        if isinstance(runner, _Subprocess):
            runner.kill()

    def restart(self) -> Broker:
        self.stop()
        return self.start()

    def pause(self) -> None:
        """SIGSTOP the subprocess broker: alive but silent (its etcd lease runs out); :meth:`resume` continues it."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        self._signal(signal.SIGCONT)

    def _signal(self, signum: signal.Signals) -> None:
        runner = self._runner
        if not isinstance(runner, _Subprocess) or not runner.alive():
            raise BrokerError(f"{signum.name} needs a running Broker(subprocess=True)")
        runner.send(signum)

    def close(self) -> None:
        """Stop, and remove the data directory if this broker made it."""
        self.stop()
        self._remove_own_data_dir()

    def _remove_own_data_dir(self) -> None:
        if self._owns_data_dir and self._data_dir is not None:
            shutil.rmtree(self._data_dir.parent, ignore_errors=True)
            self._data_dir = None

    def _overrides(self) -> list[str]:
        values = {**self.settings, "listeners": f"PLAINTEXT://{HOST}:{self.port}", "log.dirs": str(self.data_dir)}
        return [f"{key}={value}" for key, value in values.items()]

    # --- context managers ---

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    async def __aenter__(self) -> Broker:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await asyncio.to_thread(self.close)

    def __repr__(self) -> str:
        mode = "subprocess" if self.subprocess else "in-process"
        where = self.bootstrap if self._port is not None else "not started"
        return f"<rockafka.testing.Broker {mode} {where} {'running' if self.running else 'stopped'}>"


class _PortTaken(Exception):
    pass


def _broker_errors(send: Send) -> Send:
    """``send``, its refusals raised as :class:`BrokerError`."""

    def checked(command: dict[str, object]) -> object:
        try:
            return send(command)
        except FaultCommandError as exc:
            raise BrokerError(str(exc)) from None

    return checked


def _fault_socket_path() -> Path:
    """A fault channel's socket, in a private directory short enough for a Unix socket's 107-byte path limit."""
    return Path(tempfile.mkdtemp(prefix="rockafka-faults-")) / "faults.sock"


class _InProcess:
    """A BrokerApp on its own event loop in a daemon thread."""

    def __init__(self, broker: Broker, config: BrokerConfig) -> None:
        self._config = config
        self._clock = broker.clock
        self._loop = _new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"rockafka-{broker.port}", daemon=True)
        self._app: BrokerApp | None = None

    def alive(self) -> bool:
        return self._app is not None and self._thread.is_alive()

    def start(self) -> None:
        _log_info_unless_configured()
        self._thread.start()
        app = BrokerApp(self._config, fault_injection=True, clock=self._clock)
        try:
            asyncio.run_coroutine_threadsafe(app.start(), self._loop).result(START_TIMEOUT_S)
        except StartupError as exc:
            self._shut_loop()
            if "address already in use" in str(exc).lower():  # asyncio capitalises it, uvloop does not
                raise _PortTaken(str(exc)) from None
            raise BrokerError(str(exc)) from None
        except BaseException:
            self._shut_loop()
            raise
        self._app = app

    def fault_sender(self) -> Send:
        assert self._app is not None and self._app.faults is not None
        return in_process_sender(self._app.faults, self._loop)

    def stop(self) -> None:
        app, self._app = self._app, None
        if app is not None:
            asyncio.run_coroutine_threadsafe(app.stop(), self._loop).result(STOP_TIMEOUT_S)
        self._shut_loop()

    def _shut_loop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(STOP_TIMEOUT_S)
        if not self._thread.is_alive():
            self._loop.close()


def _log_info_unless_configured() -> None:
    """Let the in-process broker's INFO lines (started, listening, recovered, rebalanced, stopped) reach the root
    logger's handlers, pytest's among them: a failing test's report then shows them under "Captured log". Only
    while nobody set the ``rockafka`` logger's level; pytest's ``--log-level`` still filters them."""
    logger = logging.getLogger("rockafka")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)


def _new_event_loop() -> asyncio.AbstractEventLoop:
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    loop: asyncio.AbstractEventLoop = uvloop.new_event_loop()
    return loop


class _Subprocess:
    """``python -m rockafka serve --override ...`` as a child process, stopped by its PID."""

    def __init__(self, broker: Broker, overrides: list[str]) -> None:
        self._overrides = overrides
        self._port = broker.port
        self._log_path = broker.log_path
        self._process: _subprocess.Popen[bytes] | None = None
        self._log_start = 0
        self._fault_socket = _fault_socket_path() if broker._fault_channel else None

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        try:
            self._start()
        except BaseException:
            self._remove_fault_socket()
            raise

    def _start(self) -> None:
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        args = [sys.executable, "-m", "rockafka", "serve"]
        if self._fault_socket is not None:  # the test-mode start: `rockafka serve` and the fault channel
            args = [sys.executable, "-m", "rockafka.testing_server", "--faults-socket", str(self._fault_socket)]
        for item in self._overrides:
            args += ["--override", item]
        setting_variables = {ENV_PREFIX + name.upper().replace(".", "_") for name in BROKER_CONFIGS}
        env = {key: value for key, value in os.environ.items() if key not in setting_variables}
        with self._log_path.open("ab") as log:
            self._log_start = log.tell()
            self._process = _subprocess.Popen(args, stdout=log, stderr=_subprocess.STDOUT, env=env)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            code = self._process.poll()
            if code is not None:
                output = self.output()
                if "address already in use" in output.lower():
                    raise _PortTaken(output)
                raise BrokerError(f"the broker exited with {code}:\n{output}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self._port), timeout=0.5):
                return
            time.sleep(0.05)
        self.kill()
        raise BrokerError(f"the broker did not listen within {START_TIMEOUT_S}s:\n{self.output()}")

    def stop(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGCONT)  # a paused broker must run to stop cleanly
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_S)
        except _subprocess.TimeoutExpired:
            self.kill()
            raise BrokerError(f"the broker ignored SIGTERM for {STOP_TIMEOUT_S}s:\n{self.output()}") from None
        finally:
            self._remove_fault_socket()

    def fault_sender(self) -> Send:
        if self._fault_socket is None:
            raise BrokerError("a subprocess broker takes faults only when started with Broker(faults=True)")
        return channel_sender(self._fault_socket)

    def _remove_fault_socket(self) -> None:
        if self._fault_socket is not None:
            shutil.rmtree(self._fault_socket.parent, ignore_errors=True)

    def kill(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGCONT)  # a paused broker dies at once too
            os.kill(process.pid, signal.SIGKILL)
            process.wait(STOP_TIMEOUT_S)
        self._remove_fault_socket()

    def send(self, signum: signal.Signals) -> None:
        if self._process is not None and self._process.poll() is None:
            os.kill(self._process.pid, signum)

    def output(self) -> str:
        """What the broker printed since this start (the last 8,000 characters)."""
        try:
            with self._log_path.open("rb") as log:
                log.seek(self._log_start)
                return log.read().decode(errors="replace")[-8000:]
        except OSError:
            return "(no broker output)"


class Cluster:
    """A Rockafka cluster for one test: a local etcd and ``groups`` broker groups of ``replicas`` brokers each.

    ::

        with Cluster(groups=3) as cluster:       # subprocess brokers, node ids 1..3, groups group-1..group-3
            producer = KafkaProducer(bootstrap_servers=cluster.bootstrap)
            cluster.kill(2)                       # SIGKILL broker 2; cluster.start_broker(2) brings it back
            cluster.pause(3)                      # SIGSTOP; cluster.resume(3)

    :meth:`start` returns once every broker is registered in etcd, every group has a leader and a controller is
    elected. With ``replicas`` R > 1, group ``group-g`` has the node ids ``(g-1)*R+1 .. g*R``, each member with its
    own ``rockafka.replication.listener`` on a free port (its role comes from etcd's leader of its group), and
    :meth:`start` waits for the lowest of each group to lead and every member to be registered. ``settings`` apply
    to every broker (over :data:`TEST_SETTINGS`). Each broker's data directory and
    etcd's are temporary and removed by :meth:`close`, unless ``data_root`` is given: then they are
    ``data_root/broker-<node id>/data`` and ``data_root/etcd``, and kept.
    """

    def __init__(
        self,
        groups: int = 3,
        *,
        settings: Mapping[str, str] | None = None,
        subprocess: bool = True,
        lease_ttl_ms: int = 2000,
        name: str = "test",
        data_root: Path | None = None,
        replicas: int = 1,
    ) -> None:
        self.etcd = LocalEtcd(None if data_root is None else data_root / "etcd")
        self.name = name
        common = {
            **(settings or {}),
            "rockafka.cluster.name": name,
            "rockafka.cluster.lease.ttl.ms": str(lease_ttl_ms),
        }
        self.brokers: dict[int, Broker] = {
            node: Broker(
                subprocess=subprocess,
                settings={**common, "node.id": str(node)},
                data_dir=None if data_root is None else data_root / f"broker-{node}" / "data",
            )
            for node in range(1, groups * replicas + 1)
        }
        self.replicas = replicas

    def group_of(self, node: int) -> str:
        """The broker group of node id ``node``."""
        return f"group-{(node - 1) // self.replicas + 1}"

    @property
    def bootstrap(self) -> str:
        """Every broker's ``host:port``, comma-separated (one is enough for a client)."""
        return ",".join(broker.bootstrap for broker in self.brokers.values())

    def start(self) -> Cluster:
        self.etcd.start()
        for node, broker in self.brokers.items():
            broker.settings["rockafka.cluster.etcd.endpoints"] = self.etcd.endpoint
            broker.settings["rockafka.cluster.group"] = self.group_of(node)
            if self.replicas > 1:
                broker.settings.setdefault("rockafka.replication.listener", f"{HOST}:{_free_port()}")
            broker.start()
        self.wait_ready()
        return self

    def wait_ready(self, nodes: Iterable[int] | None = None, timeout_s: float = START_TIMEOUT_S) -> None:
        """Wait until ``nodes`` (by default the lowest node id of each group) are registered and lead their groups,
        every broker is registered, and a controller is elected (:class:`BrokerError` after ``timeout_s``)."""
        from rockafka.cluster.readiness import serving, wait_for_snapshot

        firsts = [node for node in self.brokers if (node - 1) % self.replicas == 0]
        wanted = sorted(firsts if nodes is None else nodes)
        everyone = list(self.brokers) if nodes is None else []

        def ready(snapshot: ClusterSnapshot) -> bool:
            return serving(snapshot, wanted) and all(node in snapshot.brokers for node in everyone)

        try:
            asyncio.run(wait_for_snapshot(self.etcd.endpoint, self.name, ready, timeout_s))
        except TimeoutError:
            raise BrokerError(f"the cluster did not elect leaders for nodes {wanted} within {timeout_s}s") from None

    def kill(self, node: int) -> None:
        self.brokers[node].kill()

    def start_broker(self, node: int) -> None:
        self.brokers[node].start()

    def leader_of(self, topic: str, partition: int = 0, timeout_s: float = START_TIMEOUT_S) -> int:
        """The node id of the broker leading ``topic``'s ``partition``, once it has one (as etcd says)."""
        from rockafka.cluster.readiness import wait_for_snapshot

        def led(snapshot: ClusterSnapshot) -> bool:
            found = snapshot.leader_of(topic, partition)
            return found is not None and found.leader in self.brokers and found.leader in snapshot.brokers

        try:
            snapshot = asyncio.run(wait_for_snapshot(self.etcd.endpoint, self.name, led, timeout_s))
        except TimeoutError:
            raise BrokerError(f"{topic}-{partition} has no live leader after {timeout_s}s") from None
        found = snapshot.leader_of(topic, partition)
        assert found is not None
        return found.leader

    def restart(self, node: int, *, kill: bool = True, timeout_s: float = START_TIMEOUT_S) -> None:
        """Stop broker ``node`` (SIGKILL, or a clean stop with ``kill=False``), wait until its registration is
        gone from etcd (a killed broker's lease expires after the lease TTL), start it again and wait until it
        leads its group again (with ``replicas`` > 1: until it is registered again). A restart inside the lease
        would be refused: the node id is still registered."""
        from rockafka.cluster.readiness import wait_for_snapshot

        broker = self.brokers[node]
        if kill:
            broker.kill()
        else:
            broker.stop()
        try:
            asyncio.run(
                wait_for_snapshot(self.etcd.endpoint, self.name, lambda snapshot: node not in snapshot.brokers,
                                  timeout_s)
            )  # fmt: skip
        except TimeoutError:
            raise BrokerError(f"broker {node} was still registered {timeout_s}s after it stopped") from None
        broker.start()
        if self.replicas == 1:
            self.wait_ready([node], timeout_s)
            return
        try:
            asyncio.run(wait_for_snapshot(self.etcd.endpoint, self.name, lambda s: node in s.brokers, timeout_s))
        except TimeoutError:
            raise BrokerError(f"broker {node} was not registered {timeout_s}s after it started") from None

    def pause(self, node: int) -> None:
        self.brokers[node].pause()

    def resume(self, node: int) -> None:
        self.brokers[node].resume()

    def close(self) -> None:
        for broker in self.brokers.values():
            broker.close()
        self.etcd.close()

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
