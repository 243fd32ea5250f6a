# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 RequestHeader.json - DO NOT EDIT; make gen-protocol
"""RequestHeader (header), versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, FieldInfo, Message, tags_unsupported
from ..primitives import Reader, write_string, write_tagged_fields

_S1 = _Struct(">hhi")


class RequestHeader(Message):
    """RequestHeader, versions 0-2, flexible from 2."""

    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("request_api_key", "request_api_version", "correlation_id", "client_id", "unknown_tagged_fields",)
    request_api_key: int
    request_api_version: int
    correlation_id: int
    client_id: str | None

    def __init__(
        self,
        *,
        request_api_key: int = 0,
        request_api_version: int = 0,
        correlation_id: int = 0,
        client_id: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.request_api_key = request_api_key
        self.request_api_version = request_api_version
        self.correlation_id = correlation_id
        self.client_id = client_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S1.pack(self.request_api_key, self.request_api_version, self.correlation_id)
        if version >= 1:
            write_string(out, self.client_id, False, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.request_api_key, self.request_api_version, self.correlation_id = r.fixed(_S1)
        self.client_id = r.nullable_string(False) if version >= 1 else ""
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


RequestHeader.FIELDS = (
    FieldInfo("request_api_key", "RequestApiKey", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("request_api_version", "RequestApiVersion", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("correlation_id", "CorrelationId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("client_id", "ClientId", "string", (1, 32767), (1, 32767), None, None, True, None),
)


__all__ = [
    "RequestHeader",
]
