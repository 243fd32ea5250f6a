"""What the codec knows about one API key (:class:`ApiSpec`), and the header-version rules of the protocol.

Header versions follow from the body version:

- request header v2 for flexible request versions, v0 for ControlledShutdown v0 only, v1 otherwise;
- response header v1 for flexible response versions, v0 otherwise, and **always v0 for ApiVersions**
  (a client must read the response header before it knows which versions the broker speaks).

The registry of every API key, ``API_SPECS``, is generated into :mod:`rockafka.facade.protocol.messages`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .message import ApiMessage

API_VERSIONS_KEY: Final[int] = 18
CONTROLLED_SHUTDOWN_KEY: Final[int] = 7


@dataclass(frozen=True, slots=True)
class ApiSpec:
    """One API key: its message classes, valid versions and first flexible versions."""

    api_key: int
    name: str
    request: type[ApiMessage]
    response: type[ApiMessage]
    min_version: int
    max_version: int
    request_flexible_from: int | None
    response_flexible_from: int | None
    latest_version_unstable: bool

    def supports(self, version: int) -> bool:
        """True when ``version`` is one of the API's valid versions."""
        return self.min_version <= version <= self.max_version

    def request_header_version(self, version: int) -> int:
        """The request header version that a request of this API at ``version`` carries."""
        if self.api_key == CONTROLLED_SHUTDOWN_KEY and version == 0:
            return 0
        if self.request_flexible_from is not None and version >= self.request_flexible_from:
            return 2
        return 1

    def response_header_version(self, version: int) -> int:
        """The response header version of this API's response at ``version`` (always 0 for ApiVersions)."""
        if self.api_key == API_VERSIONS_KEY:
            return 0
        if self.response_flexible_from is not None and version >= self.response_flexible_from:
            return 1
        return 0


__all__ = ["API_VERSIONS_KEY", "CONTROLLED_SHUTDOWN_KEY", "ApiSpec"]
