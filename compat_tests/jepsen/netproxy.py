"""A TCP proxy the nemesis can cut: one per network link it may partition (clients to a broker, a broker to etcd).

While the link is *cut*, nothing passes either way: bytes already in flight wait in the kernel's buffers,
connections stay open, new ones are accepted and then hear nothing, as when a partition drops every packet
and TCP keeps retransmitting. When it is *healed*, everything held flows on in order, as after a partition
shorter than TCP's retransmission timeout; an endpoint that gave up meanwhile (a request timeout, an etcd
lease gone) finds out then. Closing an upstream connection (a killed broker) closes the client's.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from typing import Final

from ..clients.wire import host_port

#: How often a blocked pump looks whether the proxy is closing.
POLL_S: Final = 0.2


class CuttableProxy:
    """Listens on a free loopback port (``address``) and forwards each connection to ``upstream``."""

    def __init__(self, upstream: str, name: str) -> None:
        self.upstream = upstream
        self.name = name
        self._flowing = threading.Event()
        self._flowing.set()
        self._closing = threading.Event()
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(POLL_S)
        self._thread = threading.Thread(target=self._accept_loop, name=f"proxy-{name}", daemon=True)
        self._thread.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self._server.getsockname()[1]}"

    @property
    def cut(self) -> bool:
        return not self._flowing.is_set()

    def cut_link(self) -> None:
        self._flowing.clear()

    def heal(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        self._closing.set()
        self._flowing.set()
        self._thread.join(5)
        self._server.close()
        with self._lock:
            for sock in self._sockets:
                sock.close()

    def _accept_loop(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        if not self._wait_flowing():
            client.close()
            return
        try:
            upstream = socket.create_connection(host_port(self.upstream), timeout=5)
        except OSError:
            client.close()  # the broker is down: the client sees a refused-like close and retries
            return
        with self._lock:
            self._sockets.update((client, upstream))
        done = threading.Barrier(2, action=lambda: self._forget(client, upstream))
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(source, sink, done), daemon=True).start()

    def _wait_flowing(self) -> bool:
        while not self._flowing.wait(POLL_S):
            if self._closing.is_set():
                return False
        return not self._closing.is_set()

    def _pump(self, source: socket.socket, sink: socket.socket, done: threading.Barrier) -> None:
        """Forward ``source`` to ``sink`` while the link flows; when both directions ended, close both."""
        try:
            while self._wait_flowing():
                if not select.select([source], [], [], POLL_S)[0]:
                    continue
                chunk = source.recv(1 << 16)
                if not chunk or not self._wait_flowing():
                    break
                sink.sendall(chunk)
        except (OSError, ValueError):  # reset, or closed by close()
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)
            with contextlib.suppress(threading.BrokenBarrierError):
                done.wait(timeout=None if not self._closing.is_set() else 0)

    def _forget(self, *sockets: socket.socket) -> None:
        with self._lock:
            for sock in sockets:
                self._sockets.discard(sock)
                sock.close()
