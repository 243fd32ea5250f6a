"""What the group coordinator takes in and hands out: typed requests and results, independent of API versions.

Handlers translate each Kafka request version into these and back; the coordinator never sees wire
messages. Error codes are Kafka's (:class:`ErrorCode`); ``NONE`` means success.
"""

from __future__ import annotations

from dataclasses import dataclass

from rockafka.facade.protocol.error_codes import ErrorCode

#: A member's supported protocols, in its order of preference: (protocol name, member metadata).
Protocols = tuple[tuple[str, bytes], ...]

#: Kafka's "no generation": simple (memberless) offset commits carry it.
NO_GENERATION = -1
UNKNOWN_MEMBER_ID = ""


@dataclass(frozen=True, slots=True)
class JoinRequest:
    group_id: str
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    protocol_type: str
    protocols: Protocols
    #: JoinGroup v4+: an unknown member first gets MEMBER_ID_REQUIRED with its new id (KIP-394).
    require_known_member_id: bool
    #: JoinGroup v9+: a static leader rejoining a stable group may be told to skip the assignment (KIP-814).
    supports_skip_assignment: bool = False
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class JoinedMember:
    """One member as the leader sees it in its JoinGroup response: the metadata of the selected protocol."""

    member_id: str
    group_instance_id: str | None
    metadata: bytes


@dataclass(frozen=True, slots=True)
class JoinResult:
    error: ErrorCode
    member_id: str
    generation_id: int = NO_GENERATION
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader_id: str = ""
    #: Every member, for the leader only; empty for followers.
    members: tuple[JoinedMember, ...] = ()
    skip_assignment: bool = False


@dataclass(frozen=True, slots=True)
class SyncRequest:
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    #: SyncGroup v5+ names them; None when the request version does not carry them.
    protocol_type: str | None
    protocol_name: str | None
    #: The leader's assignments, member id -> assignment bytes (empty from followers).
    assignments: dict[str, bytes]


@dataclass(frozen=True, slots=True)
class SyncResult:
    error: ErrorCode
    assignment: bytes = b""
    protocol_type: str | None = None
    protocol_name: str | None = None


@dataclass(frozen=True, slots=True)
class LeavingMember:
    member_id: str
    group_instance_id: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class LeaveResult:
    error: ErrorCode
    #: Per member, in request order: (member id, group instance id, error).
    members: tuple[tuple[str, str | None, ErrorCode], ...]


@dataclass(frozen=True, slots=True)
class CommitRequest:
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    #: OffsetCommit v9+ answers GROUP_ID_NOT_FOUND (not ILLEGAL_GENERATION) for an unknown group, and carries a
    #: member epoch as its generation for a KIP-848 consumer group (``consumer_protocol``).
    group_not_found_error: bool = False


@dataclass(frozen=True, slots=True)
class FetchedOffset:
    topic: str
    partition: int
    #: -1 when the group has committed nothing for this partition (Kafka's "no offset").
    offset: int
    leader_epoch: int
    metadata: str
    error: ErrorCode = ErrorCode.NONE


@dataclass(frozen=True, slots=True)
class DescribedMember:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    #: Subscription and assignment: filled only while the group is Stable, as Kafka does.
    metadata: bytes
    assignment: bytes


@dataclass(frozen=True, slots=True)
class GroupDescription:
    group_id: str
    error: ErrorCode
    state: str
    protocol_type: str
    #: The selected protocol while Stable, else "".
    protocol: str
    members: tuple[DescribedMember, ...]


@dataclass(frozen=True, slots=True)
class GroupListing:
    group_id: str
    protocol_type: str
    state: str
    group_type: str = "classic"
