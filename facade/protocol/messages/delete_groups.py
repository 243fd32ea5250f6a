# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DeleteGroupsRequest.json, DeleteGroupsResponse.json - DO NOT EDIT; make gen-protocol
"""DeleteGroups (API key 42): DeleteGroupsRequest and DeleteGroupsResponse, versions 0-2."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_string, write_string_array, write_struct_array, write_tagged_fields


class DeleteGroupsRequest(ApiMessage):
    """DeleteGroupsRequest, versions 0-2, flexible from 2."""

    API_KEY = 42
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("groups_names", "unknown_tagged_fields",)
    groups_names: list[str]

    def __init__(
        self,
        *,
        groups_names: list[str] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.groups_names = [] if groups_names is DEFAULT else groups_names
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string_array(out, self.groups_names, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.groups_names = r.string_array(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteGroupsResponse(ApiMessage):
    """DeleteGroupsResponse, versions 0-2, flexible from 2."""

    API_KEY = 42
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    results: list[DeletableGroupResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[DeletableGroupResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.results, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms = r.int32()
        self.results = r.struct_array(DeletableGroupResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeletableGroupResult(Struct):
    """DeletableGroupResult of DeleteGroupsResponse (in versions 0-2)."""

    __slots__ = ("group_id", "error_code", "unknown_tagged_fields",)
    group_id: str
    error_code: int

    def __init__(
        self,
        *,
        group_id: str = "",
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.group_id, flexible)
        out += pack_int16(self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.group_id = r.string(flexible)
        self.error_code = r.int16()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DeleteGroupsRequest.FIELDS = (
    FieldInfo("groups_names", "GroupsNames", "[]string", (0, 32767), None, None, None, False, None),
)
DeleteGroupsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("results", "Results", "[]DeletableGroupResult", (0, 32767), None, None, None, False, DeletableGroupResult),
)
DeletableGroupResult.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DeletableGroupResult",
    "DeleteGroupsRequest",
    "DeleteGroupsResponse",
]
