# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DeleteRecordsRequest.json, DeleteRecordsResponse.json - DO NOT EDIT; make gen-protocol
"""DeleteRecords (API key 21): DeleteRecordsRequest and DeleteRecordsResponse, versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iq")
_S2 = _Struct(">iqh")


class DeleteRecordsRequest(ApiMessage):
    """DeleteRecordsRequest, versions 0-2, flexible from 2."""

    API_KEY = 21
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("topics", "timeout_ms", "unknown_tagged_fields",)
    topics: list[DeleteRecordsTopic]
    timeout_ms: int

    def __init__(
        self,
        *,
        topics: list[DeleteRecordsTopic] = DEFAULT,
        timeout_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.topics, version, flexible)
        out += pack_int32(self.timeout_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topics = r.struct_array(DeleteRecordsTopic.read, version, flexible)
        self.timeout_ms = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteRecordsResponse(ApiMessage):
    """DeleteRecordsResponse, versions 0-2, flexible from 2."""

    API_KEY = 21
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[DeleteRecordsTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[DeleteRecordsTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms = r.int32()
        self.topics = r.struct_array(DeleteRecordsTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteRecordsTopic(Struct):
    """DeleteRecordsTopic of DeleteRecordsRequest (in versions 0-2)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[DeleteRecordsPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[DeleteRecordsPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.partitions = r.struct_array(DeleteRecordsPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteRecordsPartition(Struct):
    """DeleteRecordsPartition of DeleteRecordsRequest (in versions 0-2)."""

    __slots__ = ("partition_index", "offset", "unknown_tagged_fields",)
    partition_index: int
    offset: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        offset: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.offset = offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S1.pack(self.partition_index, self.offset)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.partition_index, self.offset = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteRecordsTopicResult(Struct):
    """DeleteRecordsTopicResult of DeleteRecordsResponse (in versions 0-2)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[DeleteRecordsPartitionResult]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[DeleteRecordsPartitionResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.partitions = r.struct_array(DeleteRecordsPartitionResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteRecordsPartitionResult(Struct):
    """DeleteRecordsPartitionResult of DeleteRecordsResponse (in versions 0-2)."""

    __slots__ = ("partition_index", "low_watermark", "error_code", "unknown_tagged_fields",)
    partition_index: int
    low_watermark: int
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        low_watermark: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.low_watermark = low_watermark
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S2.pack(self.partition_index, self.low_watermark, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.partition_index, self.low_watermark, self.error_code = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DeleteRecordsRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]DeleteRecordsTopic", (0, 32767), None, None, None, False, DeleteRecordsTopic),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
)
DeleteRecordsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]DeleteRecordsTopicResult", (0, 32767), None, None, None, False, DeleteRecordsTopicResult),
)
DeleteRecordsTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]DeleteRecordsPartition", (0, 32767), None, None, None, False, DeleteRecordsPartition),
)
DeleteRecordsPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("offset", "Offset", "int64", (0, 32767), None, None, None, False, None),
)
DeleteRecordsTopicResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]DeleteRecordsPartitionResult", (0, 32767), None, None, None, False, DeleteRecordsPartitionResult),
)
DeleteRecordsPartitionResult.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("low_watermark", "LowWatermark", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DeleteRecordsPartition",
    "DeleteRecordsPartitionResult",
    "DeleteRecordsRequest",
    "DeleteRecordsResponse",
    "DeleteRecordsTopic",
    "DeleteRecordsTopicResult",
]
