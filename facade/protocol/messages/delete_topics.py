# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DeleteTopicsRequest.json, DeleteTopicsResponse.json - DO NOT EDIT; make gen-protocol
"""DeleteTopics (API key 20): DeleteTopicsRequest and DeleteTopicsResponse, versions 0-6."""

from __future__ import annotations

from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_int16, pack_int32, write_string, write_string_array, write_struct_array, write_tagged_fields


class DeleteTopicsRequest(ApiMessage):
    """DeleteTopicsRequest, versions 0-6, flexible from 4."""

    API_KEY = 20
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 6
    FLEXIBLE_FROM = 4
    __slots__ = ("topics", "topic_names", "timeout_ms", "unknown_tagged_fields",)
    topics: list[DeleteTopicState]
    topic_names: list[str]
    timeout_ms: int

    def __init__(
        self,
        *,
        topics: list[DeleteTopicState] = DEFAULT,
        topic_names: list[str] = DEFAULT,
        timeout_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.topic_names = [] if topic_names is DEFAULT else topic_names
        self.timeout_ms = timeout_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version >= 6:
            write_struct_array(out, self.topics, version, True)
        elif version < 6 and self.topics != []:
            raise absent_field(self, "topics", version)
        if version <= 5:
            write_string_array(out, self.topic_names, flexible)
        out += pack_int32(self.timeout_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.topics = r.struct_array(DeleteTopicState.read, version, True) if version >= 6 else []
        self.topic_names = r.string_array(flexible) if version <= 5 else []
        self.timeout_ms = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteTopicsResponse(ApiMessage):
    """DeleteTopicsResponse, versions 0-6, flexible from 4."""

    API_KEY = 20
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 6
    FLEXIBLE_FROM = 4
    __slots__ = ("throttle_time_ms", "responses", "unknown_tagged_fields",)
    throttle_time_ms: int
    responses: list[DeletableTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        responses: list[DeletableTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is DEFAULT else responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.responses, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.responses = r.struct_array(DeletableTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DeleteTopicState(Struct):
    """DeleteTopicState of DeleteTopicsRequest (in versions 6)."""

    __slots__ = ("name", "topic_id", "unknown_tagged_fields",)
    name: str | None
    topic_id: UUID

    def __init__(
        self,
        *,
        name: str | None = None,
        topic_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True, True)
        out += self.topic_id.bytes
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.nullable_string(True)
        self.topic_id = r.uuid()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeletableTopicResult(Struct):
    """DeletableTopicResult of DeleteTopicsResponse (in versions 0-6)."""

    __slots__ = ("name", "topic_id", "error_code", "error_message", "unknown_tagged_fields",)
    name: str | None
    topic_id: UUID
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        name: str | None = "",
        topic_id: UUID = ZERO_UUID,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.name, flexible, version >= 6)
        if version >= 6:
            out += self.topic_id.bytes
        out += pack_int16(self.error_code)
        if version >= 5:
            write_string(out, self.error_message, True, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.name = (r.nullable_string(flexible) if version >= 6 else r.string(flexible))
        self.topic_id = r.uuid() if version >= 6 else ZERO_UUID
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True) if version >= 5 else None
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


DeleteTopicsRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]DeleteTopicState", (6, 32767), None, None, None, False, DeleteTopicState),
    FieldInfo("topic_names", "TopicNames", "[]string", (0, 5), None, None, None, True, None),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
)
DeleteTopicsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("responses", "Responses", "[]DeletableTopicResult", (0, 32767), None, None, None, False, DeletableTopicResult),
)
DeleteTopicState.FIELDS = (
    FieldInfo("name", "Name", "string", (6, 32767), (6, 32767), None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (6, 32767), None, None, None, False, None),
)
DeletableTopicResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), (6, 32767), None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (6, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (5, 32767), (5, 32767), None, None, True, None),
)


__all__ = [
    "DeletableTopicResult",
    "DeleteTopicState",
    "DeleteTopicsRequest",
    "DeleteTopicsResponse",
]
