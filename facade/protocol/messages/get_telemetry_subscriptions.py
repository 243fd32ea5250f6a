# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 GetTelemetrySubscriptionsRequest.json, GetTelemetrySubscriptionsResponse.json - DO NOT EDIT; make gen-protocol
"""GetTelemetrySubscriptions (API key 71): GetTelemetrySubscriptionsRequest and GetTelemetrySubscriptionsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo
from ..primitives import Reader, ZERO_UUID, pack_int32, write_int_array, write_string_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">ii?")


class GetTelemetrySubscriptionsRequest(ApiMessage):
    """GetTelemetrySubscriptionsRequest, versions 0, flexible from 0."""

    API_KEY = 71
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("client_instance_id", "unknown_tagged_fields",)
    client_instance_id: UUID

    def __init__(
        self,
        *,
        client_instance_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.client_instance_id = client_instance_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.client_instance_id.bytes
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.client_instance_id = r.uuid()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class GetTelemetrySubscriptionsResponse(ApiMessage):
    """GetTelemetrySubscriptionsResponse, versions 0, flexible from 0."""

    API_KEY = 71
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "client_instance_id", "subscription_id", "accepted_compression_types", "push_interval_ms", "telemetry_max_bytes", "delta_temporality", "requested_metrics", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    client_instance_id: UUID
    subscription_id: int
    accepted_compression_types: list[int]
    push_interval_ms: int
    telemetry_max_bytes: int
    delta_temporality: bool
    requested_metrics: list[str]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        client_instance_id: UUID = ZERO_UUID,
        subscription_id: int = 0,
        accepted_compression_types: list[int] = DEFAULT,
        push_interval_ms: int = 0,
        telemetry_max_bytes: int = 0,
        delta_temporality: bool = False,
        requested_metrics: list[str] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.client_instance_id = client_instance_id
        self.subscription_id = subscription_id
        self.accepted_compression_types = [] if accepted_compression_types is DEFAULT else accepted_compression_types
        self.push_interval_ms = push_interval_ms
        self.telemetry_max_bytes = telemetry_max_bytes
        self.delta_temporality = delta_temporality
        self.requested_metrics = [] if requested_metrics is DEFAULT else requested_metrics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        out += self.client_instance_id.bytes
        out += pack_int32(self.subscription_id)
        write_int_array(out, "b", self.accepted_compression_types, True)
        out += _S2.pack(self.push_interval_ms, self.telemetry_max_bytes, self.delta_temporality)
        write_string_array(out, self.requested_metrics, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.client_instance_id = r.uuid()
        self.subscription_id = r.int32()
        self.accepted_compression_types = r.int_array("b", True)
        self.push_interval_ms, self.telemetry_max_bytes, self.delta_temporality = r.fixed(_S2)
        self.requested_metrics = r.string_array(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


GetTelemetrySubscriptionsRequest.FIELDS = (
    FieldInfo("client_instance_id", "ClientInstanceId", "uuid", (0, 32767), None, None, None, False, None),
)
GetTelemetrySubscriptionsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("client_instance_id", "ClientInstanceId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("subscription_id", "SubscriptionId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("accepted_compression_types", "AcceptedCompressionTypes", "[]int8", (0, 32767), None, None, None, False, None),
    FieldInfo("push_interval_ms", "PushIntervalMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("telemetry_max_bytes", "TelemetryMaxBytes", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("delta_temporality", "DeltaTemporality", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("requested_metrics", "RequestedMetrics", "[]string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "GetTelemetrySubscriptionsRequest",
    "GetTelemetrySubscriptionsResponse",
]
