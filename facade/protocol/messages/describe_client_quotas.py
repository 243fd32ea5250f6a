# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeClientQuotasRequest.json, DescribeClientQuotasResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeClientQuotas (API key 48): DescribeClientQuotasRequest and DescribeClientQuotasResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_bool, pack_float64, pack_int8, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class DescribeClientQuotasRequest(ApiMessage):
    """DescribeClientQuotasRequest, versions 0-1, flexible from 1."""

    API_KEY = 48
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("components", "strict", "unknown_tagged_fields",)
    components: list[ComponentData]
    strict: bool

    def __init__(
        self,
        *,
        components: list[ComponentData] = DEFAULT,
        strict: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.components = [] if components is DEFAULT else components
        self.strict = strict
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_struct_array(out, self.components, version, flexible)
        out += pack_bool(self.strict)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.components = r.struct_array(ComponentData.read, version, flexible)
        self.strict = r.boolean()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeClientQuotasResponse(ApiMessage):
    """DescribeClientQuotasResponse, versions 0-1, flexible from 1."""

    API_KEY = 48
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "entries", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    entries: list[EntryData] | None

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        entries: list[EntryData] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.entries = [] if entries is DEFAULT else entries
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, flexible, True)
        write_struct_array(out, self.entries, version, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(flexible)
        self.entries = r.nullable_struct_array(EntryData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ComponentData(Struct):
    """ComponentData of DescribeClientQuotasRequest (in versions 0-1)."""

    __slots__ = ("entity_type", "match_type", "match", "unknown_tagged_fields",)
    entity_type: str
    match_type: int
    match: str | None

    def __init__(
        self,
        *,
        entity_type: str = "",
        match_type: int = 0,
        match: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.entity_type = entity_type
        self.match_type = match_type
        self.match = match
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.entity_type, flexible)
        out += pack_int8(self.match_type)
        write_string(out, self.match, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.entity_type = r.string(flexible)
        self.match_type = r.int8()
        self.match = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EntryData(Struct):
    """EntryData of DescribeClientQuotasResponse (in versions 0-1)."""

    __slots__ = ("entity", "values", "unknown_tagged_fields",)
    entity: list[EntityData]
    values: list[ValueData]

    def __init__(
        self,
        *,
        entity: list[EntityData] = DEFAULT,
        values: list[ValueData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.entity = [] if entity is DEFAULT else entity
        self.values = [] if values is DEFAULT else values
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_struct_array(out, self.entity, version, flexible)
        write_struct_array(out, self.values, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.entity = r.struct_array(EntityData.read, version, flexible)
        self.values = r.struct_array(ValueData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EntityData(Struct):
    """EntityData of DescribeClientQuotasResponse (in versions 0-1)."""

    __slots__ = ("entity_type", "entity_name", "unknown_tagged_fields",)
    entity_type: str
    entity_name: str | None

    def __init__(
        self,
        *,
        entity_type: str = "",
        entity_name: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.entity_type = entity_type
        self.entity_name = entity_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.entity_type, flexible)
        write_string(out, self.entity_name, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.entity_type = r.string(flexible)
        self.entity_name = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ValueData(Struct):
    """ValueData of DescribeClientQuotasResponse (in versions 0-1)."""

    __slots__ = ("key", "value", "unknown_tagged_fields",)
    key: str
    value: float

    def __init__(
        self,
        *,
        key: str = "",
        value: float = 0.0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.key = key
        self.value = value
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.key, flexible)
        out += pack_float64(self.value)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.key = r.string(flexible)
        self.value = r.float64()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DescribeClientQuotasRequest.FIELDS = (
    FieldInfo("components", "Components", "[]ComponentData", (0, 32767), None, None, None, False, ComponentData),
    FieldInfo("strict", "Strict", "bool", (0, 32767), None, None, None, False, None),
)
DescribeClientQuotasResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("entries", "Entries", "[]EntryData", (0, 32767), (0, 32767), None, None, False, EntryData),
)
ComponentData.FIELDS = (
    FieldInfo("entity_type", "EntityType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("match_type", "MatchType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("match", "Match", "string", (0, 32767), (0, 32767), None, None, False, None),
)
EntryData.FIELDS = (
    FieldInfo("entity", "Entity", "[]EntityData", (0, 32767), None, None, None, False, EntityData),
    FieldInfo("values", "Values", "[]ValueData", (0, 32767), None, None, None, False, ValueData),
)
EntityData.FIELDS = (
    FieldInfo("entity_type", "EntityType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("entity_name", "EntityName", "string", (0, 32767), (0, 32767), None, None, False, None),
)
ValueData.FIELDS = (
    FieldInfo("key", "Key", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "float64", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ComponentData",
    "DescribeClientQuotasRequest",
    "DescribeClientQuotasResponse",
    "EntityData",
    "EntryData",
    "ValueData",
]
