# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DefaultPrincipalData.json - DO NOT EDIT; make gen-protocol
"""DefaultPrincipalData (data), versions 0."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, FieldInfo, Message
from ..primitives import Reader, pack_bool, write_string, write_tagged_fields


class DefaultPrincipalData(Message):
    """DefaultPrincipalData, versions 0, flexible from 0."""

    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("type", "name", "token_authenticated", "unknown_tagged_fields",)
    type: str
    name: str
    token_authenticated: bool

    def __init__(
        self,
        *,
        type: str = "",
        name: str = "",
        token_authenticated: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.type = type
        self.name = name
        self.token_authenticated = token_authenticated
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.type, True)
        write_string(out, self.name, True)
        out += pack_bool(self.token_authenticated)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.type = r.string(True)
        self.name = r.string(True)
        self.token_authenticated = r.boolean()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DefaultPrincipalData.FIELDS = (
    FieldInfo("type", "Type", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("token_authenticated", "TokenAuthenticated", "bool", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DefaultPrincipalData",
]
