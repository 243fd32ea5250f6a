# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeUserScramCredentialsRequest.json, DescribeUserScramCredentialsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeUserScramCredentials (API key 50): DescribeUserScramCredentialsRequest and DescribeUserScramCredentialsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, pack_int16, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">bi")


class DescribeUserScramCredentialsRequest(ApiMessage):
    """DescribeUserScramCredentialsRequest, versions 0, flexible from 0."""

    API_KEY = 50
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("users", "unknown_tagged_fields",)
    users: list[UserName] | None

    def __init__(
        self,
        *,
        users: list[UserName] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.users = [] if users is DEFAULT else users
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.users, version, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.users = r.nullable_struct_array(UserName.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeUserScramCredentialsResponse(ApiMessage):
    """DescribeUserScramCredentialsResponse, versions 0, flexible from 0."""

    API_KEY = 50
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[DescribeUserScramCredentialsResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        results: list[DescribeUserScramCredentialsResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        write_struct_array(out, self.results, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.results = r.struct_array(DescribeUserScramCredentialsResult.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class UserName(Struct):
    """UserName of DescribeUserScramCredentialsRequest (in versions 0)."""

    __slots__ = ("name", "unknown_tagged_fields",)
    name: str

    def __init__(
        self,
        *,
        name: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeUserScramCredentialsResult(Struct):
    """DescribeUserScramCredentialsResult of DescribeUserScramCredentialsResponse (in versions 0)."""

    __slots__ = ("user", "error_code", "error_message", "credential_infos", "unknown_tagged_fields",)
    user: str
    error_code: int
    error_message: str | None
    credential_infos: list[CredentialInfo]

    def __init__(
        self,
        *,
        user: str = "",
        error_code: int = 0,
        error_message: str | None = "",
        credential_infos: list[CredentialInfo] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.user = user
        self.error_code = error_code
        self.error_message = error_message
        self.credential_infos = [] if credential_infos is DEFAULT else credential_infos
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.user, True)
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, True, True)
        write_struct_array(out, self.credential_infos, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.user = r.string(True)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True)
        self.credential_infos = r.struct_array(CredentialInfo.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class CredentialInfo(Struct):
    """CredentialInfo of DescribeUserScramCredentialsResponse (in versions 0)."""

    __slots__ = ("mechanism", "iterations", "unknown_tagged_fields",)
    mechanism: int
    iterations: int

    def __init__(
        self,
        *,
        mechanism: int = 0,
        iterations: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.mechanism = mechanism
        self.iterations = iterations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.mechanism, self.iterations)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.mechanism, self.iterations = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DescribeUserScramCredentialsRequest.FIELDS = (
    FieldInfo("users", "Users", "[]UserName", (0, 32767), (0, 32767), None, None, False, UserName),
)
DescribeUserScramCredentialsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("results", "Results", "[]DescribeUserScramCredentialsResult", (0, 32767), None, None, None, False, DescribeUserScramCredentialsResult),
)
UserName.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
)
DescribeUserScramCredentialsResult.FIELDS = (
    FieldInfo("user", "User", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("credential_infos", "CredentialInfos", "[]CredentialInfo", (0, 32767), None, None, None, False, CredentialInfo),
)
CredentialInfo.FIELDS = (
    FieldInfo("mechanism", "Mechanism", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("iterations", "Iterations", "int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "CredentialInfo",
    "DescribeUserScramCredentialsRequest",
    "DescribeUserScramCredentialsResponse",
    "DescribeUserScramCredentialsResult",
    "UserName",
]
