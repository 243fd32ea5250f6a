"""A TCP proxy that loses Produce responses: the broker wrote the batch, the client never hears of it.

Every ``every``-th Produce request (counted over all connections, up to ``max_drops`` times) is forwarded
to the broker; when the broker's response to it comes back, the proxy closes both sockets instead of
passing it on. The client sees a dropped connection with a request in flight and retries the same batch
on a new connection: without idempotence that batch would be written twice. The broker must advertise
the proxy's address (``advertised.listeners``) so clients come back through it after Metadata.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from dataclasses import dataclass, field

from .wire import host_port

PRODUCE = 0


def _read_exact(sock: socket.socket, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        try:
            chunk = sock.recv(size - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


def _read_frame(sock: socket.socket) -> bytes | None:
    prefix = _read_exact(sock, 4)
    if prefix is None:
        return None
    body = _read_exact(sock, struct.unpack(">i", prefix)[0])
    return None if body is None else prefix + body


@dataclass
class ProduceResponseDropper:
    upstream: str
    every: int = 5
    max_drops: int = 3
    drops: int = 0
    produce_requests: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _sockets: list[socket.socket] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._server = self._listen_elsewhere_than(host_port(self.upstream)[1])
        self._server.settimeout(0.2)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept_loop, daemon=True)
        self._thread.start()

    @staticmethod
    def _listen_elsewhere_than(upstream_port: int) -> socket.socket:
        """A listening socket on any port but the upstream's. The upstream is often a broker not started yet, whose
        port was picked free and let go: the kernel may hand the same port to this proxy, which then forwarded
        every connection to itself, each forward one more, until the test process ran out of descriptors (a CI
        run: a socket of fd 19999, and the client's bootstrap timed out)."""
        server = socket.create_server(("127.0.0.1", 0))
        if server.getsockname()[1] != upstream_port:
            return server
        with server:  # held while another is bound, so the kernel cannot hand out the same port again
            return socket.create_server(("127.0.0.1", 0))

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self._server.getsockname()[1]}"

    def close(self) -> None:
        self._stopping.set()
        self._thread.join(5)
        self._server.close()
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.close()

    def __enter__(self) -> ProduceResponseDropper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(host_port(self.upstream), timeout=5)
            except OSError:
                client.close()  # the broker is down (being restarted): the client reconnects later
                continue
            client.settimeout(None)
            upstream.settimeout(None)
            with self._lock:
                self._sockets += [client, upstream]
            doomed: set[int] = set()
            pair = (client, upstream)
            threading.Thread(target=self._requests, args=(pair, doomed), daemon=True).start()
            threading.Thread(target=self._responses, args=(pair, doomed), daemon=True).start()

    def _requests(self, pair: tuple[socket.socket, socket.socket], doomed: set[int]) -> None:
        client, upstream = pair
        while (frame := _read_frame(client)) is not None:
            api_key, _, correlation_id = struct.unpack_from(">hhi", frame, 4)
            if api_key == PRODUCE:
                with self._lock:
                    self.produce_requests += 1
                    if self.produce_requests % self.every == 0 and self.drops + len(doomed) < self.max_drops:
                        doomed.add(correlation_id)
            try:
                upstream.sendall(frame)
            except OSError:
                break
        self._close(pair)

    def _responses(self, pair: tuple[socket.socket, socket.socket], doomed: set[int]) -> None:
        client, upstream = pair
        while (frame := _read_frame(upstream)) is not None:
            (correlation_id,) = struct.unpack_from(">i", frame, 4)
            if correlation_id in doomed:
                with self._lock:
                    self.drops += 1
                break
            try:
                client.sendall(frame)
            except OSError:
                break
        self._close(pair)

    @staticmethod
    def _close(pair: tuple[socket.socket, socket.socket]) -> None:
        for sock in pair:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()
