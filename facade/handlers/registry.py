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

#: ``rockafka.protocol.version``: the Kafka release whose client protocol versions the broker serves. Named after
#: Kafka's ``inter.broker.protocol.version``. 3.9 (the default): every version Kafka 3.9 serves, the oldest
#: ones included (Produce v0-2 and Fetch v0-3 with their message formats converted). 4.0: Kafka 4.0's ranges.
PROTOCOL_VERSION_SETTING: Final = "rockafka.protocol.version"
PROTOCOL_VERSIONS: Final = ("3.9", "4.0")

#: The first version Kafka 4.0 serves of each API whose oldest versions it removed (KIP-896), by API key:
#: Produce, Fetch, ListOffsets, OffsetCommit, OffsetFetch, JoinGroup, CreateTopics, DeleteTopics,
#: OffsetForLeaderEpoch, Describe/Create/DeleteAcls, DescribeConfigs, AlterReplicaLogDirs, DescribeLogDirs. Every
#: other API keeps its Kafka 3.9 range.
KAFKA_4_0_MINIMUMS: Final[dict[int, int]] = {
    0: 3, 1: 4, 2: 1, 8: 2, 9: 1, 11: 2, 19: 2, 20: 1, 23: 2, 29: 1, 30: 1, 31: 1, 32: 1, 34: 1, 35: 1,
}  # fmt: skip


def version_floors(protocol_version: str) -> dict[int, int]:
    """The raised minimum versions under ``rockafka.protocol.version`` (none at 3.9)."""
    return dict(KAFKA_4_0_MINIMUMS) if protocol_version == "4.0" else {}


def served_range(handler: ApiHandler, floors: dict[int, int]) -> tuple[int, int]:
    """The versions of ``handler``'s API served under ``floors`` (the range may be empty: min > max)."""
    return max(handler.min_version, floors.get(handler.api_key, 0)), handler.max_version


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
