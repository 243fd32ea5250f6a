"""The registry of API handlers: each handler module declares its API key and version range here.

ApiVersions answers from this registry, so what is advertised is exactly what has a handler.
Registering one API key twice is a programming error and fails at import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from rockafka.facade.protocol.error_codes import ErrorCode

HandleFunc = Callable[[Any, Any], Any]
DecodeFunc = Callable[[memoryview, int], Any]
EncodeFunc = Callable[[int, Any, int], list[Any]]
ErrorResponseFunc = Callable[[Any, ErrorCode], Any]


@dataclass(frozen=True, slots=True)
class ApiHandler:
    """One API's handler: ``handle(ctx, request)`` returns a response, an awaitable of one, or None (no reply).

    ``error_response(request, error_code)`` builds the response Kafka sends when the whole request fails.
    ``decode(body, version)``, when given, replaces the generated codec for the request body (the hot codec's
    decoder); it raises a :class:`~rockafka.core_pyx.errors.KernelError` for a body that does not parse.
    ``encode(version, response, correlation_id)``, when given, replaces it for the response: the handler then
    answers the hot codec's values (``rockafka.core_pyx.hotcodec``), its error response too, and ``encode``
    returns the whole frame as buffers to write back to back.

    ``parks``: the handler's awaitable only waits (a long-poll fetch, a group join or sync) and may be cancelled
    when its client leaves. Any other awaitable runs to its end when its client leaves (the answer is dropped):
    cancelled between two of its steps, a handler that changes state (EndTxn saving PrepareCommit, then writing
    markers) would leave that state half changed.
    """

    api_key: int
    min_version: int
    max_version: int
    handle: HandleFunc
    error_response: ErrorResponseFunc | None
    decode: DecodeFunc | None = None
    encode: EncodeFunc | None = None
    parks: bool = False


HANDLERS: Final[dict[int, ApiHandler]] = {}


def register(
    api_key: int,
    min_version: int,
    max_version: int,
    error_response: ErrorResponseFunc | None = None,
    *,
    decode: DecodeFunc | None = None,
    encode: EncodeFunc | None = None,
    parks: bool = False,
) -> Callable[[HandleFunc], HandleFunc]:
    """Class the decorated function as the handler of ``api_key`` for versions ``min_version..max_version``."""

    def decorate(handle: HandleFunc) -> HandleFunc:
        if api_key in HANDLERS:
            raise RuntimeError(f"API key {api_key} already has a handler ({HANDLERS[api_key].handle.__module__})")
        if min_version > max_version:
            raise RuntimeError(f"API key {api_key}: empty version range {min_version}..{max_version}")
        HANDLERS[api_key] = ApiHandler(api_key, min_version, max_version, handle, error_response, decode, encode, parks)
        return handle

    return decorate
