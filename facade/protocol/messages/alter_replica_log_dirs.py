# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AlterReplicaLogDirsRequest.json, AlterReplicaLogDirsResponse.json - DO NOT EDIT; make gen-protocol
"""AlterReplicaLogDirs (API key 34): AlterReplicaLogDirsRequest and AlterReplicaLogDirsResponse, versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class AlterReplicaLogDirsRequest(ApiMessage):
    """AlterReplicaLogDirsRequest, versions 0-2, flexible from 2."""

    API_KEY = 34
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("dirs", "unknown_tagged_fields",)
    dirs: list[AlterReplicaLogDir]

    def __init__(
        self,
        *,
        dirs: list[AlterReplicaLogDir] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.dirs = [] if dirs is DEFAULT else dirs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.dirs, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.dirs = r.struct_array(AlterReplicaLogDir.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterReplicaLogDirsResponse(ApiMessage):
    """AlterReplicaLogDirsResponse, versions 0-2, flexible from 2."""

    API_KEY = 34
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    results: list[AlterReplicaLogDirTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[AlterReplicaLogDirTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
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
        self.results = r.struct_array(AlterReplicaLogDirTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterReplicaLogDir(Struct):
    """AlterReplicaLogDir of AlterReplicaLogDirsRequest (in versions 0-2)."""

    __slots__ = ("path", "topics", "unknown_tagged_fields",)
    path: str
    topics: list[AlterReplicaLogDirTopic]

    def __init__(
        self,
        *,
        path: str = "",
        topics: list[AlterReplicaLogDirTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.path = path
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.path, flexible)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.path = r.string(flexible)
        self.topics = r.struct_array(AlterReplicaLogDirTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterReplicaLogDirTopic(Struct):
    """AlterReplicaLogDirTopic of AlterReplicaLogDirsRequest (in versions 0-2)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.name, flexible)
        write_int_array(out, "i", self.partitions, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.partitions = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterReplicaLogDirTopicResult(Struct):
    """AlterReplicaLogDirTopicResult of AlterReplicaLogDirsResponse (in versions 0-2)."""

    __slots__ = ("topic_name", "partitions", "unknown_tagged_fields",)
    topic_name: str
    partitions: list[AlterReplicaLogDirPartitionResult]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[AlterReplicaLogDirPartitionResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.topic_name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topic_name = r.string(flexible)
        self.partitions = r.struct_array(AlterReplicaLogDirPartitionResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AlterReplicaLogDirPartitionResult(Struct):
    """AlterReplicaLogDirPartitionResult of AlterReplicaLogDirsResponse (in versions 0-2)."""

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
        flexible = version >= 2
        out += _S1.pack(self.partition_index, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.partition_index, self.error_code = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


AlterReplicaLogDirsRequest.FIELDS = (
    FieldInfo("dirs", "Dirs", "[]AlterReplicaLogDir", (0, 32767), None, None, None, False, AlterReplicaLogDir),
)
AlterReplicaLogDirsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("results", "Results", "[]AlterReplicaLogDirTopicResult", (0, 32767), None, None, None, False, AlterReplicaLogDirTopicResult),
)
AlterReplicaLogDir.FIELDS = (
    FieldInfo("path", "Path", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]AlterReplicaLogDirTopic", (0, 32767), None, None, None, False, AlterReplicaLogDirTopic),
)
AlterReplicaLogDirTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)
AlterReplicaLogDirTopicResult.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]AlterReplicaLogDirPartitionResult", (0, 32767), None, None, None, False, AlterReplicaLogDirPartitionResult),
)
AlterReplicaLogDirPartitionResult.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AlterReplicaLogDir",
    "AlterReplicaLogDirPartitionResult",
    "AlterReplicaLogDirTopic",
    "AlterReplicaLogDirTopicResult",
    "AlterReplicaLogDirsRequest",
    "AlterReplicaLogDirsResponse",
]
