"""A TCP proxy between a client and the broker that makes the client's first ApiVersions request too new.

On each proxied connection the first request, if it is ApiVersions, is forwarded as version
:data:`TOO_NEW` (its header rewritten to the flexible v2 form that versions 3+ use), so the broker
answers UNSUPPORTED_VERSION with a v0 body and the client's own fallback runs: it must retry on the
same connection at a version the broker speaks. Everything else passes through unchanged. The
proxy records the ApiVersions versions each connection sent, as ``(sent by the client, forwarded)``.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from dataclasses import dataclass, field

from .wire import host_port

TOO_NEW = 127
API_VERSIONS = 18
FLEXIBLE_HEADER_FROM = 3  # ApiVersions requests use header v2 (tagged fields) from version 3


def make_too_new(frame: bytes) -> tuple[bytes, int]:
    """``frame`` (one request, without its size prefix) as ApiVersions v:data:`TOO_NEW`, and the version
    the client sent. The body is kept: a broker does not read the body of a version it does not speak."""
    api_key, version = struct.unpack_from(">hh", frame)
    assert api_key == API_VERSIONS
    (client_id_len,) = struct.unpack_from(">h", frame, 8)
    header_end = 10 + max(client_id_len, 0)
    rest = frame[header_end:]
    tagged = b"" if version >= FLEXIBLE_HEADER_FROM else b"\x00"  # v1 header -> v2: add empty tagged fields
    return frame[:2] + struct.pack(">h", TOO_NEW) + frame[4:header_end] + tagged + rest, version


@dataclass
class ApiVersionsBumpProxy:
    """Listens on a free loopback port (``bootstrap``) and forwards to ``upstream``."""

    upstream: str
    seen: list[list[tuple[int, int]]] = field(default_factory=list)
    _server: socket.socket = field(init=False)
    _sockets: list[socket.socket] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.2)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept_loop, daemon=True)
        self._thread.start()

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self._server.getsockname()[1]}"

    def close(self) -> None:
        self._stopping.set()
        self._thread.join(5)
        self._server.close()
        with self._lock:
            for sock in self._sockets:
                sock.close()

    def __enter__(self) -> ApiVersionsBumpProxy:
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
            upstream = socket.create_connection(host_port(self.upstream), timeout=10)
            client.settimeout(None)
            upstream.settimeout(None)
            versions: list[tuple[int, int]] = []
            with self._lock:
                self._sockets += [client, upstream]
                self.seen.append(versions)
            threading.Thread(target=self._requests, args=(client, upstream, versions), daemon=True).start()
            threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()

    def _requests(self, client: socket.socket, upstream: socket.socket, versions: list[tuple[int, int]]) -> None:
        """Client -> broker: rewrite the first request if it is ApiVersions, note every ApiVersions version."""
        buffer = b""
        first = True
        try:
            while chunk := client.recv(1 << 16):
                buffer += chunk
                while len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack_from(">i", buffer)[0]:
                    size = struct.unpack_from(">i", buffer)[0]
                    frame, buffer = buffer[4 : 4 + size], buffer[4 + size :]
                    api_key, version = struct.unpack_from(">hh", frame)
                    if api_key == API_VERSIONS and first:
                        frame, version = make_too_new(frame)
                        versions.append((version, TOO_NEW))
                    elif api_key == API_VERSIONS:
                        versions.append((version, version))
                    first = False
                    upstream.sendall(struct.pack(">i", len(frame)) + frame)
        except OSError:
            pass
        finally:
            _shutdown(upstream)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(1 << 16):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        _shutdown(sink)


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_WR)
