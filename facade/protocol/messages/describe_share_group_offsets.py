# GENERATED FROM apache/kafka@09f382cf33d24ab9df0ea649fe88114dc1d68846 newer_specs/DescribeShareGroupOffsetsRequest.json, newer_specs/DescribeShareGroupOffsetsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeShareGroupOffsets (API key 90): DescribeShareGroupOffsetsRequest and DescribeShareGroupOffsetsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iqih")


class DescribeShareGroupOffsetsRequest(ApiMessage):
    """DescribeShareGroupOffsetsRequest, versions 0, flexible from 0."""

    API_KEY = 90
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("groups", "unknown_tagged_fields",)
    groups: list[DescribeShareGroupOffsetsRequestGroup]

    def __init__(
        self,
        *,
        groups: list[DescribeShareGroupOffsetsRequestGroup] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.groups = [] if groups is DEFAULT else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.groups, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.groups = r.struct_array(DescribeShareGroupOffsetsRequestGroup.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeShareGroupOffsetsResponse(ApiMessage):
    """DescribeShareGroupOffsetsResponse, versions 0, flexible from 0."""

    API_KEY = 90
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "groups", "unknown_tagged_fields",)
    throttle_time_ms: int
    groups: list[DescribeShareGroupOffsetsResponseGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        groups: list[DescribeShareGroupOffsetsResponseGroup] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is DEFAULT else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.groups, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms = r.int32()
        self.groups = r.struct_array(DescribeShareGroupOffsetsResponseGroup.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeShareGroupOffsetsRequestGroup(Struct):
    """DescribeShareGroupOffsetsRequestGroup of DescribeShareGroupOffsetsRequest (in versions 0)."""

    __slots__ = ("group_id", "topics", "unknown_tagged_fields",)
    group_id: str
    topics: list[DescribeShareGroupOffsetsRequestTopic] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DescribeShareGroupOffsetsRequestTopic] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True)
        write_struct_array(out, self.topics, version, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(True)
        self.topics = r.nullable_struct_array(DescribeShareGroupOffsetsRequestTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeShareGroupOffsetsRequestTopic(Struct):
    """DescribeShareGroupOffsetsRequestTopic of DescribeShareGroupOffsetsRequest (in versions 0)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        write_int_array(out, "i", self.partitions, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.partitions = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeShareGroupOffsetsResponseGroup(Struct):
    """DescribeShareGroupOffsetsResponseGroup of DescribeShareGroupOffsetsResponse (in versions 0)."""

    __slots__ = ("group_id", "topics", "error_code", "error_message", "unknown_tagged_fields",)
    group_id: str
    topics: list[DescribeShareGroupOffsetsResponseTopic]
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DescribeShareGroupOffsetsResponseTopic] = DEFAULT,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True)
        write_struct_array(out, self.topics, version, True)
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(True)
        self.topics = r.struct_array(DescribeShareGroupOffsetsResponseTopic.read, version, True)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeShareGroupOffsetsResponseTopic(Struct):
    """DescribeShareGroupOffsetsResponseTopic of DescribeShareGroupOffsetsResponse (in versions 0)."""

    __slots__ = ("topic_name", "topic_id", "partitions", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    partitions: list[DescribeShareGroupOffsetsResponsePartition]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[DescribeShareGroupOffsetsResponsePartition] = DEFAULT,
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
        self.partitions = r.struct_array(DescribeShareGroupOffsetsResponsePartition.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeShareGroupOffsetsResponsePartition(Struct):
    """DescribeShareGroupOffsetsResponsePartition of DescribeShareGroupOffsetsResponse (in versions 0)."""

    __slots__ = ("partition_index", "start_offset", "leader_epoch", "error_code", "error_message", "unknown_tagged_fields",)
    partition_index: int
    start_offset: int
    leader_epoch: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        start_offset: int = 0,
        leader_epoch: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.leader_epoch = leader_epoch
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.start_offset, self.leader_epoch, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.start_offset, self.leader_epoch, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DescribeShareGroupOffsetsRequest.FIELDS = (
    FieldInfo("groups", "Groups", "[]DescribeShareGroupOffsetsRequestGroup", (0, 32767), None, None, None, False, DescribeShareGroupOffsetsRequestGroup),
)
DescribeShareGroupOffsetsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("groups", "Groups", "[]DescribeShareGroupOffsetsResponseGroup", (0, 32767), None, None, None, False, DescribeShareGroupOffsetsResponseGroup),
)
DescribeShareGroupOffsetsRequestGroup.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]DescribeShareGroupOffsetsRequestTopic", (0, 32767), (0, 32767), None, None, False, DescribeShareGroupOffsetsRequestTopic),
)
DescribeShareGroupOffsetsRequestTopic.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)
DescribeShareGroupOffsetsResponseGroup.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]DescribeShareGroupOffsetsResponseTopic", (0, 32767), None, None, None, False, DescribeShareGroupOffsetsResponseTopic),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)
DescribeShareGroupOffsetsResponseTopic.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]DescribeShareGroupOffsetsResponsePartition", (0, 32767), None, None, None, False, DescribeShareGroupOffsetsResponsePartition),
)
DescribeShareGroupOffsetsResponsePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("start_offset", "StartOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "DescribeShareGroupOffsetsRequest",
    "DescribeShareGroupOffsetsRequestGroup",
    "DescribeShareGroupOffsetsRequestTopic",
    "DescribeShareGroupOffsetsResponse",
    "DescribeShareGroupOffsetsResponseGroup",
    "DescribeShareGroupOffsetsResponsePartition",
    "DescribeShareGroupOffsetsResponseTopic",
]
