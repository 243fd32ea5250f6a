# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AddRaftVoterRequest.json, AddRaftVoterResponse.json - DO NOT EDIT; make gen-protocol
"""AddRaftVoter (API key 80): AddRaftVoterRequest and AddRaftVoterResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, ZERO_UUID, pack_uint16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ii")
_S2 = _Struct(">ih")


class AddRaftVoterRequest(ApiMessage):
    """AddRaftVoterRequest, versions 0, flexible from 0."""

    API_KEY = 80
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("cluster_id", "timeout_ms", "voter_id", "voter_directory_id", "listeners", "unknown_tagged_fields",)
    cluster_id: str | None
    timeout_ms: int
    voter_id: int
    voter_directory_id: UUID
    listeners: list[Listener]

    def __init__(
        self,
        *,
        cluster_id: str | None = "",
        timeout_ms: int = 0,
        voter_id: int = 0,
        voter_directory_id: UUID = ZERO_UUID,
        listeners: list[Listener] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.timeout_ms = timeout_ms
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.cluster_id, True, True)
        out += _S1.pack(self.timeout_ms, self.voter_id)
        out += self.voter_directory_id.bytes
        write_struct_array(out, self.listeners, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.cluster_id = r.nullable_string(True)
        self.timeout_ms, self.voter_id = r.fixed(_S1)
        self.voter_directory_id = r.uuid()
        self.listeners = r.struct_array(Listener.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AddRaftVoterResponse(ApiMessage):
    """AddRaftVoterResponse, versions 0, flexible from 0."""

    API_KEY = 80
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
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class Listener(Struct):
    """Listener of AddRaftVoterRequest (in versions 0)."""

    __slots__ = ("name", "host", "port", "unknown_tagged_fields",)
    name: str
    host: str
    port: int

    def __init__(
        self,
        *,
        name: str = "",
        host: str = "",
        port: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_string(out, self.host, True)
        out += pack_uint16(self.port)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.host = r.string(True)
        self.port = r.uint16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


AddRaftVoterRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_id", "VoterId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("voter_directory_id", "VoterDirectoryId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("listeners", "Listeners", "[]Listener", (0, 32767), None, None, None, False, Listener),
)
AddRaftVoterResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, True, None),
)
Listener.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "uint16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AddRaftVoterRequest",
    "AddRaftVoterResponse",
    "Listener",
]
