# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 LeaderChangeMessage.json - DO NOT EDIT; make gen-protocol
"""LeaderChangeMessage (data), versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, FieldInfo, Message, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_int32, write_struct_array, write_tagged_fields

_S1 = _Struct(">hi")


class LeaderChangeMessage(Message):
    """LeaderChangeMessage, versions 0-1, flexible from 0."""

    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("version", "leader_id", "voters", "granting_voters", "unknown_tagged_fields",)
    version: int
    leader_id: int
    voters: list[Voter]
    granting_voters: list[Voter]

    def __init__(
        self,
        *,
        version: int = 0,
        leader_id: int = 0,
        voters: list[Voter] = DEFAULT,
        granting_voters: list[Voter] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.version = version
        self.leader_id = leader_id
        self.voters = [] if voters is DEFAULT else voters
        self.granting_voters = [] if granting_voters is DEFAULT else granting_voters
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.version, self.leader_id)
        write_struct_array(out, self.voters, version, True)
        write_struct_array(out, self.granting_voters, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.version, self.leader_id = r.fixed(_S1)
        self.voters = r.struct_array(Voter.read, version, True)
        self.granting_voters = r.struct_array(Voter.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Voter(Struct):
    """Voter of LeaderChangeMessage (in versions 0-1)."""

    __slots__ = ("voter_id", "voter_directory_id", "unknown_tagged_fields",)
    voter_id: int
    voter_directory_id: UUID

    def __init__(
        self,
        *,
        voter_id: int = 0,
        voter_directory_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.voter_id)
        if version >= 1:
            out += self.voter_directory_id.bytes
        elif version < 1 and self.voter_directory_id != ZERO_UUID:
            raise absent_field(self, "voter_directory_id", version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.voter_id = r.int32()
        self.voter_directory_id = r.uuid() if version >= 1 else ZERO_UUID
        self.unknown_tagged_fields = r.tagged_fields()
        return self


LeaderChangeMessage.FIELDS = (
    FieldInfo("version", "Version", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voters", "Voters", "[]Voter", (0, 32767), None, None, None, False, Voter),
    FieldInfo("granting_voters", "GrantingVoters", "[]Voter", (0, 32767), None, None, None, False, Voter),
)
Voter.FIELDS = (
    FieldInfo("voter_id", "VoterId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "LeaderChangeMessage",
    "Voter",
]
