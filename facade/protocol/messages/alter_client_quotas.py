# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AlterClientQuotasRequest.json, AlterClientQuotasResponse.json - DO NOT EDIT; make gen-protocol
"""AlterClientQuotas (API key 49): AlterClientQuotasRequest and AlterClientQuotasResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int16, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">d?")


class AlterClientQuotasRequest(ApiMessage):
    """AlterClientQuotasRequest, versions 0-1, flexible from 1."""

    API_KEY = 49
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("entries", "validate_only", "unknown_tagged_fields",)
    entries: list[AlterClientQuotasRequestEntryData]
    validate_only: bool

    def __init__(
        self,
        *,
        entries: list[AlterClientQuotasRequestEntryData] = DEFAULT,
        validate_only: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.entries = [] if entries is DEFAULT else entries
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_struct_array(out, self.entries, version, flexible)
        out += pack_bool(self.validate_only)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.entries = r.struct_array(AlterClientQuotasRequestEntryData.read, version, flexible)
        self.validate_only = r.boolean()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterClientQuotasResponse(ApiMessage):
    """AlterClientQuotasResponse, versions 0-1, flexible from 1."""

    API_KEY = 49
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("throttle_time_ms", "entries", "unknown_tagged_fields",)
    throttle_time_ms: int
    entries: list[AlterClientQuotasResponseEntryData]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        entries: list[AlterClientQuotasResponseEntryData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.entries = [] if entries is DEFAULT else entries
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.entries, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.throttle_time_ms = r.int32()
        self.entries = r.struct_array(AlterClientQuotasResponseEntryData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterClientQuotasRequestEntryData(Struct):
    """EntryData of AlterClientQuotasRequest (in versions 0-1)."""

    __slots__ = ("entity", "ops", "unknown_tagged_fields",)
    entity: list[EntityData]
    ops: list[OpData]

    def __init__(
        self,
        *,
        entity: list[EntityData] = DEFAULT,
        ops: list[OpData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.entity = [] if entity is DEFAULT else entity
        self.ops = [] if ops is DEFAULT else ops
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_struct_array(out, self.entity, version, flexible)
        write_struct_array(out, self.ops, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.entity = r.struct_array(EntityData.read, version, flexible)
        self.ops = r.struct_array(OpData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterClientQuotasResponseEntryData(Struct):
    """EntryData of AlterClientQuotasResponse (in versions 0-1)."""

    __slots__ = ("error_code", "error_message", "entity", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    entity: list[EntityData]

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        entity: list[EntityData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.entity = [] if entity is DEFAULT else entity
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
        write_struct_array(out, self.entity, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible)
        self.entity = r.struct_array(EntityData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EntityData(Struct):
    """EntityData of AlterClientQuotasRequest, AlterClientQuotasResponse (in versions 0-1)."""

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


class OpData(Struct):
    """OpData of AlterClientQuotasRequest (in versions 0-1)."""

    __slots__ = ("key", "value", "remove", "unknown_tagged_fields",)
    key: str
    value: float
    remove: bool

    def __init__(
        self,
        *,
        key: str = "",
        value: float = 0.0,
        remove: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.key = key
        self.value = value
        self.remove = remove
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.key, flexible)
        out += _S1.pack(self.value, self.remove)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.key = r.string(flexible)
        self.value, self.remove = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


AlterClientQuotasRequest.FIELDS = (
    FieldInfo("entries", "Entries", "[]EntryData", (0, 32767), None, None, None, False, AlterClientQuotasRequestEntryData),
    FieldInfo("validate_only", "ValidateOnly", "bool", (0, 32767), None, None, None, False, None),
)
AlterClientQuotasResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("entries", "Entries", "[]EntryData", (0, 32767), None, None, None, False, AlterClientQuotasResponseEntryData),
)
AlterClientQuotasRequestEntryData.FIELDS = (
    FieldInfo("entity", "Entity", "[]EntityData", (0, 32767), None, None, None, False, EntityData),
    FieldInfo("ops", "Ops", "[]OpData", (0, 32767), None, None, None, False, OpData),
)
AlterClientQuotasResponseEntryData.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("entity", "Entity", "[]EntityData", (0, 32767), None, None, None, False, EntityData),
)
EntityData.FIELDS = (
    FieldInfo("entity_type", "EntityType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("entity_name", "EntityName", "string", (0, 32767), (0, 32767), None, None, False, None),
)
OpData.FIELDS = (
    FieldInfo("key", "Key", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "float64", (0, 32767), None, None, None, False, None),
    FieldInfo("remove", "Remove", "bool", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AlterClientQuotasRequest",
    "AlterClientQuotasRequestEntryData",
    "AlterClientQuotasResponse",
    "AlterClientQuotasResponseEntryData",
    "EntityData",
    "OpData",
]
