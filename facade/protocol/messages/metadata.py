# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 MetadataRequest.json, MetadataResponse.json - DO NOT EDIT; make gen-protocol
"""Metadata (API key 3): MetadataRequest and MetadataResponse, versions 0-12."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">hii")


class MetadataRequest(ApiMessage):
    """MetadataRequest, versions 0-12, flexible from 9."""

    API_KEY = 3
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 12
    FLEXIBLE_FROM = 9
    __slots__ = ("topics", "allow_auto_topic_creation", "include_cluster_authorized_operations", "include_topic_authorized_operations", "unknown_tagged_fields",)
    topics: list[MetadataRequestTopic] | None
    allow_auto_topic_creation: bool
    include_cluster_authorized_operations: bool
    include_topic_authorized_operations: bool

    def __init__(
        self,
        *,
        topics: list[MetadataRequestTopic] | None = DEFAULT,
        allow_auto_topic_creation: bool = True,
        include_cluster_authorized_operations: bool = False,
        include_topic_authorized_operations: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.allow_auto_topic_creation = allow_auto_topic_creation
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.include_topic_authorized_operations = include_topic_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        write_struct_array(out, self.topics, version, flexible, version >= 1)
        if version >= 4:
            out += pack_bool(self.allow_auto_topic_creation)
        elif version < 4 and self.allow_auto_topic_creation != True:
            raise absent_field(self, "allow_auto_topic_creation", version)
        if version >= 8 and version <= 10:
            out += pack_bool(self.include_cluster_authorized_operations)
        elif (version < 8 or version > 10) and self.include_cluster_authorized_operations != False:
            raise absent_field(self, "include_cluster_authorized_operations", version)
        if version >= 8:
            out += pack_bool(self.include_topic_authorized_operations)
        elif version < 8 and self.include_topic_authorized_operations != False:
            raise absent_field(self, "include_topic_authorized_operations", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.topics = (r.nullable_struct_array(MetadataRequestTopic.read, version, flexible) if version >= 1 else r.struct_array(MetadataRequestTopic.read, version, flexible))
        self.allow_auto_topic_creation = r.boolean() if version >= 4 else True
        self.include_cluster_authorized_operations = r.boolean() if version >= 8 and version <= 10 else False
        self.include_topic_authorized_operations = r.boolean() if version >= 8 else False
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MetadataResponse(ApiMessage):
    """MetadataResponse, versions 0-12, flexible from 9."""

    API_KEY = 3
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 12
    FLEXIBLE_FROM = 9
    __slots__ = ("throttle_time_ms", "brokers", "cluster_id", "controller_id", "topics", "cluster_authorized_operations", "unknown_tagged_fields",)
    throttle_time_ms: int
    brokers: list[MetadataResponseBroker]
    cluster_id: str | None
    controller_id: int
    topics: list[MetadataResponseTopic]
    cluster_authorized_operations: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        brokers: list[MetadataResponseBroker] = DEFAULT,
        cluster_id: str | None = None,
        controller_id: int = -1,
        topics: list[MetadataResponseTopic] = DEFAULT,
        cluster_authorized_operations: int = -2147483648,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.brokers = [] if brokers is DEFAULT else brokers
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.topics = [] if topics is DEFAULT else topics
        self.cluster_authorized_operations = cluster_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        if version >= 3:
            out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.brokers, version, flexible)
        if version >= 2:
            write_string(out, self.cluster_id, flexible, True)
        if version >= 1:
            out += pack_int32(self.controller_id)
        write_struct_array(out, self.topics, version, flexible)
        if version >= 8 and version <= 10:
            out += pack_int32(self.cluster_authorized_operations)
        elif (version < 8 or version > 10) and self.cluster_authorized_operations != -2147483648:
            raise absent_field(self, "cluster_authorized_operations", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.throttle_time_ms = r.int32() if version >= 3 else 0
        self.brokers = r.struct_array(MetadataResponseBroker.read, version, flexible)
        self.cluster_id = r.nullable_string(flexible) if version >= 2 else None
        self.controller_id = r.int32() if version >= 1 else -1
        self.topics = r.struct_array(MetadataResponseTopic.read, version, flexible)
        self.cluster_authorized_operations = r.int32() if version >= 8 and version <= 10 else -2147483648
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MetadataRequestTopic(Struct):
    """MetadataRequestTopic of MetadataRequest (in versions 0-12)."""

    __slots__ = ("topic_id", "name", "unknown_tagged_fields",)
    topic_id: UUID
    name: str | None

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        name: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.name = name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        if version >= 10:
            out += self.topic_id.bytes
        write_string(out, self.name, flexible, version >= 10)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.topic_id = r.uuid() if version >= 10 else ZERO_UUID
        self.name = (r.nullable_string(flexible) if version >= 10 else r.string(flexible))
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MetadataResponseBroker(Struct):
    """MetadataResponseBroker of MetadataResponse (in versions 0-12)."""

    __slots__ = ("node_id", "host", "port", "rack", "unknown_tagged_fields",)
    node_id: int
    host: str
    port: int
    rack: str | None

    def __init__(
        self,
        *,
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        rack: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        out += pack_int32(self.node_id)
        write_string(out, self.host, flexible)
        out += pack_int32(self.port)
        if version >= 1:
            write_string(out, self.rack, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.node_id = r.int32()
        self.host = r.string(flexible)
        self.port = r.int32()
        self.rack = r.nullable_string(flexible) if version >= 1 else None
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MetadataResponseTopic(Struct):
    """MetadataResponseTopic of MetadataResponse (in versions 0-12)."""

    __slots__ = ("error_code", "name", "topic_id", "is_internal", "partitions", "topic_authorized_operations", "unknown_tagged_fields",)
    error_code: int
    name: str | None
    topic_id: UUID
    is_internal: bool
    partitions: list[MetadataResponsePartition]
    topic_authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        name: str | None = "",
        topic_id: UUID = ZERO_UUID,
        is_internal: bool = False,
        partitions: list[MetadataResponsePartition] = DEFAULT,
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
        flexible = version >= 9
        out += pack_int16(self.error_code)
        write_string(out, self.name, flexible, version >= 12)
        if version >= 10:
            out += self.topic_id.bytes
        if version >= 1:
            out += pack_bool(self.is_internal)
        write_struct_array(out, self.partitions, version, flexible)
        if version >= 8:
            out += pack_int32(self.topic_authorized_operations)
        elif version < 8 and self.topic_authorized_operations != -2147483648:
            raise absent_field(self, "topic_authorized_operations", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.error_code = r.int16()
        self.name = (r.nullable_string(flexible) if version >= 12 else r.string(flexible))
        self.topic_id = r.uuid() if version >= 10 else ZERO_UUID
        self.is_internal = r.boolean() if version >= 1 else False
        self.partitions = r.struct_array(MetadataResponsePartition.read, version, flexible)
        self.topic_authorized_operations = r.int32() if version >= 8 else -2147483648
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class MetadataResponsePartition(Struct):
    """MetadataResponsePartition of MetadataResponse (in versions 0-12)."""

    __slots__ = ("error_code", "partition_index", "leader_id", "leader_epoch", "replica_nodes", "isr_nodes", "offline_replicas", "unknown_tagged_fields",)
    error_code: int
    partition_index: int
    leader_id: int
    leader_epoch: int
    replica_nodes: list[int]
    isr_nodes: list[int]
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
        offline_replicas: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is DEFAULT else replica_nodes
        self.isr_nodes = [] if isr_nodes is DEFAULT else isr_nodes
        self.offline_replicas = [] if offline_replicas is DEFAULT else offline_replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        out += _S1.pack(self.error_code, self.partition_index, self.leader_id)
        if version >= 7:
            out += pack_int32(self.leader_epoch)
        write_int_array(out, "i", self.replica_nodes, flexible)
        write_int_array(out, "i", self.isr_nodes, flexible)
        if version >= 5:
            write_int_array(out, "i", self.offline_replicas, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.error_code, self.partition_index, self.leader_id = r.fixed(_S1)
        self.leader_epoch = r.int32() if version >= 7 else -1
        self.replica_nodes = r.int_array("i", flexible)
        self.isr_nodes = r.int_array("i", flexible)
        self.offline_replicas = r.int_array("i", flexible) if version >= 5 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


MetadataRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]MetadataRequestTopic", (0, 32767), (1, 32767), None, None, False, MetadataRequestTopic),
    FieldInfo("allow_auto_topic_creation", "AllowAutoTopicCreation", "bool", (4, 32767), None, None, None, False, None),
    FieldInfo("include_cluster_authorized_operations", "IncludeClusterAuthorizedOperations", "bool", (8, 10), None, None, None, False, None),
    FieldInfo("include_topic_authorized_operations", "IncludeTopicAuthorizedOperations", "bool", (8, 32767), None, None, None, False, None),
)
MetadataResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (3, 32767), None, None, None, True, None),
    FieldInfo("brokers", "Brokers", "[]MetadataResponseBroker", (0, 32767), None, None, None, False, MetadataResponseBroker),
    FieldInfo("cluster_id", "ClusterId", "string", (2, 32767), (2, 32767), None, None, True, None),
    FieldInfo("controller_id", "ControllerId", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]MetadataResponseTopic", (0, 32767), None, None, None, False, MetadataResponseTopic),
    FieldInfo("cluster_authorized_operations", "ClusterAuthorizedOperations", "int32", (8, 10), None, None, None, False, None),
)
MetadataRequestTopic.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (10, 32767), None, None, None, True, None),
    FieldInfo("name", "Name", "string", (0, 32767), (10, 32767), None, None, False, None),
)
MetadataResponseBroker.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("rack", "Rack", "string", (1, 32767), (1, 32767), None, None, True, None),
)
MetadataResponseTopic.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("name", "Name", "string", (0, 32767), (12, 32767), None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (10, 32767), None, None, None, True, None),
    FieldInfo("is_internal", "IsInternal", "bool", (1, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]MetadataResponsePartition", (0, 32767), None, None, None, False, MetadataResponsePartition),
    FieldInfo("topic_authorized_operations", "TopicAuthorizedOperations", "int32", (8, 32767), None, None, None, False, None),
)
MetadataResponsePartition.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (7, 32767), None, None, None, True, None),
    FieldInfo("replica_nodes", "ReplicaNodes", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("isr_nodes", "IsrNodes", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("offline_replicas", "OfflineReplicas", "[]int32", (5, 32767), None, None, None, True, None),
)


__all__ = [
    "MetadataRequest",
    "MetadataRequestTopic",
    "MetadataResponse",
    "MetadataResponseBroker",
    "MetadataResponsePartition",
    "MetadataResponseTopic",
]
