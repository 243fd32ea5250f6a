# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 LeaveGroupRequest.json, LeaveGroupResponse.json - DO NOT EDIT; make gen-protocol
"""LeaveGroup (API key 13): LeaveGroupRequest and LeaveGroupResponse, versions 0-5."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_string, write_struct_array, write_tagged_fields


class LeaveGroupRequest(ApiMessage):
    """LeaveGroupRequest, versions 0-5, flexible from 4."""

    API_KEY = 13
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 4
    __slots__ = ("group_id", "member_id", "members", "unknown_tagged_fields",)
    group_id: str
    member_id: str
    members: list[MemberIdentity]

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        members: list[MemberIdentity] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.members = [] if members is DEFAULT else members
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.group_id, flexible)
        if version <= 2:
            write_string(out, self.member_id, False)
        elif version > 2 and self.member_id != "":
            raise absent_field(self, "member_id", version)
        if version >= 3:
            write_struct_array(out, self.members, version, flexible)
        elif version < 3 and self.members != []:
            raise absent_field(self, "members", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.group_id = r.string(flexible)
        self.member_id = r.string(False) if version <= 2 else ""
        self.members = r.struct_array(MemberIdentity.read, version, flexible) if version >= 3 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaveGroupResponse(ApiMessage):
    """LeaveGroupResponse, versions 0-5, flexible from 4."""

    API_KEY = 13
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 4
    __slots__ = ("throttle_time_ms", "error_code", "members", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    members: list[MemberResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        members: list[MemberResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.members = [] if members is DEFAULT else members
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        out += pack_int16(self.error_code)
        if version >= 3:
            write_struct_array(out, self.members, version, flexible)
        elif version < 3 and self.members != []:
            raise absent_field(self, "members", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.error_code = r.int16()
        self.members = r.struct_array(MemberResponse.read, version, flexible) if version >= 3 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MemberIdentity(Struct):
    """MemberIdentity of LeaveGroupRequest (in versions 3-5)."""

    __slots__ = ("member_id", "group_instance_id", "reason", "unknown_tagged_fields",)
    member_id: str
    group_instance_id: str | None
    reason: str | None

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        reason: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.reason = reason
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.member_id, flexible)
        write_string(out, self.group_instance_id, flexible, True)
        if version >= 5:
            write_string(out, self.reason, True, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.member_id = r.string(flexible)
        self.group_instance_id = r.nullable_string(flexible)
        self.reason = r.nullable_string(True) if version >= 5 else None
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MemberResponse(Struct):
    """MemberResponse of LeaveGroupResponse (in versions 3-5)."""

    __slots__ = ("member_id", "group_instance_id", "error_code", "unknown_tagged_fields",)
    member_id: str
    group_instance_id: str | None
    error_code: int

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = "",
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.member_id, flexible)
        write_string(out, self.group_instance_id, flexible, True)
        out += pack_int16(self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.member_id = r.string(flexible)
        self.group_instance_id = r.nullable_string(flexible)
        self.error_code = r.int16()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


LeaveGroupRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 2), None, None, None, False, None),
    FieldInfo("members", "Members", "[]MemberIdentity", (3, 32767), None, None, None, False, MemberIdentity),
)
LeaveGroupResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("members", "Members", "[]MemberResponse", (3, 32767), None, None, None, False, MemberResponse),
)
MemberIdentity.FIELDS = (
    FieldInfo("member_id", "MemberId", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("reason", "Reason", "string", (5, 32767), (5, 32767), None, None, True, None),
)
MemberResponse.FIELDS = (
    FieldInfo("member_id", "MemberId", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (3, 32767), None, None, None, False, None),
)


__all__ = [
    "LeaveGroupRequest",
    "LeaveGroupResponse",
    "MemberIdentity",
    "MemberResponse",
]
