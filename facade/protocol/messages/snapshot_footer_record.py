# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 SnapshotFooterRecord.json - DO NOT EDIT; make gen-protocol
"""SnapshotFooterRecord (data), versions 0."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, FieldInfo, Message
from ..primitives import Reader, pack_int16, write_tagged_fields


class SnapshotFooterRecord(Message):
    """SnapshotFooterRecord, versions 0, flexible from 0."""

    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("version", "unknown_tagged_fields",)
    version: int

    def __init__(
        self,
        *,
        version: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.version = version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.version = r.int16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


SnapshotFooterRecord.FIELDS = (
    FieldInfo("version", "Version", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "SnapshotFooterRecord",
]
