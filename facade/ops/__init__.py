"""Operating a broker: its HTTP listener, Prometheus metrics and health endpoints (see docs/operations.md).

:class:`OpsEndpoints` registers ``/metrics``, ``/healthz`` and ``/readyz`` on an :class:`HttpListener`, which
other parts (the web console) can give routes of their own before it starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from prometheus_client import CONTENT_TYPE_LATEST

from rockafka.store import MessageStore

from ..server import ConnectionInfo
from .exposition import render, take_snapshot
from .health import Readiness, readiness
from .http import HttpListener, HttpListenerError, HttpRequest, HttpResponse, parse_address
from .metrics import BrokerMetrics, FetchedPart, MeteredDispatcher

__all__ = [
    "BrokerMetrics",
    "FetchedPart",
    "HttpListener",
    "HttpListenerError",
    "HttpRequest",
    "HttpResponse",
    "MeteredDispatcher",
    "OpsEndpoints",
    "Readiness",
    "parse_address",
    "readiness",
]


class OpsEndpoints:
    """``/metrics``, ``/healthz`` and ``/readyz`` of one broker."""

    def __init__(
        self,
        metrics: BrokerMetrics,
        store: MessageStore,
        connections: Callable[[], Iterable[ConnectionInfo]],
        serving: Callable[[], bool],
        cluster: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._metrics = metrics
        self._store = store
        self._connections = connections
        self._serving = serving
        self._cluster = cluster
        """The cluster check's state (see ``health.readiness``), None for a single broker."""

    def register(self, listener: HttpListener) -> None:
        listener.route("/metrics", self._scrape)
        listener.route("/healthz", _live)
        listener.route("/readyz", self._ready)

    def readiness(self) -> Readiness:
        return readiness(self._serving(), self._store.stats(), self._cluster())

    def _ready(self, request: HttpRequest) -> HttpResponse:
        state = self.readiness()
        return HttpResponse(state.http_status, state.text().encode())

    async def _scrape(self, request: HttpRequest) -> HttpResponse:
        ready = self.readiness().http_status == 200
        snapshot = await take_snapshot(self._metrics, self._store, self._connections(), ready=ready)
        body = await asyncio.get_running_loop().run_in_executor(None, render, snapshot)
        return HttpResponse(200, body, CONTENT_TYPE_LATEST)


def _live(request: HttpRequest) -> HttpResponse:
    return HttpResponse(200, b"live\n")
