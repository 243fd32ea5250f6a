# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ResponseHeader.json - DO NOT EDIT; make gen-protocol
"""ResponseHeader (header), versions 0-1."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, FieldInfo, Message, tags_unsupported
from ..primitives import Reader, pack_int32, write_tagged_fields


class ResponseHeader(Message):
    """ResponseHeader, versions 0-1, flexible from 1."""

    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("correlation_id", "unknown_tagged_fields",)
    correlation_id: int

    def __init__(
        self,
        *,
        correlation_id: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.correlation_id = correlation_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += pack_int32(self.correlation_id)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.correlation_id = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


ResponseHeader.FIELDS = (
    FieldInfo("correlation_id", "CorrelationId", "int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ResponseHeader",
]
