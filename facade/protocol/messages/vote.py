# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 VoteRequest.json, VoteResponse.json - DO NOT EDIT; make gen-protocol
"""Vote (API key 52): VoteRequest and VoteResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, pack_uint16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iii")
_S2 = _Struct(">iq")
_S3 = _Struct(">ihii?")


class VoteRequest(ApiMessage):
    """VoteRequest, versions 0-1, flexible from 0."""

    API_KEY = 52
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("cluster_id", "voter_id", "topics", "unknown_tagged_fields",)
    cluster_id: str | None
    voter_id: int
    topics: list[VoteRequestTopicData]

    def __init__(
        self,
        *,
        cluster_id: str | None = None,
        voter_id: int = -1,
        topics: list[VoteRequestTopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.cluster_id, True, True)
        if version >= 1:
            out += pack_int32(self.voter_id)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.cluster_id = r.nullable_string(True)
        self.voter_id = r.int32() if version >= 1 else -1
        self.topics = r.struct_array(VoteRequestTopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class VoteResponse(ApiMessage):
    """VoteResponse, versions 0-1, flexible from 0."""

    API_KEY = 52
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("error_code", "topics", "node_endpoints", "unknown_tagged_fields",)
    error_code: int
    topics: list[VoteResponseTopicData]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        error_code: int = 0,
        topics: list[VoteResponseTopicData] = DEFAULT,
        node_endpoints: list[NodeEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.error_code)
        write_struct_array(out, self.topics, version, True)
        tags = dict(self.unknown_tagged_fields)
        if version >= 1 and self.node_endpoints != []:
            tb = bytearray()
            write_struct_array(tb, self.node_endpoints, version, True)
            tags[0] = bytes(tb)
        write_tagged_fields(out, tags)
        if version < 1 and self.node_endpoints != []:
            raise absent_field(self, "node_endpoints", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code = r.int16()
        self.topics = r.struct_array(VoteResponseTopicData.read, version, True)
        self.node_endpoints = []
        tags = r.tagged_fields()
        if tags:
            if 0 in tags and version >= 1:
                tr = Reader(tags.pop(0))
                self.node_endpoints = tr.struct_array(NodeEndpoint.read, version, True)
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class VoteRequestTopicData(Struct):
    """TopicData of VoteRequest (in versions 0-1)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[VoteRequestPartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[VoteRequestPartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.partitions = r.struct_array(VoteRequestPartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class VoteResponseTopicData(Struct):
    """TopicData of VoteResponse (in versions 0-1)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[VoteResponsePartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[VoteResponsePartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.partitions = r.struct_array(VoteResponsePartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class VoteRequestPartitionData(Struct):
    """PartitionData of VoteRequest (in versions 0-1)."""

    __slots__ = ("partition_index", "candidate_epoch", "candidate_id", "candidate_directory_id", "voter_directory_id", "last_offset_epoch", "last_offset", "unknown_tagged_fields",)
    partition_index: int
    candidate_epoch: int
    candidate_id: int
    candidate_directory_id: UUID
    voter_directory_id: UUID
    last_offset_epoch: int
    last_offset: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        candidate_epoch: int = 0,
        candidate_id: int = 0,
        candidate_directory_id: UUID = ZERO_UUID,
        voter_directory_id: UUID = ZERO_UUID,
        last_offset_epoch: int = 0,
        last_offset: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.candidate_epoch = candidate_epoch
        self.candidate_id = candidate_id
        self.candidate_directory_id = candidate_directory_id
        self.voter_directory_id = voter_directory_id
        self.last_offset_epoch = last_offset_epoch
        self.last_offset = last_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.candidate_epoch, self.candidate_id)
        if version >= 1:
            out += self.candidate_directory_id.bytes
        if version >= 1:
            out += self.voter_directory_id.bytes
        out += _S2.pack(self.last_offset_epoch, self.last_offset)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.candidate_epoch, self.candidate_id = r.fixed(_S1)
        self.candidate_directory_id = r.uuid() if version >= 1 else ZERO_UUID
        self.voter_directory_id = r.uuid() if version >= 1 else ZERO_UUID
        self.last_offset_epoch, self.last_offset = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class VoteResponsePartitionData(Struct):
    """PartitionData of VoteResponse (in versions 0-1)."""

    __slots__ = ("partition_index", "error_code", "leader_id", "leader_epoch", "vote_granted", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    leader_id: int
    leader_epoch: int
    vote_granted: bool

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        leader_id: int = 0,
        leader_epoch: int = 0,
        vote_granted: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.vote_granted = vote_granted
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S3.pack(self.partition_index, self.error_code, self.leader_id, self.leader_epoch, self.vote_granted)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code, self.leader_id, self.leader_epoch, self.vote_granted = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class NodeEndpoint(Struct):
    """NodeEndpoint of VoteResponse (in versions 1)."""

    __slots__ = ("node_id", "host", "port", "unknown_tagged_fields",)
    node_id: int
    host: str
    port: int

    def __init__(
        self,
        *,
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.node_id)
        write_string(out, self.host, True)
        out += pack_uint16(self.port)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.node_id = r.int32()
        self.host = r.string(True)
        self.port = r.uint16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


VoteRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("voter_id", "VoterId", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, VoteRequestTopicData),
)
VoteResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, VoteResponseTopicData),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (1, 32767), None, (1, 32767), 0, False, NodeEndpoint),
)
VoteRequestTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, VoteRequestPartitionData),
)
VoteResponseTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, VoteResponsePartitionData),
)
VoteRequestPartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("candidate_epoch", "CandidateEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("candidate_id", "CandidateId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("candidate_directory_id", "CandidateDirectoryId", "uuid", (1, 32767), None, None, None, True, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (1, 32767), None, None, None, True, None),
    FieldInfo("last_offset_epoch", "LastOffsetEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("last_offset", "LastOffset", "int64", (0, 32767), None, None, None, False, None),
)
VoteResponsePartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("vote_granted", "VoteGranted", "bool", (0, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "NodeEndpoint",
    "VoteRequest",
    "VoteRequestPartitionData",
    "VoteRequestTopicData",
    "VoteResponse",
    "VoteResponsePartitionData",
    "VoteResponseTopicData",
]
