# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 PushTelemetryRequest.json, PushTelemetryResponse.json - DO NOT EDIT; make gen-protocol
"""PushTelemetry (API key 72): PushTelemetryRequest and PushTelemetryResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo
from ..primitives import Reader, ZERO_UUID, write_bytes, write_tagged_fields

_S1 = _Struct(">i?b")
_S2 = _Struct(">ih")


class PushTelemetryRequest(ApiMessage):
    """PushTelemetryRequest, versions 0, flexible from 0."""

    API_KEY = 72
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("client_instance_id", "subscription_id", "terminating", "compression_type", "metrics", "unknown_tagged_fields",)
    client_instance_id: UUID
    subscription_id: int
    terminating: bool
    compression_type: int
    metrics: bytes

    def __init__(
        self,
        *,
        client_instance_id: UUID = ZERO_UUID,
        subscription_id: int = 0,
        terminating: bool = False,
        compression_type: int = 0,
        metrics: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.client_instance_id = client_instance_id
        self.subscription_id = subscription_id
        self.terminating = terminating
        self.compression_type = compression_type
        self.metrics = metrics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.client_instance_id.bytes
        out += _S1.pack(self.subscription_id, self.terminating, self.compression_type)
        write_bytes(out, self.metrics, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.client_instance_id = r.uuid()
        self.subscription_id, self.terminating, self.compression_type = r.fixed(_S1)
        self.metrics = r.binary(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class PushTelemetryResponse(ApiMessage):
    """PushTelemetryResponse, versions 0, flexible from 0."""

    API_KEY = 72
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


PushTelemetryRequest.FIELDS = (
    FieldInfo("client_instance_id", "ClientInstanceId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("subscription_id", "SubscriptionId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("terminating", "Terminating", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("compression_type", "CompressionType", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("metrics", "Metrics", "bytes", (0, 32767), None, None, None, False, None),
)
PushTelemetryResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "PushTelemetryRequest",
    "PushTelemetryResponse",
]
