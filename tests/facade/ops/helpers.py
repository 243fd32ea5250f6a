"""Small helpers of the operations tests: a free loopback port and one HTTP GET."""

from __future__ import annotations

import http.client
import socket


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get(port: int, path: str) -> tuple[int, str, bytes]:
    """(status, content type, body) of ``GET path`` on 127.0.0.1:``port``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.getheader("Content-Type") or "", answer.read()
    finally:
        connection.close()
