# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ApiVersionsRequest.json, ApiVersionsResponse.json - DO NOT EDIT; make gen-protocol
"""ApiVersions (API key 18): ApiVersionsRequest and ApiVersionsResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int16, pack_int32, pack_int64, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">hhh")
_S2 = _Struct(">hh")


class ApiVersionsRequest(ApiMessage):
    """ApiVersionsRequest, versions 0-4, flexible from 3."""

    API_KEY = 18
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 3
    __slots__ = ("client_software_name", "client_software_version", "unknown_tagged_fields",)
    client_software_name: str
    client_software_version: str

    def __init__(
        self,
        *,
        client_software_name: str = "",
        client_software_version: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.client_software_name = client_software_name
        self.client_software_version = client_software_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        if version >= 3:
            write_string(out, self.client_software_name, True)
        if version >= 3:
            write_string(out, self.client_software_version, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.client_software_name = r.string(True) if version >= 3 else ""
        self.client_software_version = r.string(True) if version >= 3 else ""
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ApiVersionsResponse(ApiMessage):
    """ApiVersionsResponse, versions 0-4, flexible from 3."""

    API_KEY = 18
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 3
    __slots__ = ("error_code", "api_keys", "throttle_time_ms", "supported_features", "finalized_features_epoch", "finalized_features", "zk_migration_ready", "unknown_tagged_fields",)
    error_code: int
    api_keys: list[ApiVersion]
    throttle_time_ms: int
    supported_features: list[SupportedFeatureKey]
    finalized_features_epoch: int
    finalized_features: list[FinalizedFeatureKey]
    zk_migration_ready: bool

    def __init__(
        self,
        *,
        error_code: int = 0,
        api_keys: list[ApiVersion] = DEFAULT,
        throttle_time_ms: int = 0,
        supported_features: list[SupportedFeatureKey] = DEFAULT,
        finalized_features_epoch: int = -1,
        finalized_features: list[FinalizedFeatureKey] = DEFAULT,
        zk_migration_ready: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.api_keys = [] if api_keys is DEFAULT else api_keys
        self.throttle_time_ms = throttle_time_ms
        self.supported_features = [] if supported_features is DEFAULT else supported_features
        self.finalized_features_epoch = finalized_features_epoch
        self.finalized_features = [] if finalized_features is DEFAULT else finalized_features
        self.zk_migration_ready = zk_migration_ready
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += pack_int16(self.error_code)
        write_struct_array(out, self.api_keys, version, flexible)
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 3 and self.supported_features != []:
                tb = bytearray()
                write_struct_array(tb, self.supported_features, version, True)
                tags[0] = bytes(tb)
            if version >= 3 and self.finalized_features_epoch != -1:
                tb = bytearray()
                tb += pack_int64(self.finalized_features_epoch)
                tags[1] = bytes(tb)
            if version >= 3 and self.finalized_features != []:
                tb = bytearray()
                write_struct_array(tb, self.finalized_features, version, True)
                tags[2] = bytes(tb)
            if version >= 3 and self.zk_migration_ready != False:
                tb = bytearray()
                tb += pack_bool(self.zk_migration_ready)
                tags[3] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.error_code = r.int16()
        self.api_keys = r.struct_array(ApiVersion.read, version, flexible)
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.supported_features = []
        self.finalized_features_epoch = -1
        self.finalized_features = []
        self.zk_migration_ready = False
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 3:
                    tr = Reader(tags.pop(0))
                    self.supported_features = tr.struct_array(SupportedFeatureKey.read, version, True)
                    tr.expect_end()
                if 1 in tags and version >= 3:
                    tr = Reader(tags.pop(1))
                    self.finalized_features_epoch = tr.int64()
                    tr.expect_end()
                if 2 in tags and version >= 3:
                    tr = Reader(tags.pop(2))
                    self.finalized_features = tr.struct_array(FinalizedFeatureKey.read, version, True)
                    tr.expect_end()
                if 3 in tags and version >= 3:
                    tr = Reader(tags.pop(3))
                    self.zk_migration_ready = tr.boolean()
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class ApiVersion(Struct):
    """ApiVersion of ApiVersionsResponse (in versions 0-4)."""

    __slots__ = ("api_key", "min_version", "max_version", "unknown_tagged_fields",)
    api_key: int
    min_version: int
    max_version: int

    def __init__(
        self,
        *,
        api_key: int = 0,
        min_version: int = 0,
        max_version: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.api_key = api_key
        self.min_version = min_version
        self.max_version = max_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += _S1.pack(self.api_key, self.min_version, self.max_version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.api_key, self.min_version, self.max_version = r.fixed(_S1)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class SupportedFeatureKey(Struct):
    """SupportedFeatureKey of ApiVersionsResponse (in versions 3-4)."""

    __slots__ = ("name", "min_version", "max_version", "unknown_tagged_fields",)
    name: str
    min_version: int
    max_version: int

    def __init__(
        self,
        *,
        name: str = "",
        min_version: int = 0,
        max_version: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.min_version = min_version
        self.max_version = max_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        out += _S2.pack(self.min_version, self.max_version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.min_version, self.max_version = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FinalizedFeatureKey(Struct):
    """FinalizedFeatureKey of ApiVersionsResponse (in versions 3-4)."""

    __slots__ = ("name", "max_version_level", "min_version_level", "unknown_tagged_fields",)
    name: str
    max_version_level: int
    min_version_level: int

    def __init__(
        self,
        *,
        name: str = "",
        max_version_level: int = 0,
        min_version_level: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.max_version_level = max_version_level
        self.min_version_level = min_version_level
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        out += _S2.pack(self.max_version_level, self.min_version_level)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.max_version_level, self.min_version_level = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ApiVersionsRequest.FIELDS = (
    FieldInfo("client_software_name", "ClientSoftwareName", "string", (3, 32767), None, None, None, True, None),
    FieldInfo("client_software_version", "ClientSoftwareVersion", "string", (3, 32767), None, None, None, True, None),
)
ApiVersionsResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("api_keys", "ApiKeys", "[]ApiVersion", (0, 32767), None, None, None, False, ApiVersion),
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("supported_features", "SupportedFeatures", "[]SupportedFeatureKey", (3, 32767), None, (3, 32767), 0, True, SupportedFeatureKey),
    FieldInfo("finalized_features_epoch", "FinalizedFeaturesEpoch", "int64", (3, 32767), None, (3, 32767), 1, True, None),
    FieldInfo("finalized_features", "FinalizedFeatures", "[]FinalizedFeatureKey", (3, 32767), None, (3, 32767), 2, True, FinalizedFeatureKey),
    FieldInfo("zk_migration_ready", "ZkMigrationReady", "bool", (3, 32767), None, (3, 32767), 3, True, None),
)
ApiVersion.FIELDS = (
    FieldInfo("api_key", "ApiKey", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("min_version", "MinVersion", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("max_version", "MaxVersion", "int16", (0, 32767), None, None, None, False, None),
)
SupportedFeatureKey.FIELDS = (
    FieldInfo("name", "Name", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("min_version", "MinVersion", "int16", (3, 32767), None, None, None, False, None),
    FieldInfo("max_version", "MaxVersion", "int16", (3, 32767), None, None, None, False, None),
)
FinalizedFeatureKey.FIELDS = (
    FieldInfo("name", "Name", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("max_version_level", "MaxVersionLevel", "int16", (3, 32767), None, None, None, False, None),
    FieldInfo("min_version_level", "MinVersionLevel", "int16", (3, 32767), None, None, None, False, None),
)


__all__ = [
    "ApiVersion",
    "ApiVersionsRequest",
    "ApiVersionsResponse",
    "FinalizedFeatureKey",
    "SupportedFeatureKey",
]
