"""One connection's SASL exchange on a SASL_PLAINTEXT or SASL_SSL listener, as Kafka's SaslServerAuthenticator.

States and what each admits (anything else closes the connection, as Kafka's IllegalSaslStateException)::

    HANDSHAKE    ApiVersions (any number of times), SaslHandshake
    AUTHENTICATE SaslAuthenticate only (after SaslHandshake v1)
    LEGACY       raw SASL tokens, size-prefixed, no request header (after SaslHandshake v0; the answers are
                 raw tokens too)
    COMPLETE     every request; SaslHandshake starts a re-authentication (KIP-368) if the client spoke
                 SaslAuthenticate v1+, else it and SaslAuthenticate are answered ILLEGAL_SASL_STATE
    FAILED       nothing (the connection closes once the failure is answered)

A SaslHandshake naming a mechanism the listener does not offer is answered UNSUPPORTED_SASL_MECHANISM with
the offered list, then the connection closes; refused credentials are answered SASL_AUTHENTICATION_FAILED
(SaslAuthenticate) or close at once (legacy tokens). With ``connections.max.reauth.ms`` > 0 a session lasts
that long: SaslAuthenticate v1+ tells the client (``session_lifetime_ms``), and the first request after
expiry closes the connection. A re-authentication must keep the mechanism and the principal. Frames
larger than ``sasl.server.max.receive.size`` before authentication close the connection.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from rockafka.facade.protocol.error_codes import ErrorCode

from .errors import IllegalSaslStateError, SaslAuthenticationError
from .plain import PlainServer
from .scram import CredentialLookup, ScramMechanism, ScramServer

API_VERSIONS: Final = 18
SASL_HANDSHAKE: Final = 17
SASL_AUTHENTICATE: Final = 36


class SaslState(enum.Enum):
    HANDSHAKE = "handshake"
    AUTHENTICATE = "authenticate"
    LEGACY = "legacy"
    COMPLETE = "complete"
    FAILED = "failed"


class MechanismServer(Protocol):
    username: str | None

    @property
    def complete(self) -> bool: ...

    def step(self, message: bytes) -> bytes: ...


@dataclass(frozen=True, slots=True)
class SaslSettings:
    """What one SASL listener offers."""

    mechanisms: tuple[str, ...]
    plain_users: dict[str, str]
    reauth_ms: dict[str, int]
    """connections.max.reauth.ms by mechanism (0: sessions never expire)."""
    max_receive_size: int
    failure_delay_ms: int = 100
    """connection.failed.authentication.delay.ms: a refused client's connection closes that long after the answer."""


@dataclass(frozen=True, slots=True)
class HandshakeAnswer:
    error_code: ErrorCode
    mechanisms: list[str]


@dataclass(frozen=True, slots=True)
class AuthenticateAnswer:
    error_code: ErrorCode
    error_message: str | None
    token: bytes
    session_lifetime_ms: int


class SaslSession:
    """The SASL state of one connection; the SaslHandshake/SaslAuthenticate handlers and the dispatcher drive it."""

    def __init__(
        self,
        settings: SaslSettings,
        credentials: CredentialLookup,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self._credentials = credentials
        self._clock = clock
        self.state = SaslState.HANDSHAKE
        self.mechanism: str | None = None
        self.principal: str | None = None
        self.close_reason: str | None = None
        self._server: MechanismServer | None = None
        self._expires_at: float | None = None
        self._reauth_capable = False
        self._reauthenticating = False

    @property
    def authenticated(self) -> bool:
        return self.state == SaslState.COMPLETE

    def expired(self) -> bool:
        return self._expires_at is not None and self._clock() >= self._expires_at

    def admit(self, api_key: int) -> None:
        """Check that a request of ``api_key`` may come now, before authentication; IllegalSaslStateError if not."""
        state = self.state
        allowed = (state == SaslState.HANDSHAKE and api_key in (API_VERSIONS, SASL_HANDSHAKE)) or (
            state == SaslState.AUTHENTICATE and api_key == SASL_AUTHENTICATE
        )
        if not allowed:
            raise IllegalSaslStateError(f"Unexpected Kafka request of type {api_key} during SASL {state.value}")

    def handshake(self, mechanism: str, version: int) -> HandshakeAnswer:
        offered = list(self.settings.mechanisms)
        if self.state == SaslState.COMPLETE:
            if not self._reauth_capable:
                return HandshakeAnswer(ErrorCode.ILLEGAL_SASL_STATE, offered)
            if mechanism != self.mechanism:
                return self._fail_handshake(ErrorCode.ILLEGAL_SASL_STATE, "re-authentication changed the mechanism")
            self._reauthenticating = True
        elif self.state != SaslState.HANDSHAKE:
            return self._fail_handshake(ErrorCode.ILLEGAL_SASL_STATE, "unexpected SaslHandshake")
        if mechanism not in offered:
            return self._fail_handshake(ErrorCode.UNSUPPORTED_SASL_MECHANISM, f"unsupported mechanism {mechanism!r}")
        self.mechanism = mechanism
        self._server = self._new_server(mechanism)
        self.state = SaslState.AUTHENTICATE if version >= 1 else SaslState.LEGACY
        return HandshakeAnswer(ErrorCode.NONE, offered)

    def authenticate(self, token: bytes, version: int) -> AuthenticateAnswer:
        if self.state == SaslState.COMPLETE:
            message = "SaslAuthenticate request received after successful authentication"
            return AuthenticateAnswer(ErrorCode.ILLEGAL_SASL_STATE, message, b"", 0)
        if self.state != SaslState.AUTHENTICATE:
            self.state, self.close_reason = SaslState.FAILED, "SaslAuthenticate before SaslHandshake"
            return AuthenticateAnswer(ErrorCode.ILLEGAL_SASL_STATE, "Unexpected SaslAuthenticate", b"", 0)
        try:
            answer = self._step(token)
        except SaslAuthenticationError as exc:
            self.state, self.close_reason = SaslState.FAILED, f"SASL authentication failed: {exc}"
            return AuthenticateAnswer(ErrorCode.SASL_AUTHENTICATION_FAILED, str(exc), b"", 0)
        if not self.authenticated:
            return AuthenticateAnswer(ErrorCode.NONE, None, answer, 0)
        self._reauth_capable = self._reauth_capable or version >= 1
        return AuthenticateAnswer(ErrorCode.NONE, None, answer, self._reauth_ms())

    def legacy_token(self, token: bytes) -> bytes:
        """One raw token after SaslHandshake v0; SaslAuthenticationError closes the connection."""
        if self.state != SaslState.LEGACY:
            raise IllegalSaslStateError("a raw SASL token outside the legacy exchange")
        try:
            return self._step(token)
        except SaslAuthenticationError:
            self.state = SaslState.FAILED
            raise

    def _step(self, token: bytes) -> bytes:
        server = self._server
        assert server is not None
        answer = server.step(token)
        if server.complete:
            principal = f"User:{server.username}"
            if self._reauthenticating and principal != self.principal:
                raise SaslAuthenticationError("Cannot change principals during re-authentication")
            self.principal, self.state, self._reauthenticating = principal, SaslState.COMPLETE, False
            reauth_ms = self._reauth_ms()
            self._expires_at = self._clock() + reauth_ms / 1000 if reauth_ms > 0 else None
        return answer

    def _reauth_ms(self) -> int:
        return self.settings.reauth_ms.get(self.mechanism or "", 0)

    def _fail_handshake(self, code: ErrorCode, reason: str) -> HandshakeAnswer:
        self.state, self.close_reason = SaslState.FAILED, reason
        return HandshakeAnswer(code, list(self.settings.mechanisms))

    def _new_server(self, mechanism: str) -> MechanismServer:
        if mechanism == "PLAIN":
            return PlainServer(self.settings.plain_users)
        return ScramServer(ScramMechanism.named(mechanism), self._credentials)
