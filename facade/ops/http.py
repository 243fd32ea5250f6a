"""The broker's HTTP listener (``rockafka.http.listener=HOST:PORT``): a small HTTP/1.1 server on the event loop
for the operational endpoints (``/metrics``, ``/healthz``, ``/readyz``) and the web console.

Routes are registered by path (:meth:`HttpListener.route`) with the methods they take; a route is a function of
the :class:`HttpRequest` that returns an :class:`HttpResponse`, or an awaitable of one. It runs on the event loop,
so what it does between two awaits must be quick (a metrics scrape yields to the loop while it reads many
partitions). What it serves:

- ``GET`` (and ``HEAD`` with it) unless a route names other methods (the console's ``POST`` and ``DELETE``);
  a method the route does not take: 405 with ``Allow``; an unknown path: 404;
- a request body only with ``Content-Length`` (no chunked uploads), at most ``MAX_BODY_BYTES`` (else 413);
- one request per connection, answered with ``Connection: close`` (scrapers and probes open one per request);
- a request head over ``MAX_HEAD_BYTES``, or a head or body not complete within ``HEAD_TIMEOUT_S``: 400 or closed;
- a route that raises is logged as one ERROR line and answered 500, and the listener goes on.

It is not a general web server: no keep-alive, no TLS (bind it to a private address).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger(__name__)

MAX_HEAD_BYTES = 16 << 10
MAX_BODY_BYTES = 1 << 20
HEAD_TIMEOUT_S = 10.0
TEXT_PLAIN = "text/plain; charset=utf-8"


class HttpListenerError(Exception):
    """A malformed ``rockafka.http.listener`` or a port that cannot be bound; one line."""


@dataclass(frozen=True, slots=True)
class HttpRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    """Header names in lower case."""
    body: bytes = b""
    peer: str = ""
    """The client's address (what ACLs call the host)."""


@dataclass(frozen=True, slots=True)
class HttpResponse:
    status: int
    body: bytes
    content_type: str = TEXT_PLAIN
    headers: dict[str, str] = field(default_factory=dict)


Route = Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
GET_ONLY = frozenset({"GET"})

_REASONS = {200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
_REASONS |= {405: "Method Not Allowed", 409: "Conflict", 413: "Content Too Large", 500: "Internal Server Error"}
_REASONS |= {503: "Service Unavailable"}


def parse_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for IPv6; an empty host listens on every address) as (host, port)."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise HttpListenerError(f"rockafka.http.listener must be HOST:PORT, got {value!r}")
    return host.strip("[]"), int(port)


class HttpListener:
    """Serves registered routes on one address."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._routes: dict[str, tuple[Route, frozenset[str]]] = {}
        self._server: asyncio.Server | None = None

    def route(self, path: str, handler: Route, methods: frozenset[str] = GET_ONLY) -> None:
        """Serve ``path`` with ``handler`` for ``methods`` (``HEAD`` comes with ``GET``); a path registered twice
        is a bug."""
        if path in self._routes:
            raise ValueError(f"HTTP route {path} is already registered")
        self._routes[path] = (handler, methods | {"HEAD"} if "GET" in methods else methods)

    @property
    def paths(self) -> list[str]:
        return sorted(self._routes)

    async def start(self) -> None:
        try:
            self._server = await asyncio.start_server(
                self._serve, host=self.host or None, port=self.port, reuse_address=True, limit=MAX_HEAD_BYTES
            )
        except OSError as exc:
            raise HttpListenerError(
                f"cannot listen for HTTP on {self.host}:{self.port}: {exc.strerror or exc}"
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("HTTP listener on %s:%d serving %s", self.host or "0.0.0.0", self.port, " ".join(self.paths))

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) else ""
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
            except (asyncio.LimitOverrunError, asyncio.IncompleteReadError, TimeoutError, ValueError):
                response, method = HttpResponse(400, b"bad request\n"), "GET"
            else:
                response, method = await self._answer(head, reader, host)
            writer.write(_encode(response, with_body=method != "HEAD"))
            await writer.drain()
        except (ConnectionError, OSError):
            pass  # the client left: nothing to answer
        finally:
            writer.close()

    async def _answer(self, head: bytes, reader: asyncio.StreamReader, host: str) -> tuple[HttpResponse, str]:
        request = _parse_head(head, host)
        if request is None:
            return HttpResponse(400, b"bad request\n"), "GET"
        route = self._routes.get(request.path)
        if route is None:
            return HttpResponse(404, b"not found\n"), request.method
        handler, methods = route
        if request.method not in methods:
            allowed = ", ".join(sorted(methods))
            return HttpResponse(405, b"method not allowed\n", headers={"Allow": allowed}), request.method
        body = await _read_body(request, reader)
        if isinstance(body, HttpResponse):
            return body, request.method
        try:
            response = handler(replace(request, body=body) if body else request)
            if not isinstance(response, HttpResponse):
                response = await response
            return response, request.method
        except Exception:
            log.exception("HTTP route %s failed", request.path)
            return HttpResponse(500, b"internal error\n"), request.method


async def _read_body(request: HttpRequest, reader: asyncio.StreamReader) -> bytes | HttpResponse:
    """The request's body by its Content-Length (none without one), or the error answer."""
    if "transfer-encoding" in request.headers:
        return HttpResponse(400, b"send the body with a Content-Length\n")
    length_text = request.headers.get("content-length", "0")
    if not length_text.isdigit():
        return HttpResponse(400, b"bad Content-Length\n")
    length = int(length_text)
    if length > MAX_BODY_BYTES:
        return HttpResponse(413, f"a request body may hold at most {MAX_BODY_BYTES} bytes\n".encode())
    if length == 0:
        return b""
    try:
        return await asyncio.wait_for(reader.readexactly(length), HEAD_TIMEOUT_S)
    except (asyncio.IncompleteReadError, TimeoutError):
        return HttpResponse(400, b"incomplete request body\n")


def _parse_head(head: bytes, peer: str = "") -> HttpRequest | None:
    try:
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ")
    except ValueError:
        return None
    if not version.startswith("HTTP/1."):
        return None
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    url = urlsplit(target)
    return HttpRequest(method, url.path, parse_qs(url.query), headers, peer=peer)


def _encode(response: HttpResponse, *, with_body: bool) -> bytes:
    reason = _REASONS.get(response.status, "")
    lines = [f"HTTP/1.1 {response.status} {reason}", f"Content-Type: {response.content_type}"]
    lines += [f"Content-Length: {len(response.body)}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in response.headers.items()]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head + response.body if with_body else head
