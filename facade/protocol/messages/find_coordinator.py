# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FindCoordinatorRequest.json, FindCoordinatorResponse.json - DO NOT EDIT; make gen-protocol
"""FindCoordinator (API key 10): FindCoordinatorRequest and FindCoordinatorResponse, versions 0-6."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int8, pack_int16, pack_int32, write_string, write_string_array, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class FindCoordinatorRequest(ApiMessage):
    """FindCoordinatorRequest, versions 0-6, flexible from 3."""

    API_KEY = 10
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 6
    FLEXIBLE_FROM = 3
    __slots__ = ("key", "key_type", "coordinator_keys", "unknown_tagged_fields",)
    key: str
    key_type: int
    coordinator_keys: list[str]

    def __init__(
        self,
        *,
        key: str = "",
        key_type: int = 0,
        coordinator_keys: list[str] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.key = key
        self.key_type = key_type
        self.coordinator_keys = [] if coordinator_keys is DEFAULT else coordinator_keys
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        if version <= 3:
            write_string(out, self.key, flexible)
        elif version > 3 and self.key != "":
            raise absent_field(self, "key", version)
        if version >= 1:
            out += pack_int8(self.key_type)
        elif version < 1 and self.key_type != 0:
            raise absent_field(self, "key_type", version)
        if version >= 4:
            write_string_array(out, self.coordinator_keys, True)
        elif version < 4 and self.coordinator_keys != []:
            raise absent_field(self, "coordinator_keys", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.key = r.string(flexible) if version <= 3 else ""
        self.key_type = r.int8() if version >= 1 else 0
        self.coordinator_keys = r.string_array(True) if version >= 4 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class FindCoordinatorResponse(ApiMessage):
    """FindCoordinatorResponse, versions 0-6, flexible from 3."""

    API_KEY = 10
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 6
    FLEXIBLE_FROM = 3
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "node_id", "host", "port", "coordinators", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    node_id: int
    host: str
    port: int
    coordinators: list[Coordinator]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        coordinators: list[Coordinator] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.node_id = node_id
        self.host = host
        self.port = port
        self.coordinators = [] if coordinators is DEFAULT else coordinators
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        if version <= 3:
            out += pack_int16(self.error_code)
        elif version > 3 and self.error_code != 0:
            raise absent_field(self, "error_code", version)
        if version >= 1 and version <= 3:
            write_string(out, self.error_message, flexible, True)
        if version <= 3:
            out += pack_int32(self.node_id)
        elif version > 3 and self.node_id != 0:
            raise absent_field(self, "node_id", version)
        if version <= 3:
            write_string(out, self.host, flexible)
        elif version > 3 and self.host != "":
            raise absent_field(self, "host", version)
        if version <= 3:
            out += pack_int32(self.port)
        elif version > 3 and self.port != 0:
            raise absent_field(self, "port", version)
        if version >= 4:
            write_struct_array(out, self.coordinators, version, True)
        elif version < 4 and self.coordinators != []:
            raise absent_field(self, "coordinators", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.error_code = r.int16() if version <= 3 else 0
        self.error_message = r.nullable_string(flexible) if version >= 1 and version <= 3 else ""
        self.node_id = r.int32() if version <= 3 else 0
        self.host = r.string(flexible) if version <= 3 else ""
        self.port = r.int32() if version <= 3 else 0
        self.coordinators = r.struct_array(Coordinator.read, version, True) if version >= 4 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class Coordinator(Struct):
    """Coordinator of FindCoordinatorResponse (in versions 4-6)."""

    __slots__ = ("key", "node_id", "host", "port", "error_code", "error_message", "unknown_tagged_fields",)
    key: str
    node_id: int
    host: str
    port: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        key: str = "",
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.key = key
        self.node_id = node_id
        self.host = host
        self.port = port
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.key, True)
        out += pack_int32(self.node_id)
        write_string(out, self.host, True)
        out += _S1.pack(self.port, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.key = r.string(True)
        self.node_id = r.int32()
        self.host = r.string(True)
        self.port, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


FindCoordinatorRequest.FIELDS = (
    FieldInfo("key", "Key", "string", (0, 3), None, None, None, False, None),
    FieldInfo("key_type", "KeyType", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("coordinator_keys", "CoordinatorKeys", "[]string", (4, 32767), None, None, None, False, None),
)
FindCoordinatorResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 3), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (1, 3), (1, 3), None, None, True, None),
    FieldInfo("node_id", "NodeId", "int32", (0, 3), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 3), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 3), None, None, None, False, None),
    FieldInfo("coordinators", "Coordinators", "[]Coordinator", (4, 32767), None, None, None, False, Coordinator),
)
Coordinator.FIELDS = (
    FieldInfo("key", "Key", "string", (4, 32767), None, None, None, False, None),
    FieldInfo("node_id", "NodeId", "int32", (4, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (4, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (4, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (4, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (4, 32767), (4, 32767), None, None, True, None),
)


__all__ = [
    "Coordinator",
    "FindCoordinatorRequest",
    "FindCoordinatorResponse",
]
