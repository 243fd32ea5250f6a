# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ExpireDelegationTokenRequest.json, ExpireDelegationTokenResponse.json - DO NOT EDIT; make gen-protocol
"""ExpireDelegationToken (API key 40): ExpireDelegationTokenRequest and ExpireDelegationTokenResponse, versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, tags_unsupported
from ..primitives import Reader, pack_int64, write_bytes, write_tagged_fields

_S1 = _Struct(">hqi")


class ExpireDelegationTokenRequest(ApiMessage):
    """ExpireDelegationTokenRequest, versions 0-2, flexible from 2."""

    API_KEY = 40
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("hmac", "expiry_time_period_ms", "unknown_tagged_fields",)
    hmac: bytes
    expiry_time_period_ms: int

    def __init__(
        self,
        *,
        hmac: bytes = b"",
        expiry_time_period_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.hmac = hmac
        self.expiry_time_period_ms = expiry_time_period_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_bytes(out, self.hmac, flexible)
        out += pack_int64(self.expiry_time_period_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.hmac = r.binary(flexible)
        self.expiry_time_period_ms = r.int64()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ExpireDelegationTokenResponse(ApiMessage):
    """ExpireDelegationTokenResponse, versions 0-2, flexible from 2."""

    API_KEY = 40
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("error_code", "expiry_timestamp_ms", "throttle_time_ms", "unknown_tagged_fields",)
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        expiry_timestamp_ms: int = 0,
        throttle_time_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.throttle_time_ms = throttle_time_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S1.pack(self.error_code, self.expiry_timestamp_ms, self.throttle_time_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code, self.expiry_timestamp_ms, self.throttle_time_ms = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


ExpireDelegationTokenRequest.FIELDS = (
    FieldInfo("hmac", "Hmac", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("expiry_time_period_ms", "ExpiryTimePeriodMs", "int64", (0, 32767), None, None, None, False, None),
)
ExpireDelegationTokenResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("expiry_timestamp_ms", "ExpiryTimestampMs", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ExpireDelegationTokenRequest",
    "ExpireDelegationTokenResponse",
]
