# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ListPartitionReassignmentsRequest.json, ListPartitionReassignmentsResponse.json - DO NOT EDIT; make gen-protocol
"""ListPartitionReassignments (API key 46): ListPartitionReassignmentsRequest and ListPartitionReassignmentsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class ListPartitionReassignmentsRequest(ApiMessage):
    """ListPartitionReassignmentsRequest, versions 0, flexible from 0."""

    API_KEY = 46
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("timeout_ms", "topics", "unknown_tagged_fields",)
    timeout_ms: int
    topics: list[ListPartitionReassignmentsTopics] | None

    def __init__(
        self,
        *,
        timeout_ms: int = 60000,
        topics: list[ListPartitionReassignmentsTopics] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.timeout_ms = timeout_ms
        self.topics = None if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.timeout_ms)
        write_struct_array(out, self.topics, version, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.timeout_ms = r.int32()
        self.topics = r.nullable_struct_array(ListPartitionReassignmentsTopics.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ListPartitionReassignmentsResponse(ApiMessage):
    """ListPartitionReassignmentsResponse, versions 0, flexible from 0."""

    API_KEY = 46
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    topics: list[OngoingTopicReassignment]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        topics: list[OngoingTopicReassignment] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.topics = r.struct_array(OngoingTopicReassignment.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ListPartitionReassignmentsTopics(Struct):
    """ListPartitionReassignmentsTopics of ListPartitionReassignmentsRequest (in versions 0)."""

    __slots__ = ("name", "partition_indexes", "unknown_tagged_fields",)
    name: str
    partition_indexes: list[int]

    def __init__(
        self,
        *,
        name: str = "",
        partition_indexes: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partition_indexes = [] if partition_indexes is DEFAULT else partition_indexes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_int_array(out, "i", self.partition_indexes, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.partition_indexes = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class OngoingTopicReassignment(Struct):
    """OngoingTopicReassignment of ListPartitionReassignmentsResponse (in versions 0)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OngoingPartitionReassignment]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OngoingPartitionReassignment] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.partitions = r.struct_array(OngoingPartitionReassignment.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class OngoingPartitionReassignment(Struct):
    """OngoingPartitionReassignment of ListPartitionReassignmentsResponse (in versions 0)."""

    __slots__ = ("partition_index", "replicas", "adding_replicas", "removing_replicas", "unknown_tagged_fields",)
    partition_index: int
    replicas: list[int]
    adding_replicas: list[int]
    removing_replicas: list[int]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        replicas: list[int] = DEFAULT,
        adding_replicas: list[int] = DEFAULT,
        removing_replicas: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.replicas = [] if replicas is DEFAULT else replicas
        self.adding_replicas = [] if adding_replicas is DEFAULT else adding_replicas
        self.removing_replicas = [] if removing_replicas is DEFAULT else removing_replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.partition_index)
        write_int_array(out, "i", self.replicas, True)
        write_int_array(out, "i", self.adding_replicas, True)
        write_int_array(out, "i", self.removing_replicas, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index = r.int32()
        self.replicas = r.int_array("i", True)
        self.adding_replicas = r.int_array("i", True)
        self.removing_replicas = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ListPartitionReassignmentsRequest.FIELDS = (
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]ListPartitionReassignmentsTopics", (0, 32767), (0, 32767), None, None, False, ListPartitionReassignmentsTopics),
)
ListPartitionReassignmentsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("topics", "Topics", "[]OngoingTopicReassignment", (0, 32767), None, None, None, False, OngoingTopicReassignment),
)
ListPartitionReassignmentsTopics.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_indexes", "PartitionIndexes", "[]int32", (0, 32767), None, None, None, False, None),
)
OngoingTopicReassignment.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OngoingPartitionReassignment", (0, 32767), None, None, None, False, OngoingPartitionReassignment),
)
OngoingPartitionReassignment.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replicas", "Replicas", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("adding_replicas", "AddingReplicas", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("removing_replicas", "RemovingReplicas", "[]int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ListPartitionReassignmentsRequest",
    "ListPartitionReassignmentsResponse",
    "ListPartitionReassignmentsTopics",
    "OngoingPartitionReassignment",
    "OngoingTopicReassignment",
]
