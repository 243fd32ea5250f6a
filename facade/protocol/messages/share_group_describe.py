# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 newer_specs/ShareGroupDescribeRequest.json, newer_specs/ShareGroupDescribeResponse.json - DO NOT EDIT; make gen-protocol
"""ShareGroupDescribe (API key 77): ShareGroupDescribeRequest and ShareGroupDescribeResponse, versions 1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int16, pack_int32, write_int_array, write_string, write_string_array, write_struct_array, write_tagged_fields

_S1 = _Struct(">ii")


class ShareGroupDescribeRequest(ApiMessage):
    """ShareGroupDescribeRequest, versions 1, flexible from 1."""

    API_KEY = 77
    IS_REQUEST = True
    MIN_VERSION = 1
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("group_ids", "include_authorized_operations", "unknown_tagged_fields",)
    group_ids: list[str]
    include_authorized_operations: bool

    def __init__(
        self,
        *,
        group_ids: list[str] = DEFAULT,
        include_authorized_operations: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_ids = [] if group_ids is DEFAULT else group_ids
        self.include_authorized_operations = include_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string_array(out, self.group_ids, True)
        out += pack_bool(self.include_authorized_operations)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_ids = r.string_array(True)
        self.include_authorized_operations = r.boolean()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ShareGroupDescribeResponse(ApiMessage):
    """ShareGroupDescribeResponse, versions 1, flexible from 1."""

    API_KEY = 77
    IS_REQUEST = False
    MIN_VERSION = 1
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("throttle_time_ms", "groups", "unknown_tagged_fields",)
    throttle_time_ms: int
    groups: list[DescribedGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        groups: list[DescribedGroup] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is DEFAULT else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.groups, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms = r.int32()
        self.groups = r.struct_array(DescribedGroup.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribedGroup(Struct):
    """DescribedGroup of ShareGroupDescribeResponse (in versions 1)."""

    __slots__ = ("error_code", "error_message", "group_id", "group_state", "group_epoch", "assignment_epoch", "assignor_name", "members", "authorized_operations", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    group_id: str
    group_state: str
    group_epoch: int
    assignment_epoch: int
    assignor_name: str
    members: list[Member]
    authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = None,
        group_id: str = "",
        group_state: str = "",
        group_epoch: int = 0,
        assignment_epoch: int = 0,
        assignor_name: str = "",
        members: list[Member] = DEFAULT,
        authorized_operations: int = -2147483648,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.assignor_name = assignor_name
        self.members = [] if members is DEFAULT else members
        self.authorized_operations = authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, True, True)
        write_string(out, self.group_id, True)
        write_string(out, self.group_state, True)
        out += _S1.pack(self.group_epoch, self.assignment_epoch)
        write_string(out, self.assignor_name, True)
        write_struct_array(out, self.members, version, True)
        out += pack_int32(self.authorized_operations)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True)
        self.group_id = r.string(True)
        self.group_state = r.string(True)
        self.group_epoch, self.assignment_epoch = r.fixed(_S1)
        self.assignor_name = r.string(True)
        self.members = r.struct_array(Member.read, version, True)
        self.authorized_operations = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Member(Struct):
    """Member of ShareGroupDescribeResponse (in versions 1)."""

    __slots__ = ("member_id", "rack_id", "member_epoch", "client_id", "client_host", "subscribed_topic_names", "assignment", "unknown_tagged_fields",)
    member_id: str
    rack_id: str | None
    member_epoch: int
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    assignment: Assignment

    def __init__(
        self,
        *,
        member_id: str = "",
        rack_id: str | None = None,
        member_epoch: int = 0,
        client_id: str = "",
        client_host: str = "",
        subscribed_topic_names: list[str] = DEFAULT,
        assignment: Assignment = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.member_id = member_id
        self.rack_id = rack_id
        self.member_epoch = member_epoch
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is DEFAULT else subscribed_topic_names
        self.assignment = Assignment() if assignment is DEFAULT else assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.member_id, True)
        write_string(out, self.rack_id, True, True)
        out += pack_int32(self.member_epoch)
        write_string(out, self.client_id, True)
        write_string(out, self.client_host, True)
        write_string_array(out, self.subscribed_topic_names, True)
        self.assignment.write(out, version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.member_id = r.string(True)
        self.rack_id = r.nullable_string(True)
        self.member_epoch = r.int32()
        self.client_id = r.string(True)
        self.client_host = r.string(True)
        self.subscribed_topic_names = r.string_array(True)
        self.assignment = Assignment.read(r, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Assignment(Struct):
    """Assignment of ShareGroupDescribeResponse (in versions 1)."""

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
    """TopicPartitions of ShareGroupDescribeResponse (in versions 1)."""

    __slots__ = ("topic_id", "topic_name", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    topic_name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        topic_name: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_string(out, self.topic_name, True)
        write_int_array(out, "i", self.partitions, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.topic_name = r.string(True)
        self.partitions = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ShareGroupDescribeRequest.FIELDS = (
    FieldInfo("group_ids", "GroupIds", "[]string", (0, 32767), None, None, None, False, None),
    FieldInfo("include_authorized_operations", "IncludeAuthorizedOperations", "bool", (0, 32767), None, None, None, False, None),
)
ShareGroupDescribeResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("groups", "Groups", "[]DescribedGroup", (0, 32767), None, None, None, False, DescribedGroup),
)
DescribedGroup.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_state", "GroupState", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_epoch", "GroupEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("assignment_epoch", "AssignmentEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("assignor_name", "AssignorName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("members", "Members", "[]Member", (0, 32767), None, None, None, False, Member),
    FieldInfo("authorized_operations", "AuthorizedOperations", "int32", (0, 32767), None, None, None, False, None),
)
Member.FIELDS = (
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("rack_id", "RackId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("member_epoch", "MemberEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("client_id", "ClientId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("client_host", "ClientHost", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("subscribed_topic_names", "SubscribedTopicNames", "[]string", (0, 32767), None, None, None, False, None),
    FieldInfo("assignment", "Assignment", "Assignment", (0, 32767), None, None, None, False, Assignment),
)
Assignment.FIELDS = (
    FieldInfo("topic_partitions", "TopicPartitions", "[]TopicPartitions", (0, 32767), None, None, None, False, TopicPartitions),
)
TopicPartitions.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "Assignment",
    "DescribedGroup",
    "Member",
    "ShareGroupDescribeRequest",
    "ShareGroupDescribeResponse",
    "TopicPartitions",
]
