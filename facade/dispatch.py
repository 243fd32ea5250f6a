"""From a request frame to its response: decode, find the handler, run it, encode the answer.

Outcomes, as Kafka behaves:

- a handler's response is encoded at the request's version; an awaitable is awaited first;
- a Produce with acks=0 gets no response (the handler returns None);
- an ApiVersions request of a version this broker does not speak gets UNSUPPORTED_VERSION with the
  v0 body, so the client can retry lower;
- an unknown API key, a version outside a handler's range (narrowed to Kafka 4.0's under
  ``rockafka.protocol.version=4.0``) or a body that does not parse close the connection (Kafka cannot
  answer a request it cannot read); an unserved version is logged as one WARNING line per client id,
  API key and version, not per request (an old client retries in a loop);
- a handler's :class:`ApiError` becomes that API's error response with the error's code; a store error
  that reaches here becomes its Kafka code (KAFKA_STORAGE_ERROR for a full or offline store), logged as
  one WARNING line per distinct error, not per request; any other
  exception (a bug) is logged as one ERROR line (the traceback at DEBUG) and answered with
  UNKNOWN_SERVER_ERROR;
- a handler that raises :class:`BrokenRequestError` (a failed acks=0 produce) closes the connection;
- a response that cannot be encoded (a bug) is logged as one line and answered like a failed request;
  when the API's error response does not encode either (or cannot be built from this request), the
  answer is the response with every field at its default and the top-level error code, if the API has
  one, set: always a valid frame with the request's correlation id, so a client never waits for an
  answer that is not coming. Only when even that fails is the connection closed.

Security, before a handler runs: on a SASL listener the connection's :class:`SaslSession` admits only
ApiVersions/SaslHandshake/SaslAuthenticate until the client has authenticated (anything else closes the
connection, as Kafka does), takes the raw tokens of the legacy exchange (after SaslHandshake v0) and closes
the connection when its session has expired or a refusal has been answered. The APIs that Kafka authorizes
on the cluster alone (:data:`~.handlers.authorized.CLUSTER_APIS`) are checked here; every other check is
the handler's (``ctx.check``/``ctx.authorize``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from struct import error as StructError
from typing import TYPE_CHECKING, Any, NoReturn

from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.reqheader import RequestHeader
from rockafka.store import StoreError

from .clock import REAL_CLOCK
from .errors import StoreErrorLog, store_error_code
from .handlers import HANDLERS, ApiHandler
from .handlers.authorized import CLUSTER_APIS
from .handlers.context import ApiError, RequestContext
from .handlers.registry import PROTOCOL_VERSION_SETTING, served_range, version_floors
from .protocol.api import API_VERSIONS_KEY
from .protocol.error_codes import ErrorCode
from .protocol.errors import EncodeError, FrameError
from .protocol.framing import (
    RequestError,
    decode_request,
    encode_response,
    read_request_header,
    unsupported_api_versions_response,
)
from .protocol.message import ApiMessage
from .protocol.messages import api_spec
from .security.acl import ResourceType
from .security.errors import IllegalSaslStateError, SaslAuthenticationError
from .security.principal import certificate_principal
from .security.sasl import SaslSession, SaslState
from .security.service import SASL_PROTOCOLS, SecurityService
from .server import BrokenRequestError, Buffers, ConnectionInfo, Outcome

if TYPE_CHECKING:
    from .broker import Broker

log = logging.getLogger(__name__)
_store_errors = StoreErrorLog(log)
#: How many distinct (client id, API key, version) refusals a dispatcher remembers having logged.
UNSERVED_LOG_LIMIT = 1024

#: What a response that does not fit its version raises: the generated codec's EncodeError, the hot
#: codecs' ValueError/OverflowError/TypeError, ``struct.error`` from a packer.
_ENCODE_FAILURES = (EncodeError, ValueError, OverflowError, TypeError, StructError)

ErrorListener = Callable[[int, int], None]


class RequestDispatcher:
    """The :class:`~rockafka.facade.server.RequestHandler` of a broker."""

    def __init__(self, broker: Broker, security: SecurityService | None = None) -> None:
        self._broker = broker
        if security is None and broker is not None:
            security = SecurityService(broker.config)
        self.security = security
        if security is not None and broker is not None and broker.clock is not REAL_CLOCK:
            security.session_clock = broker.clock.time  # simulated time (rockafka.testing)
        protocol_version = "3.9" if broker is None else broker.config.str(PROTOCOL_VERSION_SETTING)
        self._floors = version_floors(protocol_version)
        self._unserved_logged: set[tuple[str | None, int, int]] = set()
        self._debug = log.isEnabledFor(logging.DEBUG)
        """One DEBUG line per request (checked once: the level is set before the broker starts)."""
        self.on_error: ErrorListener | None = None
        """Told (API key, error code) of every request answered with an error as a whole (the metrics)."""

    def dispatch(self, frame: bytes, connection: ConnectionInfo) -> Outcome:
        sasl = connection.sasl
        if sasl is None and connection.security_protocol in SASL_PROTOCOLS:
            sasl = connection.sasl = None if self.security is None else self.security.session(connection.listener_name)
        if sasl is not None:
            if sasl.state is SaslState.LEGACY:
                return _legacy_token(sasl, frame, connection)
            _admit(sasl, frame)
        try:
            header, body = self._decode(frame)
        except FrameError as exc:
            raise BrokenRequestError(str(exc)) from None
        if isinstance(body, RequestError):
            return self._refuse(body)
        handler = HANDLERS.get(header.api_key)
        version = header.api_version
        if (
            handler is None
            or not handler.min_version <= version <= handler.max_version
            or (self._floors and self._below_floor(handler, version))  # empty under the default, 3.9
        ):
            if header.api_key == API_VERSIONS_KEY:
                return [encode_response(header, unsupported_api_versions_response(), 0)]
            self._refuse_unserved(header, connection)
        if self._debug:
            log.debug("request API %d v%d from %s (client %r, correlation %d)", header.api_key, header.api_version,
                      connection.peer, header.client_id, header.correlation_id)  # fmt: skip
        ctx = RequestContext(
            self._broker, connection, header.api_version, header.correlation_id, header.client_id, self.security
        )
        try:
            result = self._handle(handler, ctx, body)
        except BrokenRequestError:
            raise
        except Exception as exc:
            result = _failure_response(handler, header, body, exc, self.on_error)
        if result is None:
            return None
        if isinstance(result, Awaitable):
            finish = _finish(handler, header, body, result, self.on_error)
            return finish if handler.parks else asyncio.shield(finish)  # see ApiHandler.parks
        buffers = _encode(handler, header, body, result)
        if sasl is not None and sasl.close_reason is not None:
            raise BrokenRequestError(sasl.close_reason, buffers, sasl.settings.failure_delay_ms / 1000)
        return buffers

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        if self.security is None:
            return certificate_principal(peer_certificate)
        return self.security.ssl_principal(listener_name, peer_certificate)

    # --- for the fault injector (``faults.py``): never called on a broker without one ---

    def decode_body(self, frame: bytes) -> Any:
        """The request's body, or None when it does not decode (then dispatching it closes the connection)."""
        try:
            body = self._decode(frame)[1]
        except (FrameError, BrokenRequestError):
            return None
        return None if isinstance(body, RequestError) else body

    def error_answer(self, frame: bytes, code: ErrorCode) -> Buffers | None:
        """The request's error response with ``code`` instead of an answer; None for a request this broker would
        not answer at all (an unserved API or version, a body that does not decode)."""
        try:
            header, body = self._decode(frame)
        except (FrameError, BrokenRequestError):
            return None
        handler = HANDLERS.get(header.api_key)
        if handler is None or isinstance(body, RequestError):
            return None
        if not handler.min_version <= header.api_version <= handler.max_version:
            return None
        return _encode(handler, header, body, _error_response(handler, body, code))

    @staticmethod
    def client_id(frame: bytes) -> str | None:
        return read_request_header(frame).client_id

    @staticmethod
    def _handle(handler: ApiHandler, ctx: RequestContext, body: Any) -> Any:
        operation = CLUSTER_APIS.get(handler.api_key)
        if operation is not None and not ctx.authorize(operation, ResourceType.CLUSTER):
            raise ApiError(ErrorCode.CLUSTER_AUTHORIZATION_FAILED)
        return handler.handle(ctx, body)

    @staticmethod
    def _decode(frame: bytes) -> tuple[RequestHeader, Any]:
        """The header and the body (or the RequestError to answer), through a handler's hot decoder if it has one."""
        header = read_request_header(frame)
        handler = HANDLERS.get(header.api_key)
        served = handler is not None and handler.min_version <= header.api_version <= handler.max_version
        decode = handler.decode if served and handler is not None else None
        if decode is not None:
            try:
                return header, decode(memoryview(frame)[header.body_offset :], header.api_version)
            except KernelError as exc:
                raise BrokenRequestError(f"API {header.api_key} v{header.api_version}: {exc}") from None
        decoded = decode_request(frame)
        return header, decoded.body if not isinstance(decoded, RequestError) else decoded

    def _below_floor(self, handler: ApiHandler, version: int) -> bool:
        """True when ``rockafka.protocol.version`` raised the API's minimum above ``version``."""
        return version < served_range(handler, self._floors)[0]

    def _refuse_unserved(self, header: RequestHeader, connection: ConnectionInfo) -> NoReturn:
        """Close the connection of a request whose API or version is not served, logging it once per client id,
        API key and version."""
        reason = f"API {header.api_key} v{header.api_version} is not served (client {header.client_id!r})"
        seen = (header.client_id, header.api_key, header.api_version)
        first = seen not in self._unserved_logged and len(self._unserved_logged) < UNSERVED_LOG_LIMIT
        if first:
            self._unserved_logged.add(seen)
            log.warning(
                "closing connection from %s: %s; logged once per client and version",
                connection.peer,
                reason,
                extra={"deduplicated": True},  # not rate-limited again by the log handler (rockafka/logsetup.py)
            )
        raise BrokenRequestError(reason, logged=True)

    def _refuse(self, failed: RequestError) -> Outcome:
        header = failed.header
        if header.api_key == API_VERSIONS_KEY and failed.error_code == ErrorCode.UNSUPPORTED_VERSION:
            return [encode_response(header, unsupported_api_versions_response(), 0)]
        raise BrokenRequestError(f"request from {header.client_id!r} refused: {failed.error}")


def _admit(sasl: SaslSession, frame: bytes) -> None:
    """Close the connection for a request the SASL exchange does not admit now, or after the session expired."""
    if sasl.authenticated:
        if sasl.expired():
            raise BrokenRequestError("SASL session expired (connections.max.reauth.ms): re-authentication was due")
        return
    if len(frame) > sasl.settings.max_receive_size:
        raise BrokenRequestError(f"a {len(frame)}-byte frame before SASL authentication (sasl.server.max.receive.size)")
    try:
        sasl.admit(read_request_header(frame).api_key)
    except (IllegalSaslStateError, FrameError) as exc:
        raise BrokenRequestError(str(exc)) from None


def _legacy_token(sasl: SaslSession, frame: bytes, connection: ConnectionInfo) -> Buffers:
    """A raw SASL token (after SaslHandshake v0): the answer is a raw, size-prefixed token; failure closes."""
    try:
        answer = sasl.legacy_token(frame)
    except (SaslAuthenticationError, IllegalSaslStateError) as exc:
        delay_s = sasl.settings.failure_delay_ms / 1000
        raise BrokenRequestError(f"SASL authentication failed: {exc}", close_delay_s=delay_s) from None
    if sasl.authenticated and sasl.principal is not None:
        connection.principal = sasl.principal
    return [len(answer).to_bytes(4, "big") + answer]


async def _finish(
    handler: ApiHandler, header: RequestHeader, body: Any, pending: Awaitable[Any], on_error: ErrorListener | None
) -> Buffers | None:
    try:
        result = await pending
    except BrokenRequestError:
        raise
    except Exception as exc:
        result = _failure_response(handler, header, body, exc, on_error)
    return None if result is None else _encode(handler, header, body, result)


def _failure_response(
    handler: ApiHandler, header: RequestHeader, body: Any, exc: Exception, on_error: ErrorListener | None
) -> Any:
    """The error response for a handler that raised ``exc``: its ApiError's code, a store error's Kafka code
    (one WARNING per distinct error), or UNKNOWN_SERVER_ERROR for a bug (one ERROR line)."""
    if isinstance(exc, ApiError):
        code = exc.error_code
    elif isinstance(exc, StoreError):
        _store_errors.note(header.api_key, exc)
        code = store_error_code(exc)
    else:
        _log_failure(header, "failed", exc)
        code = ErrorCode.UNKNOWN_SERVER_ERROR
    if on_error is not None:
        on_error(handler.api_key, code)
    return _error_response(handler, body, code)


def _log_failure(header: RequestHeader, what: str, exc: BaseException) -> None:
    """One ERROR line for a bug met while serving a request; its traceback only at DEBUG."""
    log.error(
        "API %d v%d %s (client %r): %s: %s; answered with an error",
        header.api_key,
        header.api_version,
        what,
        header.client_id,
        type(exc).__name__,
        exc,
    )
    log.debug("API %d v%d %s", header.api_key, header.api_version, what, exc_info=exc)


def _error_response(handler: ApiHandler, body: Any, code: ErrorCode) -> Any:
    """The API's error response to ``body`` with ``code``; the minimal one when the API's own cannot be built."""
    if handler.error_response is None:
        raise BrokenRequestError(f"API {handler.api_key} failed with {code.name} and has no error response")
    try:
        return handler.error_response(body, code)
    except Exception as exc:  # an error builder that trips over a request it did not expect: still answer
        log.warning("API %d: its error response cannot be built (%s: %s)", handler.api_key, type(exc).__name__, exc)
        return _minimal_response(handler.api_key, code)


def _minimal_response(api_key: int, code: ErrorCode, version: int | None = None) -> Any:
    """The API's response with every field at its default and the top-level error code set where the API
    has one (at ``version``, when given: a field a version lacks must keep its default)."""
    response = api_spec(api_key).response()
    for info in response.FIELDS:
        if info.attr == "error_code" and (version is None or info.versions[0] <= version <= info.versions[1]):
            setattr(response, info.attr, code)
    return response


def _encode(handler: ApiHandler, header: RequestHeader, body: Any, result: Any) -> Buffers:
    """The response's frame; the API's error response, or the minimal response, when it does not encode."""
    try:
        return _frame(handler, header, result)
    except _ENCODE_FAILURES as exc:
        _log_failure(header, "response does not encode", exc)
    code = ErrorCode.UNKNOWN_SERVER_ERROR
    try:
        return _frame(handler, header, _error_response(handler, body, code))
    except _ENCODE_FAILURES as exc:
        log.warning(
            "API %d v%d: its error response does not encode either (%s)", header.api_key, header.api_version, exc
        )
    try:
        return [encode_response(header, _minimal_response(header.api_key, code, header.api_version))]
    except _ENCODE_FAILURES as exc:
        raise BrokenRequestError(f"API {header.api_key} v{header.api_version}: no response encodes: {exc}") from None


def _frame(handler: ApiHandler, header: RequestHeader, response: Any) -> Buffers:
    """``response`` framed: by the handler's hot encoder if it has one, else by the generated codec, which also
    frames the minimal response (a generated message: the last resort of every API, hot ones included)."""
    if handler.encode is not None and not isinstance(response, ApiMessage):
        return handler.encode(header.api_version, response, header.correlation_id)
    return [encode_response(header, response)]
