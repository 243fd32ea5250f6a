# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 UpdateRaftVoterRequest.json, UpdateRaftVoterResponse.json - DO NOT EDIT; make gen-protocol
"""UpdateRaftVoter (API key 82): UpdateRaftVoterRequest and UpdateRaftVoterResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_int32, pack_uint16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ii")
_S2 = _Struct(">ih")
_S3 = _Struct(">hh")


class UpdateRaftVoterRequest(ApiMessage):
    """UpdateRaftVoterRequest, versions 0, flexible from 0."""

    API_KEY = 82
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("cluster_id", "current_leader_epoch", "voter_id", "voter_directory_id", "listeners", "k_raft_version_feature", "unknown_tagged_fields",)
    cluster_id: str | None
    current_leader_epoch: int
    voter_id: int
    voter_directory_id: UUID
    listeners: list[Listener]
    k_raft_version_feature: KRaftVersionFeature

    def __init__(
        self,
        *,
        cluster_id: str | None = "",
        current_leader_epoch: int = 0,
        voter_id: int = 0,
        voter_directory_id: UUID = ZERO_UUID,
        listeners: list[Listener] = DEFAULT,
        k_raft_version_feature: KRaftVersionFeature = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.current_leader_epoch = current_leader_epoch
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.k_raft_version_feature = KRaftVersionFeature() if k_raft_version_feature is DEFAULT else k_raft_version_feature
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.cluster_id, True, True)
        out += _S1.pack(self.current_leader_epoch, self.voter_id)
        out += self.voter_directory_id.bytes
        write_struct_array(out, self.listeners, version, True)
        self.k_raft_version_feature.write(out, version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.cluster_id = r.nullable_string(True)
        self.current_leader_epoch, self.voter_id = r.fixed(_S1)
        self.voter_directory_id = r.uuid()
        self.listeners = r.struct_array(Listener.read, version, True)
        self.k_raft_version_feature = KRaftVersionFeature.read(r, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class UpdateRaftVoterResponse(ApiMessage):
    """UpdateRaftVoterResponse, versions 0, flexible from 0."""

    API_KEY = 82
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "current_leader", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    current_leader: CurrentLeader

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        current_leader: CurrentLeader = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.current_leader = CurrentLeader() if current_leader is DEFAULT else current_leader
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        tags = dict(self.unknown_tagged_fields)
        if self.current_leader != CurrentLeader():
            tb = bytearray()
            self.current_leader.write(tb, version)
            tags[0] = bytes(tb)
        write_tagged_fields(out, tags)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.current_leader = CurrentLeader()
        tags = r.tagged_fields()
        if tags:
            if 0 in tags:
                tr = Reader(tags.pop(0))
                self.current_leader = CurrentLeader.read(tr, version)
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class Listener(Struct):
    """Listener of UpdateRaftVoterRequest (in versions 0)."""

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
    """KRaftVersionFeature of UpdateRaftVoterRequest (in versions 0)."""

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
        out += _S3.pack(self.min_supported_version, self.max_supported_version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.min_supported_version, self.max_supported_version = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class CurrentLeader(Struct):
    """CurrentLeader of UpdateRaftVoterResponse (in versions 0)."""

    __slots__ = ("leader_id", "leader_epoch", "host", "port", "unknown_tagged_fields",)
    leader_id: int
    leader_epoch: int
    host: str
    port: int

    def __init__(
        self,
        *,
        leader_id: int = -1,
        leader_epoch: int = -1,
        host: str = "",
        port: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.leader_id, self.leader_epoch)
        write_string(out, self.host, True)
        out += pack_int32(self.port)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.leader_id, self.leader_epoch = r.fixed(_S1)
        self.host = r.string(True)
        self.port = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


UpdateRaftVoterRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("current_leader_epoch", "CurrentLeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_id", "VoterId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("listeners", "Listeners", "[]Listener", (0, 32767), None, None, None, False, Listener),
    FieldInfo("k_raft_version_feature", "KRaftVersionFeature", "KRaftVersionFeature", (0, 32767), None, None, None, False, KRaftVersionFeature),
)
UpdateRaftVoterResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("current_leader", "CurrentLeader", "CurrentLeader", (0, 32767), None, (0, 32767), 0, False, CurrentLeader),
)
Listener.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (0, 32767), None, None, None, False, None),
)
KRaftVersionFeature.FIELDS = (
    FieldInfo("min_supported_version", "MinSupportedVersion", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("max_supported_version", "MaxSupportedVersion", "int16", (0, 32767), None, None, None, False, None),
)
CurrentLeader.FIELDS = (
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "CurrentLeader",
    "KRaftVersionFeature",
    "Listener",
    "UpdateRaftVoterRequest",
    "UpdateRaftVoterResponse",
]
