# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 CreatePartitionsRequest.json, CreatePartitionsResponse.json - DO NOT EDIT; make gen-protocol
"""CreatePartitions (API key 37): CreatePartitionsRequest and CreatePartitionsResponse, versions 0-3."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">i?")


class CreatePartitionsRequest(ApiMessage):
    """CreatePartitionsRequest, versions 0-3, flexible from 2."""

    API_KEY = 37
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("topics", "timeout_ms", "validate_only", "unknown_tagged_fields",)
    topics: list[CreatePartitionsTopic]
    timeout_ms: int
    validate_only: bool

    def __init__(
        self,
        *,
        topics: list[CreatePartitionsTopic] = DEFAULT,
        timeout_ms: int = 0,
        validate_only: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.topics, version, flexible)
        out += _S1.pack(self.timeout_ms, self.validate_only)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topics = r.struct_array(CreatePartitionsTopic.read, version, flexible)
        self.timeout_ms, self.validate_only = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatePartitionsResponse(ApiMessage):
    """CreatePartitionsResponse, versions 0-3, flexible from 2."""

    API_KEY = 37
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    results: list[CreatePartitionsTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[CreatePartitionsTopicResult] = DEFAULT,
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
        self.results = r.struct_array(CreatePartitionsTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatePartitionsTopic(Struct):
    """CreatePartitionsTopic of CreatePartitionsRequest (in versions 0-3)."""

    __slots__ = ("name", "count", "assignments", "unknown_tagged_fields",)
    name: str
    count: int
    assignments: list[CreatePartitionsAssignment] | None

    def __init__(
        self,
        *,
        name: str = "",
        count: int = 0,
        assignments: list[CreatePartitionsAssignment] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.count = count
        self.assignments = [] if assignments is DEFAULT else assignments
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.name, flexible)
        out += pack_int32(self.count)
        write_struct_array(out, self.assignments, version, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.count = r.int32()
        self.assignments = r.nullable_struct_array(CreatePartitionsAssignment.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatePartitionsAssignment(Struct):
    """CreatePartitionsAssignment of CreatePartitionsRequest (in versions 0-3)."""

    __slots__ = ("broker_ids", "unknown_tagged_fields",)
    broker_ids: list[int]

    def __init__(
        self,
        *,
        broker_ids: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_ids = [] if broker_ids is DEFAULT else broker_ids
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_int_array(out, "i", self.broker_ids, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.broker_ids = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatePartitionsTopicResult(Struct):
    """CreatePartitionsTopicResult of CreatePartitionsResponse (in versions 0-3)."""

    __slots__ = ("name", "error_code", "error_message", "unknown_tagged_fields",)
    name: str
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        name: str = "",
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.name, flexible)
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


CreatePartitionsRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]CreatePartitionsTopic", (0, 32767), None, None, None, False, CreatePartitionsTopic),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("validate_only", "ValidateOnly", "bool", (0, 32767), None, None, None, False, None),
)
CreatePartitionsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("results", "Results", "[]CreatePartitionsTopicResult", (0, 32767), None, None, None, False, CreatePartitionsTopicResult),
)
CreatePartitionsTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("count", "Count", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("assignments", "Assignments", "[]CreatePartitionsAssignment", (0, 32767), (0, 32767), None, None, False, CreatePartitionsAssignment),
)
CreatePartitionsAssignment.FIELDS = (
    FieldInfo("broker_ids", "BrokerIds", "[]int32", (0, 32767), None, None, None, False, None),
)
CreatePartitionsTopicResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "CreatePartitionsAssignment",
    "CreatePartitionsRequest",
    "CreatePartitionsResponse",
    "CreatePartitionsTopic",
    "CreatePartitionsTopicResult",
]
