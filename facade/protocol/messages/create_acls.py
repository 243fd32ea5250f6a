# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 CreateAclsRequest.json, CreateAclsResponse.json - DO NOT EDIT; make gen-protocol
"""CreateAcls (API key 30): CreateAclsRequest and CreateAclsResponse, versions 0-3."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int8, pack_int16, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">bb")


class CreateAclsRequest(ApiMessage):
    """CreateAclsRequest, versions 0-3, flexible from 2."""

    API_KEY = 30
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("creations", "unknown_tagged_fields",)
    creations: list[AclCreation]

    def __init__(
        self,
        *,
        creations: list[AclCreation] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.creations = [] if creations is DEFAULT else creations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.creations, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.creations = r.struct_array(AclCreation.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreateAclsResponse(ApiMessage):
    """CreateAclsResponse, versions 0-3, flexible from 2."""

    API_KEY = 30
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    results: list[AclCreationResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[AclCreationResult] = DEFAULT,
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
        self.results = r.struct_array(AclCreationResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AclCreation(Struct):
    """AclCreation of CreateAclsRequest (in versions 0-3)."""

    __slots__ = ("resource_type", "resource_name", "resource_pattern_type", "principal", "host", "operation", "permission_type", "unknown_tagged_fields",)
    resource_type: int
    resource_name: str
    resource_pattern_type: int
    principal: str
    host: str
    operation: int
    permission_type: int

    def __init__(
        self,
        *,
        resource_type: int = 0,
        resource_name: str = "",
        resource_pattern_type: int = 3,
        principal: str = "",
        host: str = "",
        operation: int = 0,
        permission_type: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.resource_pattern_type = resource_pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int8(self.resource_type)
        write_string(out, self.resource_name, flexible)
        if version >= 1:
            out += pack_int8(self.resource_pattern_type)
        elif version < 1 and self.resource_pattern_type != 3:
            raise absent_field(self, "resource_pattern_type", version)
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
        self.resource_type = r.int8()
        self.resource_name = r.string(flexible)
        self.resource_pattern_type = r.int8() if version >= 1 else 3
        self.principal = r.string(flexible)
        self.host = r.string(flexible)
        self.operation, self.permission_type = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AclCreationResult(Struct):
    """AclCreationResult of CreateAclsResponse (in versions 0-3)."""

    __slots__ = ("error_code", "error_message", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
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
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


CreateAclsRequest.FIELDS = (
    FieldInfo("creations", "Creations", "[]AclCreation", (0, 32767), None, None, None, False, AclCreation),
)
CreateAclsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("results", "Results", "[]AclCreationResult", (0, 32767), None, None, None, False, AclCreationResult),
)
AclCreation.FIELDS = (
    FieldInfo("resource_type", "ResourceType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name", "ResourceName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_pattern_type", "ResourcePatternType", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("principal", "Principal", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("operation", "Operation", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("permission_type", "PermissionType", "int8", (0, 32767), None, None, None, False, None),
)
AclCreationResult.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "AclCreation",
    "AclCreationResult",
    "CreateAclsRequest",
    "CreateAclsResponse",
]
