# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ListOffsetsRequest.json, ListOffsetsResponse.json - DO NOT EDIT; make gen-protocol
"""ListOffsets (API key 2): ListOffsetsRequest and ListOffsetsResponse, versions 0-10."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int8, pack_int32, pack_int64, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">qq")


class ListOffsetsRequest(ApiMessage):
    """ListOffsetsRequest, versions 0-10, flexible from 6."""

    API_KEY = 2
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 10
    FLEXIBLE_FROM = 6
    __slots__ = ("replica_id", "isolation_level", "topics", "timeout_ms", "unknown_tagged_fields",)
    replica_id: int
    isolation_level: int
    topics: list[ListOffsetsTopic]
    timeout_ms: int

    def __init__(
        self,
        *,
        replica_id: int = 0,
        isolation_level: int = 0,
        topics: list[ListOffsetsTopic] = DEFAULT,
        timeout_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.replica_id = replica_id
        self.isolation_level = isolation_level
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += pack_int32(self.replica_id)
        if version >= 2:
            out += pack_int8(self.isolation_level)
        elif version < 2 and self.isolation_level != 0:
            raise absent_field(self, "isolation_level", version)
        write_struct_array(out, self.topics, version, flexible)
        if version >= 10:
            out += pack_int32(self.timeout_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.replica_id = r.int32()
        self.isolation_level = r.int8() if version >= 2 else 0
        self.topics = r.struct_array(ListOffsetsTopic.read, version, flexible)
        self.timeout_ms = r.int32() if version >= 10 else 0
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListOffsetsResponse(ApiMessage):
    """ListOffsetsResponse, versions 0-10, flexible from 6."""

    API_KEY = 2
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 10
    FLEXIBLE_FROM = 6
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[ListOffsetsTopicResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[ListOffsetsTopicResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        if version >= 2:
            out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.throttle_time_ms = r.int32() if version >= 2 else 0
        self.topics = r.struct_array(ListOffsetsTopicResponse.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListOffsetsTopic(Struct):
    """ListOffsetsTopic of ListOffsetsRequest (in versions 0-10)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[ListOffsetsPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[ListOffsetsPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.name = r.string(flexible)
        self.partitions = r.struct_array(ListOffsetsPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListOffsetsPartition(Struct):
    """ListOffsetsPartition of ListOffsetsRequest (in versions 0-10)."""

    __slots__ = ("partition_index", "current_leader_epoch", "timestamp", "max_num_offsets", "unknown_tagged_fields",)
    partition_index: int
    current_leader_epoch: int
    timestamp: int
    max_num_offsets: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        current_leader_epoch: int = -1,
        timestamp: int = 0,
        max_num_offsets: int = 1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.current_leader_epoch = current_leader_epoch
        self.timestamp = timestamp
        self.max_num_offsets = max_num_offsets
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += pack_int32(self.partition_index)
        if version >= 4:
            out += pack_int32(self.current_leader_epoch)
        out += pack_int64(self.timestamp)
        if version <= 0:
            out += pack_int32(self.max_num_offsets)
        elif version > 0 and self.max_num_offsets != 1:
            raise absent_field(self, "max_num_offsets", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.partition_index = r.int32()
        self.current_leader_epoch = r.int32() if version >= 4 else -1
        self.timestamp = r.int64()
        self.max_num_offsets = r.int32() if version <= 0 else 1
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListOffsetsTopicResponse(Struct):
    """ListOffsetsTopicResponse of ListOffsetsResponse (in versions 0-10)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[ListOffsetsPartitionResponse]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[ListOffsetsPartitionResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.name = r.string(flexible)
        self.partitions = r.struct_array(ListOffsetsPartitionResponse.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ListOffsetsPartitionResponse(Struct):
    """ListOffsetsPartitionResponse of ListOffsetsResponse (in versions 0-10)."""

    __slots__ = ("partition_index", "error_code", "old_style_offsets", "timestamp", "offset", "leader_epoch", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    old_style_offsets: list[int]
    timestamp: int
    offset: int
    leader_epoch: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        old_style_offsets: list[int] = DEFAULT,
        timestamp: int = -1,
        offset: int = -1,
        leader_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.old_style_offsets = [] if old_style_offsets is DEFAULT else old_style_offsets
        self.timestamp = timestamp
        self.offset = offset
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += _S1.pack(self.partition_index, self.error_code)
        if version <= 0:
            write_int_array(out, "q", self.old_style_offsets, False)
        elif version > 0 and self.old_style_offsets != []:
            raise absent_field(self, "old_style_offsets", version)
        if version >= 1:
            out += _S2.pack(self.timestamp, self.offset)
        else:
            if self.timestamp != -1:
                raise absent_field(self, "timestamp", version)
            if self.offset != -1:
                raise absent_field(self, "offset", version)
        if version >= 4:
            out += pack_int32(self.leader_epoch)
        elif version < 4 and self.leader_epoch != -1:
            raise absent_field(self, "leader_epoch", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.partition_index, self.error_code = r.fixed(_S1)
        self.old_style_offsets = r.int_array("q", False) if version <= 0 else []
        if version >= 1:
            self.timestamp, self.offset = r.fixed(_S2)
        else:
            self.timestamp = -1
            self.offset = -1
        self.leader_epoch = r.int32() if version >= 4 else -1
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


ListOffsetsRequest.FIELDS = (
    FieldInfo("replica_id", "ReplicaId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("isolation_level", "IsolationLevel", "int8", (2, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]ListOffsetsTopic", (0, 32767), None, None, None, False, ListOffsetsTopic),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (10, 32767), None, None, None, True, None),
)
ListOffsetsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]ListOffsetsTopicResponse", (0, 32767), None, None, None, False, ListOffsetsTopicResponse),
)
ListOffsetsTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]ListOffsetsPartition", (0, 32767), None, None, None, False, ListOffsetsPartition),
)
ListOffsetsPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("current_leader_epoch", "CurrentLeaderEpoch", "int32", (4, 32767), None, None, None, True, None),
    FieldInfo("timestamp", "Timestamp", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("max_num_offsets", "MaxNumOffsets", "int32", (0, 0), None, None, None, False, None),
)
ListOffsetsTopicResponse.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]ListOffsetsPartitionResponse", (0, 32767), None, None, None, False, ListOffsetsPartitionResponse),
)
ListOffsetsPartitionResponse.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("old_style_offsets", "OldStyleOffsets", "[]int64", (0, 0), None, None, None, False, None),
    FieldInfo("timestamp", "Timestamp", "int64", (1, 32767), None, None, None, False, None),
    FieldInfo("offset", "Offset", "int64", (1, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (4, 32767), None, None, None, False, None),
)


__all__ = [
    "ListOffsetsPartition",
    "ListOffsetsPartitionResponse",
    "ListOffsetsRequest",
    "ListOffsetsResponse",
    "ListOffsetsTopic",
    "ListOffsetsTopicResponse",
]
