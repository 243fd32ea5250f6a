# GENERATED FROM apache/kafka@27a9a4a3eae82d6f60bd9fa4fd23a33b5fbf048c newer_specs/DeleteShareGroupOffsetsRequest.json, newer_specs/DeleteShareGroupOffsetsResponse.json - DO NOT EDIT; make gen-protocol
"""DeleteShareGroupOffsets (API key 92): DeleteShareGroupOffsetsRequest and DeleteShareGroupOffsetsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_int16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class DeleteShareGroupOffsetsRequest(ApiMessage):
    """DeleteShareGroupOffsetsRequest, versions 0, flexible from 0."""

    API_KEY = 92
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("group_id", "topics", "unknown_tagged_fields",)
    group_id: str
    topics: list[DeleteShareGroupOffsetsRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DeleteShareGroupOffsetsRequestTopic] = DEFAULT,
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
        self.topics = r.struct_array(DeleteShareGroupOffsetsRequestTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeleteShareGroupOffsetsResponse(ApiMessage):
    """DeleteShareGroupOffsetsResponse, versions 0, flexible from 0."""

    API_KEY = 92
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "responses", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[DeleteShareGroupOffsetsResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        responses: list[DeleteShareGroupOffsetsResponseTopic] = DEFAULT,
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
        self.responses = r.struct_array(DeleteShareGroupOffsetsResponseTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeleteShareGroupOffsetsRequestTopic(Struct):
    """DeleteShareGroupOffsetsRequestTopic of DeleteShareGroupOffsetsRequest (in versions 0)."""

    __slots__ = ("topic_name", "unknown_tagged_fields",)
    topic_name: str

    def __init__(
        self,
        *,
        topic_name: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DeleteShareGroupOffsetsResponseTopic(Struct):
    """DeleteShareGroupOffsetsResponseTopic of DeleteShareGroupOffsetsResponse (in versions 0)."""

    __slots__ = ("topic_name", "topic_id", "error_code", "error_message", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        out += self.topic_id.bytes
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.topic_id = r.uuid()
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DeleteShareGroupOffsetsRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]DeleteShareGroupOffsetsRequestTopic", (0, 32767), None, None, None, False, DeleteShareGroupOffsetsRequestTopic),
)
DeleteShareGroupOffsetsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("responses", "Responses", "[]DeleteShareGroupOffsetsResponseTopic", (0, 32767), None, None, None, False, DeleteShareGroupOffsetsResponseTopic),
)
DeleteShareGroupOffsetsRequestTopic.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
)
DeleteShareGroupOffsetsResponseTopic.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "DeleteShareGroupOffsetsRequest",
    "DeleteShareGroupOffsetsRequestTopic",
    "DeleteShareGroupOffsetsResponse",
    "DeleteShareGroupOffsetsResponseTopic",
]
