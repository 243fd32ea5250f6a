"""A small blocking Kafka client for the CLI's online commands: one connection, TLS and SASL as configured.

Connection settings use the Kafka client's names, read from a properties file (``--command-config``, as
Kafka's own tools take it): ``security.protocol`` (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL),
``sasl.mechanism`` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), ``sasl.jaas.config`` (a PlainLoginModule or
ScramLoginModule line with ``username`` and ``password``), ``ssl.truststore.location`` (PEM CA file; without
it the system's CAs), ``ssl.keystore.location`` (PEM file with the client's key and certificate),
``ssl.key.password`` and ``ssl.endpoint.identification.algorithm`` (empty turns host name checks off).
"""

from __future__ import annotations

import itertools
import socket
import ssl
import struct
from collections.abc import Mapping
from typing import TypeVar

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import api_spec
from rockafka.facade.protocol.messages.sasl_authenticate import SaslAuthenticateRequest, SaslAuthenticateResponse
from rockafka.facade.protocol.messages.sasl_handshake import SaslHandshakeRequest, SaslHandshakeResponse
from rockafka.facade.security.plain import parse_jaas
from rockafka.facade.security.scram import ScramClient, ScramMechanism

M = TypeVar("M", bound=ApiMessage)
TIMEOUT_S = 30.0


class WireClientError(Exception):
    """The broker could not be reached, refused the client, or answered something unreadable."""


class WireClient:
    """A blocking connection to one broker; :meth:`request` sends a message and returns the response."""

    def __init__(
        self,
        bootstrap: str,
        settings: Mapping[str, str] | None = None,
        client_id: str = "rockafka-cli",
        timeout_s: float = TIMEOUT_S,
    ) -> None:
        settings = dict(settings or {})
        host, _, port = bootstrap.rpartition(":")
        protocol = settings.get("security.protocol", "PLAINTEXT").upper()
        self.client_id = client_id
        self._correlation = itertools.count(1)
        try:
            raw = socket.create_connection((host, int(port)), timeout=timeout_s)
        except (OSError, ValueError) as exc:
            raise WireClientError(f"cannot connect to {bootstrap}: {exc}") from None
        self._sock: socket.socket = raw
        try:
            if protocol in ("SSL", "SASL_SSL"):
                self._sock = _tls(settings).wrap_socket(raw, server_hostname=host)
            if protocol in ("SASL_PLAINTEXT", "SASL_SSL"):
                self._authenticate(settings)
        except (OSError, ssl.SSLError) as exc:
            self.close()
            raise WireClientError(f"cannot connect to {bootstrap}: {exc}") from None
        except WireClientError:
            self.close()
            raise

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._sock.close()

    def request(self, body: ApiMessage, version: int, response: type[M]) -> M:
        """Send ``body`` at ``version``; the decoded ``response``."""
        assert api_spec(body.API_KEY).response is response
        correlation_id = next(self._correlation)
        try:
            self._sock.sendall(encode_request(body, version, correlation_id, self.client_id))
        except OSError as exc:
            raise WireClientError(f"connection failed: {exc}") from None
        correlation, answer = decode_response(self._read_frame(), response, version)
        if correlation != correlation_id:
            raise WireClientError(f"response {correlation} does not answer request {correlation_id}")
        return answer

    def _read_frame(self) -> bytes:
        size = struct.unpack(">i", self._read_exactly(4))[0]
        return self._read_exactly(size)

    def _read_exactly(self, count: int) -> bytes:
        chunks, remaining = [], count
        while remaining:
            try:
                chunk = self._sock.recv(remaining)
            except OSError as exc:
                raise WireClientError(f"connection failed: {exc}") from None
            if not chunk:
                raise WireClientError("the broker closed the connection")
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _authenticate(self, settings: Mapping[str, str]) -> None:
        mechanism = settings.get("sasl.mechanism", "PLAIN").upper()
        options: dict[str, str] = {}
        for module in parse_jaas(settings.get("sasl.jaas.config", "")):
            options.update(module.options)
        username, password = options.get("username", ""), options.get("password", "")
        handshake = self.request(SaslHandshakeRequest(mechanism=mechanism), 1, SaslHandshakeResponse)
        if handshake.error_code:
            raise WireClientError(f"SASL handshake: {ErrorCode.of(handshake.error_code).name} {handshake.mechanisms}")
        if mechanism == "PLAIN":
            self._sasl_step(f"\x00{username}\x00{password}".encode())
            return
        client = ScramClient(ScramMechanism.named(mechanism), username, password)
        client.verify(self._sasl_step(client.final(self._sasl_step(client.first()))))

    def _sasl_step(self, token: bytes) -> bytes:
        answer = self.request(SaslAuthenticateRequest(auth_bytes=token), 1, SaslAuthenticateResponse)
        if answer.error_code:
            raise WireClientError(f"SASL authentication failed: {answer.error_message}")
        return answer.auth_bytes


def _tls(settings: Mapping[str, str]) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=settings.get("ssl.truststore.location") or None)
    if settings.get("ssl.endpoint.identification.algorithm", "https") == "":
        context.check_hostname = False
    if settings.get("ssl.keystore.location"):
        context.load_cert_chain(settings["ssl.keystore.location"], password=settings.get("ssl.key.password"))
    return context
