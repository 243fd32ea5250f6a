"""Raw Kafka requests the clients do not expose: ApiVersions v0 over a plain socket, to learn which APIs a
broker answers (so group scenarios can say "not available") and to keep many real, idle connections open.
"""

from __future__ import annotations

import socket
import struct

API_VERSIONS = 18
GROUP_APIS = {10: "FindCoordinator", 11: "JoinGroup", 12: "Heartbeat", 13: "LeaveGroup", 14: "SyncGroup"}
_REQUEST = struct.pack(">hhih", API_VERSIONS, 0, 1, 5) + b"bench"
FRAME = struct.pack(">i", len(_REQUEST)) + _REQUEST


def connect(bootstrap: str, timeout_s: float = 10.0) -> socket.socket:
    host, _, port = bootstrap.rpartition(":")
    return socket.create_connection((host, int(port)), timeout=timeout_s)


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    buf = bytearray()
    while len(buf) < size:
        chunk = sock.recv(size - len(buf))
        if not chunk:
            raise ConnectionError("broker closed the connection")
        buf += chunk
    return bytes(buf)


def api_versions(sock: socket.socket) -> dict[int, tuple[int, int]]:
    """Send ApiVersions v0 and return ``{api_key: (min_version, max_version)}``."""
    sock.sendall(FRAME)
    (size,) = struct.unpack(">i", _read_exactly(sock, 4))
    body = _read_exactly(sock, size)
    correlation, error, count = struct.unpack_from(">ihi", body)
    if correlation != 1 or error != 0:
        raise ConnectionError(f"ApiVersions answered correlation {correlation}, error {error}")
    return {key: (low, high) for key, low, high in struct.iter_unpack(">hhh", body[10 : 10 + 6 * count])}


def missing_group_apis(bootstrap: str) -> list[str]:
    """The group APIs the broker does not list in ApiVersions (empty when groups are served)."""
    with connect(bootstrap) as sock:
        keys = api_versions(sock)
    return [name for key, name in GROUP_APIS.items() if key not in keys]
