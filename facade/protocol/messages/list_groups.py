# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ListGroupsRequest.json, ListGroupsResponse.json - DO NOT EDIT; make gen-protocol
"""ListGroups (API key 16): ListGroupsRequest and ListGroupsResponse, versions 0-5."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_string, write_string_array, write_struct_array, write_tagged_fields


class ListGroupsRequest(ApiMessage):
    """ListGroupsRequest, versions 0-5, flexible from 3."""

    API_KEY = 16
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 3
    __slots__ = ("states_filter", "types_filter", "unknown_tagged_fields",)
    states_filter: list[str]
    types_filter: list[str]

    def __init__(
        self,
        *,
        states_filter: list[str] = DEFAULT,
        types_filter: list[str] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.states_filter = [] if states_filter is DEFAULT else states_filter
        self.types_filter = [] if types_filter is DEFAULT else types_filter
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        if version >= 4:
            write_string_array(out, self.states_filter, True)
        elif version < 4 and self.states_filter != []:
            raise absent_field(self, "states_filter", version)
        if version >= 5:
            write_string_array(out, self.types_filter, True)
        elif version < 5 and self.types_filter != []:
            raise absent_field(self, "types_filter", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.states_filter = r.string_array(True) if version >= 4 else []
        self.types_filter = r.string_array(True) if version >= 5 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListGroupsResponse(ApiMessage):
    """ListGroupsResponse, versions 0-5, flexible from 3."""

    API_KEY = 16
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 3
    __slots__ = ("throttle_time_ms", "error_code", "groups", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    groups: list[ListedGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        groups: list[ListedGroup] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.groups = [] if groups is DEFAULT else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        out += pack_int16(self.error_code)
        write_struct_array(out, self.groups, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.error_code = r.int16()
        self.groups = r.struct_array(ListedGroup.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListedGroup(Struct):
    """ListedGroup of ListGroupsResponse (in versions 0-5)."""

    __slots__ = ("group_id", "protocol_type", "group_state", "group_type", "unknown_tagged_fields",)
    group_id: str
    protocol_type: str
    group_state: str
    group_type: str

    def __init__(
        self,
        *,
        group_id: str = "",
        protocol_type: str = "",
        group_state: str = "",
        group_type: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.protocol_type = protocol_type
        self.group_state = group_state
        self.group_type = group_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.group_id, flexible)
        write_string(out, self.protocol_type, flexible)
        if version >= 4:
            write_string(out, self.group_state, True)
        if version >= 5:
            write_string(out, self.group_type, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.group_id = r.string(flexible)
        self.protocol_type = r.string(flexible)
        self.group_state = r.string(True) if version >= 4 else ""
        self.group_type = r.string(True) if version >= 5 else ""
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


ListGroupsRequest.FIELDS = (
    FieldInfo("states_filter", "StatesFilter", "[]string", (4, 32767), None, None, None, False, None),
    FieldInfo("types_filter", "TypesFilter", "[]string", (5, 32767), None, None, None, False, None),
)
ListGroupsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("groups", "Groups", "[]ListedGroup", (0, 32767), None, None, None, False, ListedGroup),
)
ListedGroup.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("protocol_type", "ProtocolType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_state", "GroupState", "string", (4, 32767), None, None, None, True, None),
    FieldInfo("group_type", "GroupType", "string", (5, 32767), None, None, None, True, None),
)


__all__ = [
    "ListGroupsRequest",
    "ListGroupsResponse",
    "ListedGroup",
]
