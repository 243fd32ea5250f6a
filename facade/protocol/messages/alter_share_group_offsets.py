# GENERATED FROM apache/kafka@e510e8ee724b6a0678396ea50c2fd532185f37be newer_specs/AlterShareGroupOffsetsRequest.json, newer_specs/AlterShareGroupOffsetsResponse.json - DO NOT EDIT; make gen-protocol
"""AlterShareGroupOffsets (API key 91): AlterShareGroupOffsetsRequest and AlterShareGroupOffsetsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">iq")


class AlterShareGroupOffsetsRequest(ApiMessage):
    """AlterShareGroupOffsetsRequest, versions 0, flexible from 0."""

    API_KEY = 91
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("group_id", "topics", "unknown_tagged_fields",)
    group_id: str
    topics: list[AlterShareGroupOffsetsRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[AlterShareGroupOffsetsRequestTopic] = DEFAULT,
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
        self.topics = r.struct_array(AlterShareGroupOffsetsRequestTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterShareGroupOffsetsResponse(ApiMessage):
    """AlterShareGroupOffsetsResponse, versions 0, flexible from 0."""

    API_KEY = 91
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "responses", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[AlterShareGroupOffsetsResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        responses: list[AlterShareGroupOffsetsResponseTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is DEFAULT else responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_struct_array(out, self.responses, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.responses = r.struct_array(AlterShareGroupOffsetsResponseTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterShareGroupOffsetsRequestTopic(Struct):
    """AlterShareGroupOffsetsRequestTopic of AlterShareGroupOffsetsRequest (in versions 0)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[AlterShareGroupOffsetsRequestPartition]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[AlterShareGroupOffsetsRequestPartition] = DEFAULT,
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
        self.partitions = r.struct_array(AlterShareGroupOffsetsRequestPartition.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterShareGroupOffsetsRequestPartition(Struct):
    """AlterShareGroupOffsetsRequestPartition of AlterShareGroupOffsetsRequest (in versions 0)."""

    __slots__ = ("partition_index", "start_offset", "unknown_tagged_fields",)
    partition_index: int
    start_offset: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        start_offset: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.partition_index, self.start_offset)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.start_offset = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterShareGroupOffsetsResponseTopic(Struct):
    """AlterShareGroupOffsetsResponseTopic of AlterShareGroupOffsetsResponse (in versions 0)."""

    __slots__ = ("topic_name", "topic_id", "partitions", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    partitions: list[AlterShareGroupOffsetsResponsePartition]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[AlterShareGroupOffsetsResponsePartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.topic_id = r.uuid()
        self.partitions = r.struct_array(AlterShareGroupOffsetsResponsePartition.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterShareGroupOffsetsResponsePartition(Struct):
    """AlterShareGroupOffsetsResponsePartition of AlterShareGroupOffsetsResponse (in versions 0)."""

    __slots__ = ("partition_index", "error_code", "error_message", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


AlterShareGroupOffsetsRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]AlterShareGroupOffsetsRequestTopic", (0, 32767), None, None, None, False, AlterShareGroupOffsetsRequestTopic),
)
AlterShareGroupOffsetsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("responses", "Responses", "[]AlterShareGroupOffsetsResponseTopic", (0, 32767), None, None, None, False, AlterShareGroupOffsetsResponseTopic),
)
AlterShareGroupOffsetsRequestTopic.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]AlterShareGroupOffsetsRequestPartition", (0, 32767), None, None, None, False, AlterShareGroupOffsetsRequestPartition),
)
AlterShareGroupOffsetsRequestPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("start_offset", "StartOffset", "int64", (0, 32767), None, None, None, False, None),
)
AlterShareGroupOffsetsResponseTopic.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]AlterShareGroupOffsetsResponsePartition", (0, 32767), None, None, None, False, AlterShareGroupOffsetsResponsePartition),
)
AlterShareGroupOffsetsResponsePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "AlterShareGroupOffsetsRequest",
    "AlterShareGroupOffsetsRequestPartition",
    "AlterShareGroupOffsetsRequestTopic",
    "AlterShareGroupOffsetsResponse",
    "AlterShareGroupOffsetsResponsePartition",
    "AlterShareGroupOffsetsResponseTopic",
]
