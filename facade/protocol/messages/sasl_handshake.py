# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 SaslHandshakeRequest.json, SaslHandshakeResponse.json - DO NOT EDIT; make gen-protocol
"""SaslHandshake (API key 17): SaslHandshakeRequest and SaslHandshakeResponse, versions 0-1."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, tags_unsupported
from ..primitives import Reader, pack_int16, write_string, write_string_array


class SaslHandshakeRequest(ApiMessage):
    """SaslHandshakeRequest, versions 0-1."""

    API_KEY = 17
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = None
    __slots__ = ("mechanism", "unknown_tagged_fields",)
    mechanism: str

    def __init__(
        self,
        *,
        mechanism: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.mechanism = mechanism
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.mechanism, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.mechanism = r.string(False)
        self.unknown_tagged_fields = {}
        return self


class SaslHandshakeResponse(ApiMessage):
    """SaslHandshakeResponse, versions 0-1."""

    API_KEY = 17
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = None
    __slots__ = ("error_code", "mechanisms", "unknown_tagged_fields",)
    error_code: int
    mechanisms: list[str]

    def __init__(
        self,
        *,
        error_code: int = 0,
        mechanisms: list[str] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.mechanisms = [] if mechanisms is DEFAULT else mechanisms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.error_code)
        write_string_array(out, self.mechanisms, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code = r.int16()
        self.mechanisms = r.string_array(False)
        self.unknown_tagged_fields = {}
        return self


SaslHandshakeRequest.FIELDS = (
    FieldInfo("mechanism", "Mechanism", "string", (0, 32767), None, None, None, False, None),
)
SaslHandshakeResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("mechanisms", "Mechanisms", "[]string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "SaslHandshakeRequest",
    "SaslHandshakeResponse",
]
