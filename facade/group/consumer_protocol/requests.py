"""What the consumer group coordinator takes in and hands out, independent of API versions."""

from __future__ import annotations

from dataclasses import dataclass

from rockafka.facade.protocol.error_codes import ErrorCode

from .model import Assignment


@dataclass(frozen=True, slots=True)
class HeartbeatRequest:
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None
    rack_id: str | None
    #: -1: unchanged since the last heartbeat.
    rebalance_timeout_ms: int
    #: None: unchanged since the last heartbeat.
    subscribed_topic_names: tuple[str, ...] | None
    subscribed_topic_regex: str | None
    server_assignor: str | None
    #: The partitions the member owns; None: unchanged since the last heartbeat.
    owned: Assignment | None
    client_id: str
    client_host: str
    #: ConsumerGroupHeartbeat v1+: the client makes its member id (KIP-1082); v0 lets the broker make it.
    client_makes_member_id: bool = True


@dataclass(frozen=True, slots=True)
class HeartbeatResult:
    error: ErrorCode
    message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    #: The member's partitions, when they changed or the request was a full one; else None.
    assignment: Assignment | None = None


class HeartbeatRefused(Exception):
    """A heartbeat answered with an error (the coordinator's checks raise it; the handler answers the code)."""

    def __init__(self, error: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message
