# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 SaslAuthenticateRequest.json, SaslAuthenticateResponse.json - DO NOT EDIT; make gen-protocol
"""SaslAuthenticate (API key 36): SaslAuthenticateRequest and SaslAuthenticateResponse, versions 0-2."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int64, write_bytes, write_string, write_tagged_fields


class SaslAuthenticateRequest(ApiMessage):
    """SaslAuthenticateRequest, versions 0-2, flexible from 2."""

    API_KEY = 36
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("auth_bytes", "unknown_tagged_fields",)
    auth_bytes: bytes

    def __init__(
        self,
        *,
        auth_bytes: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.auth_bytes = auth_bytes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_bytes(out, self.auth_bytes, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.auth_bytes = r.binary(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class SaslAuthenticateResponse(ApiMessage):
    """SaslAuthenticateResponse, versions 0-2, flexible from 2."""

    API_KEY = 36
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("error_code", "error_message", "auth_bytes", "session_lifetime_ms", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    auth_bytes: bytes
    session_lifetime_ms: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        auth_bytes: bytes = b"",
        session_lifetime_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.auth_bytes = auth_bytes
        self.session_lifetime_ms = session_lifetime_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
        write_bytes(out, self.auth_bytes, flexible)
        if version >= 1:
            out += pack_int64(self.session_lifetime_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible)
        self.auth_bytes = r.binary(flexible)
        self.session_lifetime_ms = r.int64() if version >= 1 else 0
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


SaslAuthenticateRequest.FIELDS = (
    FieldInfo("auth_bytes", "AuthBytes", "bytes", (0, 32767), None, None, None, False, None),
)
SaslAuthenticateResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("auth_bytes", "AuthBytes", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("session_lifetime_ms", "SessionLifetimeMs", "int64", (1, 32767), None, None, None, True, None),
)


__all__ = [
    "SaslAuthenticateRequest",
    "SaslAuthenticateResponse",
]
