"""What a handler receives besides its request, and the one error it raises for a whole-request failure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rockafka.facade.protocol.error_codes import ErrorCode

if TYPE_CHECKING:
    from rockafka.facade.broker import Broker
    from rockafka.facade.server import ConnectionInfo


class ApiError(Exception):
    """A request that fails as a whole with Kafka error ``error_code`` (answered, not disconnected)."""

    def __init__(self, error_code: ErrorCode, message: str | None = None) -> None:
        super().__init__(message or error_code.name)
        self.error_code = error_code
        self.message = message


@dataclass(frozen=True, slots=True)
class RequestContext:
    """The broker, the connection and the header fields a handler may need."""

    broker: Broker
    connection: ConnectionInfo
    api_version: int
    correlation_id: int
    client_id: str | None
