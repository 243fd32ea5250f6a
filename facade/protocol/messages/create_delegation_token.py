# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 CreateDelegationTokenRequest.json, CreateDelegationTokenResponse.json - DO NOT EDIT; make gen-protocol
"""CreateDelegationToken (API key 38): CreateDelegationTokenRequest and CreateDelegationTokenResponse, versions 0-3."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, pack_int64, write_bytes, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">qqq")


class CreateDelegationTokenRequest(ApiMessage):
    """CreateDelegationTokenRequest, versions 0-3, flexible from 2."""

    API_KEY = 38
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("owner_principal_type", "owner_principal_name", "renewers", "max_lifetime_ms", "unknown_tagged_fields",)
    owner_principal_type: str | None
    owner_principal_name: str | None
    renewers: list[CreatableRenewers]
    max_lifetime_ms: int

    def __init__(
        self,
        *,
        owner_principal_type: str | None = "",
        owner_principal_name: str | None = "",
        renewers: list[CreatableRenewers] = DEFAULT,
        max_lifetime_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.owner_principal_type = owner_principal_type
        self.owner_principal_name = owner_principal_name
        self.renewers = [] if renewers is DEFAULT else renewers
        self.max_lifetime_ms = max_lifetime_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        if version >= 3:
            write_string(out, self.owner_principal_type, True, True)
        elif version < 3 and self.owner_principal_type != "":
            raise absent_field(self, "owner_principal_type", version)
        if version >= 3:
            write_string(out, self.owner_principal_name, True, True)
        elif version < 3 and self.owner_principal_name != "":
            raise absent_field(self, "owner_principal_name", version)
        write_struct_array(out, self.renewers, version, flexible)
        out += pack_int64(self.max_lifetime_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.owner_principal_type = r.nullable_string(True) if version >= 3 else ""
        self.owner_principal_name = r.nullable_string(True) if version >= 3 else ""
        self.renewers = r.struct_array(CreatableRenewers.read, version, flexible)
        self.max_lifetime_ms = r.int64()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreateDelegationTokenResponse(ApiMessage):
    """CreateDelegationTokenResponse, versions 0-3, flexible from 2."""

    API_KEY = 38
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("error_code", "principal_type", "principal_name", "token_requester_principal_type", "token_requester_principal_name", "issue_timestamp_ms", "expiry_timestamp_ms", "max_timestamp_ms", "token_id", "hmac", "throttle_time_ms", "unknown_tagged_fields",)
    error_code: int
    principal_type: str
    principal_name: str
    token_requester_principal_type: str
    token_requester_principal_name: str
    issue_timestamp_ms: int
    expiry_timestamp_ms: int
    max_timestamp_ms: int
    token_id: str
    hmac: bytes
    throttle_time_ms: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        principal_type: str = "",
        principal_name: str = "",
        token_requester_principal_type: str = "",
        token_requester_principal_name: str = "",
        issue_timestamp_ms: int = 0,
        expiry_timestamp_ms: int = 0,
        max_timestamp_ms: int = 0,
        token_id: str = "",
        hmac: bytes = b"",
        throttle_time_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.token_requester_principal_type = token_requester_principal_type
        self.token_requester_principal_name = token_requester_principal_name
        self.issue_timestamp_ms = issue_timestamp_ms
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.max_timestamp_ms = max_timestamp_ms
        self.token_id = token_id
        self.hmac = hmac
        self.throttle_time_ms = throttle_time_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_string(out, self.principal_type, flexible)
        write_string(out, self.principal_name, flexible)
        if version >= 3:
            write_string(out, self.token_requester_principal_type, True)
        elif version < 3 and self.token_requester_principal_type != "":
            raise absent_field(self, "token_requester_principal_type", version)
        if version >= 3:
            write_string(out, self.token_requester_principal_name, True)
        elif version < 3 and self.token_requester_principal_name != "":
            raise absent_field(self, "token_requester_principal_name", version)
        out += _S1.pack(self.issue_timestamp_ms, self.expiry_timestamp_ms, self.max_timestamp_ms)
        write_string(out, self.token_id, flexible)
        write_bytes(out, self.hmac, flexible)
        out += pack_int32(self.throttle_time_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code = r.int16()
        self.principal_type = r.string(flexible)
        self.principal_name = r.string(flexible)
        self.token_requester_principal_type = r.string(True) if version >= 3 else ""
        self.token_requester_principal_name = r.string(True) if version >= 3 else ""
        self.issue_timestamp_ms, self.expiry_timestamp_ms, self.max_timestamp_ms = r.fixed(_S1)
        self.token_id = r.string(flexible)
        self.hmac = r.binary(flexible)
        self.throttle_time_ms = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatableRenewers(Struct):
    """CreatableRenewers of CreateDelegationTokenRequest (in versions 0-3)."""

    __slots__ = ("principal_type", "principal_name", "unknown_tagged_fields",)
    principal_type: str
    principal_name: str

    def __init__(
        self,
        *,
        principal_type: str = "",
        principal_name: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.principal_type, flexible)
        write_string(out, self.principal_name, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.principal_type = r.string(flexible)
        self.principal_name = r.string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


CreateDelegationTokenRequest.FIELDS = (
    FieldInfo("owner_principal_type", "OwnerPrincipalType", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("owner_principal_name", "OwnerPrincipalName", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("renewers", "Renewers", "[]CreatableRenewers", (0, 32767), None, None, None, False, CreatableRenewers),
    FieldInfo("max_lifetime_ms", "MaxLifetimeMs", "int64", (0, 32767), None, None, None, False, None),
)
CreateDelegationTokenResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("principal_type", "PrincipalType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("principal_name", "PrincipalName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("token_requester_principal_type", "TokenRequesterPrincipalType", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("token_requester_principal_name", "TokenRequesterPrincipalName", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("issue_timestamp_ms", "IssueTimestampMs", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("expiry_timestamp_ms", "ExpiryTimestampMs", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("max_timestamp_ms", "MaxTimestampMs", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("token_id", "TokenId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("hmac", "Hmac", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
)
CreatableRenewers.FIELDS = (
    FieldInfo("principal_type", "PrincipalType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("principal_name", "PrincipalName", "string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "CreatableRenewers",
    "CreateDelegationTokenRequest",
    "CreateDelegationTokenResponse",
]
