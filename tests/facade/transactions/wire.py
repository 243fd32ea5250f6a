"""A blocking Kafka client over one real socket, for the transaction APIs' wire tests: requests framed with the
project's codec at a chosen version, responses decoded at the same version."""

from __future__ import annotations

import itertools
import socket
import struct
from typing import TypeVar

from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage

M = TypeVar("M", bound=ApiMessage)
TIMEOUT_S = 10.0


class WireClient:
    def __init__(self, bootstrap: str) -> None:
        host, _, port = bootstrap.rpartition(":")
        self._sock = socket.create_connection((host, int(port)), timeout=TIMEOUT_S)
        self._correlation = itertools.count(1)

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self._sock.close()

    def call(self, request: ApiMessage, response: type[M], version: int) -> M:
        correlation = next(self._correlation)
        self._sock.sendall(encode_request(request, version, correlation, "txn-wire-test"))
        (size,) = struct.unpack(">i", self._read(4))
        got, body = decode_response(self._read(size), response, version)
        assert got == correlation
        return body

    def _read(self, size: int) -> bytes:
        data = bytearray()
        while len(data) < size:
            chunk = self._sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("the broker closed the connection")
            data += chunk
        return bytes(data)
