# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ReadShareGroupStateSummaryRequest.json, ReadShareGroupStateSummaryResponse.json - DO NOT EDIT; make gen-protocol
"""ReadShareGroupStateSummary (API key 87): ReadShareGroupStateSummaryRequest and ReadShareGroupStateSummaryResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ii")
_S2 = _Struct(">ih")
_S3 = _Struct(">iq")


class ReadShareGroupStateSummaryRequest(ApiMessage):
    """ReadShareGroupStateSummaryRequest, versions 0, flexible from 0."""

    API_KEY = 87
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("group_id", "topics", "unknown_tagged_fields",)
    group_id: str
    topics: list[ReadStateSummaryData]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[ReadStateSummaryData] = DEFAULT,
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
        self.topics = r.struct_array(ReadStateSummaryData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReadShareGroupStateSummaryResponse(ApiMessage):
    """ReadShareGroupStateSummaryResponse, versions 0, flexible from 0."""

    API_KEY = 87
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("results", "unknown_tagged_fields",)
    results: list[ReadStateSummaryResult]

    def __init__(
        self,
        *,
        results: list[ReadStateSummaryResult] = DEFAULT,
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
        self.results = r.struct_array(ReadStateSummaryResult.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReadStateSummaryData(Struct):
    """ReadStateSummaryData of ReadShareGroupStateSummaryRequest (in versions 0)."""

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
    """PartitionData of ReadShareGroupStateSummaryRequest (in versions 0)."""

    __slots__ = ("partition", "leader_epoch", "unknown_tagged_fields",)
    partition: int
    leader_epoch: int

    def __init__(
        self,
        *,
        partition: int = 0,
        leader_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition, self.leader_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition, self.leader_epoch = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReadStateSummaryResult(Struct):
    """ReadStateSummaryResult of ReadShareGroupStateSummaryResponse (in versions 0)."""

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
    """PartitionResult of ReadShareGroupStateSummaryResponse (in versions 0)."""

    __slots__ = ("partition", "error_code", "error_message", "state_epoch", "start_offset", "unknown_tagged_fields",)
    partition: int
    error_code: int
    error_message: str | None
    state_epoch: int
    start_offset: int

    def __init__(
        self,
        *,
        partition: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        state_epoch: int = 0,
        start_offset: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.state_epoch = state_epoch
        self.start_offset = start_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.partition, self.error_code)
        write_string(out, self.error_message, True, True)
        out += _S3.pack(self.state_epoch, self.start_offset)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition, self.error_code = r.fixed(_S2)
        self.error_message = r.nullable_string(True)
        self.state_epoch, self.start_offset = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ReadShareGroupStateSummaryRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]ReadStateSummaryData", (0, 32767), None, None, None, False, ReadStateSummaryData),
)
ReadShareGroupStateSummaryResponse.FIELDS = (
    FieldInfo("results", "Results", "[]ReadStateSummaryResult", (0, 32767), None, None, None, False, ReadStateSummaryResult),
)
ReadStateSummaryData.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, PartitionData),
)
PartitionData.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
ReadStateSummaryResult.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionResult", (0, 32767), None, None, None, False, PartitionResult),
)
PartitionResult.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("state_epoch", "StateEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("start_offset", "StartOffset", "int64", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "PartitionData",
    "PartitionResult",
    "ReadShareGroupStateSummaryRequest",
    "ReadShareGroupStateSummaryResponse",
    "ReadStateSummaryData",
    "ReadStateSummaryResult",
]
