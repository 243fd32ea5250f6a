# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchSnapshotRequest.json, FetchSnapshotResponse.json - DO NOT EDIT; make gen-protocol
"""FetchSnapshot (API key 59): FetchSnapshotRequest and FetchSnapshotResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import TYPE_CHECKING, Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_int32, pack_int64, pack_uint16, write_bytes, write_string, write_struct_array, write_tagged_fields

if TYPE_CHECKING:
    from typing_extensions import Buffer

_S1 = _Struct(">ii")
_S2 = _Struct(">ih")
_S3 = _Struct(">qq")
_S4 = _Struct(">qi")


class FetchSnapshotRequest(ApiMessage):
    """FetchSnapshotRequest, versions 0-1, flexible from 0."""

    API_KEY = 59
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("cluster_id", "replica_id", "max_bytes", "topics", "unknown_tagged_fields",)
    cluster_id: str | None
    replica_id: int
    max_bytes: int
    topics: list[FetchSnapshotRequestTopicSnapshot]

    def __init__(
        self,
        *,
        cluster_id: str | None = None,
        replica_id: int = -1,
        max_bytes: int = 2147483647,
        topics: list[FetchSnapshotRequestTopicSnapshot] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.max_bytes = max_bytes
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.replica_id, self.max_bytes)
        write_struct_array(out, self.topics, version, True)
        tags = dict(self.unknown_tagged_fields)
        if self.cluster_id is not None:
            tb = bytearray()
            write_string(tb, self.cluster_id, True, True)
            tags[0] = bytes(tb)
        write_tagged_fields(out, tags)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.cluster_id = None
        self.replica_id, self.max_bytes = r.fixed(_S1)
        self.topics = r.struct_array(FetchSnapshotRequestTopicSnapshot.read, version, True)
        tags = r.tagged_fields()
        if tags:
            if 0 in tags:
                tr = Reader(tags.pop(0))
                self.cluster_id = tr.nullable_string(True)
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class FetchSnapshotResponse(ApiMessage):
    """FetchSnapshotResponse, versions 0-1, flexible from 0."""

    API_KEY = 59
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "topics", "node_endpoints", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    topics: list[FetchSnapshotResponseTopicSnapshot]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        topics: list[FetchSnapshotResponseTopicSnapshot] = DEFAULT,
        node_endpoints: list[NodeEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code)
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
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.topics = r.struct_array(FetchSnapshotResponseTopicSnapshot.read, version, True)
        self.node_endpoints = []
        tags = r.tagged_fields()
        if tags:
            if 0 in tags and version >= 1:
                tr = Reader(tags.pop(0))
                self.node_endpoints = tr.struct_array(NodeEndpoint.read, version, True)
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class FetchSnapshotRequestTopicSnapshot(Struct):
    """TopicSnapshot of FetchSnapshotRequest (in versions 0-1)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[FetchSnapshotRequestPartitionSnapshot]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[FetchSnapshotRequestPartitionSnapshot] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.partitions = r.struct_array(FetchSnapshotRequestPartitionSnapshot.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FetchSnapshotResponseTopicSnapshot(Struct):
    """TopicSnapshot of FetchSnapshotResponse (in versions 0-1)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[FetchSnapshotResponsePartitionSnapshot]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[FetchSnapshotResponsePartitionSnapshot] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.partitions = r.struct_array(FetchSnapshotResponsePartitionSnapshot.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FetchSnapshotRequestPartitionSnapshot(Struct):
    """PartitionSnapshot of FetchSnapshotRequest (in versions 0-1)."""

    __slots__ = ("partition", "current_leader_epoch", "snapshot_id", "position", "replica_directory_id", "unknown_tagged_fields",)
    partition: int
    current_leader_epoch: int
    snapshot_id: SnapshotId
    position: int
    replica_directory_id: UUID

    def __init__(
        self,
        *,
        partition: int = 0,
        current_leader_epoch: int = 0,
        snapshot_id: SnapshotId = DEFAULT,
        position: int = 0,
        replica_directory_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.snapshot_id = SnapshotId() if snapshot_id is DEFAULT else snapshot_id
        self.position = position
        self.replica_directory_id = replica_directory_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition, self.current_leader_epoch)
        self.snapshot_id.write(out, version)
        out += pack_int64(self.position)
        tags = dict(self.unknown_tagged_fields)
        if version >= 1 and self.replica_directory_id != ZERO_UUID:
            tb = bytearray()
            tb += self.replica_directory_id.bytes
            tags[0] = bytes(tb)
        write_tagged_fields(out, tags)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition, self.current_leader_epoch = r.fixed(_S1)
        self.snapshot_id = SnapshotId.read(r, version)
        self.position = r.int64()
        self.replica_directory_id = ZERO_UUID
        tags = r.tagged_fields()
        if tags:
            if 0 in tags and version >= 1:
                tr = Reader(tags.pop(0))
                self.replica_directory_id = tr.uuid()
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class FetchSnapshotResponsePartitionSnapshot(Struct):
    """PartitionSnapshot of FetchSnapshotResponse (in versions 0-1)."""

    __slots__ = ("index", "error_code", "snapshot_id", "current_leader", "size", "position", "unaligned_records", "unknown_tagged_fields",)
    index: int
    error_code: int
    snapshot_id: SnapshotId
    current_leader: LeaderIdAndEpoch
    size: int
    position: int
    unaligned_records: Buffer

    def __init__(
        self,
        *,
        index: int = 0,
        error_code: int = 0,
        snapshot_id: SnapshotId = DEFAULT,
        current_leader: LeaderIdAndEpoch = DEFAULT,
        size: int = 0,
        position: int = 0,
        unaligned_records: Buffer = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.index = index
        self.error_code = error_code
        self.snapshot_id = SnapshotId() if snapshot_id is DEFAULT else snapshot_id
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.size = size
        self.position = position
        self.unaligned_records = unaligned_records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.index, self.error_code)
        self.snapshot_id.write(out, version)
        out += _S3.pack(self.size, self.position)
        write_bytes(out, self.unaligned_records, True)
        tags = dict(self.unknown_tagged_fields)
        if self.current_leader != LeaderIdAndEpoch():
            tb = bytearray()
            self.current_leader.write(tb, version)
            tags[0] = bytes(tb)
        write_tagged_fields(out, tags)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.index, self.error_code = r.fixed(_S2)
        self.snapshot_id = SnapshotId.read(r, version)
        self.current_leader = LeaderIdAndEpoch()
        self.size, self.position = r.fixed(_S3)
        self.unaligned_records = r.records(True)
        tags = r.tagged_fields()
        if tags:
            if 0 in tags:
                tr = Reader(tags.pop(0))
                self.current_leader = LeaderIdAndEpoch.read(tr, version)
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class SnapshotId(Struct):
    """SnapshotId of FetchSnapshotRequest, FetchSnapshotResponse (in versions 0-1)."""

    __slots__ = ("end_offset", "epoch", "unknown_tagged_fields",)
    end_offset: int
    epoch: int

    def __init__(
        self,
        *,
        end_offset: int = 0,
        epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.end_offset = end_offset
        self.epoch = epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S4.pack(self.end_offset, self.epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.end_offset, self.epoch = r.fixed(_S4)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class LeaderIdAndEpoch(Struct):
    """LeaderIdAndEpoch of FetchSnapshotResponse (in versions 0-1)."""

    __slots__ = ("leader_id", "leader_epoch", "unknown_tagged_fields",)
    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        leader_id: int = 0,
        leader_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.leader_id, self.leader_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.leader_id, self.leader_epoch = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class NodeEndpoint(Struct):
    """NodeEndpoint of FetchSnapshotResponse (in versions 1)."""

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


FetchSnapshotRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), (0, 32767), 0, False, None),
    FieldInfo("replica_id", "ReplicaId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("max_bytes", "MaxBytes", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicSnapshot", (0, 32767), None, None, None, False, FetchSnapshotRequestTopicSnapshot),
)
FetchSnapshotResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicSnapshot", (0, 32767), None, None, None, False, FetchSnapshotResponseTopicSnapshot),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (1, 32767), None, (1, 32767), 0, False, NodeEndpoint),
)
FetchSnapshotRequestTopicSnapshot.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionSnapshot", (0, 32767), None, None, None, False, FetchSnapshotRequestPartitionSnapshot),
)
FetchSnapshotResponseTopicSnapshot.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionSnapshot", (0, 32767), None, None, None, False, FetchSnapshotResponsePartitionSnapshot),
)
FetchSnapshotRequestPartitionSnapshot.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("current_leader_epoch", "CurrentLeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("snapshot_id", "SnapshotId", "SnapshotId", (0, 32767), None, None, None, False, SnapshotId),
    FieldInfo("position", "Position", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("replica_directory_id", "ReplicaDirectoryId", "uuid", (1, 32767), None, (1, 32767), 0, True, None),
)
FetchSnapshotResponsePartitionSnapshot.FIELDS = (
    FieldInfo("index", "Index", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("snapshot_id", "SnapshotId", "SnapshotId", (0, 32767), None, None, None, False, SnapshotId),
    FieldInfo("current_leader", "CurrentLeader", "LeaderIdAndEpoch", (0, 32767), None, (0, 32767), 0, False, LeaderIdAndEpoch),
    FieldInfo("size", "Size", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("position", "Position", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("unaligned_records", "UnalignedRecords", "records", (0, 32767), None, None, None, False, None),
)
SnapshotId.FIELDS = (
    FieldInfo("end_offset", "EndOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("epoch", "Epoch", "int32", (0, 32767), None, None, None, False, None),
)
LeaderIdAndEpoch.FIELDS = (
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "FetchSnapshotRequest",
    "FetchSnapshotRequestPartitionSnapshot",
    "FetchSnapshotRequestTopicSnapshot",
    "FetchSnapshotResponse",
    "FetchSnapshotResponsePartitionSnapshot",
    "FetchSnapshotResponseTopicSnapshot",
    "LeaderIdAndEpoch",
    "NodeEndpoint",
    "SnapshotId",
]
