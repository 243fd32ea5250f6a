# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AssignReplicasToDirsRequest.json, AssignReplicasToDirsResponse.json - DO NOT EDIT; make gen-protocol
"""AssignReplicasToDirs (API key 73): AssignReplicasToDirsRequest and AssignReplicasToDirsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_int32, write_struct_array, write_tagged_fields

_S1 = _Struct(">iq")
_S2 = _Struct(">ih")


class AssignReplicasToDirsRequest(ApiMessage):
    """AssignReplicasToDirsRequest, versions 0, flexible from 0."""

    API_KEY = 73
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("broker_id", "broker_epoch", "directories", "unknown_tagged_fields",)
    broker_id: int
    broker_epoch: int
    directories: list[AssignReplicasToDirsRequestDirectoryData]

    def __init__(
        self,
        *,
        broker_id: int = 0,
        broker_epoch: int = -1,
        directories: list[AssignReplicasToDirsRequestDirectoryData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.directories = [] if directories is DEFAULT else directories
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.broker_id, self.broker_epoch)
        write_struct_array(out, self.directories, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id, self.broker_epoch = r.fixed(_S1)
        self.directories = r.struct_array(AssignReplicasToDirsRequestDirectoryData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AssignReplicasToDirsResponse(ApiMessage):
    """AssignReplicasToDirsResponse, versions 0, flexible from 0."""

    API_KEY = 73
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "directories", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    directories: list[AssignReplicasToDirsResponseDirectoryData]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        directories: list[AssignReplicasToDirsResponseDirectoryData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.directories = [] if directories is DEFAULT else directories
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        write_struct_array(out, self.directories, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.directories = r.struct_array(AssignReplicasToDirsResponseDirectoryData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AssignReplicasToDirsRequestDirectoryData(Struct):
    """DirectoryData of AssignReplicasToDirsRequest (in versions 0)."""

    __slots__ = ("id", "topics", "unknown_tagged_fields",)
    id: UUID
    topics: list[AssignReplicasToDirsRequestTopicData]

    def __init__(
        self,
        *,
        id: UUID = ZERO_UUID,
        topics: list[AssignReplicasToDirsRequestTopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.id = id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.id.bytes
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.id = r.uuid()
        self.topics = r.struct_array(AssignReplicasToDirsRequestTopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AssignReplicasToDirsResponseDirectoryData(Struct):
    """DirectoryData of AssignReplicasToDirsResponse (in versions 0)."""

    __slots__ = ("id", "topics", "unknown_tagged_fields",)
    id: UUID
    topics: list[AssignReplicasToDirsResponseTopicData]

    def __init__(
        self,
        *,
        id: UUID = ZERO_UUID,
        topics: list[AssignReplicasToDirsResponseTopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.id = id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.id.bytes
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.id = r.uuid()
        self.topics = r.struct_array(AssignReplicasToDirsResponseTopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AssignReplicasToDirsRequestTopicData(Struct):
    """TopicData of AssignReplicasToDirsRequest (in versions 0)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[AssignReplicasToDirsRequestPartitionData]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[AssignReplicasToDirsRequestPartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partitions = r.struct_array(AssignReplicasToDirsRequestPartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AssignReplicasToDirsResponseTopicData(Struct):
    """TopicData of AssignReplicasToDirsResponse (in versions 0)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[AssignReplicasToDirsResponsePartitionData]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[AssignReplicasToDirsResponsePartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partitions = r.struct_array(AssignReplicasToDirsResponsePartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AssignReplicasToDirsRequestPartitionData(Struct):
    """PartitionData of AssignReplicasToDirsRequest (in versions 0)."""

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


class AssignReplicasToDirsResponsePartitionData(Struct):
    """PartitionData of AssignReplicasToDirsResponse (in versions 0)."""

    __slots__ = ("partition_index", "error_code", "unknown_tagged_fields",)
    partition_index: int
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.partition_index, self.error_code)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


AssignReplicasToDirsRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("directories", "Directories", "[]DirectoryData", (0, 32767), None, None, None, False, AssignReplicasToDirsRequestDirectoryData),
)
AssignReplicasToDirsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("directories", "Directories", "[]DirectoryData", (0, 32767), None, None, None, False, AssignReplicasToDirsResponseDirectoryData),
)
AssignReplicasToDirsRequestDirectoryData.FIELDS = (
    FieldInfo("id", "Id", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, AssignReplicasToDirsRequestTopicData),
)
AssignReplicasToDirsResponseDirectoryData.FIELDS = (
    FieldInfo("id", "Id", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, AssignReplicasToDirsResponseTopicData),
)
AssignReplicasToDirsRequestTopicData.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, AssignReplicasToDirsRequestPartitionData),
)
AssignReplicasToDirsResponseTopicData.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, AssignReplicasToDirsResponsePartitionData),
)
AssignReplicasToDirsRequestPartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
)
AssignReplicasToDirsResponsePartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AssignReplicasToDirsRequest",
    "AssignReplicasToDirsRequestDirectoryData",
    "AssignReplicasToDirsRequestPartitionData",
    "AssignReplicasToDirsRequestTopicData",
    "AssignReplicasToDirsResponse",
    "AssignReplicasToDirsResponseDirectoryData",
    "AssignReplicasToDirsResponsePartitionData",
    "AssignReplicasToDirsResponseTopicData",
]
