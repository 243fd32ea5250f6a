# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeLogDirsRequest.json, DescribeLogDirsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeLogDirs (API key 35): DescribeLogDirsRequest and DescribeLogDirsResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">qq")
_S2 = _Struct(">iqq?")


class DescribeLogDirsRequest(ApiMessage):
    """DescribeLogDirsRequest, versions 0-4, flexible from 2."""

    API_KEY = 35
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 2
    __slots__ = ("topics", "unknown_tagged_fields",)
    topics: list[DescribableLogDirTopic] | None

    def __init__(
        self,
        *,
        topics: list[DescribableLogDirTopic] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.topics, version, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topics = r.nullable_struct_array(DescribableLogDirTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeLogDirsResponse(ApiMessage):
    """DescribeLogDirsResponse, versions 0-4, flexible from 2."""

    API_KEY = 35
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "error_code", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    results: list[DescribeLogDirsResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        results: list[DescribeLogDirsResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
        if version >= 3:
            out += pack_int16(self.error_code)
        write_struct_array(out, self.results, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms = r.int32()
        self.error_code = r.int16() if version >= 3 else 0
        self.results = r.struct_array(DescribeLogDirsResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribableLogDirTopic(Struct):
    """DescribableLogDirTopic of DescribeLogDirsRequest (in versions 0-4)."""

    __slots__ = ("topic", "partitions", "unknown_tagged_fields",)
    topic: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.topic, flexible)
        write_int_array(out, "i", self.partitions, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topic = r.string(flexible)
        self.partitions = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeLogDirsResult(Struct):
    """DescribeLogDirsResult of DescribeLogDirsResponse (in versions 0-4)."""

    __slots__ = ("error_code", "log_dir", "topics", "total_bytes", "usable_bytes", "unknown_tagged_fields",)
    error_code: int
    log_dir: str
    topics: list[DescribeLogDirsTopic]
    total_bytes: int
    usable_bytes: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        log_dir: str = "",
        topics: list[DescribeLogDirsTopic] = DEFAULT,
        total_bytes: int = -1,
        usable_bytes: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.log_dir = log_dir
        self.topics = [] if topics is DEFAULT else topics
        self.total_bytes = total_bytes
        self.usable_bytes = usable_bytes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.log_dir, flexible)
        write_struct_array(out, self.topics, version, flexible)
        if version >= 4:
            out += _S1.pack(self.total_bytes, self.usable_bytes)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code = r.int16()
        self.log_dir = r.string(flexible)
        self.topics = r.struct_array(DescribeLogDirsTopic.read, version, flexible)
        if version >= 4:
            self.total_bytes, self.usable_bytes = r.fixed(_S1)
        else:
            self.total_bytes = -1
            self.usable_bytes = -1
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeLogDirsTopic(Struct):
    """DescribeLogDirsTopic of DescribeLogDirsResponse (in versions 0-4)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[DescribeLogDirsPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[DescribeLogDirsPartition] = DEFAULT,
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
        self.partitions = r.struct_array(DescribeLogDirsPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeLogDirsPartition(Struct):
    """DescribeLogDirsPartition of DescribeLogDirsResponse (in versions 0-4)."""

    __slots__ = ("partition_index", "partition_size", "offset_lag", "is_future_key", "unknown_tagged_fields",)
    partition_index: int
    partition_size: int
    offset_lag: int
    is_future_key: bool

    def __init__(
        self,
        *,
        partition_index: int = 0,
        partition_size: int = 0,
        offset_lag: int = 0,
        is_future_key: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.partition_size = partition_size
        self.offset_lag = offset_lag
        self.is_future_key = is_future_key
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S2.pack(self.partition_index, self.partition_size, self.offset_lag, self.is_future_key)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.partition_index, self.partition_size, self.offset_lag, self.is_future_key = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DescribeLogDirsRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]DescribableLogDirTopic", (0, 32767), (0, 32767), None, None, False, DescribableLogDirTopic),
)
DescribeLogDirsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (3, 32767), None, None, None, True, None),
    FieldInfo("results", "Results", "[]DescribeLogDirsResult", (0, 32767), None, None, None, False, DescribeLogDirsResult),
)
DescribableLogDirTopic.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)
DescribeLogDirsResult.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("log_dir", "LogDir", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]DescribeLogDirsTopic", (0, 32767), None, None, None, False, DescribeLogDirsTopic),
    FieldInfo("total_bytes", "TotalBytes", "int64", (4, 32767), None, None, None, True, None),
    FieldInfo("usable_bytes", "UsableBytes", "int64", (4, 32767), None, None, None, True, None),
)
DescribeLogDirsTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]DescribeLogDirsPartition", (0, 32767), None, None, None, False, DescribeLogDirsPartition),
)
DescribeLogDirsPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_size", "PartitionSize", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("offset_lag", "OffsetLag", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("is_future_key", "IsFutureKey", "bool", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribableLogDirTopic",
    "DescribeLogDirsPartition",
    "DescribeLogDirsRequest",
    "DescribeLogDirsResponse",
    "DescribeLogDirsResult",
    "DescribeLogDirsTopic",
]
