# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 JoinGroupRequest.json, JoinGroupResponse.json - DO NOT EDIT; make gen-protocol
"""JoinGroup (API key 11): JoinGroupRequest and JoinGroupResponse, versions 0-9."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int32, write_bytes, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">hi")


class JoinGroupRequest(ApiMessage):
    """JoinGroupRequest, versions 0-9, flexible from 6."""

    API_KEY = 11
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 9
    FLEXIBLE_FROM = 6
    __slots__ = ("group_id", "session_timeout_ms", "rebalance_timeout_ms", "member_id", "group_instance_id", "protocol_type", "protocols", "reason", "unknown_tagged_fields",)
    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str
    protocols: list[JoinGroupRequestProtocol]
    reason: str | None

    def __init__(
        self,
        *,
        group_id: str = "",
        session_timeout_ms: int = 0,
        rebalance_timeout_ms: int = -1,
        member_id: str = "",
        group_instance_id: str | None = None,
        protocol_type: str = "",
        protocols: list[JoinGroupRequestProtocol] = DEFAULT,
        reason: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocols = [] if protocols is DEFAULT else protocols
        self.reason = reason
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.group_id, flexible)
        out += pack_int32(self.session_timeout_ms)
        if version >= 1:
            out += pack_int32(self.rebalance_timeout_ms)
        write_string(out, self.member_id, flexible)
        if version >= 5:
            write_string(out, self.group_instance_id, flexible, True)
        elif version < 5 and self.group_instance_id is not None:
            raise absent_field(self, "group_instance_id", version)
        write_string(out, self.protocol_type, flexible)
        write_struct_array(out, self.protocols, version, flexible)
        if version >= 8:
            write_string(out, self.reason, True, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.group_id = r.string(flexible)
        self.session_timeout_ms = r.int32()
        self.rebalance_timeout_ms = r.int32() if version >= 1 else -1
        self.member_id = r.string(flexible)
        self.group_instance_id = r.nullable_string(flexible) if version >= 5 else None
        self.protocol_type = r.string(flexible)
        self.protocols = r.struct_array(JoinGroupRequestProtocol.read, version, flexible)
        self.reason = r.nullable_string(True) if version >= 8 else None
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class JoinGroupResponse(ApiMessage):
    """JoinGroupResponse, versions 0-9, flexible from 6."""

    API_KEY = 11
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 9
    FLEXIBLE_FROM = 6
    __slots__ = ("throttle_time_ms", "error_code", "generation_id", "protocol_type", "protocol_name", "leader", "skip_assignment", "member_id", "members", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    leader: str
    skip_assignment: bool
    member_id: str
    members: list[JoinGroupResponseMember]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        generation_id: int = -1,
        protocol_type: str | None = None,
        protocol_name: str | None = "",
        leader: str = "",
        skip_assignment: bool = False,
        member_id: str = "",
        members: list[JoinGroupResponseMember] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.generation_id = generation_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader = leader
        self.skip_assignment = skip_assignment
        self.member_id = member_id
        self.members = [] if members is DEFAULT else members
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        if version >= 2:
            out += pack_int32(self.throttle_time_ms)
        out += _S1.pack(self.error_code, self.generation_id)
        if version >= 7:
            write_string(out, self.protocol_type, True, True)
        write_string(out, self.protocol_name, flexible, version >= 7)
        write_string(out, self.leader, flexible)
        if version >= 9:
            out += pack_bool(self.skip_assignment)
        elif version < 9 and self.skip_assignment != False:
            raise absent_field(self, "skip_assignment", version)
        write_string(out, self.member_id, flexible)
        write_struct_array(out, self.members, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.throttle_time_ms = r.int32() if version >= 2 else 0
        self.error_code, self.generation_id = r.fixed(_S1)
        self.protocol_type = r.nullable_string(True) if version >= 7 else None
        self.protocol_name = (r.nullable_string(flexible) if version >= 7 else r.string(flexible))
        self.leader = r.string(flexible)
        self.skip_assignment = r.boolean() if version >= 9 else False
        self.member_id = r.string(flexible)
        self.members = r.struct_array(JoinGroupResponseMember.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class JoinGroupRequestProtocol(Struct):
    """JoinGroupRequestProtocol of JoinGroupRequest (in versions 0-9)."""

    __slots__ = ("name", "metadata", "unknown_tagged_fields",)
    name: str
    metadata: bytes

    def __init__(
        self,
        *,
        name: str = "",
        metadata: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.metadata = metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.name, flexible)
        write_bytes(out, self.metadata, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.name = r.string(flexible)
        self.metadata = r.binary(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class JoinGroupResponseMember(Struct):
    """JoinGroupResponseMember of JoinGroupResponse (in versions 0-9)."""

    __slots__ = ("member_id", "group_instance_id", "metadata", "unknown_tagged_fields",)
    member_id: str
    group_instance_id: str | None
    metadata: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        metadata: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.metadata = metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.member_id, flexible)
        if version >= 5:
            write_string(out, self.group_instance_id, flexible, True)
        write_bytes(out, self.metadata, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.member_id = r.string(flexible)
        self.group_instance_id = r.nullable_string(flexible) if version >= 5 else None
        self.metadata = r.binary(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


JoinGroupRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("session_timeout_ms", "SessionTimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("rebalance_timeout_ms", "RebalanceTimeoutMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (5, 32767), (5, 32767), None, None, False, None),
    FieldInfo("protocol_type", "ProtocolType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("protocols", "Protocols", "[]JoinGroupRequestProtocol", (0, 32767), None, None, None, False, JoinGroupRequestProtocol),
    FieldInfo("reason", "Reason", "string", (8, 32767), (8, 32767), None, None, True, None),
)
JoinGroupResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("generation_id", "GenerationId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("protocol_type", "ProtocolType", "string", (7, 32767), (7, 32767), None, None, True, None),
    FieldInfo("protocol_name", "ProtocolName", "string", (0, 32767), (7, 32767), None, None, False, None),
    FieldInfo("leader", "Leader", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("skip_assignment", "SkipAssignment", "bool", (9, 32767), None, None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("members", "Members", "[]JoinGroupResponseMember", (0, 32767), None, None, None, False, JoinGroupResponseMember),
)
JoinGroupRequestProtocol.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("metadata", "Metadata", "bytes", (0, 32767), None, None, None, False, None),
)
JoinGroupResponseMember.FIELDS = (
    FieldInfo("member_id", "MemberId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (5, 32767), (5, 32767), None, None, True, None),
    FieldInfo("metadata", "Metadata", "bytes", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "JoinGroupRequest",
    "JoinGroupRequestProtocol",
    "JoinGroupResponse",
    "JoinGroupResponseMember",
]
