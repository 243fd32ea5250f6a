# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeTopicPartitionsRequest.json, DescribeTopicPartitionsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeTopicPartitions (API key 75): DescribeTopicPartitionsRequest and DescribeTopicPartitionsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int16, pack_int32, write_int_array, write_string, write_struct, write_struct_array, write_tagged_fields

_S1 = _Struct(">hiii")


class DescribeTopicPartitionsRequest(ApiMessage):
    """DescribeTopicPartitionsRequest, versions 0, flexible from 0."""

    API_KEY = 75
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("topics", "response_partition_limit", "cursor", "unknown_tagged_fields",)
    topics: list[TopicRequest]
    response_partition_limit: int
    cursor: Cursor | None

    def __init__(
        self,
        *,
        topics: list[TopicRequest] = DEFAULT,
        response_partition_limit: int = 2000,
        cursor: Cursor | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.response_partition_limit = response_partition_limit
        self.cursor = cursor
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.topics, version, True)
        out += pack_int32(self.response_partition_limit)
        write_struct(out, self.cursor, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topics = r.struct_array(TopicRequest.read, version, True)
        self.response_partition_limit = r.int32()
        self.cursor = r.nullable_struct(Cursor.read, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeTopicPartitionsResponse(ApiMessage):
    """DescribeTopicPartitionsResponse, versions 0, flexible from 0."""

    API_KEY = 75
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "topics", "next_cursor", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[DescribeTopicPartitionsResponseTopic]
    next_cursor: Cursor | None

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[DescribeTopicPartitionsResponseTopic] = DEFAULT,
        next_cursor: Cursor | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.next_cursor = next_cursor
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, True)
        write_struct(out, self.next_cursor, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms = r.int32()
        self.topics = r.struct_array(DescribeTopicPartitionsResponseTopic.read, version, True)
        self.next_cursor = r.nullable_struct(Cursor.read, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TopicRequest(Struct):
    """TopicRequest of DescribeTopicPartitionsRequest (in versions 0)."""

    __slots__ = ("name", "unknown_tagged_fields",)
    name: str

    def __init__(
        self,
        *,
        name: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Cursor(Struct):
    """Cursor of DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse (in versions 0)."""

    __slots__ = ("topic_name", "partition_index", "unknown_tagged_fields",)
    topic_name: str
    partition_index: int

    def __init__(
        self,
        *,
        topic_name: str = "",
        partition_index: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        out += pack_int32(self.partition_index)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.partition_index = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeTopicPartitionsResponseTopic(Struct):
    """DescribeTopicPartitionsResponseTopic of DescribeTopicPartitionsResponse (in versions 0)."""

    __slots__ = ("error_code", "name", "topic_id", "is_internal", "partitions", "topic_authorized_operations", "unknown_tagged_fields",)
    error_code: int
    name: str | None
    topic_id: UUID
    is_internal: bool
    partitions: list[DescribeTopicPartitionsResponsePartition]
    topic_authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        name: str | None = "",
        topic_id: UUID = ZERO_UUID,
        is_internal: bool = False,
        partitions: list[DescribeTopicPartitionsResponsePartition] = DEFAULT,
        topic_authorized_operations: int = -2147483648,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is DEFAULT else partitions
        self.topic_authorized_operations = topic_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.error_code)
        write_string(out, self.name, True, True)
        out += self.topic_id.bytes
        out += pack_bool(self.is_internal)
        write_struct_array(out, self.partitions, version, True)
        out += pack_int32(self.topic_authorized_operations)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code = r.int16()
        self.name = r.nullable_string(True)
        self.topic_id = r.uuid()
        self.is_internal = r.boolean()
        self.partitions = r.struct_array(DescribeTopicPartitionsResponsePartition.read, version, True)
        self.topic_authorized_operations = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeTopicPartitionsResponsePartition(Struct):
    """DescribeTopicPartitionsResponsePartition of DescribeTopicPartitionsResponse (in versions 0)."""

    __slots__ = ("error_code", "partition_index", "leader_id", "leader_epoch", "replica_nodes", "isr_nodes", "eligible_leader_replicas", "last_known_elr", "offline_replicas", "unknown_tagged_fields",)
    error_code: int
    partition_index: int
    leader_id: int
    leader_epoch: int
    replica_nodes: list[int]
    isr_nodes: list[int]
    eligible_leader_replicas: list[int] | None
    last_known_elr: list[int] | None
    offline_replicas: list[int]

    def __init__(
        self,
        *,
        error_code: int = 0,
        partition_index: int = 0,
        leader_id: int = 0,
        leader_epoch: int = -1,
        replica_nodes: list[int] = DEFAULT,
        isr_nodes: list[int] = DEFAULT,
        eligible_leader_replicas: list[int] | None = DEFAULT,
        last_known_elr: list[int] | None = DEFAULT,
        offline_replicas: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is DEFAULT else replica_nodes
        self.isr_nodes = [] if isr_nodes is DEFAULT else isr_nodes
        self.eligible_leader_replicas = None if eligible_leader_replicas is DEFAULT else eligible_leader_replicas
        self.last_known_elr = None if last_known_elr is DEFAULT else last_known_elr
        self.offline_replicas = [] if offline_replicas is DEFAULT else offline_replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.error_code, self.partition_index, self.leader_id, self.leader_epoch)
        write_int_array(out, "i", self.replica_nodes, True)
        write_int_array(out, "i", self.isr_nodes, True)
        write_int_array(out, "i", self.eligible_leader_replicas, True, True)
        write_int_array(out, "i", self.last_known_elr, True, True)
        write_int_array(out, "i", self.offline_replicas, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code, self.partition_index, self.leader_id, self.leader_epoch = r.fixed(_S1)
        self.replica_nodes = r.int_array("i", True)
        self.isr_nodes = r.int_array("i", True)
        self.eligible_leader_replicas = r.nullable_int_array("i", True)
        self.last_known_elr = r.nullable_int_array("i", True)
        self.offline_replicas = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DescribeTopicPartitionsRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]TopicRequest", (0, 32767), None, None, None, False, TopicRequest),
    FieldInfo("response_partition_limit", "ResponsePartitionLimit", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("cursor", "Cursor", "Cursor", (0, 32767), (0, 32767), None, None, False, Cursor),
)
DescribeTopicPartitionsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]DescribeTopicPartitionsResponseTopic", (0, 32767), None, None, None, False, DescribeTopicPartitionsResponseTopic),
    FieldInfo("next_cursor", "NextCursor", "Cursor", (0, 32767), (0, 32767), None, None, False, Cursor),
)
TopicRequest.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
)
Cursor.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
)
DescribeTopicPartitionsResponseTopic.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("name", "Name", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, True, None),
    FieldInfo("is_internal", "IsInternal", "bool", (0, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]DescribeTopicPartitionsResponsePartition", (0, 32767), None, None, None, False, DescribeTopicPartitionsResponsePartition),
    FieldInfo("topic_authorized_operations", "TopicAuthorizedOperations", "int32", (0, 32767), None, None, None, False, None),
)
DescribeTopicPartitionsResponsePartition.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, True, None),
    FieldInfo("replica_nodes", "ReplicaNodes", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("isr_nodes", "IsrNodes", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("eligible_leader_replicas", "EligibleLeaderReplicas", "[]int32", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("last_known_elr", "LastKnownElr", "[]int32", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("offline_replicas", "OfflineReplicas", "[]int32", (0, 32767), None, None, None, True, None),
)


__all__ = [
    "Cursor",
    "DescribeTopicPartitionsRequest",
    "DescribeTopicPartitionsResponse",
    "DescribeTopicPartitionsResponsePartition",
    "DescribeTopicPartitionsResponseTopic",
    "TopicRequest",
]
