# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 UnregisterBrokerRequest.json, UnregisterBrokerResponse.json - DO NOT EDIT; make gen-protocol
"""UnregisterBroker (API key 64): UnregisterBrokerRequest and UnregisterBrokerResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo
from ..primitives import Reader, pack_int32, write_string, write_tagged_fields

_S1 = _Struct(">ih")


class UnregisterBrokerRequest(ApiMessage):
    """UnregisterBrokerRequest, versions 0, flexible from 0."""

    API_KEY = 64
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("broker_id", "unknown_tagged_fields",)
    broker_id: int

    def __init__(
        self,
        *,
        broker_id: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.broker_id)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class UnregisterBrokerResponse(ApiMessage):
    """UnregisterBrokerResponse, versions 0, flexible from 0."""

    API_KEY = 64
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


UnregisterBrokerRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
)
UnregisterBrokerResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "UnregisterBrokerRequest",
    "UnregisterBrokerResponse",
]
