# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DeleteShareGroupStateRequest.json, DeleteShareGroupStateResponse.json - DO NOT EDIT; make gen-protocol
"""DeleteShareGroupState (API key 86): DeleteShareGroupStateRequest and DeleteShareGroupStateResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class DeleteShareGroupStateRequest(ApiMessage):
    """DeleteShareGroupStateRequest, versions 0, flexible from 0."""

    API_KEY = 86
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("group_id", "topics", "unknown_tagged_fields",)
    group_id: str
    topics: list[DeleteStateData]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DeleteStateData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(True)
        self.topics = r.struct_array(DeleteStateData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeleteShareGroupStateResponse(ApiMessage):
    """DeleteShareGroupStateResponse, versions 0, flexible from 0."""

    API_KEY = 86
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("results", "unknown_tagged_fields",)
    results: list[DeleteStateResult]

    def __init__(
        self,
        *,
        results: list[DeleteStateResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.results, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.results = r.struct_array(DeleteStateResult.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeleteStateData(Struct):
    """DeleteStateData of DeleteShareGroupStateRequest (in versions 0)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[PartitionData]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[PartitionData] = DEFAULT,
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
        self.partitions = r.struct_array(PartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class PartitionData(Struct):
    """PartitionData of DeleteShareGroupStateRequest (in versions 0)."""

    __slots__ = ("partition", "unknown_tagged_fields",)
    partition: int

    def __init__(
        self,
        *,
        partition: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.partition)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeleteStateResult(Struct):
    """DeleteStateResult of DeleteShareGroupStateResponse (in versions 0)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[PartitionResult]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[PartitionResult] = DEFAULT,
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
        self.partitions = r.struct_array(PartitionResult.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class PartitionResult(Struct):
    """PartitionResult of DeleteShareGroupStateResponse (in versions 0)."""

    __slots__ = ("partition", "error_code", "error_message", "unknown_tagged_fields",)
    partition: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DeleteShareGroupStateRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]DeleteStateData", (0, 32767), None, None, None, False, DeleteStateData),
)
DeleteShareGroupStateResponse.FIELDS = (
    FieldInfo("results", "Results", "[]DeleteStateResult", (0, 32767), None, None, None, False, DeleteStateResult),
)
DeleteStateData.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, PartitionData),
)
PartitionData.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
)
DeleteStateResult.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionResult", (0, 32767), None, None, None, False, PartitionResult),
)
PartitionResult.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "DeleteShareGroupStateRequest",
    "DeleteShareGroupStateResponse",
    "DeleteStateData",
    "DeleteStateResult",
    "PartitionData",
    "PartitionResult",
]
