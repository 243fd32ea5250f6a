# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 EndQuorumEpochRequest.json, EndQuorumEpochResponse.json - DO NOT EDIT; make gen-protocol
"""EndQuorumEpoch (API key 54): EndQuorumEpochRequest and EndQuorumEpochResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, pack_uint16, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iii")
_S2 = _Struct(">ihii")


class EndQuorumEpochRequest(ApiMessage):
    """EndQuorumEpochRequest, versions 0-1, flexible from 1."""

    API_KEY = 54
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("cluster_id", "topics", "leader_endpoints", "unknown_tagged_fields",)
    cluster_id: str | None
    topics: list[EndQuorumEpochRequestTopicData]
    leader_endpoints: list[LeaderEndpoint]

    def __init__(
        self,
        *,
        cluster_id: str | None = None,
        topics: list[EndQuorumEpochRequestTopicData] = DEFAULT,
        leader_endpoints: list[LeaderEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.topics = [] if topics is DEFAULT else topics
        self.leader_endpoints = [] if leader_endpoints is DEFAULT else leader_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.cluster_id, flexible, True)
        write_struct_array(out, self.topics, version, flexible)
        if version >= 1:
            write_struct_array(out, self.leader_endpoints, version, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.cluster_id = r.nullable_string(flexible)
        self.topics = r.struct_array(EndQuorumEpochRequestTopicData.read, version, flexible)
        self.leader_endpoints = r.struct_array(LeaderEndpoint.read, version, True) if version >= 1 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EndQuorumEpochResponse(ApiMessage):
    """EndQuorumEpochResponse, versions 0-1, flexible from 1."""

    API_KEY = 54
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("error_code", "topics", "node_endpoints", "unknown_tagged_fields",)
    error_code: int
    topics: list[EndQuorumEpochResponseTopicData]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        error_code: int = 0,
        topics: list[EndQuorumEpochResponseTopicData] = DEFAULT,
        node_endpoints: list[NodeEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += pack_int16(self.error_code)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 1 and self.node_endpoints != []:
                tb = bytearray()
                write_struct_array(tb, self.node_endpoints, version, True)
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 1 and self.node_endpoints != []:
            raise absent_field(self, "node_endpoints", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.error_code = r.int16()
        self.topics = r.struct_array(EndQuorumEpochResponseTopicData.read, version, flexible)
        self.node_endpoints = []
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 1:
                    tr = Reader(tags.pop(0))
                    self.node_endpoints = tr.struct_array(NodeEndpoint.read, version, True)
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class EndQuorumEpochRequestTopicData(Struct):
    """TopicData of EndQuorumEpochRequest (in versions 0-1)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[EndQuorumEpochRequestPartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[EndQuorumEpochRequestPartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.topic_name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.topic_name = r.string(flexible)
        self.partitions = r.struct_array(EndQuorumEpochRequestPartitionData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EndQuorumEpochResponseTopicData(Struct):
    """TopicData of EndQuorumEpochResponse (in versions 0-1)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[EndQuorumEpochResponsePartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[EndQuorumEpochResponsePartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.topic_name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.topic_name = r.string(flexible)
        self.partitions = r.struct_array(EndQuorumEpochResponsePartitionData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EndQuorumEpochRequestPartitionData(Struct):
    """PartitionData of EndQuorumEpochRequest (in versions 0-1)."""

    __slots__ = ("partition_index", "leader_id", "leader_epoch", "preferred_successors", "preferred_candidates", "unknown_tagged_fields",)
    partition_index: int
    leader_id: int
    leader_epoch: int
    preferred_successors: list[int]
    preferred_candidates: list[ReplicaInfo]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        leader_id: int = 0,
        leader_epoch: int = 0,
        preferred_successors: list[int] = DEFAULT,
        preferred_candidates: list[ReplicaInfo] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.preferred_successors = [] if preferred_successors is DEFAULT else preferred_successors
        self.preferred_candidates = [] if preferred_candidates is DEFAULT else preferred_candidates
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += _S1.pack(self.partition_index, self.leader_id, self.leader_epoch)
        if version <= 0:
            write_int_array(out, "i", self.preferred_successors, False)
        if version >= 1:
            write_struct_array(out, self.preferred_candidates, version, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.partition_index, self.leader_id, self.leader_epoch = r.fixed(_S1)
        self.preferred_successors = r.int_array("i", False) if version <= 0 else []
        self.preferred_candidates = r.struct_array(ReplicaInfo.read, version, True) if version >= 1 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EndQuorumEpochResponsePartitionData(Struct):
    """PartitionData of EndQuorumEpochResponse (in versions 0-1)."""

    __slots__ = ("partition_index", "error_code", "leader_id", "leader_epoch", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        leader_id: int = 0,
        leader_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += _S2.pack(self.partition_index, self.error_code, self.leader_id, self.leader_epoch)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.partition_index, self.error_code, self.leader_id, self.leader_epoch = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ReplicaInfo(Struct):
    """ReplicaInfo of EndQuorumEpochRequest (in versions 1)."""

    __slots__ = ("candidate_id", "candidate_directory_id", "unknown_tagged_fields",)
    candidate_id: int
    candidate_directory_id: UUID

    def __init__(
        self,
        *,
        candidate_id: int = 0,
        candidate_directory_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.candidate_id = candidate_id
        self.candidate_directory_id = candidate_directory_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.candidate_id)
        out += self.candidate_directory_id.bytes
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.candidate_id = r.int32()
        self.candidate_directory_id = r.uuid()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class LeaderEndpoint(Struct):
    """LeaderEndpoint of EndQuorumEpochRequest (in versions 1)."""

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


class NodeEndpoint(Struct):
    """NodeEndpoint of EndQuorumEpochResponse (in versions 1)."""

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


EndQuorumEpochRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, EndQuorumEpochRequestTopicData),
    FieldInfo("leader_endpoints", "LeaderEndpoints", "[]LeaderEndpoint", (1, 32767), None, None, None, True, LeaderEndpoint),
)
EndQuorumEpochResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, EndQuorumEpochResponseTopicData),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (1, 32767), None, (1, 32767), 0, False, NodeEndpoint),
)
EndQuorumEpochRequestTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, EndQuorumEpochRequestPartitionData),
)
EndQuorumEpochResponseTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, EndQuorumEpochResponsePartitionData),
)
EndQuorumEpochRequestPartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("preferred_successors", "PreferredSuccessors", "[]int32", (0, 0), None, None, None, True, None),
    FieldInfo("preferred_candidates", "PreferredCandidates", "[]ReplicaInfo", (1, 32767), None, None, None, True, ReplicaInfo),
)
EndQuorumEpochResponsePartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
ReplicaInfo.FIELDS = (
    FieldInfo("candidate_id", "CandidateId", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("candidate_directory_id", "CandidateDirectoryId", "uuid", (1, 32767), None, None, None, False, None),
)
LeaderEndpoint.FIELDS = (
    FieldInfo("name", "Name", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (1, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "EndQuorumEpochRequest",
    "EndQuorumEpochRequestPartitionData",
    "EndQuorumEpochRequestTopicData",
    "EndQuorumEpochResponse",
    "EndQuorumEpochResponsePartitionData",
    "EndQuorumEpochResponseTopicData",
    "LeaderEndpoint",
    "NodeEndpoint",
    "ReplicaInfo",
]
