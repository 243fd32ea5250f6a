# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AlterUserScramCredentialsRequest.json, AlterUserScramCredentialsResponse.json - DO NOT EDIT; make gen-protocol
"""AlterUserScramCredentials (API key 51): AlterUserScramCredentialsRequest and AlterUserScramCredentialsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, pack_int8, pack_int16, pack_int32, write_bytes, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">bi")


class AlterUserScramCredentialsRequest(ApiMessage):
    """AlterUserScramCredentialsRequest, versions 0, flexible from 0."""

    API_KEY = 51
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("deletions", "upsertions", "unknown_tagged_fields",)
    deletions: list[ScramCredentialDeletion]
    upsertions: list[ScramCredentialUpsertion]

    def __init__(
        self,
        *,
        deletions: list[ScramCredentialDeletion] = DEFAULT,
        upsertions: list[ScramCredentialUpsertion] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.deletions = [] if deletions is DEFAULT else deletions
        self.upsertions = [] if upsertions is DEFAULT else upsertions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.deletions, version, True)
        write_struct_array(out, self.upsertions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.deletions = r.struct_array(ScramCredentialDeletion.read, version, True)
        self.upsertions = r.struct_array(ScramCredentialUpsertion.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterUserScramCredentialsResponse(ApiMessage):
    """AlterUserScramCredentialsResponse, versions 0, flexible from 0."""

    API_KEY = 51
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    results: list[AlterUserScramCredentialsResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[AlterUserScramCredentialsResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is DEFAULT else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.results, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms = r.int32()
        self.results = r.struct_array(AlterUserScramCredentialsResult.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ScramCredentialDeletion(Struct):
    """ScramCredentialDeletion of AlterUserScramCredentialsRequest (in versions 0)."""

    __slots__ = ("name", "mechanism", "unknown_tagged_fields",)
    name: str
    mechanism: int

    def __init__(
        self,
        *,
        name: str = "",
        mechanism: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.mechanism = mechanism
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        out += pack_int8(self.mechanism)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.mechanism = r.int8()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ScramCredentialUpsertion(Struct):
    """ScramCredentialUpsertion of AlterUserScramCredentialsRequest (in versions 0)."""

    __slots__ = ("name", "mechanism", "iterations", "salt", "salted_password", "unknown_tagged_fields",)
    name: str
    mechanism: int
    iterations: int
    salt: bytes
    salted_password: bytes

    def __init__(
        self,
        *,
        name: str = "",
        mechanism: int = 0,
        iterations: int = 0,
        salt: bytes = b"",
        salted_password: bytes = b"",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.mechanism = mechanism
        self.iterations = iterations
        self.salt = salt
        self.salted_password = salted_password
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        out += _S1.pack(self.mechanism, self.iterations)
        write_bytes(out, self.salt, True)
        write_bytes(out, self.salted_password, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.mechanism, self.iterations = r.fixed(_S1)
        self.salt = r.binary(True)
        self.salted_password = r.binary(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterUserScramCredentialsResult(Struct):
    """AlterUserScramCredentialsResult of AlterUserScramCredentialsResponse (in versions 0)."""

    __slots__ = ("user", "error_code", "error_message", "unknown_tagged_fields",)
    user: str
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        user: str = "",
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.user = user
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.user, True)
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.user = r.string(True)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


AlterUserScramCredentialsRequest.FIELDS = (
    FieldInfo("deletions", "Deletions", "[]ScramCredentialDeletion", (0, 32767), None, None, None, False, ScramCredentialDeletion),
    FieldInfo("upsertions", "Upsertions", "[]ScramCredentialUpsertion", (0, 32767), None, None, None, False, ScramCredentialUpsertion),
)
AlterUserScramCredentialsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("results", "Results", "[]AlterUserScramCredentialsResult", (0, 32767), None, None, None, False, AlterUserScramCredentialsResult),
)
ScramCredentialDeletion.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("mechanism", "Mechanism", "int8", (0, 32767), None, None, None, False, None),
)
ScramCredentialUpsertion.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("mechanism", "Mechanism", "int8", (0, 32767), None, None, None, False, None),
    FieldInfo("iterations", "Iterations", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("salt", "Salt", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("salted_password", "SaltedPassword", "bytes", (0, 32767), None, None, None, False, None),
)
AlterUserScramCredentialsResult.FIELDS = (
    FieldInfo("user", "User", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "AlterUserScramCredentialsRequest",
    "AlterUserScramCredentialsResponse",
    "AlterUserScramCredentialsResult",
    "ScramCredentialDeletion",
    "ScramCredentialUpsertion",
]
