# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 OffsetDeleteRequest.json, OffsetDeleteResponse.json - DO NOT EDIT; make gen-protocol
"""OffsetDelete (API key 47): OffsetDeleteRequest and OffsetDeleteResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int32, write_string, write_struct_array

_S1 = _Struct(">hi")
_S2 = _Struct(">ih")


class OffsetDeleteRequest(ApiMessage):
    """OffsetDeleteRequest, versions 0."""

    API_KEY = 47
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = None
    __slots__ = ("group_id", "topics", "unknown_tagged_fields",)
    group_id: str
    topics: list[OffsetDeleteRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[OffsetDeleteRequestTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, False)
        write_struct_array(out, self.topics, version, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(False)
        self.topics = r.struct_array(OffsetDeleteRequestTopic.read, version, False)
        self.unknown_tagged_fields = {}
        return self


class OffsetDeleteResponse(ApiMessage):
    """OffsetDeleteResponse, versions 0."""

    API_KEY = 47
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = None
    __slots__ = ("error_code", "throttle_time_ms", "topics", "unknown_tagged_fields",)
    error_code: int
    throttle_time_ms: int
    topics: list[OffsetDeleteResponseTopic]

    def __init__(
        self,
        *,
        error_code: int = 0,
        throttle_time_ms: int = 0,
        topics: list[OffsetDeleteResponseTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.error_code, self.throttle_time_ms)
        write_struct_array(out, self.topics, version, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code, self.throttle_time_ms = r.fixed(_S1)
        self.topics = r.struct_array(OffsetDeleteResponseTopic.read, version, False)
        self.unknown_tagged_fields = {}
        return self


class OffsetDeleteRequestTopic(Struct):
    """OffsetDeleteRequestTopic of OffsetDeleteRequest (in versions 0)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OffsetDeleteRequestPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetDeleteRequestPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, False)
        write_struct_array(out, self.partitions, version, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(False)
        self.partitions = r.struct_array(OffsetDeleteRequestPartition.read, version, False)
        self.unknown_tagged_fields = {}
        return self


class OffsetDeleteRequestPartition(Struct):
    """OffsetDeleteRequestPartition of OffsetDeleteRequest (in versions 0)."""

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
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index = r.int32()
        self.unknown_tagged_fields = {}
        return self


class OffsetDeleteResponseTopic(Struct):
    """OffsetDeleteResponseTopic of OffsetDeleteResponse (in versions 0)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OffsetDeleteResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetDeleteResponsePartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, False)
        write_struct_array(out, self.partitions, version, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(False)
        self.partitions = r.struct_array(OffsetDeleteResponsePartition.read, version, False)
        self.unknown_tagged_fields = {}
        return self


class OffsetDeleteResponsePartition(Struct):
    """OffsetDeleteResponsePartition of OffsetDeleteResponse (in versions 0)."""

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
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S2)
        self.unknown_tagged_fields = {}
        return self


OffsetDeleteRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]OffsetDeleteRequestTopic", (0, 32767), None, None, None, False, OffsetDeleteRequestTopic),
)
OffsetDeleteResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetDeleteResponseTopic", (0, 32767), None, None, None, False, OffsetDeleteResponseTopic),
)
OffsetDeleteRequestTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetDeleteRequestPartition", (0, 32767), None, None, None, False, OffsetDeleteRequestPartition),
)
OffsetDeleteRequestPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
)
OffsetDeleteResponseTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetDeleteResponsePartition", (0, 32767), None, None, None, False, OffsetDeleteResponsePartition),
)
OffsetDeleteResponsePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "OffsetDeleteRequest",
    "OffsetDeleteRequestPartition",
    "OffsetDeleteRequestTopic",
    "OffsetDeleteResponse",
    "OffsetDeleteResponsePartition",
    "OffsetDeleteResponseTopic",
]
