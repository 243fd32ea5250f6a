# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeDelegationTokenRequest.json, DescribeDelegationTokenResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeDelegationToken (API key 41): DescribeDelegationTokenRequest and DescribeDelegationTokenResponse, versions 0-3."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_bytes, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">qqq")


class DescribeDelegationTokenRequest(ApiMessage):
    """DescribeDelegationTokenRequest, versions 0-3, flexible from 2."""

    API_KEY = 41
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("owners", "unknown_tagged_fields",)
    owners: list[DescribeDelegationTokenOwner] | None

    def __init__(
        self,
        *,
        owners: list[DescribeDelegationTokenOwner] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.owners = [] if owners is DEFAULT else owners
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_struct_array(out, self.owners, version, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.owners = r.nullable_struct_array(DescribeDelegationTokenOwner.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeDelegationTokenResponse(ApiMessage):
    """DescribeDelegationTokenResponse, versions 0-3, flexible from 2."""

    API_KEY = 41
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 2
    __slots__ = ("error_code", "tokens", "throttle_time_ms", "unknown_tagged_fields",)
    error_code: int
    tokens: list[DescribedDelegationToken]
    throttle_time_ms: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        tokens: list[DescribedDelegationToken] = DEFAULT,
        throttle_time_ms: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.tokens = [] if tokens is DEFAULT else tokens
        self.throttle_time_ms = throttle_time_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_struct_array(out, self.tokens, version, flexible)
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
        self.tokens = r.struct_array(DescribedDelegationToken.read, version, flexible)
        self.throttle_time_ms = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribeDelegationTokenOwner(Struct):
    """DescribeDelegationTokenOwner of DescribeDelegationTokenRequest (in versions 0-3)."""

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


class DescribedDelegationToken(Struct):
    """DescribedDelegationToken of DescribeDelegationTokenResponse (in versions 0-3)."""

    __slots__ = ("principal_type", "principal_name", "token_requester_principal_type", "token_requester_principal_name", "issue_timestamp", "expiry_timestamp", "max_timestamp", "token_id", "hmac", "renewers", "unknown_tagged_fields",)
    principal_type: str
    principal_name: str
    token_requester_principal_type: str
    token_requester_principal_name: str
    issue_timestamp: int
    expiry_timestamp: int
    max_timestamp: int
    token_id: str
    hmac: bytes
    renewers: list[DescribedDelegationTokenRenewer]

    def __init__(
        self,
        *,
        principal_type: str = "",
        principal_name: str = "",
        token_requester_principal_type: str = "",
        token_requester_principal_name: str = "",
        issue_timestamp: int = 0,
        expiry_timestamp: int = 0,
        max_timestamp: int = 0,
        token_id: str = "",
        hmac: bytes = b"",
        renewers: list[DescribedDelegationTokenRenewer] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.token_requester_principal_type = token_requester_principal_type
        self.token_requester_principal_name = token_requester_principal_name
        self.issue_timestamp = issue_timestamp
        self.expiry_timestamp = expiry_timestamp
        self.max_timestamp = max_timestamp
        self.token_id = token_id
        self.hmac = hmac
        self.renewers = [] if renewers is DEFAULT else renewers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
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
        out += _S1.pack(self.issue_timestamp, self.expiry_timestamp, self.max_timestamp)
        write_string(out, self.token_id, flexible)
        write_bytes(out, self.hmac, flexible)
        write_struct_array(out, self.renewers, version, flexible)
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
        self.token_requester_principal_type = r.string(True) if version >= 3 else ""
        self.token_requester_principal_name = r.string(True) if version >= 3 else ""
        self.issue_timestamp, self.expiry_timestamp, self.max_timestamp = r.fixed(_S1)
        self.token_id = r.string(flexible)
        self.hmac = r.binary(flexible)
        self.renewers = r.struct_array(DescribedDelegationTokenRenewer.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class DescribedDelegationTokenRenewer(Struct):
    """DescribedDelegationTokenRenewer of DescribeDelegationTokenResponse (in versions 0-3)."""

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


DescribeDelegationTokenRequest.FIELDS = (
    FieldInfo("owners", "Owners", "[]DescribeDelegationTokenOwner", (0, 32767), (0, 32767), None, None, False, DescribeDelegationTokenOwner),
)
DescribeDelegationTokenResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("tokens", "Tokens", "[]DescribedDelegationToken", (0, 32767), None, None, None, False, DescribedDelegationToken),
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
)
DescribeDelegationTokenOwner.FIELDS = (
    FieldInfo("principal_type", "PrincipalType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("principal_name", "PrincipalName", "string", (0, 32767), None, None, None, False, None),
)
DescribedDelegationToken.FIELDS = (
    FieldInfo("principal_type", "PrincipalType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("principal_name", "PrincipalName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("token_requester_principal_type", "TokenRequesterPrincipalType", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("token_requester_principal_name", "TokenRequesterPrincipalName", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("issue_timestamp", "IssueTimestamp", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("expiry_timestamp", "ExpiryTimestamp", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("max_timestamp", "MaxTimestamp", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("token_id", "TokenId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("hmac", "Hmac", "bytes", (0, 32767), None, None, None, False, None),
    FieldInfo("renewers", "Renewers", "[]DescribedDelegationTokenRenewer", (0, 32767), None, None, None, False, DescribedDelegationTokenRenewer),
)
DescribedDelegationTokenRenewer.FIELDS = (
    FieldInfo("principal_type", "PrincipalType", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("principal_name", "PrincipalName", "string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribeDelegationTokenOwner",
    "DescribeDelegationTokenRequest",
    "DescribeDelegationTokenResponse",
    "DescribedDelegationToken",
    "DescribedDelegationTokenRenewer",
]
