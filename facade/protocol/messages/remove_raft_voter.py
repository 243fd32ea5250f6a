# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 RemoveRaftVoterRequest.json, RemoveRaftVoterResponse.json - DO NOT EDIT; make gen-protocol
"""RemoveRaftVoter (API key 81): RemoveRaftVoterRequest and RemoveRaftVoterResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo
from ..primitives import Reader, ZERO_UUID, pack_int32, write_string, write_tagged_fields

_S1 = _Struct(">ih")


class RemoveRaftVoterRequest(ApiMessage):
    """RemoveRaftVoterRequest, versions 0, flexible from 0."""

    API_KEY = 81
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("cluster_id", "voter_id", "voter_directory_id", "unknown_tagged_fields",)
    cluster_id: str | None
    voter_id: int
    voter_directory_id: UUID

    def __init__(
        self,
        *,
        cluster_id: str | None = "",
        voter_id: int = 0,
        voter_directory_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.cluster_id, True, True)
        out += pack_int32(self.voter_id)
        out += self.voter_directory_id.bytes
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.cluster_id = r.nullable_string(True)
        self.voter_id = r.int32()
        self.voter_directory_id = r.uuid()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class RemoveRaftVoterResponse(ApiMessage):
    """RemoveRaftVoterResponse, versions 0, flexible from 0."""

    API_KEY = 81
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


RemoveRaftVoterRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("voter_id", "VoterId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (0, 32767), None, None, None, False, None),
)
RemoveRaftVoterResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, True, None),
)


__all__ = [
    "RemoveRaftVoterRequest",
    "RemoveRaftVoterResponse",
]
