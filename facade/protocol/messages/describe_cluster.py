# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeClusterRequest.json, DescribeClusterResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeCluster (API key 60): DescribeClusterRequest and DescribeClusterResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, pack_bool, pack_int8, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class DescribeClusterRequest(ApiMessage):
    """DescribeClusterRequest, versions 0-1, flexible from 0."""

    API_KEY = 60
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("include_cluster_authorized_operations", "endpoint_type", "unknown_tagged_fields",)
    include_cluster_authorized_operations: bool
    endpoint_type: int

    def __init__(
        self,
        *,
        include_cluster_authorized_operations: bool = False,
        endpoint_type: int = 1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.endpoint_type = endpoint_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_bool(self.include_cluster_authorized_operations)
        if version >= 1:
            out += pack_int8(self.endpoint_type)
        elif version < 1 and self.endpoint_type != 1:
            raise absent_field(self, "endpoint_type", version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.include_cluster_authorized_operations = r.boolean()
        self.endpoint_type = r.int8() if version >= 1 else 1
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeClusterResponse(ApiMessage):
    """DescribeClusterResponse, versions 0-1, flexible from 0."""

    API_KEY = 60
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "endpoint_type", "cluster_id", "controller_id", "brokers", "cluster_authorized_operations", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    endpoint_type: int
    cluster_id: str
    controller_id: int
    brokers: list[DescribeClusterBroker]
    cluster_authorized_operations: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        endpoint_type: int = 1,
        cluster_id: str = "",
        controller_id: int = -1,
        brokers: list[DescribeClusterBroker] = DEFAULT,
        cluster_authorized_operations: int = -2147483648,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.endpoint_type = endpoint_type
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.brokers = [] if brokers is DEFAULT else brokers
        self.cluster_authorized_operations = cluster_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        if version >= 1:
            out += pack_int8(self.endpoint_type)
        elif version < 1 and self.endpoint_type != 1:
            raise absent_field(self, "endpoint_type", version)
        write_string(out, self.cluster_id, True)
        out += pack_int32(self.controller_id)
        write_struct_array(out, self.brokers, version, True)
        out += pack_int32(self.cluster_authorized_operations)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.endpoint_type = r.int8() if version >= 1 else 1
        self.cluster_id = r.string(True)
        self.controller_id = r.int32()
        self.brokers = r.struct_array(DescribeClusterBroker.read, version, True)
        self.cluster_authorized_operations = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeClusterBroker(Struct):
    """DescribeClusterBroker of DescribeClusterResponse (in versions 0-1)."""

    __slots__ = ("broker_id", "host", "port", "rack", "unknown_tagged_fields",)
    broker_id: int
    host: str
    port: int
    rack: str | None

    def __init__(
        self,
        *,
        broker_id: int = 0,
        host: str = "",
        port: int = 0,
        rack: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.broker_id)
        write_string(out, self.host, True)
        out += pack_int32(self.port)
        write_string(out, self.rack, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id = r.int32()
        self.host = r.string(True)
        self.port = r.int32()
        self.rack = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DescribeClusterRequest.FIELDS = (
    FieldInfo("include_cluster_authorized_operations", "IncludeClusterAuthorizedOperations", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("endpoint_type", "EndpointType", "int8", (1, 32767), None, None, None, False, None),
)
DescribeClusterResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("endpoint_type", "EndpointType", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("controller_id", "ControllerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("brokers", "Brokers", "[]DescribeClusterBroker", (0, 32767), None, None, None, False, DescribeClusterBroker),
    FieldInfo("cluster_authorized_operations", "ClusterAuthorizedOperations", "int32", (0, 32767), None, None, None, False, None),
)
DescribeClusterBroker.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("rack", "Rack", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "DescribeClusterBroker",
    "DescribeClusterRequest",
    "DescribeClusterResponse",
]
