"""A connection to another broker of the cluster, for the requests brokers send each other (WriteTxnMarkers).

Brokers reach each other where clients do: at the address a broker registered in etcd (its first advertised
listener), over TCP, with the request and response frames of ``facade.protocol.framing`` (the same codec the
broker serves with). How a broker authenticates is :func:`inter_broker_login`'s: on a SASL_PLAINTEXT listener
offering PLAIN, as the ``username``/``password`` of its PlainLoginModule JAAS line (Kafka's inter-broker
identity), with SaslHandshake v1 and SaslAuthenticate v2 right after connecting; on a PLAINTEXT listener, as no
one (``User:ANONYMOUS``). TLS listeners and SCRAM are not offered on this side yet: a broker whose advertised
listener needs them cannot send markers to the others (it says so at start, ``docs/cluster.md``).

One request at a time per connection (a lock); the connection opens on first use and is dropped after any
failure, so the next request connects again. A request either returns its typed response or raises
:class:`InterBrokerError` (refused, lost, timed out, or an answer that does not parse): the caller retries.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Final, TypeVar

from .config import BrokerConfig
from .protocol.error_codes import ErrorCode
from .protocol.errors import ProtocolError
from .protocol.framing import decode_response, encode_request
from .protocol.message import ApiMessage
from .protocol.messages.sasl_authenticate import SaslAuthenticateRequest, SaslAuthenticateResponse
from .protocol.messages.sasl_handshake import SaslHandshakeRequest, SaslHandshakeResponse
from .protocol.primitives import Reader
from .security.plain import PLAIN_LOGIN_MODULE, parse_jaas

M = TypeVar("M", bound=ApiMessage)

CLIENT_ID: Final = "rockafka-broker"
#: A response bigger than this is not a WriteTxnMarkers answer: the connection is dropped.
MAX_RESPONSE_BYTES: Final = 16 << 20


class InterBrokerError(Exception):
    """A request to another broker got no usable answer (the caller retries)."""


@dataclass(frozen=True, slots=True)
class PlainLogin:
    """The SASL PLAIN identity a broker presents to the others."""

    username: str
    password: str = field(repr=False)


def inter_broker_login(config: BrokerConfig) -> PlainLogin | None:
    """How this broker authenticates to the others, from its first advertised listener (the one every broker
    registers): None on PLAINTEXT; a :class:`PlainLogin` on SASL_PLAINTEXT with PLAIN enabled and a
    PlainLoginModule ``username``/``password``; InterBrokerError (one line, said at start) for anything else."""
    listener = config.advertised_listeners[0]
    protocol = listener.security_protocol
    if protocol == "PLAINTEXT":
        return None
    mechanisms = config.for_listener(listener.name, "sasl.enabled.mechanisms")
    if protocol != "SASL_PLAINTEXT" or not isinstance(mechanisms, list) or "PLAIN" not in mechanisms:
        raise InterBrokerError(
            f"listener {listener.name} ({protocol}): brokers can reach each other over PLAINTEXT or SASL_PLAINTEXT"
            " with PLAIN only; transactions spanning broker groups cannot complete"
        )
    jaas = config.for_listener(listener.name, "sasl.jaas.config", "PLAIN")
    for module in parse_jaas(str(jaas or "")):
        if module.class_name == PLAIN_LOGIN_MODULE and "username" in module.options:
            return PlainLogin(module.options["username"], module.options.get("password", ""))
    raise InterBrokerError(
        f"listener {listener.name}: its PlainLoginModule has no username and password for brokers to authenticate"
        " to each other; transactions spanning broker groups cannot complete"
    )


class BrokerConnection:
    """One connection to one broker (``host:port``), opened on first use."""

    def __init__(self, host: str, port: int, timeout_s: float, login: PlainLogin | None = None) -> None:
        self.host = host
        self.port = port
        self._timeout_s = timeout_s
        self._login = login
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
            if self._login is not None:
                await self._authenticate(self._login)
        return await self._round_trip(body, version, response)

    async def _authenticate(self, login: PlainLogin) -> None:
        handshake = await self._round_trip(SaslHandshakeRequest(mechanism="PLAIN"), 1, SaslHandshakeResponse)
        if handshake.error_code != ErrorCode.NONE:
            raise InterBrokerError(f"SaslHandshake PLAIN answered {ErrorCode.of(handshake.error_code).name}")
        token = b"\0" + login.username.encode() + b"\0" + login.password.encode()
        answer = await self._round_trip(SaslAuthenticateRequest(auth_bytes=token), 2, SaslAuthenticateResponse)
        if answer.error_code != ErrorCode.NONE:
            raise InterBrokerError(f"authenticating as {login.username!r}: {answer.error_message}")

    async def _round_trip(self, body: ApiMessage, version: int, response: type[M]) -> M:
        assert self._streams is not None
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
