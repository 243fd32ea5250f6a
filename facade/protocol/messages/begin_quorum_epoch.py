# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 BeginQuorumEpochRequest.json, BeginQuorumEpochResponse.json - DO NOT EDIT; make gen-protocol
"""BeginQuorumEpoch (API key 53): BeginQuorumEpochRequest and BeginQuorumEpochResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, pack_uint16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ii")
_S2 = _Struct(">ihii")


class BeginQuorumEpochRequest(ApiMessage):
    """BeginQuorumEpochRequest, versions 0-1, flexible from 1."""

    API_KEY = 53
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("cluster_id", "voter_id", "topics", "leader_endpoints", "unknown_tagged_fields",)
    cluster_id: str | None
    voter_id: int
    topics: list[BeginQuorumEpochRequestTopicData]
    leader_endpoints: list[LeaderEndpoint]

    def __init__(
        self,
        *,
        cluster_id: str | None = None,
        voter_id: int = -1,
        topics: list[BeginQuorumEpochRequestTopicData] = DEFAULT,
        leader_endpoints: list[LeaderEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.topics = [] if topics is DEFAULT else topics
        self.leader_endpoints = [] if leader_endpoints is DEFAULT else leader_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.cluster_id, flexible, True)
        if version >= 1:
            out += pack_int32(self.voter_id)
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
        self.voter_id = r.int32() if version >= 1 else -1
        self.topics = r.struct_array(BeginQuorumEpochRequestTopicData.read, version, flexible)
        self.leader_endpoints = r.struct_array(LeaderEndpoint.read, version, True) if version >= 1 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class BeginQuorumEpochResponse(ApiMessage):
    """BeginQuorumEpochResponse, versions 0-1, flexible from 1."""

    API_KEY = 53
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("error_code", "topics", "node_endpoints", "unknown_tagged_fields",)
    error_code: int
    topics: list[BeginQuorumEpochResponseTopicData]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        error_code: int = 0,
        topics: list[BeginQuorumEpochResponseTopicData] = DEFAULT,
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
        self.topics = r.struct_array(BeginQuorumEpochResponseTopicData.read, version, flexible)
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


class BeginQuorumEpochRequestTopicData(Struct):
    """TopicData of BeginQuorumEpochRequest (in versions 0-1)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[BeginQuorumEpochRequestPartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[BeginQuorumEpochRequestPartitionData] = DEFAULT,
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
        self.partitions = r.struct_array(BeginQuorumEpochRequestPartitionData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class BeginQuorumEpochResponseTopicData(Struct):
    """TopicData of BeginQuorumEpochResponse (in versions 0-1)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[BeginQuorumEpochResponsePartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[BeginQuorumEpochResponsePartitionData] = DEFAULT,
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
        self.partitions = r.struct_array(BeginQuorumEpochResponsePartitionData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class BeginQuorumEpochRequestPartitionData(Struct):
    """PartitionData of BeginQuorumEpochRequest (in versions 0-1)."""

    __slots__ = ("partition_index", "voter_directory_id", "leader_id", "leader_epoch", "unknown_tagged_fields",)
    partition_index: int
    voter_directory_id: UUID
    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        voter_directory_id: UUID = ZERO_UUID,
        leader_id: int = 0,
        leader_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.voter_directory_id = voter_directory_id
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += pack_int32(self.partition_index)
        if version >= 1:
            out += self.voter_directory_id.bytes
        out += _S1.pack(self.leader_id, self.leader_epoch)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.partition_index = r.int32()
        self.voter_directory_id = r.uuid() if version >= 1 else ZERO_UUID
        self.leader_id, self.leader_epoch = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class BeginQuorumEpochResponsePartitionData(Struct):
    """PartitionData of BeginQuorumEpochResponse (in versions 0-1)."""

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


class LeaderEndpoint(Struct):
    """LeaderEndpoint of BeginQuorumEpochRequest (in versions 1)."""

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
    """NodeEndpoint of BeginQuorumEpochResponse (in versions 1)."""

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


BeginQuorumEpochRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("voter_id", "VoterId", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, BeginQuorumEpochRequestTopicData),
    FieldInfo("leader_endpoints", "LeaderEndpoints", "[]LeaderEndpoint", (1, 32767), None, None, None, True, LeaderEndpoint),
)
BeginQuorumEpochResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, BeginQuorumEpochResponseTopicData),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (1, 32767), None, (1, 32767), 0, False, NodeEndpoint),
)
BeginQuorumEpochRequestTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, BeginQuorumEpochRequestPartitionData),
)
BeginQuorumEpochResponseTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, BeginQuorumEpochResponsePartitionData),
)
BeginQuorumEpochRequestPartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (1, 32767), None, None, None, True, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
BeginQuorumEpochResponsePartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
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
    "BeginQuorumEpochRequest",
    "BeginQuorumEpochRequestPartitionData",
    "BeginQuorumEpochRequestTopicData",
    "BeginQuorumEpochResponse",
    "BeginQuorumEpochResponsePartitionData",
    "BeginQuorumEpochResponseTopicData",
    "LeaderEndpoint",
    "NodeEndpoint",
]
