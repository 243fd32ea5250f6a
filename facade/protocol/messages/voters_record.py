# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 VotersRecord.json - DO NOT EDIT; make gen-protocol
"""VotersRecord (data), versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, FieldInfo, Message, Struct
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, pack_uint16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">hh")


class VotersRecord(Message):
    """VotersRecord, versions 0, flexible from 0."""

    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("version", "voters", "unknown_tagged_fields",)
    version: int
    voters: list[Voter]

    def __init__(
        self,
        *,
        version: int = 0,
        voters: list[Voter] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.version = version
        self.voters = [] if voters is DEFAULT else voters
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.version)
        write_struct_array(out, self.voters, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.version = r.int16()
        self.voters = r.struct_array(Voter.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Voter(Struct):
    """Voter of VotersRecord (in versions 0)."""

    __slots__ = ("voter_id", "voter_directory_id", "endpoints", "k_raft_version_feature", "unknown_tagged_fields",)
    voter_id: int
    voter_directory_id: UUID
    endpoints: list[Endpoint]
    k_raft_version_feature: KRaftVersionFeature

    def __init__(
        self,
        *,
        voter_id: int = 0,
        voter_directory_id: UUID = ZERO_UUID,
        endpoints: list[Endpoint] = DEFAULT,
        k_raft_version_feature: KRaftVersionFeature = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.endpoints = [] if endpoints is DEFAULT else endpoints
        self.k_raft_version_feature = KRaftVersionFeature() if k_raft_version_feature is DEFAULT else k_raft_version_feature
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.voter_id)
        out += self.voter_directory_id.bytes
        write_struct_array(out, self.endpoints, version, True)
        self.k_raft_version_feature.write(out, version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.voter_id = r.int32()
        self.voter_directory_id = r.uuid()
        self.endpoints = r.struct_array(Endpoint.read, version, True)
        self.k_raft_version_feature = KRaftVersionFeature.read(r, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Endpoint(Struct):
    """Endpoint of VotersRecord (in versions 0)."""

    __slots__ = ("name", "host", "port", "unknown_tagged_fields",)
    name: str
    host: str
    port: int

    def __init__(
        self,
        *,
        name: str = "",
        host: str = "",
        port: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_string(out, self.host, True)
        out += pack_uint16(self.port)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.host = r.string(True)
        self.port = r.uint16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class KRaftVersionFeature(Struct):
    """KRaftVersionFeature of VotersRecord (in versions 0)."""

    __slots__ = ("min_supported_version", "max_supported_version", "unknown_tagged_fields",)
    min_supported_version: int
    max_supported_version: int

    def __init__(
        self,
        *,
        min_supported_version: int = 0,
        max_supported_version: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.min_supported_version, self.max_supported_version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.min_supported_version, self.max_supported_version = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


VotersRecord.FIELDS = (
    FieldInfo("version", "Version", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("voters", "Voters", "[]Voter", (0, 32767), None, None, None, False, Voter),
)
Voter.FIELDS = (
    FieldInfo("voter_id", "VoterId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("endpoints", "Endpoints", "[]Endpoint", (0, 32767), None, None, None, False, Endpoint),
    FieldInfo("k_raft_version_feature", "KRaftVersionFeature", "KRaftVersionFeature", (0, 32767), None, None, None, False, KRaftVersionFeature),
)
Endpoint.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (0, 32767), None, None, None, False, None),
)
KRaftVersionFeature.FIELDS = (
    FieldInfo("min_supported_version", "MinSupportedVersion", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("max_supported_version", "MaxSupportedVersion", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "Endpoint",
    "KRaftVersionFeature",
    "Voter",
    "VotersRecord",
]
