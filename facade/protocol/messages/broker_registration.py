# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 BrokerRegistrationRequest.json, BrokerRegistrationResponse.json - DO NOT EDIT; make gen-protocol
"""BrokerRegistration (API key 62): BrokerRegistrationRequest and BrokerRegistrationResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int32, pack_int64, write_string, write_struct_array, write_tagged_fields, write_uuid_array

_S1 = _Struct(">ihq")
_S2 = _Struct(">Hh")
_S3 = _Struct(">hh")


class BrokerRegistrationRequest(ApiMessage):
    """BrokerRegistrationRequest, versions 0-4, flexible from 0."""

    API_KEY = 62
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 0
    __slots__ = ("broker_id", "cluster_id", "incarnation_id", "listeners", "features", "rack", "is_migrating_zk_broker", "log_dirs", "previous_broker_epoch", "unknown_tagged_fields",)
    broker_id: int
    cluster_id: str
    incarnation_id: UUID
    listeners: list[Listener]
    features: list[Feature]
    rack: str | None
    is_migrating_zk_broker: bool
    log_dirs: list[UUID]
    previous_broker_epoch: int

    def __init__(
        self,
        *,
        broker_id: int = 0,
        cluster_id: str = "",
        incarnation_id: UUID = ZERO_UUID,
        listeners: list[Listener] = DEFAULT,
        features: list[Feature] = DEFAULT,
        rack: str | None = "",
        is_migrating_zk_broker: bool = False,
        log_dirs: list[UUID] = DEFAULT,
        previous_broker_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.cluster_id = cluster_id
        self.incarnation_id = incarnation_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.features = [] if features is DEFAULT else features
        self.rack = rack
        self.is_migrating_zk_broker = is_migrating_zk_broker
        self.log_dirs = [] if log_dirs is DEFAULT else log_dirs
        self.previous_broker_epoch = previous_broker_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.broker_id)
        write_string(out, self.cluster_id, True)
        out += self.incarnation_id.bytes
        write_struct_array(out, self.listeners, version, True)
        write_struct_array(out, self.features, version, True)
        write_string(out, self.rack, True, True)
        if version >= 1:
            out += pack_bool(self.is_migrating_zk_broker)
        elif version < 1 and self.is_migrating_zk_broker != False:
            raise absent_field(self, "is_migrating_zk_broker", version)
        if version >= 2:
            write_uuid_array(out, self.log_dirs, True)
        if version >= 3:
            out += pack_int64(self.previous_broker_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id = r.int32()
        self.cluster_id = r.string(True)
        self.incarnation_id = r.uuid()
        self.listeners = r.struct_array(Listener.read, version, True)
        self.features = r.struct_array(Feature.read, version, True)
        self.rack = r.nullable_string(True)
        self.is_migrating_zk_broker = r.boolean() if version >= 1 else False
        self.log_dirs = r.uuid_array(True) if version >= 2 else []
        self.previous_broker_epoch = r.int64() if version >= 3 else -1
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class BrokerRegistrationResponse(ApiMessage):
    """BrokerRegistrationResponse, versions 0-4, flexible from 0."""

    API_KEY = 62
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "broker_epoch", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    broker_epoch: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        broker_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.broker_epoch = broker_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code, self.broker_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code, self.broker_epoch = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Listener(Struct):
    """Listener of BrokerRegistrationRequest (in versions 0-4)."""

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
    """Feature of BrokerRegistrationRequest (in versions 0-4)."""

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


BrokerRegistrationRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("incarnation_id", "IncarnationId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("listeners", "Listeners", "[]Listener", (0, 32767), None, None, None, False, Listener),
    FieldInfo("features", "Features", "[]Feature", (0, 32767), None, None, None, False, Feature),
    FieldInfo("rack", "Rack", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("is_migrating_zk_broker", "IsMigratingZkBroker", "bool", (1, 32767), None, None, None, False, None),
    FieldInfo("log_dirs", "LogDirs", "[]uuid", (2, 32767), None, None, None, True, None),
    FieldInfo("previous_broker_epoch", "PreviousBrokerEpoch", "int64", (3, 32767), None, None, None, True, None),
)
BrokerRegistrationResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (0, 32767), None, None, None, False, None),
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
    "BrokerRegistrationRequest",
    "BrokerRegistrationResponse",
    "Feature",
    "Listener",
]
