# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeGroupsRequest.json, DescribeGroupsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeGroups (API key 15): DescribeGroupsRequest and DescribeGroupsResponse, versions 0-5."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int16, pack_int32, write_bytes, write_string, write_string_array, write_struct_array, write_tagged_fields


class DescribeGroupsRequest(ApiMessage):
    """DescribeGroupsRequest, versions 0-5, flexible from 5."""

    API_KEY = 15
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 5
    __slots__ = ("groups", "include_authorized_operations", "unknown_tagged_fields",)
    groups: list[str]
    include_authorized_operations: bool

    def __init__(
        self,
        *,
        groups: list[str] = DEFAULT,
        include_authorized_operations: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.groups = [] if groups is DEFAULT else groups
        self.include_authorized_operations = include_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        write_string_array(out, self.groups, flexible)
        if version >= 3:
            out += pack_bool(self.include_authorized_operations)
        elif version < 3 and self.include_authorized_operations != False:
            raise absent_field(self, "include_authorized_operations", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.groups = r.string_array(flexible)
        self.include_authorized_operations = r.boolean() if version >= 3 else False
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeGroupsResponse(ApiMessage):
    """DescribeGroupsResponse, versions 0-5, flexible from 5."""

    API_KEY = 15
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 5
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
        flexible = version >= 5
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.groups, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.groups = r.struct_array(DescribedGroup.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribedGroup(Struct):
    """DescribedGroup of DescribeGroupsResponse (in versions 0-5)."""

    __slots__ = ("error_code", "group_id", "group_state", "protocol_type", "protocol_data", "members", "authorized_operations", "unknown_tagged_fields",)
    error_code: int
    group_id: str
    group_state: str
    protocol_type: str
    protocol_data: str
    members: list[DescribedGroupMember]
    authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        group_id: str = "",
        group_state: str = "",
        protocol_type: str = "",
        protocol_data: str = "",
        members: list[DescribedGroupMember] = DEFAULT,
        authorized_operations: int = -2147483648,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.group_id = group_id
        self.group_state = group_state
        self.protocol_type = protocol_type
        self.protocol_data = protocol_data
        self.members = [] if members is DEFAULT else members
        self.authorized_operations = authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        out += pack_int16(self.error_code)
        write_string(out, self.group_id, flexible)
        write_string(out, self.group_state, flexible)
        write_string(out, self.protocol_type, flexible)
        write_string(out, self.protocol_data, flexible)
        write_struct_array(out, self.members, version, flexible)
        if version >= 3:
            out += pack_int32(self.authorized_operations)
        elif version < 3 and self.authorized_operations != -2147483648:
            raise absent_field(self, "authorized_operations", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.error_code = r.int16()
        self.group_id = r.string(flexible)
        self.group_state = r.string(flexible)
        self.protocol_type = r.string(flexible)
        self.protocol_data = r.string(flexible)
        self.members = r.struct_array(DescribedGroupMember.read, version, flexible)
        self.authorized_operations = r.int32() if version >= 3 else -2147483648
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribedGroupMember(Struct):
    """DescribedGroupMember of DescribeGroupsResponse (in versions 0-5)."""

    __slots__ = ("member_id", "group_instance_id", "client_id", "client_host", "member_metadata", "member_assignment", "unknown_tagged_fields",)
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    member_metadata: bytes
    member_assignment: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        client_id: str = "",
        client_host: str = "",
        member_metadata: bytes = b"",
        member_assignment: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.member_metadata = member_metadata
        self.member_assignment = member_assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        write_string(out, self.member_id, flexible)
        if version >= 4:
            write_string(out, self.group_instance_id, flexible, True)
        write_string(out, self.client_id, flexible)
        write_string(out, self.client_host, flexible)
        write_bytes(out, self.member_metadata, flexible)
        write_bytes(out, self.member_assignment, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.member_id = r.string(flexible)
        self.group_instance_id = r.nullable_string(flexible) if version >= 4 else None
        self.client_id = r.string(flexible)
        self.client_host = r.string(flexible)
        self.member_metadata = r.binary(flexible)
        self.member_assignment = r.binary(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DescribeGroupsRequest.FIELDS = (
    FieldInfo("groups", "Groups", "[]string", (0, 32767), None, None, None, False, None),
    FieldInfo("include_authorized_operations", "IncludeAuthorizedOperations", "bool", (3, 32767), None, None, None, False, None),
)
DescribeGroupsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("groups", "Groups", "[]DescribedGroup", (0, 32767), None, None, None, False, DescribedGroup),
)
DescribedGroup.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_state", "GroupState", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("protocol_type", "ProtocolType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("protocol_data", "ProtocolData", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("members", "Members", "[]DescribedGroupMember", (0, 32767), None, None, None, False, DescribedGroupMember),
    FieldInfo("authorized_operations", "AuthorizedOperations", "int32", (3, 32767), None, None, None, False, None),
)
DescribedGroupMember.FIELDS = (
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (4, 32767), (4, 32767), None, None, True, None),
    FieldInfo("client_id", "ClientId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("client_host", "ClientHost", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("member_metadata", "MemberMetadata", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("member_assignment", "MemberAssignment", "bytes", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribeGroupsRequest",
    "DescribeGroupsResponse",
    "DescribedGroup",
    "DescribedGroupMember",
]
