"""The network side: one asyncio protocol per connection, answering in request order.

A connection splits its input into frames, hands each frame to the :class:`Dispatcher`, and queues
what comes back: response bytes (or buffers, for zero-copy fetches) ready at once, an awaitable for
requests that wait (long-poll fetches, group joins, synced produces), or nothing (acks=0 produce).
Responses leave in request order, as Kafka clients pipeline requests and match them by position;
everything ready after one read is written with one ``writelines`` call.

A frame that cannot be split (negative or oversized length prefix), or that the dispatcher declares
broken, closes this connection only; a dispatcher may give a last response to write before closing
(a refused SASL client is told why). Reading pauses while too many responses are outstanding.

On a TLS listener the connection is made once the handshake is done: a client certificate, when verified,
names the connection's principal (``User:<subject>``, Kafka's default principal builder); SASL listeners
set the principal when the client authenticates (see ``facade/security/sasl.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast

from rockafka.core_pyx.errors import FrameError
from rockafka.core_pyx.framing import FrameSplitter

from .security.errors import SecurityError
from .security.principal import ANONYMOUS

if TYPE_CHECKING:
    from .security.sasl import SaslSession

log = logging.getLogger(__name__)

MAX_IN_FLIGHT = 128
Buffers = Sequence[bytes | memoryview]
Outcome = Buffers | Awaitable[Buffers | None] | None


class BrokenRequestError(Exception):
    """Raised by a dispatcher for a request that cannot be answered: the connection is closed, after
    ``response`` (when given) has been written and ``close_delay_s`` has passed (input is discarded meanwhile)."""

    def __init__(self, message: str, response: Buffers | None = None, close_delay_s: float = 0.0) -> None:
        super().__init__(message)
        self.response = response
        self.close_delay_s = close_delay_s


@dataclass(slots=True)
class ConnectionInfo:
    """What handlers may know about the connection a request came on."""

    peer: str
    listener_name: str
    security_protocol: str = "PLAINTEXT"
    principal: str = ANONYMOUS
    attributes: dict[str, object] = field(default_factory=dict)
    host: str = ""
    """The client's IP address, as ACL host entries name it."""
    sasl: SaslSession | None = None
    """The SASL exchange of a SASL listener's connection (created by the dispatcher on the first request)."""


class Dispatcher(Protocol):
    def dispatch(self, frame: bytes, connection: ConnectionInfo) -> Outcome:
        """Answer one request frame; raise :class:`BrokenRequestError` to close the connection."""

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        """The principal of an SSL client (a SecurityError refuses it)."""


class KafkaConnection(asyncio.Protocol):
    """One client connection: frames in, ordered responses out."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        listener_name: str,
        security_protocol: str,
        max_frame_size: int,
        on_close: Callable[[KafkaConnection], None],
    ) -> None:
        self._dispatcher = dispatcher
        self._splitter = FrameSplitter(max_frame_size)
        self._listener_name = listener_name
        self._security_protocol = security_protocol
        self._on_close = on_close
        self._pending: deque[Buffers | asyncio.Future[Buffers | None]] = deque()
        self._transport: asyncio.Transport | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._paused = False
        self._closing = False
        self._close_delayed = False
        self.info = ConnectionInfo("", listener_name, security_protocol)

    @property
    def idle(self) -> bool:
        return not self._pending

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's transports do not subclass asyncio's
        self._loop = asyncio.get_running_loop()
        peer = transport.get_extra_info("peername")
        self.info.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.info.host = str(peer[0]) if isinstance(peer, tuple) else ""
        ssl_object = transport.get_extra_info("ssl_object")
        if ssl_object is not None and self._security_protocol == "SSL":
            try:
                self.info.principal = self._dispatcher.ssl_principal(self._listener_name, ssl_object.getpeercert())
            except SecurityError as exc:
                log.warning("closing connection from %s: %s", self.info.peer, exc)
                self._close_now()

    def data_received(self, data: bytes) -> None:
        if self._closing:
            return
        try:
            frames = self._splitter.feed(data)
        except FrameError as exc:
            log.warning("closing connection from %s: %s", self.info.peer, exc)
            self._close_after_pending()
            return
        for frame in frames:
            if not self._dispatch_one(frame):
                break
        self._write_ready()

    def _dispatch_one(self, frame: bytes) -> bool:
        try:
            outcome = self._dispatcher.dispatch(frame, self.info)
        except BrokenRequestError as exc:
            log.warning("closing connection from %s: %s", self.info.peer, exc)
            if exc.response is not None:
                self._pending.append(exc.response)
            if exc.close_delay_s > 0:
                self._closing = self._close_delayed = True
                self._write_ready()
                asyncio.get_running_loop().call_later(exc.close_delay_s, self._close_now)
            else:
                self._close_after_pending()
            return False
        if outcome is None:
            return True
        if isinstance(outcome, Awaitable):
            future = asyncio.ensure_future(outcome, loop=self._loop)  # the loop given: no lookup (a getpid) per call
            future.add_done_callback(self._on_response_ready)
            self._pending.append(future)
        else:
            self._pending.append(outcome)
        if len(self._pending) >= MAX_IN_FLIGHT and not self._paused and self._transport is not None:
            self._paused = True
            self._transport.pause_reading()
        return True

    def _on_response_ready(self, future: asyncio.Future[Buffers | None]) -> None:
        if not future.cancelled() and (exc := future.exception()) is not None:
            if not isinstance(exc, BrokenRequestError):
                log.error("request failed on connection from %s", self.info.peer, exc_info=exc)
            self._close_now()
            return
        self._write_ready()

    def _write_ready(self) -> None:
        out: list[bytes | memoryview] = []
        while self._pending:
            head = self._pending[0]
            if isinstance(head, asyncio.Future):
                if not head.done():
                    break
                self._pending.popleft()
                if head.cancelled() or head.exception() is not None:
                    continue
                result = head.result()
                if result is not None:
                    out.extend(result)
            else:
                self._pending.popleft()
                out.extend(head)
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        if out:
            transport.writelines(out)
        if self._paused and len(self._pending) < MAX_IN_FLIGHT // 2:
            self._paused = False
            transport.resume_reading()
        if self._closing and not self._pending and not self._close_delayed:
            transport.close()

    def _close_after_pending(self) -> None:
        self._closing = True
        if self._transport is not None:
            self._transport.pause_reading()
        self._write_ready()

    def _close_now(self) -> None:
        self._closing = True
        if self._transport is not None:
            self._transport.close()

    def close(self) -> None:
        """Close the connection after writing whatever is ready (broker shutdown)."""
        self._close_now()

    def eof_received(self) -> bool | None:
        self._close_after_pending()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        for item in self._pending:
            if isinstance(item, asyncio.Future):
                item.cancel()
        self._pending.clear()
        self._transport = None
        self._on_close(self)
