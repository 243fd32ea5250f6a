# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ListClientMetricsResourcesRequest.json, ListClientMetricsResourcesResponse.json - DO NOT EDIT; make gen-protocol
"""ListClientMetricsResources (API key 74): ListClientMetricsResourcesRequest and ListClientMetricsResourcesResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class ListClientMetricsResourcesRequest(ApiMessage):
    """ListClientMetricsResourcesRequest, versions 0, flexible from 0."""

    API_KEY = 74
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("unknown_tagged_fields",)

    def __init__(
        self,
        *,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ListClientMetricsResourcesResponse(ApiMessage):
    """ListClientMetricsResourcesResponse, versions 0, flexible from 0."""

    API_KEY = 74
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "client_metrics_resources", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    client_metrics_resources: list[ClientMetricsResource]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        client_metrics_resources: list[ClientMetricsResource] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.client_metrics_resources = [] if client_metrics_resources is DEFAULT else client_metrics_resources
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_struct_array(out, self.client_metrics_resources, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.client_metrics_resources = r.struct_array(ClientMetricsResource.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ClientMetricsResource(Struct):
    """ClientMetricsResource of ListClientMetricsResourcesResponse (in versions 0)."""

    __slots__ = ("name", "unknown_tagged_fields",)
    name: str

    def __init__(
        self,
        *,
        name: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ListClientMetricsResourcesResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("client_metrics_resources", "ClientMetricsResources", "[]ClientMetricsResource", (0, 32767), None, None, None, False, ClientMetricsResource),
)
ClientMetricsResource.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ClientMetricsResource",
    "ListClientMetricsResourcesRequest",
    "ListClientMetricsResourcesResponse",
]
