"""ApiVersions v0-4: the API keys and version ranges this broker serves, read from the handler registry.

Version notes: v3+ requests carry the client's software name and version (not checked); the response
header is always v0 (handled by the codec). The SupportedFeatures/FinalizedFeatures tagged fields are
left empty: nothing here is feature-gated, and older librdkafka (kcat 1.7) cannot parse them.
The ranges are Kafka 3.9's, or Kafka 4.0's under ``rockafka.protocol.version=4.0`` (``registry.version_floors``).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.api_versions import ApiVersion, ApiVersionsRequest, ApiVersionsResponse

from .context import RequestContext
from .registry import HANDLERS, PROTOCOL_VERSION_SETTING, register, served_range, version_floors


def _error(request: ApiVersionsRequest, code: ErrorCode) -> ApiVersionsResponse:
    return ApiVersionsResponse(error_code=code)


@register(18, 0, 4, _error)
def handle(ctx: RequestContext, request: ApiVersionsRequest) -> ApiVersionsResponse:
    return served_api_versions(version_floors(ctx.broker.config.str(PROTOCOL_VERSION_SETTING)))


def served_api_versions(floors: dict[int, int] | None = None) -> ApiVersionsResponse:
    """The answer every ApiVersions request gets: each API key served and its version range (``floors``: the
    minimums ``rockafka.protocol.version`` raises)."""
    keys = [
        ApiVersion(api_key=key, min_version=low, max_version=high)
        for key, handler in sorted(HANDLERS.items())
        for low, high in [served_range(handler, floors or {})]
    ]
    return ApiVersionsResponse(error_code=ErrorCode.NONE, api_keys=keys, throttle_time_ms=0)
