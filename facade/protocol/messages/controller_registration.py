# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ControllerRegistrationRequest.json, ControllerRegistrationResponse.json - DO NOT EDIT; make gen-protocol
"""ControllerRegistration (API key 70): ControllerRegistrationRequest and ControllerRegistrationResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">Hh")
_S3 = _Struct(">hh")


class ControllerRegistrationRequest(ApiMessage):
    """ControllerRegistrationRequest, versions 0, flexible from 0."""

    API_KEY = 70
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("controller_id", "incarnation_id", "zk_migration_ready", "listeners", "features", "unknown_tagged_fields",)
    controller_id: int
    incarnation_id: UUID
    zk_migration_ready: bool
    listeners: list[Listener]
    features: list[Feature]

    def __init__(
        self,
        *,
        controller_id: int = 0,
        incarnation_id: UUID = ZERO_UUID,
        zk_migration_ready: bool = False,
        listeners: list[Listener] = DEFAULT,
        features: list[Feature] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.controller_id = controller_id
        self.incarnation_id = incarnation_id
        self.zk_migration_ready = zk_migration_ready
        self.listeners = [] if listeners is DEFAULT else listeners
        self.features = [] if features is DEFAULT else features
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.controller_id)
        out += self.incarnation_id.bytes
        out += pack_bool(self.zk_migration_ready)
        write_struct_array(out, self.listeners, version, True)
        write_struct_array(out, self.features, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.controller_id = r.int32()
        self.incarnation_id = r.uuid()
        self.zk_migration_ready = r.boolean()
        self.listeners = r.struct_array(Listener.read, version, True)
        self.features = r.struct_array(Feature.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ControllerRegistrationResponse(ApiMessage):
    """ControllerRegistrationResponse, versions 0, flexible from 0."""

    API_KEY = 70
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Listener(Struct):
    """Listener of ControllerRegistrationRequest (in versions 0)."""

    __slots__ = ("name", "host", "port", "security_protocol", "unknown_tagged_fields",)
    name: str
    host: str
    port: int
    security_protocol: int

    def __init__(
        self,
        *,
        name: str = "",
        host: str = "",
        port: int = 0,
        security_protocol: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.host = host
        self.port = port
        self.security_protocol = security_protocol
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_string(out, self.host, True)
        out += _S2.pack(self.port, self.security_protocol)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.host = r.string(True)
        self.port, self.security_protocol = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Feature(Struct):
    """Feature of ControllerRegistrationRequest (in versions 0)."""

    __slots__ = ("name", "min_supported_version", "max_supported_version", "unknown_tagged_fields",)
    name: str
    min_supported_version: int
    max_supported_version: int

    def __init__(
        self,
        *,
        name: str = "",
        min_supported_version: int = 0,
        max_supported_version: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        out += _S3.pack(self.min_supported_version, self.max_supported_version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.min_supported_version, self.max_supported_version = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ControllerRegistrationRequest.FIELDS = (
    FieldInfo("controller_id", "ControllerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("incarnation_id", "IncarnationId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("zk_migration_ready", "ZkMigrationReady", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("listeners", "Listeners", "[]Listener", (0, 32767), None, None, None, False, Listener),
    FieldInfo("features", "Features", "[]Feature", (0, 32767), None, None, None, False, Feature),
)
ControllerRegistrationResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)
Listener.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (0, 32767), None, None, None, False, None),
    FieldInfo("security_protocol", "SecurityProtocol", "int16", (0, 32767), None, None, None, False, None),
)
Feature.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("min_supported_version", "MinSupportedVersion", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("max_supported_version", "MaxSupportedVersion", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ControllerRegistrationRequest",
    "ControllerRegistrationResponse",
    "Feature",
    "Listener",
]
