# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 EnvelopeRequest.json, EnvelopeResponse.json - DO NOT EDIT; make gen-protocol
"""Envelope (API key 58): EnvelopeRequest and EnvelopeResponse, versions 0."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo
from ..primitives import Reader, pack_int16, write_bytes, write_tagged_fields


class EnvelopeRequest(ApiMessage):
    """EnvelopeRequest, versions 0, flexible from 0."""

    API_KEY = 58
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("request_data", "request_principal", "client_host_address", "unknown_tagged_fields",)
    request_data: bytes
    request_principal: bytes | None
    client_host_address: bytes

    def __init__(
        self,
        *,
        request_data: bytes = b"",
        request_principal: bytes | None = b"",
        client_host_address: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.request_data = request_data
        self.request_principal = request_principal
        self.client_host_address = client_host_address
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_bytes(out, self.request_data, True)
        write_bytes(out, self.request_principal, True, True)
        write_bytes(out, self.client_host_address, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.request_data = r.binary(True)
        self.request_principal = r.nullable_binary(True)
        self.client_host_address = r.binary(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class EnvelopeResponse(ApiMessage):
    """EnvelopeResponse, versions 0, flexible from 0."""

    API_KEY = 58
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("response_data", "error_code", "unknown_tagged_fields",)
    response_data: bytes | None
    error_code: int

    def __init__(
        self,
        *,
        response_data: bytes | None = None,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.response_data = response_data
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_bytes(out, self.response_data, True, True)
        out += pack_int16(self.error_code)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.response_data = r.nullable_binary(True)
        self.error_code = r.int16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


EnvelopeRequest.FIELDS = (
    FieldInfo("request_data", "RequestData", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("request_principal", "RequestPrincipal", "bytes", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("client_host_address", "ClientHostAddress", "bytes", (0, 32767), None, None, None, False, None),
)
EnvelopeResponse.FIELDS = (
    FieldInfo("response_data", "ResponseData", "bytes", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "EnvelopeRequest",
    "EnvelopeResponse",
]
