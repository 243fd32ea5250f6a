"""A connection to another broker of the cluster, for the requests brokers send each other (WriteTxnMarkers).

Brokers reach each other where clients do: at the address a broker registered in etcd (its first advertised
listener), over a plain TCP connection, with the request and response frames of ``facade.protocol.framing``
(the same codec the broker serves with). There is no SASL or TLS on this side yet: a listener that requires
them refuses the connection, and with ACLs on, the principal the listener gives a plain connection
(``User:ANONYMOUS``) must hold CLUSTER_ACTION on the cluster (``docs/cluster.md``).

One request at a time per connection (a lock); the connection opens on first use and is dropped after any
failure, so the next request connects again. A request either returns its typed response or raises
:class:`InterBrokerError` (refused, lost, timed out, or an answer that does not parse): the caller retries.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Final, TypeVar

from .protocol.errors import ProtocolError
from .protocol.framing import decode_response, encode_request
from .protocol.message import ApiMessage
from .protocol.primitives import Reader

M = TypeVar("M", bound=ApiMessage)

CLIENT_ID: Final = "rockafka-broker"
#: A response bigger than this is not a WriteTxnMarkers answer: the connection is dropped.
MAX_RESPONSE_BYTES: Final = 16 << 20


class InterBrokerError(Exception):
    """A request to another broker got no usable answer (the caller retries)."""


class BrokerConnection:
    """One connection to one broker (``host:port``), opened on first use."""

    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        self.host = host
        self.port = port
        self._timeout_s = timeout_s
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._lock = asyncio.Lock()
        self._correlation = itertools.count(1)

    async def request(self, body: ApiMessage, version: int, response: type[M]) -> M:
        """Send ``body`` at ``version`` and return the answer (InterBrokerError on any failure)."""
        async with self._lock:
            try:
                return await asyncio.wait_for(self._exchange(body, version, response), self._timeout_s)
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ProtocolError, InterBrokerError) as exc:
                self.close()
                raise InterBrokerError(f"broker {self.host}:{self.port}: {exc or type(exc).__name__}") from None

    async def _exchange(self, body: ApiMessage, version: int, response: type[M]) -> M:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        correlation_id = next(self._correlation) & 0x7FFFFFFF
        writer.write(encode_request(body, version, correlation_id, CLIENT_ID))
        await writer.drain()
        size = Reader(await reader.readexactly(4)).int32()
        if not 0 <= size <= MAX_RESPONSE_BYTES:
            raise InterBrokerError(f"a response of {size} bytes")
        answered, decoded = decode_response(await reader.readexactly(size), response, version)
        if answered != correlation_id:
            raise InterBrokerError(f"correlation id {answered}, expected {correlation_id}")
        return decoded

    def close(self) -> None:
        """Drop the connection (the next request connects again)."""
        if self._streams is not None:
            _, writer = self._streams
            self._streams = None
            writer.close()
