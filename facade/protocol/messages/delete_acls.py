# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DeleteAclsRequest.json, DeleteAclsResponse.json - DO NOT EDIT; make gen-protocol
"""DeleteAcls (API key 31): DeleteAclsRequest and DeleteAclsResponse, versions 0-3."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int8, pack_int16, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">bb")


class DeleteAclsRequest(ApiMessage):
    """DeleteAclsRequest, versions 0-3, flexible from 2."""

    API_KEY = 31
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("filters", "unknown_tagged_fields",)
    filters: list[DeleteAclsFilter]

    def __init__(
        self,
        *,
        filters: list[DeleteAclsFilter] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.filters = [] if filters is DEFAULT else filters
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.filters, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.filters = r.struct_array(DeleteAclsFilter.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteAclsResponse(ApiMessage):
    """DeleteAclsResponse, versions 0-3, flexible from 2."""

    API_KEY = 31
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "filter_results", "unknown_tagged_fields",)
    throttle_time_ms: int
    filter_results: list[DeleteAclsFilterResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        filter_results: list[DeleteAclsFilterResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.filter_results = [] if filter_results is DEFAULT else filter_results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.filter_results, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms = r.int32()
        self.filter_results = r.struct_array(DeleteAclsFilterResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteAclsFilter(Struct):
    """DeleteAclsFilter of DeleteAclsRequest (in versions 0-3)."""

    __slots__ = ("resource_type_filter", "resource_name_filter", "pattern_type_filter", "principal_filter", "host_filter", "operation", "permission_type", "unknown_tagged_fields",)
    resource_type_filter: int
    resource_name_filter: str | None
    pattern_type_filter: int
    principal_filter: str | None
    host_filter: str | None
    operation: int
    permission_type: int

    def __init__(
        self,
        *,
        resource_type_filter: int = 0,
        resource_name_filter: str | None = "",
        pattern_type_filter: int = 3,
        principal_filter: str | None = "",
        host_filter: str | None = "",
        operation: int = 0,
        permission_type: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.resource_type_filter = resource_type_filter
        self.resource_name_filter = resource_name_filter
        self.pattern_type_filter = pattern_type_filter
        self.principal_filter = principal_filter
        self.host_filter = host_filter
        self.operation = operation
        self.permission_type = permission_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int8(self.resource_type_filter)
        write_string(out, self.resource_name_filter, flexible, True)
        if version >= 1:
            out += pack_int8(self.pattern_type_filter)
        elif version < 1 and self.pattern_type_filter != 3:
            raise absent_field(self, "pattern_type_filter", version)
        write_string(out, self.principal_filter, flexible, True)
        write_string(out, self.host_filter, flexible, True)
        out += _S1.pack(self.operation, self.permission_type)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.resource_type_filter = r.int8()
        self.resource_name_filter = r.nullable_string(flexible)
        self.pattern_type_filter = r.int8() if version >= 1 else 3
        self.principal_filter = r.nullable_string(flexible)
        self.host_filter = r.nullable_string(flexible)
        self.operation, self.permission_type = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteAclsFilterResult(Struct):
    """DeleteAclsFilterResult of DeleteAclsResponse (in versions 0-3)."""

    __slots__ = ("error_code", "error_message", "matching_acls", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    matching_acls: list[DeleteAclsMatchingAcl]

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        matching_acls: list[DeleteAclsMatchingAcl] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.matching_acls = [] if matching_acls is DEFAULT else matching_acls
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
        write_struct_array(out, self.matching_acls, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible)
        self.matching_acls = r.struct_array(DeleteAclsMatchingAcl.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteAclsMatchingAcl(Struct):
    """DeleteAclsMatchingAcl of DeleteAclsResponse (in versions 0-3)."""

    __slots__ = ("error_code", "error_message", "resource_type", "resource_name", "pattern_type", "principal", "host", "operation", "permission_type", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    resource_type: int
    resource_name: str
    pattern_type: int
    principal: str
    host: str
    operation: int
    permission_type: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        resource_type: int = 0,
        resource_name: str = "",
        pattern_type: int = 3,
        principal: str = "",
        host: str = "",
        operation: int = 0,
        permission_type: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
        out += pack_int8(self.resource_type)
        write_string(out, self.resource_name, flexible)
        if version >= 1:
            out += pack_int8(self.pattern_type)
        elif version < 1 and self.pattern_type != 3:
            raise absent_field(self, "pattern_type", version)
        write_string(out, self.principal, flexible)
        write_string(out, self.host, flexible)
        out += _S1.pack(self.operation, self.permission_type)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible)
        self.resource_type = r.int8()
        self.resource_name = r.string(flexible)
        self.pattern_type = r.int8() if version >= 1 else 3
        self.principal = r.string(flexible)
        self.host = r.string(flexible)
        self.operation, self.permission_type = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DeleteAclsRequest.FIELDS = (
    FieldInfo("filters", "Filters", "[]DeleteAclsFilter", (0, 32767), None, None, None, False, DeleteAclsFilter),
)
DeleteAclsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("filter_results", "FilterResults", "[]DeleteAclsFilterResult", (0, 32767), None, None, None, False, DeleteAclsFilterResult),
)
DeleteAclsFilter.FIELDS = (
    FieldInfo("resource_type_filter", "ResourceTypeFilter", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name_filter", "ResourceNameFilter", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("pattern_type_filter", "PatternTypeFilter", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("principal_filter", "PrincipalFilter", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("host_filter", "HostFilter", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("operation", "Operation", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("permission_type", "PermissionType", "int8", (0, 32767), None, None, None, False, None),
)
DeleteAclsFilterResult.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("matching_acls", "MatchingAcls", "[]DeleteAclsMatchingAcl", (0, 32767), None, None, None, False, DeleteAclsMatchingAcl),
)
DeleteAclsMatchingAcl.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("resource_type", "ResourceType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name", "ResourceName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("pattern_type", "PatternType", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("principal", "Principal", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("operation", "Operation", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("permission_type", "PermissionType", "int8", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DeleteAclsFilter",
    "DeleteAclsFilterResult",
    "DeleteAclsMatchingAcl",
    "DeleteAclsRequest",
    "DeleteAclsResponse",
]
