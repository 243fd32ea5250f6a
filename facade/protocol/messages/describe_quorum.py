# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeQuorumRequest.json, DescribeQuorumResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeQuorum (API key 55): DescribeQuorumRequest and DescribeQuorumResponse, versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, pack_int64, pack_uint16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">iiq")
_S3 = _Struct(">qq")


class DescribeQuorumRequest(ApiMessage):
    """DescribeQuorumRequest, versions 0-2, flexible from 0."""

    API_KEY = 55
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 0
    __slots__ = ("topics", "unknown_tagged_fields",)
    topics: list[DescribeQuorumRequestTopicData]

    def __init__(
        self,
        *,
        topics: list[DescribeQuorumRequestTopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topics = r.struct_array(DescribeQuorumRequestTopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeQuorumResponse(ApiMessage):
    """DescribeQuorumResponse, versions 0-2, flexible from 0."""

    API_KEY = 55
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 0
    __slots__ = ("error_code", "error_message", "topics", "nodes", "unknown_tagged_fields",)
    error_code: int
    error_message: str | None
    topics: list[DescribeQuorumResponseTopicData]
    nodes: list[Node]

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        topics: list[DescribeQuorumResponseTopicData] = DEFAULT,
        nodes: list[Node] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is DEFAULT else topics
        self.nodes = [] if nodes is DEFAULT else nodes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.error_code)
        if version >= 2:
            write_string(out, self.error_message, True, True)
        write_struct_array(out, self.topics, version, True)
        if version >= 2:
            write_struct_array(out, self.nodes, version, True)
        elif version < 2 and self.nodes != []:
            raise absent_field(self, "nodes", version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True) if version >= 2 else ""
        self.topics = r.struct_array(DescribeQuorumResponseTopicData.read, version, True)
        self.nodes = r.struct_array(Node.read, version, True) if version >= 2 else []
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeQuorumRequestTopicData(Struct):
    """TopicData of DescribeQuorumRequest (in versions 0-2)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[DescribeQuorumRequestPartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[DescribeQuorumRequestPartitionData] = DEFAULT,
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
        self.partitions = r.struct_array(DescribeQuorumRequestPartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeQuorumResponseTopicData(Struct):
    """TopicData of DescribeQuorumResponse (in versions 0-2)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[DescribeQuorumResponsePartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[DescribeQuorumResponsePartitionData] = DEFAULT,
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
        self.partitions = r.struct_array(DescribeQuorumResponsePartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeQuorumRequestPartitionData(Struct):
    """PartitionData of DescribeQuorumRequest (in versions 0-2)."""

    __slots__ = ("partition_index", "unknown_tagged_fields",)
    partition_index: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.partition_index)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeQuorumResponsePartitionData(Struct):
    """PartitionData of DescribeQuorumResponse (in versions 0-2)."""

    __slots__ = ("partition_index", "error_code", "error_message", "leader_id", "leader_epoch", "high_watermark", "current_voters", "observers", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    error_message: str | None
    leader_id: int
    leader_epoch: int
    high_watermark: int
    current_voters: list[ReplicaState]
    observers: list[ReplicaState]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        leader_id: int = 0,
        leader_epoch: int = 0,
        high_watermark: int = 0,
        current_voters: list[ReplicaState] = DEFAULT,
        observers: list[ReplicaState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.high_watermark = high_watermark
        self.current_voters = [] if current_voters is DEFAULT else current_voters
        self.observers = [] if observers is DEFAULT else observers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.error_code)
        if version >= 2:
            write_string(out, self.error_message, True, True)
        out += _S2.pack(self.leader_id, self.leader_epoch, self.high_watermark)
        write_struct_array(out, self.current_voters, version, True)
        write_struct_array(out, self.observers, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True) if version >= 2 else ""
        self.leader_id, self.leader_epoch, self.high_watermark = r.fixed(_S2)
        self.current_voters = r.struct_array(ReplicaState.read, version, True)
        self.observers = r.struct_array(ReplicaState.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReplicaState(Struct):
    """ReplicaState of DescribeQuorumResponse (in versions 0-2)."""

    __slots__ = ("replica_id", "replica_directory_id", "log_end_offset", "last_fetch_timestamp", "last_caught_up_timestamp", "unknown_tagged_fields",)
    replica_id: int
    replica_directory_id: UUID
    log_end_offset: int
    last_fetch_timestamp: int
    last_caught_up_timestamp: int

    def __init__(
        self,
        *,
        replica_id: int = 0,
        replica_directory_id: UUID = ZERO_UUID,
        log_end_offset: int = 0,
        last_fetch_timestamp: int = -1,
        last_caught_up_timestamp: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.replica_id = replica_id
        self.replica_directory_id = replica_directory_id
        self.log_end_offset = log_end_offset
        self.last_fetch_timestamp = last_fetch_timestamp
        self.last_caught_up_timestamp = last_caught_up_timestamp
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.replica_id)
        if version >= 2:
            out += self.replica_directory_id.bytes
        elif version < 2 and self.replica_directory_id != ZERO_UUID:
            raise absent_field(self, "replica_directory_id", version)
        out += pack_int64(self.log_end_offset)
        if version >= 1:
            out += _S3.pack(self.last_fetch_timestamp, self.last_caught_up_timestamp)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.replica_id = r.int32()
        self.replica_directory_id = r.uuid() if version >= 2 else ZERO_UUID
        self.log_end_offset = r.int64()
        if version >= 1:
            self.last_fetch_timestamp, self.last_caught_up_timestamp = r.fixed(_S3)
        else:
            self.last_fetch_timestamp = -1
            self.last_caught_up_timestamp = -1
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Node(Struct):
    """Node of DescribeQuorumResponse (in versions 2)."""

    __slots__ = ("node_id", "listeners", "unknown_tagged_fields",)
    node_id: int
    listeners: list[Listener]

    def __init__(
        self,
        *,
        node_id: int = 0,
        listeners: list[Listener] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.node_id = node_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.node_id)
        write_struct_array(out, self.listeners, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.node_id = r.int32()
        self.listeners = r.struct_array(Listener.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Listener(Struct):
    """Listener of DescribeQuorumResponse (in versions 2)."""

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


DescribeQuorumRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, DescribeQuorumRequestTopicData),
)
DescribeQuorumResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (2, 32767), (2, 32767), None, None, True, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, DescribeQuorumResponseTopicData),
    FieldInfo("nodes", "Nodes", "[]Node", (2, 32767), None, None, None, False, Node),
)
DescribeQuorumRequestTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, DescribeQuorumRequestPartitionData),
)
DescribeQuorumResponseTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, DescribeQuorumResponsePartitionData),
)
DescribeQuorumRequestPartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
)
DescribeQuorumResponsePartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (2, 32767), (2, 32767), None, None, True, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("high_watermark", "HighWatermark", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("current_voters", "CurrentVoters", "[]ReplicaState", (0, 32767), None, None, None, False, ReplicaState),
    FieldInfo("observers", "Observers", "[]ReplicaState", (0, 32767), None, None, None, False, ReplicaState),
)
ReplicaState.FIELDS = (
    FieldInfo("replica_id", "ReplicaId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replica_directory_id", "ReplicaDirectoryId", "uuid", (2, 32767), None, None, None, False, None),
    FieldInfo("log_end_offset", "LogEndOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("last_fetch_timestamp", "LastFetchTimestamp", "int64", (1, 32767), None, None, None, True, None),
    FieldInfo("last_caught_up_timestamp", "LastCaughtUpTimestamp", "int64", (1, 32767), None, None, None, True, None),
)
Node.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (2, 32767), None, None, None, False, None),
    FieldInfo("listeners", "Listeners", "[]Listener", (2, 32767), None, None, None, False, Listener),
)
Listener.FIELDS = (
    FieldInfo("name", "Name", "string", (2, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (2, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (2, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribeQuorumRequest",
    "DescribeQuorumRequestPartitionData",
    "DescribeQuorumRequestTopicData",
    "DescribeQuorumResponse",
    "DescribeQuorumResponsePartitionData",
    "DescribeQuorumResponseTopicData",
    "Listener",
    "Node",
    "ReplicaState",
]
