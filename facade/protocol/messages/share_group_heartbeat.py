# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 newer_specs/ShareGroupHeartbeatRequest.json, newer_specs/ShareGroupHeartbeatResponse.json - DO NOT EDIT; make gen-protocol
"""ShareGroupHeartbeat (API key 76): ShareGroupHeartbeatRequest and ShareGroupHeartbeatResponse, versions 1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_int32, write_int_array, write_string, write_string_array, write_struct, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">ii")


class ShareGroupHeartbeatRequest(ApiMessage):
    """ShareGroupHeartbeatRequest, versions 1, flexible from 1."""

    API_KEY = 76
    IS_REQUEST = True
    MIN_VERSION = 1
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("group_id", "member_id", "member_epoch", "rack_id", "subscribed_topic_names", "unknown_tagged_fields",)
    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: list[str] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        member_epoch: int = 0,
        rack_id: str | None = None,
        subscribed_topic_names: list[str] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.rack_id = rack_id
        self.subscribed_topic_names = None if subscribed_topic_names is DEFAULT else subscribed_topic_names
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True)
        write_string(out, self.member_id, True)
        out += pack_int32(self.member_epoch)
        write_string(out, self.rack_id, True, True)
        write_string_array(out, self.subscribed_topic_names, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(True)
        self.member_id = r.string(True)
        self.member_epoch = r.int32()
        self.rack_id = r.nullable_string(True)
        self.subscribed_topic_names = r.nullable_string_array(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ShareGroupHeartbeatResponse(ApiMessage):
    """ShareGroupHeartbeatResponse, versions 1, flexible from 1."""

    API_KEY = 76
    IS_REQUEST = False
    MIN_VERSION = 1
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "member_id", "member_epoch", "heartbeat_interval_ms", "assignment", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: Assignment | None

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        member_id: str | None = None,
        member_epoch: int = 0,
        heartbeat_interval_ms: int = 0,
        assignment: Assignment | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_string(out, self.member_id, True, True)
        out += _S2.pack(self.member_epoch, self.heartbeat_interval_ms)
        write_struct(out, self.assignment, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.member_id = r.nullable_string(True)
        self.member_epoch, self.heartbeat_interval_ms = r.fixed(_S2)
        self.assignment = r.nullable_struct(Assignment.read, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Assignment(Struct):
    """Assignment of ShareGroupHeartbeatResponse (in versions 1)."""

    __slots__ = ("topic_partitions", "unknown_tagged_fields",)
    topic_partitions: list[TopicPartitions]

    def __init__(
        self,
        *,
        topic_partitions: list[TopicPartitions] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_partitions = [] if topic_partitions is DEFAULT else topic_partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.topic_partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_partitions = r.struct_array(TopicPartitions.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TopicPartitions(Struct):
    """TopicPartitions of ShareGroupHeartbeatResponse (in versions 1)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_int_array(out, "i", self.partitions, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partitions = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ShareGroupHeartbeatRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("member_epoch", "MemberEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("rack_id", "RackId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("subscribed_topic_names", "SubscribedTopicNames", "[]string", (0, 32767), (0, 32767), None, None, False, None),
)
ShareGroupHeartbeatResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("member_epoch", "MemberEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("heartbeat_interval_ms", "HeartbeatIntervalMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("assignment", "Assignment", "Assignment", (0, 32767), (0, 32767), None, None, False, Assignment),
)
Assignment.FIELDS = (
    FieldInfo("topic_partitions", "TopicPartitions", "[]TopicPartitions", (0, 32767), None, None, None, False, TopicPartitions),
)
TopicPartitions.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "Assignment",
    "ShareGroupHeartbeatRequest",
    "ShareGroupHeartbeatResponse",
    "TopicPartitions",
]
