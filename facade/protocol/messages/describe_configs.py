# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeConfigsRequest.json, DescribeConfigsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeConfigs (API key 32): DescribeConfigsRequest and DescribeConfigsResponse, versions 0-4."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int8, pack_int16, pack_int32, write_string, write_string_array, write_struct_array, write_tagged_fields


class DescribeConfigsRequest(ApiMessage):
    """DescribeConfigsRequest, versions 0-4, flexible from 4."""

    API_KEY = 32
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 4
    __slots__ = ("resources", "include_synonyms", "include_documentation", "unknown_tagged_fields",)
    resources: list[DescribeConfigsResource]
    include_synonyms: bool
    include_documentation: bool

    def __init__(
        self,
        *,
        resources: list[DescribeConfigsResource] = DEFAULT,
        include_synonyms: bool = False,
        include_documentation: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.resources = [] if resources is DEFAULT else resources
        self.include_synonyms = include_synonyms
        self.include_documentation = include_documentation
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_struct_array(out, self.resources, version, flexible)
        if version >= 1:
            out += pack_bool(self.include_synonyms)
        elif version < 1 and self.include_synonyms != False:
            raise absent_field(self, "include_synonyms", version)
        if version >= 3:
            out += pack_bool(self.include_documentation)
        elif version < 3 and self.include_documentation != False:
            raise absent_field(self, "include_documentation", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.resources = r.struct_array(DescribeConfigsResource.read, version, flexible)
        self.include_synonyms = r.boolean() if version >= 1 else False
        self.include_documentation = r.boolean() if version >= 3 else False
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeConfigsResponse(ApiMessage):
    """DescribeConfigsResponse, versions 0-4, flexible from 4."""

    API_KEY = 32
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 4
    __slots__ = ("throttle_time_ms", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    results: list[DescribeConfigsResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[DescribeConfigsResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.results, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.throttle_time_ms = r.int32()
        self.results = r.struct_array(DescribeConfigsResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeConfigsResource(Struct):
    """DescribeConfigsResource of DescribeConfigsRequest (in versions 0-4)."""

    __slots__ = ("resource_type", "resource_name", "configuration_keys", "unknown_tagged_fields",)
    resource_type: int
    resource_name: str
    configuration_keys: list[str] | None

    def __init__(
        self,
        *,
        resource_type: int = 0,
        resource_name: str = "",
        configuration_keys: list[str] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configuration_keys = [] if configuration_keys is DEFAULT else configuration_keys
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int8(self.resource_type)
        write_string(out, self.resource_name, flexible)
        write_string_array(out, self.configuration_keys, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.resource_type = r.int8()
        self.resource_name = r.string(flexible)
        self.configuration_keys = r.nullable_string_array(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeConfigsResult(Struct):
    """DescribeConfigsResult of DescribeConfigsResponse (in versions 0-4)."""

    __slots__ = ("error_code", "error_message", "resource_type", "resource_name", "configs", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    resource_type: int
    resource_name: str
    configs: list[DescribeConfigsResourceResult]

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        resource_type: int = 0,
        resource_name: str = "",
        configs: list[DescribeConfigsResourceResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is DEFAULT else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
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
        flexible = version >= 4
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible)
        self.resource_type = r.int8()
        self.resource_name = r.string(flexible)
        self.configs = r.struct_array(DescribeConfigsResourceResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeConfigsResourceResult(Struct):
    """DescribeConfigsResourceResult of DescribeConfigsResponse (in versions 0-4)."""

    __slots__ = ("name", "value", "read_only", "is_default", "config_source", "is_sensitive", "synonyms", "config_type", "documentation", "unknown_tagged_fields",)
    name: str
    value: str | None
    read_only: bool
    is_default: bool
    config_source: int
    is_sensitive: bool
    synonyms: list[DescribeConfigsSynonym]
    config_type: int
    documentation: str | None

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        read_only: bool = False,
        is_default: bool = False,
        config_source: int = -1,
        is_sensitive: bool = False,
        synonyms: list[DescribeConfigsSynonym] = DEFAULT,
        config_type: int = 0,
        documentation: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.value = value
        self.read_only = read_only
        self.is_default = is_default
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self.synonyms = [] if synonyms is DEFAULT else synonyms
        self.config_type = config_type
        self.documentation = documentation
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.name, flexible)
        write_string(out, self.value, flexible, True)
        out += pack_bool(self.read_only)
        if version <= 0:
            out += pack_bool(self.is_default)
        elif version > 0 and self.is_default != False:
            raise absent_field(self, "is_default", version)
        if version >= 1:
            out += pack_int8(self.config_source)
        out += pack_bool(self.is_sensitive)
        if version >= 1:
            write_struct_array(out, self.synonyms, version, flexible)
        if version >= 3:
            out += pack_int8(self.config_type)
        if version >= 3:
            write_string(out, self.documentation, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.name = r.string(flexible)
        self.value = r.nullable_string(flexible)
        self.read_only = r.boolean()
        self.is_default = r.boolean() if version <= 0 else False
        self.config_source = r.int8() if version >= 1 else -1
        self.is_sensitive = r.boolean()
        self.synonyms = r.struct_array(DescribeConfigsSynonym.read, version, flexible) if version >= 1 else []
        self.config_type = r.int8() if version >= 3 else 0
        self.documentation = r.nullable_string(flexible) if version >= 3 else ""
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeConfigsSynonym(Struct):
    """DescribeConfigsSynonym of DescribeConfigsResponse (in versions 1-4)."""

    __slots__ = ("name", "value", "source", "unknown_tagged_fields",)
    name: str
    value: str | None
    source: int

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        source: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.value = value
        self.source = source
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.name, flexible)
        write_string(out, self.value, flexible, True)
        out += pack_int8(self.source)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.name = r.string(flexible)
        self.value = r.nullable_string(flexible)
        self.source = r.int8()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DescribeConfigsRequest.FIELDS = (
    FieldInfo("resources", "Resources", "[]DescribeConfigsResource", (0, 32767), None, None, None, False, DescribeConfigsResource),
    FieldInfo("include_synonyms", "IncludeSynonyms", "bool", (1, 32767), None, None, None, False, None),
    FieldInfo("include_documentation", "IncludeDocumentation", "bool", (3, 32767), None, None, None, False, None),
)
DescribeConfigsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("results", "Results", "[]DescribeConfigsResult", (0, 32767), None, None, None, False, DescribeConfigsResult),
)
DescribeConfigsResource.FIELDS = (
    FieldInfo("resource_type", "ResourceType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name", "ResourceName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("configuration_keys", "ConfigurationKeys", "[]string", (0, 32767), (0, 32767), None, None, False, None),
)
DescribeConfigsResult.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("resource_type", "ResourceType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("resource_name", "ResourceName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("configs", "Configs", "[]DescribeConfigsResourceResult", (0, 32767), None, None, None, False, DescribeConfigsResourceResult),
)
DescribeConfigsResourceResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("read_only", "ReadOnly", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("is_default", "IsDefault", "bool", (0, 0), None, None, None, False, None),
    FieldInfo("config_source", "ConfigSource", "int8", (1, 32767), None, None, None, True, None),
    FieldInfo("is_sensitive", "IsSensitive", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("synonyms", "Synonyms", "[]DescribeConfigsSynonym", (1, 32767), None, None, None, True, DescribeConfigsSynonym),
    FieldInfo("config_type", "ConfigType", "int8", (3, 32767), None, None, None, True, None),
    FieldInfo("documentation", "Documentation", "string", (3, 32767), (0, 32767), None, None, True, None),
)
DescribeConfigsSynonym.FIELDS = (
    FieldInfo("name", "Name", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "string", (1, 32767), (0, 32767), None, None, False, None),
    FieldInfo("source", "Source", "int8", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribeConfigsRequest",
    "DescribeConfigsResource",
    "DescribeConfigsResourceResult",
    "DescribeConfigsResponse",
    "DescribeConfigsResult",
    "DescribeConfigsSynonym",
]
