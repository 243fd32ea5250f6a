# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AlterConfigsRequest.json, AlterConfigsResponse.json - DO NOT EDIT; make gen-protocol
"""AlterConfigs (API key 33): AlterConfigsRequest and AlterConfigsResponse, versions 0-2."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int8, pack_int16, pack_int32, write_string, write_struct_array, write_tagged_fields


class AlterConfigsRequest(ApiMessage):
    """AlterConfigsRequest, versions 0-2, flexible from 2."""

    API_KEY = 33
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("resources", "validate_only", "unknown_tagged_fields",)
    resources: list[AlterConfigsResource]
    validate_only: bool

    def __init__(
        self,
        *,
        resources: list[AlterConfigsResource] = DEFAULT,
        validate_only: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.resources = [] if resources is DEFAULT else resources
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.resources, version, flexible)
        out += pack_bool(self.validate_only)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.resources = r.struct_array(AlterConfigsResource.read, version, flexible)
        self.validate_only = r.boolean()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterConfigsResponse(ApiMessage):
    """AlterConfigsResponse, versions 0-2, flexible from 2."""

    API_KEY = 33
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "responses", "unknown_tagged_fields",)
    throttle_time_ms: int
    responses: list[AlterConfigsResourceResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        responses: list[AlterConfigsResourceResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is DEFAULT else responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.responses, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms = r.int32()
        self.responses = r.struct_array(AlterConfigsResourceResponse.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterConfigsResource(Struct):
    """AlterConfigsResource of AlterConfigsRequest (in versions 0-2)."""

    __slots__ = ("resource_type", "resource_name", "configs", "unknown_tagged_fields",)
    resource_type: int
    resource_name: str
    configs: list[AlterableConfig]

    def __init__(
        self,
        *,
        resource_type: int = 0,
        resource_name: str = "",
        configs: list[AlterableConfig] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is DEFAULT else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int8(self.resource_type)
        write_string(out, self.resource_name, flexible)
        write_struct_array(out, self.configs, version, flexible)
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
        self.configs = r.struct_array(AlterableConfig.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterableConfig(Struct):
    """AlterableConfig of AlterConfigsRequest (in versions 0-2)."""

    __slots__ = ("name", "value", "unknown_tagged_fields",)
    name: str
    value: str | None

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.value = value
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.name, flexible)
        write_string(out, self.value, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.value = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterConfigsResourceResponse(Struct):
    """AlterConfigsResourceResponse of AlterConfigsResponse (in versions 0-2)."""

    __slots__ = ("error_code", "error_message", "resource_type", "resource_name", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    resource_type: int
    resource_name: str

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        resource_type: int = 0,
        resource_name: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
        out += pack_int8(self.resource_type)
        write_string(out, self.resource_name, flexible)
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
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


AlterConfigsRequest.FIELDS = (
    FieldInfo("resources", "Resources", "[]AlterConfigsResource", (0, 32767), None, None, None, False, AlterConfigsResource),
    FieldInfo("validate_only", "ValidateOnly", "bool", (0, 32767), None, None, None, False, None),
)
AlterConfigsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("responses", "Responses", "[]AlterConfigsResourceResponse", (0, 32767), None, None, None, False, AlterConfigsResourceResponse),
)
AlterConfigsResource.FIELDS = (
    FieldInfo("resource_type", "ResourceType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name", "ResourceName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("configs", "Configs", "[]AlterableConfig", (0, 32767), None, None, None, False, AlterableConfig),
)
AlterableConfig.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "string", (0, 32767), (0, 32767), None, None, False, None),
)
AlterConfigsResourceResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("resource_type", "ResourceType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name", "ResourceName", "string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AlterConfigsRequest",
    "AlterConfigsResource",
    "AlterConfigsResourceResponse",
    "AlterConfigsResponse",
    "AlterableConfig",
]
