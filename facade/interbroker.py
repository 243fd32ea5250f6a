"""The one client brokers of a cluster use to reach each other: transaction markers (WriteTxnMarkers, sent by
``transactions/markers.py``) and partition moves (Fetch, sent by ``partition_moves.py``).

**Which listener.** As Kafka decides it: ``inter.broker.listener.name`` names an advertised listener; else
``security.inter.broker.protocol`` names one by its protocol (Kafka's older setting: the listener called
``SASL_SSL``, say); with neither, the first advertised listener (Kafka would take the listener named
PLAINTEXT: the first one is what a Rockafka cluster always used). Every broker of a cluster is configured alike,
and each dials the others at the address they registered in etcd for that listener name.

**How it authenticates**, from that listener's own settings (``listener.name.<l>.`` prefixed, else broker-wide):

- TLS (SSL, SASL_SSL): ``facade.security.tls.client_ssl_context``: the truststore verifies the other broker,
  ``ssl.endpoint.identification.algorithm`` (``https`` by default) checks its certificate names the host dialled,
  and the keystore is presented as this broker's certificate (an SSL listener that requires client certificates
  sees ``User:<its subject>``);
- SASL (SASL_PLAINTEXT, SASL_SSL): ``sasl.mechanism.inter.broker.protocol`` (PLAIN, SCRAM-SHA-256 or
  SCRAM-SHA-512; PLAIN by default), as the ``username``/``password`` of the listener's JAAS line for that
  mechanism, Kafka's ``listener.name.<l>.<mechanism>.sasl.jaas.config`` (a PlainLoginModule or a
  ScramLoginModule), else the broker-wide ``sasl.jaas.config``. SaslHandshake v1 and SaslAuthenticate v2 follow
  the connection; a SCRAM login also checks the other broker's signature.

The principal the other broker sees needs CLUSTER_ACTION on the cluster for WriteTxnMarkers when ACLs are on (a
super user, or an ACL), and READ on the topics a move copies.

One request at a time per connection (a lock); the connection opens on first use and is dropped after any
failure, so the next request connects again. A request either returns its typed response or raises
:class:`InterBrokerError` (refused, lost, timed out, or an answer that does not parse), or
:class:`InterBrokerAuthError` when the other broker refused this broker's credentials: the caller retries, and
says the latter as an ERROR (an operator must fix the settings).
"""

from __future__ import annotations

import asyncio
import itertools
import ssl
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
from .security.errors import SaslAuthenticationError, SecuritySetupError
from .security.plain import PLAIN_LOGIN_MODULE, parse_jaas
from .security.scram import ScramClient, ScramMechanism
from .security.tls import client_ssl_context

M = TypeVar("M", bound=ApiMessage)

CLIENT_ID: Final = "rockafka-broker"
#: A response bigger than this is no answer to what brokers ask each other: the connection is dropped.
MAX_RESPONSE_BYTES: Final = 64 << 20
SCRAM_LOGIN_MODULE: Final = "org.apache.kafka.common.security.scram.ScramLoginModule"
_LOGIN_MODULES: Final = {"PLAIN": PLAIN_LOGIN_MODULE}


class InterBrokerError(Exception):
    """A request to another broker got no usable answer (the caller retries)."""


class InterBrokerAuthError(InterBrokerError):
    """The other broker refused this broker's credentials or TLS identity (the settings need fixing)."""


@dataclass(frozen=True, slots=True)
class Login:
    """The SASL identity a broker presents to the others."""

    mechanism: str
    username: str
    password: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class InterBrokerSettings:
    """How this broker reaches the others: the listener name it dials, TLS and SASL (see the module docstring)."""

    listener: str
    protocol: str = "PLAINTEXT"
    login: Login | None = None
    tls: ssl.SSLContext | None = field(default=None, repr=False, compare=False)

    def describe(self) -> str:
        """``listener SASL_SSL (SASL_SSL, SCRAM-SHA-512 as broker)``: for log lines (no secret)."""
        how = (
            self.protocol if self.login is None else f"{self.protocol}, {self.login.mechanism} as {self.login.username}"
        )
        return f"listener {self.listener} ({how})"


def inter_broker_listener(config: BrokerConfig) -> tuple[str, str]:
    """(the listener name brokers reach each other on, its security protocol), by Kafka's settings."""
    advertised = config.advertised_listeners
    chosen = config.values["inter.broker.listener.name"] or config.values["security.inter.broker.protocol"]
    for listener in advertised:
        if listener.name == chosen:
            return listener.name, listener.security_protocol
    return advertised[0].name, advertised[0].security_protocol  # neither set (the config check refuses a bad name)


def inter_broker_settings(config: BrokerConfig) -> InterBrokerSettings:
    """How this broker reaches the others; InterBrokerError (one line, no secret) when the settings cannot work."""
    name, protocol = inter_broker_listener(config)
    tls = None
    if protocol in ("SSL", "SASL_SSL"):
        try:
            tls = client_ssl_context(config, name)
        except SecuritySetupError as exc:
            raise InterBrokerError(f"brokers cannot reach each other: {exc}") from None
    login = _login(config, name) if protocol in ("SASL_PLAINTEXT", "SASL_SSL") else None
    return InterBrokerSettings(name, protocol, login, tls)


def _login(config: BrokerConfig, listener: str) -> Login:
    mechanism = str(config.values["sasl.mechanism.inter.broker.protocol"])
    offered = config.for_listener(listener, "sasl.enabled.mechanisms")
    if not isinstance(offered, list) or mechanism not in offered:
        raise InterBrokerError(
            f"listener {listener}: sasl.mechanism.inter.broker.protocol={mechanism} is not in its"
            " sasl.enabled.mechanisms; brokers cannot authenticate to each other"
        )
    module_name = _LOGIN_MODULES.get(mechanism, SCRAM_LOGIN_MODULE)
    jaas = config.for_listener(listener, "sasl.jaas.config", mechanism)
    for module in parse_jaas(str(jaas or "")):
        if module.class_name == module_name and "username" in module.options:
            return Login(mechanism, module.options["username"], module.options.get("password", ""))
    raise InterBrokerError(
        f"listener {listener}: no {module_name.rpartition('.')[2]} with a username and password in"
        f" listener.name.{listener.lower()}.{mechanism.lower()}.sasl.jaas.config or sasl.jaas.config;"
        " brokers cannot authenticate to each other"
    )


class BrokerConnection:
    """One connection to one broker (``host:port``), opened on first use."""

    def __init__(self, host: str, port: int, timeout_s: float, settings: InterBrokerSettings | None = None) -> None:
        self.host = host
        self.port = port
        self._timeout_s = timeout_s
        self._settings = settings
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._lock = asyncio.Lock()
        self._correlation = itertools.count(1)

    async def request(self, body: ApiMessage, version: int, response: type[M]) -> M:
        """Send ``body`` at ``version`` and return the answer (InterBrokerError on any failure)."""
        async with self._lock:
            try:
                return await asyncio.wait_for(self._exchange(body, version, response), self._timeout_s)
            except InterBrokerAuthError as exc:
                self.close()
                raise InterBrokerAuthError(f"broker {self.host}:{self.port}: {exc}") from None
            except ssl.SSLCertVerificationError as exc:
                self.close()
                raise InterBrokerAuthError(f"broker {self.host}:{self.port}: TLS: {exc.verify_message}") from None
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ProtocolError, InterBrokerError) as exc:
                self.close()
                raise InterBrokerError(f"broker {self.host}:{self.port}: {exc or type(exc).__name__}") from None

    async def _exchange(self, body: ApiMessage, version: int, response: type[M]) -> M:
        if self._streams is None:
            tls = None if self._settings is None else self._settings.tls
            self._streams = await asyncio.open_connection(
                self.host, self.port, ssl=tls, server_hostname=self.host if tls is not None else None
            )
            if self._settings is not None and self._settings.login is not None:
                await self._authenticate(self._settings.login)
        return await self._round_trip(body, version, response)

    async def _authenticate(self, login: Login) -> None:
        handshake = await self._round_trip(SaslHandshakeRequest(mechanism=login.mechanism), 1, SaslHandshakeResponse)
        if handshake.error_code != ErrorCode.NONE:
            raise InterBrokerAuthError(
                f"SaslHandshake {login.mechanism} answered {ErrorCode.of(handshake.error_code).name}"
                f" (offered: {', '.join(handshake.mechanisms)})"
            )
        if login.mechanism == "PLAIN":
            await self._sasl_step(login, f"\0{login.username}\0{login.password}".encode())
            return
        client = ScramClient(ScramMechanism.named(login.mechanism), login.username, login.password)
        try:
            server_first = await self._sasl_step(login, client.first())
            client.verify(await self._sasl_step(login, client.final(server_first)))
        except (SaslAuthenticationError, KeyError, ValueError) as exc:
            raise InterBrokerAuthError(f"authenticating as {login.username!r} with {login.mechanism}: {exc}") from None

    async def _sasl_step(self, login: Login, token: bytes) -> bytes:
        answer = await self._round_trip(SaslAuthenticateRequest(auth_bytes=token), 2, SaslAuthenticateResponse)
        if answer.error_code != ErrorCode.NONE:
            raise InterBrokerAuthError(f"authenticating as {login.username!r}: {answer.error_message}")
        return bytes(answer.auth_bytes)

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
