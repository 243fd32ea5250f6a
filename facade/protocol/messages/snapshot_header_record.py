# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 SnapshotHeaderRecord.json - DO NOT EDIT; make gen-protocol
"""SnapshotHeaderRecord (data), versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, FieldInfo, Message
from ..primitives import Reader, write_tagged_fields

_S1 = _Struct(">hq")


class SnapshotHeaderRecord(Message):
    """SnapshotHeaderRecord, versions 0, flexible from 0."""

    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("version", "last_contained_log_timestamp", "unknown_tagged_fields",)
    version: int
    last_contained_log_timestamp: int

    def __init__(
        self,
        *,
        version: int = 0,
        last_contained_log_timestamp: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.version = version
        self.last_contained_log_timestamp = last_contained_log_timestamp
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.version, self.last_contained_log_timestamp)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.version, self.last_contained_log_timestamp = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


SnapshotHeaderRecord.FIELDS = (
    FieldInfo("version", "Version", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("last_contained_log_timestamp", "LastContainedLogTimestamp", "int64", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "SnapshotHeaderRecord",
]
