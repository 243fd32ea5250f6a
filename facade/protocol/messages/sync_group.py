# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 SyncGroupRequest.json, SyncGroupResponse.json - DO NOT EDIT; make gen-protocol
"""SyncGroup (API key 14): SyncGroupRequest and SyncGroupResponse, versions 0-5."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_bytes, write_string, write_struct_array, write_tagged_fields


class SyncGroupRequest(ApiMessage):
    """SyncGroupRequest, versions 0-5, flexible from 4."""

    API_KEY = 14
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 4
    __slots__ = ("group_id", "generation_id", "member_id", "group_instance_id", "protocol_type", "protocol_name", "assignments", "unknown_tagged_fields",)
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str | None
    protocol_name: str | None
    assignments: list[SyncGroupRequestAssignment]

    def __init__(
        self,
        *,
        group_id: str = "",
        generation_id: int = 0,
        member_id: str = "",
        group_instance_id: str | None = None,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        assignments: list[SyncGroupRequestAssignment] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignments = [] if assignments is DEFAULT else assignments
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.group_id, flexible)
        out += pack_int32(self.generation_id)
        write_string(out, self.member_id, flexible)
        if version >= 3:
            write_string(out, self.group_instance_id, flexible, True)
        elif version < 3 and self.group_instance_id is not None:
            raise absent_field(self, "group_instance_id", version)
        if version >= 5:
            write_string(out, self.protocol_type, True, True)
        if version >= 5:
            write_string(out, self.protocol_name, True, True)
        write_struct_array(out, self.assignments, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.group_id = r.string(flexible)
        self.generation_id = r.int32()
        self.member_id = r.string(flexible)
        self.group_instance_id = r.nullable_string(flexible) if version >= 3 else None
        self.protocol_type = r.nullable_string(True) if version >= 5 else None
        self.protocol_name = r.nullable_string(True) if version >= 5 else None
        self.assignments = r.struct_array(SyncGroupRequestAssignment.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class SyncGroupResponse(ApiMessage):
    """SyncGroupResponse, versions 0-5, flexible from 4."""

    API_KEY = 14
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 4
    __slots__ = ("throttle_time_ms", "error_code", "protocol_type", "protocol_name", "assignment", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    protocol_type: str | None
    protocol_name: str | None
    assignment: bytes

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        assignment: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignment = assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        out += pack_int16(self.error_code)
        if version >= 5:
            write_string(out, self.protocol_type, True, True)
        if version >= 5:
            write_string(out, self.protocol_name, True, True)
        write_bytes(out, self.assignment, flexible)
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
        self.protocol_type = r.nullable_string(True) if version >= 5 else None
        self.protocol_name = r.nullable_string(True) if version >= 5 else None
        self.assignment = r.binary(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class SyncGroupRequestAssignment(Struct):
    """SyncGroupRequestAssignment of SyncGroupRequest (in versions 0-5)."""

    __slots__ = ("member_id", "assignment", "unknown_tagged_fields",)
    member_id: str
    assignment: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        assignment: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.member_id = member_id
        self.assignment = assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.member_id, flexible)
        write_bytes(out, self.assignment, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.member_id = r.string(flexible)
        self.assignment = r.binary(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


SyncGroupRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("generation_id", "GenerationId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("protocol_type", "ProtocolType", "string", (5, 32767), (5, 32767), None, None, True, None),
    FieldInfo("protocol_name", "ProtocolName", "string", (5, 32767), (5, 32767), None, None, True, None),
    FieldInfo("assignments", "Assignments", "[]SyncGroupRequestAssignment", (0, 32767), None, None, None, False, SyncGroupRequestAssignment),
)
SyncGroupResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("protocol_type", "ProtocolType", "string", (5, 32767), (5, 32767), None, None, True, None),
    FieldInfo("protocol_name", "ProtocolName", "string", (5, 32767), (5, 32767), None, None, True, None),
    FieldInfo("assignment", "Assignment", "bytes", (0, 32767), None, None, None, False, None),
)
SyncGroupRequestAssignment.FIELDS = (
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("assignment", "Assignment", "bytes", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "SyncGroupRequest",
    "SyncGroupRequestAssignment",
    "SyncGroupResponse",
]
