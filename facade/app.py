"""A running broker: opens the store, listens on every listener, shuts down cleanly.

With ``rockafka.http.listener`` set, the broker also serves ``/metrics``, ``/healthz`` and ``/readyz`` over HTTP
(``ops/``); other routes (the web console) are added to :attr:`BrokerApp.http` before :meth:`BrokerApp.start`.

Shutdown (SIGTERM, SIGINT, or :meth:`BrokerApp.stop`) stops accepting connections, lets requests in
flight finish (parked fetches are woken and answered at once), closes the connections, then flushes and
closes the store, which writes a clean checkpoint.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from dataclasses import dataclass

from rockafka.store import MessageStore, StoreError

from . import handlers as _handlers  # noqa: F401  (registers every API handler)
from .broker import Broker, load_cluster_id, store_config
from .config import BrokerConfig, Listener
from .connections import ConnectionLimits, Connections
from .dispatch import RequestDispatcher
from .ops import BrokerMetrics, HttpListener, HttpListenerError, MeteredDispatcher, OpsEndpoints, parse_address
from .ops.events import recovery_summary, settings_summary
from .security import SecurityError, SecurityService
from .server import Dispatcher, KafkaConnection

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_S = 10.0


class StartupError(Exception):
    """The broker cannot start (port in use, unusable data directory, unsupported listener); one line."""


@dataclass(frozen=True, slots=True)
class BoundListener:
    listener: Listener
    port: int


class BrokerApp:
    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.broker: Broker | None = None
        self.bound: list[BoundListener] = []
        self._servers: list[asyncio.Server] = []
        self._connections = Connections(ConnectionLimits.from_config(config))
        self._stopped = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        address = config.str("rockafka.http.listener")
        self.http = HttpListener(*parse_address(address)) if address else None
        self.serving = False
        """Every listener bound and not stopping (what ``/readyz`` checks first)."""

    async def start(self) -> None:
        try:
            security = SecurityService(self.config)
        except SecurityError as exc:
            raise StartupError(str(exc)) from None
        try:
            store = MessageStore.open(store_config(self.config))
        except Exception as exc:
            raise StartupError(f"cannot open the data directory {self.config.data_dir}: {exc}") from exc
        log.info("%s", recovery_summary(store.recovery_report, store.open_seconds))
        try:
            cluster_id = load_cluster_id(self.config.data_dir, self.config.node_id)
        except StoreError as exc:  # an unreadable meta.properties: the store opened above is closed again
            store.close()
            raise StartupError(str(exc)) from None
        metrics = BrokerMetrics() if self.http is not None else None
        broker = Broker(self.config, store, cluster_id, metrics=metrics)
        store.records.add_append_listener(broker.waiters.on_append)
        broker.groups.start()
        broker.producers.start()
        broker.transactions.start()
        self.broker = broker
        dispatcher = RequestDispatcher(broker, security)
        served: Dispatcher = dispatcher if metrics is None else self._metered(dispatcher, metrics)
        max_frame = self.config.int("socket.request.max.bytes")
        loop = asyncio.get_running_loop()
        try:
            for listener in self.config.listeners:
                server = await loop.create_server(
                    lambda listener=listener: self._connection(served, listener, max_frame),
                    host=listener.host or None,
                    port=listener.port,
                    reuse_address=True,
                    ssl=security.listeners[listener.name].ssl_context,
                )
                self._servers.append(server)
                port = server.sockets[0].getsockname()[1]
                self.bound.append(BoundListener(listener, port))
                log.info("listening on %s://%s:%d", listener.name, listener.host or "0.0.0.0", port)
        except OSError as exc:
            await self._close_servers()
            store.close()
            raise StartupError(f"cannot listen on {listener.url}: {exc.strerror or exc}") from None
        await self._start_http(store)
        self._tasks.append(asyncio.create_task(self._retention_loop(broker)))
        self._connections.start()
        self.serving = True
        log.info(
            "Rockafka broker %d started (cluster %s, data in %s)", broker.node_id, cluster_id, self.config.data_dir
        )
        log.info("%s", settings_summary(self.config))

    def _metered(self, dispatcher: RequestDispatcher, metrics: BrokerMetrics) -> Dispatcher:
        """Count appends, answers, errors and request times for ``/metrics``."""
        assert self.broker is not None
        self.broker.store.records.add_append_listener(metrics.on_append)
        dispatcher.on_error = metrics.on_error
        return MeteredDispatcher(dispatcher, metrics)

    async def _start_http(self, store: MessageStore) -> None:
        if self.http is None or self.broker is None or self.broker.metrics is None:
            return
        endpoints = OpsEndpoints(
            self.broker.metrics, store, lambda: [c.info for c in self._connections], lambda: self.serving
        )
        endpoints.register(self.http)
        try:
            await self.http.start()
        except HttpListenerError as exc:
            await self._close_servers()
            store.close()
            raise StartupError(str(exc)) from None

    def _connection(self, dispatcher: Dispatcher, listener: Listener, max_frame: int) -> KafkaConnection:
        return KafkaConnection(dispatcher, listener.name, listener.security_protocol, max_frame, self._connections)

    async def _retention_loop(self, broker: Broker) -> None:
        interval_s = self.config.int("log.retention.check.interval.ms") / 1000
        refused = ""
        while True:
            await asyncio.sleep(interval_s)
            try:
                report = broker.store.retention.enforce()
            except StoreError as exc:  # a full or offline store: one line when it starts refusing, not every pass
                if str(exc) != refused:
                    log.warning("retention pass refused by the store: %s", exc)
                refused = str(exc)
                continue
            except Exception:
                log.exception("retention pass failed")
                continue
            refused = ""
            if report.deleted_segments or report.log_start_moves:
                log.info("retention: %s", report)

    async def stop(self) -> None:
        """Stop accepting, drain requests in flight (bounded), close connections, close the store."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.serving = False
        for server in self._servers:
            server.close()
        for task in self._tasks:
            task.cancel()
        self._connections.stop()
        if self.broker is not None:
            self.broker.waiters.wake_all()
            self.broker.groups.shutdown()
            self.broker.transactions.shutdown()
        deadline = time.monotonic() + DRAIN_TIMEOUT_S
        while any(not c.idle for c in self._connections) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for connection in self._connections:
            connection.close()
        await self._close_servers()
        if self.http is not None:
            await self.http.stop()
        if self.broker is not None:
            self.broker.producers.shutdown()
            self.broker.store.close()
        log.info("Rockafka broker stopped")

    async def _close_servers(self) -> None:
        for server in self._servers:
            server.close()
        for server in self._servers:
            await server.wait_closed()
        self._servers.clear()

    async def run_until_signalled(self) -> None:
        """Start, then serve until SIGTERM or SIGINT, then stop cleanly."""
        await self.start()
        loop = asyncio.get_running_loop()
        stop_requested = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop_requested.set)
        await stop_requested.wait()
        log.info("shutting down")
        await self.stop()
