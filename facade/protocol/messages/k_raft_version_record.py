# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 KRaftVersionRecord.json - DO NOT EDIT; make gen-protocol
"""KRaftVersionRecord (data), versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, FieldInfo, Message
from ..primitives import Reader, write_tagged_fields

_S1 = _Struct(">hh")


class KRaftVersionRecord(Message):
    """KRaftVersionRecord, versions 0, flexible from 0."""

    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("version", "k_raft_version", "unknown_tagged_fields",)
    version: int
    k_raft_version: int

    def __init__(
        self,
        *,
        version: int = 0,
        k_raft_version: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.version = version
        self.k_raft_version = k_raft_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.version, self.k_raft_version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.version, self.k_raft_version = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


KRaftVersionRecord.FIELDS = (
    FieldInfo("version", "Version", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("k_raft_version", "KRaftVersion", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "KRaftVersionRecord",
]
