# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AlterPartitionReassignmentsRequest.json, AlterPartitionReassignmentsResponse.json - DO NOT EDIT; make gen-protocol
"""AlterPartitionReassignments (API key 45): AlterPartitionReassignmentsRequest and AlterPartitionReassignmentsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class AlterPartitionReassignmentsRequest(ApiMessage):
    """AlterPartitionReassignmentsRequest, versions 0, flexible from 0."""

    API_KEY = 45
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("timeout_ms", "topics", "unknown_tagged_fields",)
    timeout_ms: int
    topics: list[ReassignableTopic]

    def __init__(
        self,
        *,
        timeout_ms: int = 60000,
        topics: list[ReassignableTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.timeout_ms = timeout_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.timeout_ms)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.timeout_ms = r.int32()
        self.topics = r.struct_array(ReassignableTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterPartitionReassignmentsResponse(ApiMessage):
    """AlterPartitionReassignmentsResponse, versions 0, flexible from 0."""

    API_KEY = 45
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "responses", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[ReassignableTopicResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        responses: list[ReassignableTopicResponse] = DEFAULT,
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
        self.responses = r.struct_array(ReassignableTopicResponse.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReassignableTopic(Struct):
    """ReassignableTopic of AlterPartitionReassignmentsRequest (in versions 0)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[ReassignablePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[ReassignablePartition] = DEFAULT,
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
        self.partitions = r.struct_array(ReassignablePartition.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReassignablePartition(Struct):
    """ReassignablePartition of AlterPartitionReassignmentsRequest (in versions 0)."""

    __slots__ = ("partition_index", "replicas", "unknown_tagged_fields",)
    partition_index: int
    replicas: list[int] | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        replicas: list[int] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.replicas = None if replicas is DEFAULT else replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.partition_index)
        write_int_array(out, "i", self.replicas, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index = r.int32()
        self.replicas = r.nullable_int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReassignableTopicResponse(Struct):
    """ReassignableTopicResponse of AlterPartitionReassignmentsResponse (in versions 0)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[ReassignablePartitionResponse]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[ReassignablePartitionResponse] = DEFAULT,
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
        self.partitions = r.struct_array(ReassignablePartitionResponse.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ReassignablePartitionResponse(Struct):
    """ReassignablePartitionResponse of AlterPartitionReassignmentsResponse (in versions 0)."""

    __slots__ = ("partition_index", "error_code", "error_message", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
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


AlterPartitionReassignmentsRequest.FIELDS = (
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]ReassignableTopic", (0, 32767), None, None, None, False, ReassignableTopic),
)
AlterPartitionReassignmentsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("responses", "Responses", "[]ReassignableTopicResponse", (0, 32767), None, None, None, False, ReassignableTopicResponse),
)
ReassignableTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]ReassignablePartition", (0, 32767), None, None, None, False, ReassignablePartition),
)
ReassignablePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replicas", "Replicas", "[]int32", (0, 32767), (0, 32767), None, None, False, None),
)
ReassignableTopicResponse.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]ReassignablePartitionResponse", (0, 32767), None, None, None, False, ReassignablePartitionResponse),
)
ReassignablePartitionResponse.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "AlterPartitionReassignmentsRequest",
    "AlterPartitionReassignmentsResponse",
    "ReassignablePartition",
    "ReassignablePartitionResponse",
    "ReassignableTopic",
    "ReassignableTopicResponse",
]
