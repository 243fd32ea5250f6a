"""The network side: one asyncio protocol per connection, answering in request order.

A connection splits its input into frames, hands each frame to its :class:`RequestHandler` (the
broker's is ``dispatch.RequestDispatcher``), and queues what comes back: response bytes (or buffers, for
zero-copy fetches) ready at once, an awaitable for requests that wait (long-poll fetches, group joins,
synced produces), or nothing (acks=0 produce).
Responses leave in request order, as Kafka clients pipeline requests and match them by position;
everything ready after one read is written with one ``writelines`` call (or one per
``WRITE_HIGH_WATER`` bytes).

A frame that cannot be split (negative or oversized length prefix), or that the request handler declares
broken, closes this connection only; the handler may give a last response to write before closing
(a refused SASL client is told why).

A client that leaves is let go at once, as Kafka does: on end of input (the client closed its side) or
a reset, what is already answered is written if the socket takes it without waiting, the socket is
closed, and the connection's parked requests (long-poll fetches, group joins and syncs) are cancelled;
their waits unpark without answering (see ``waiters.py`` and ``group/coordinator.py``).

Bounds per connection: at most ``MAX_IN_FLIGHT`` requests are dispatched and unanswered (frames read
beyond them wait undispatched, and reading pauses), and reading also pauses while the transport holds
more than ``WRITE_HIGH_WATER`` unsent bytes (the client is not reading its answers); meanwhile finished
answers wait in the connection's queue (fetch answers as slices of the mapped store, not copies) rather
than in the transport's buffer, so a client that stops reading costs at most ``MAX_IN_FLIGHT`` answers.
A connection that does not read cannot see its client leave by reading, so while paused it asks the
kernel every ``HANGUP_CHECK_S`` whether the client hung up. How many connections there may be, and
when an idle one is closed, is ``connections.py``'s part.

On a TLS listener the connection is made once the handshake is done: a client certificate, when verified,
names the connection's principal (``User:<subject>``, Kafka's default principal builder); SASL listeners
set the principal when the client authenticates (see ``facade/security/sasl.py``).
"""

from __future__ import annotations

import asyncio
import logging
import select
import time
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
#: The transport's unsent bytes above which answers wait in the queue and reading pauses, and below which both resume.
WRITE_HIGH_WATER = 1 << 20
WRITE_LOW_WATER = 256 << 10
#: How often a connection that does not read checks whether its client has hung up.
HANGUP_CHECK_S = 1.0
_HANGUP = select.POLLHUP | select.POLLERR | getattr(select, "POLLRDHUP", 0)
Buffers = Sequence[bytes | memoryview]
Outcome = Buffers | Awaitable[Buffers | None] | None


class BrokenRequestError(Exception):
    """Raised by a request handler for a request that cannot be answered: the connection is closed, after
    ``response`` (when given) has been written and ``close_delay_s`` has passed (input is discarded meanwhile).
    ``logged``: the request handler has logged the reason already (or chose not to repeat it), so the connection
    does not."""

    def __init__(
        self, message: str, response: Buffers | None = None, close_delay_s: float = 0.0, *, logged: bool = False
    ) -> None:
        super().__init__(message)
        self.response = response
        self.close_delay_s = close_delay_s
        self.logged = logged


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
    """The SASL exchange of a SASL listener's connection (created by the request handler on the first request)."""


class RequestHandler(Protocol):
    """What a connection hands its request frames to."""

    def dispatch(self, frame: bytes, connection: ConnectionInfo) -> Outcome:
        """Answer one request frame; raise :class:`BrokenRequestError` to close the connection."""

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        """The principal of an SSL client (a SecurityError refuses it)."""


class ConnectionSet(Protocol):
    """Where the broker keeps its connections (``connections.py``): admits a new one, or refuses it."""

    def opened(self, connection: KafkaConnection) -> str | None:
        """Count ``connection`` in; the reason to refuse it (closed at once) if over a limit."""

    def closed(self, connection: KafkaConnection) -> None:
        """Count ``connection`` out (called once, when it is lost)."""


class KafkaConnection(asyncio.Protocol):
    """One client connection: frames in, ordered responses out."""

    def __init__(
        self,
        handler: RequestHandler,
        listener_name: str,
        security_protocol: str,
        max_frame_size: int,
        connections: ConnectionSet,
    ) -> None:
        self._handler = handler
        self._splitter = FrameSplitter(max_frame_size)
        self._listener_name = listener_name
        self._security_protocol = security_protocol
        self._connections = connections
        self._pending: deque[Buffers | asyncio.Future[Buffers | None]] = deque()
        self._held: deque[bytes] = deque()
        """Frames read but not dispatched yet (``MAX_IN_FLIGHT`` requests were unanswered)."""
        self._transport: asyncio.Transport | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reading_paused = False
        self._writing_paused = False
        self._hangup_check: asyncio.TimerHandle | None = None
        self._closing = False
        self._close_delayed = False
        self._counted = False
        self._admitted = True
        self._unadmitted: list[bytes] = []
        """What was read before a held connection's pause took hold (see :meth:`hold`)."""
        self._clock: Callable[[], float] = time.monotonic
        self.last_active = 0.0
        """Event-loop time of the last bytes read or answers written (``connections.max.idle.ms``)."""
        self.info = ConnectionInfo("", listener_name, security_protocol)

    @property
    def _drained(self) -> bool:
        """Few enough requests unanswered to read again after a pause (half of ``MAX_IN_FLIGHT``)."""
        return len(self._pending) < MAX_IN_FLIGHT // 2

    @property
    def idle(self) -> bool:
        """Nothing unanswered: no request parked or held, no answer waiting to be written."""
        return not self._pending and not self._held

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's transports do not subclass asyncio's
        self._loop = asyncio.get_running_loop()
        self._clock = self._loop.time
        self.last_active = self._clock()
        self._transport.set_write_buffer_limits(WRITE_HIGH_WATER, WRITE_LOW_WATER)
        peer = transport.get_extra_info("peername")
        self.info.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.info.host = str(peer[0]) if isinstance(peer, tuple) else ""
        refused = self._connections.opened(self)
        self._counted = True
        if refused is not None:
            log.info("closing connection from %s: %s", self.info.peer, refused)
            self._abort()
            return
        ssl_object = transport.get_extra_info("ssl_object")
        if ssl_object is not None and self._security_protocol == "SSL":
            try:
                self.info.principal = self._handler.ssl_principal(self._listener_name, ssl_object.getpeercert())
            except SecurityError as exc:
                log.warning("closing connection from %s: %s", self.info.peer, exc)
                self._close_now()

    def data_received(self, data: bytes) -> None:
        if self._closing:
            return
        if not self._admitted:  # a transport may read once before a pause made in connection_made holds
            self._unadmitted.append(data)
            cast(asyncio.Transport, self._transport).pause_reading()
            return
        self.last_active = self._clock()
        try:
            frames = self._splitter.feed(data)
        except FrameError as exc:
            log.warning("closing connection from %s: %s", self.info.peer, exc)
            self._close_after_pending()
            return
        if self._held:
            self._held.extend(frames)
        elif len(self._pending) + len(frames) <= MAX_IN_FLIGHT:
            for frame in frames:
                if not self._dispatch_one(frame):
                    break
        else:
            self._dispatch_frames(frames)
        self._write_ready()

    def _dispatch_frames(self, frames: list[bytes]) -> None:
        """Dispatch in order until ``MAX_IN_FLIGHT`` requests are unanswered; hold the rest, stop reading."""
        for index, frame in enumerate(frames):
            if len(self._pending) >= MAX_IN_FLIGHT:
                self._held.extend(frames[index:])
                if not self._reading_paused:
                    self._pause_reading()
                return
            if not self._dispatch_one(frame):
                return

    def _dispatch_one(self, frame: bytes) -> bool:
        try:
            outcome = self._handler.dispatch(frame, self.info)
        except BrokenRequestError as exc:
            if not exc.logged:
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
        return True

    def _on_response_ready(self, future: asyncio.Future[Buffers | None]) -> None:
        self.last_active = self._clock()  # a parked request's answer: the idle clock starts again
        if not future.cancelled() and (exc := future.exception()) is not None:
            if not isinstance(exc, BrokenRequestError):
                log.error("request failed on connection from %s", self.info.peer, exc_info=exc)
            self._close_now()
            return
        self._write_ready()

    def _write_ready(self) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        while not self._writing_paused:  # a write over the high-water mark pauses writing (pause_writing)
            out = self._take_ready()
            if not out:
                break
            transport.writelines(out)
            if not self._pending or transport.is_closing():
                break
        if self._held and not self._closing and len(self._pending) < MAX_IN_FLIGHT:
            held = list(self._held)
            self._held.clear()
            self._dispatch_frames(held)
            self._write_ready()
        elif self._reading_paused and not self._held and not self._writing_paused and self._drained:
            self._resume_reading()
        if self._closing and not self._pending and not self._close_delayed and not transport.is_closing():
            transport.close()

    def _take_ready(self) -> list[bytes | memoryview]:
        """The answers at the head of the queue that are ready, in request order, up to about
        ``WRITE_HIGH_WATER`` bytes (at least one answer); removed from the queue."""
        out: list[bytes | memoryview] = []
        size = 0
        while self._pending and size < WRITE_HIGH_WATER:
            head = self._pending[0]
            answer: Buffers | None
            if isinstance(head, asyncio.Future):
                if not head.done():
                    break
                answer = None if head.cancelled() or head.exception() is not None else head.result()
            else:
                answer = head
            self._pending.popleft()
            if answer is not None:
                out += answer
                if self._pending:  # the last answer's size stops nothing
                    size += len(answer[0]) if len(answer) == 1 else sum(map(len, answer))
        return out

    # --- back-pressure: the client does not read, or sends more than MAX_IN_FLIGHT ---

    def pause_writing(self) -> None:
        self._writing_paused = True
        if not self._reading_paused:
            self._pause_reading()

    def resume_writing(self) -> None:
        self._writing_paused = False
        self._write_ready()

    def _pause_reading(self) -> None:
        if self._transport is None:
            return
        self._reading_paused = True
        self._transport.pause_reading()
        if self._hangup_check is None and self._loop is not None:
            self._hangup_check = self._loop.call_later(HANGUP_CHECK_S, self._check_hangup)

    def hold(self) -> None:
        """Read nothing until :meth:`admit` (over ``max.connections``: waiting for a slot)."""
        self._admitted = False
        self._pause_reading()

    def admit(self) -> None:
        self._admitted = True
        self.last_active = self._clock()
        self._resume_reading()
        early, self._unadmitted = b"".join(self._unadmitted), []
        if early:
            self.data_received(early)

    def _resume_reading(self) -> None:
        if not self._admitted:
            return
        self._reading_paused = False
        if self._hangup_check is not None:
            self._hangup_check.cancel()
            self._hangup_check = None
        if self._transport is not None and not self._closing:
            self._transport.resume_reading()

    def _check_hangup(self) -> None:
        """While reading is paused the end of input is not seen: ask the kernel whether the client hung up."""
        self._hangup_check = None
        transport = self._transport
        if transport is None or not self._reading_paused:
            return
        sock = transport.get_extra_info("socket")
        poller = select.poll()
        try:
            poller.register(sock.fileno(), _HANGUP)
            hung_up = bool(poller.poll(0))
        except (OSError, ValueError, AttributeError):
            hung_up = False
        if hung_up:
            log.info("closing connection from %s: the client hung up", self.info.peer)
            self._abort()
        elif self._loop is not None:
            self._hangup_check = self._loop.call_later(HANGUP_CHECK_S, self._check_hangup)

    # --- closing ---

    def _close_after_pending(self) -> None:
        """Close once every request read so far is answered; input meanwhile is read and discarded, so
        that a client leaving is still seen."""
        self._closing = True
        self._write_ready()

    def _close_now(self) -> None:
        self._closing = True
        if self._transport is not None:
            self._transport.close()

    def _abort(self) -> None:
        """Drop the connection without writing anything more (the client is gone or refused)."""
        self._closing = True
        self._cancel_pending()
        if self._transport is not None:
            self._transport.abort()

    def _cancel_pending(self) -> None:
        self._held.clear()
        for item in self._pending:
            if isinstance(item, asyncio.Future):
                item.cancel()
        self._pending.clear()

    def finish(self) -> None:
        """Take no new requests, answer those read so far, then close (broker shutdown: first step)."""
        self._held.clear()
        self._close_after_pending()

    def close(self) -> None:
        """Close the connection after writing whatever is ready (broker shutdown: last step)."""
        self._close_now()

    def drop(self) -> None:
        """Abort the connection now, unanswered requests and all (a fault a test injected: the network cut it)."""
        log.info("dropping connection from %s (a fault injected by a test)", self.info.peer)
        self._abort()

    def close_idle(self) -> None:
        """Close a connection idle for ``connections.max.idle.ms`` (nothing parked, nothing to write)."""
        log.debug("closing connection from %s: idle", self.info.peer)
        self._close_now()

    def eof_received(self) -> bool:
        """The client closed its side: write what is answered already if the socket takes it, close, and
        cancel the rest (Kafka closes a connection at its end of input; nothing is owed to a departed client)."""
        transport = self._transport
        if transport is not None and not transport.is_closing() and not self._writing_paused:
            out = self._take_ready()
            if out:
                transport.writelines(out)
        if transport is not None and transport.get_write_buffer_size() > 0:
            self._abort()  # the client has not read what it had: it will not
        else:
            self._cancel_pending()
            self._close_now()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_pending()
        if self._hangup_check is not None:
            self._hangup_check.cancel()
            self._hangup_check = None
        self._transport = None
        if self._counted:
            self._counted = False
            self._connections.closed(self)
