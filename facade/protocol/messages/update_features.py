# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 UpdateFeaturesRequest.json, UpdateFeaturesResponse.json - DO NOT EDIT; make gen-protocol
"""UpdateFeatures (API key 57): UpdateFeaturesRequest and UpdateFeaturesResponse, versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, pack_bool, pack_int8, pack_int16, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class UpdateFeaturesRequest(ApiMessage):
    """UpdateFeaturesRequest, versions 0-2, flexible from 0."""

    API_KEY = 57
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 0
    __slots__ = ("timeout_ms", "feature_updates", "validate_only", "unknown_tagged_fields",)
    timeout_ms: int
    feature_updates: list[FeatureUpdateKey]
    validate_only: bool

    def __init__(
        self,
        *,
        timeout_ms: int = 60000,
        feature_updates: list[FeatureUpdateKey] = DEFAULT,
        validate_only: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.timeout_ms = timeout_ms
        self.feature_updates = [] if feature_updates is DEFAULT else feature_updates
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.timeout_ms)
        write_struct_array(out, self.feature_updates, version, True)
        if version >= 1:
            out += pack_bool(self.validate_only)
        elif version < 1 and self.validate_only != False:
            raise absent_field(self, "validate_only", version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.timeout_ms = r.int32()
        self.feature_updates = r.struct_array(FeatureUpdateKey.read, version, True)
        self.validate_only = r.boolean() if version >= 1 else False
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class UpdateFeaturesResponse(ApiMessage):
    """UpdateFeaturesResponse, versions 0-2, flexible from 0."""

    API_KEY = 57
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "results", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[UpdatableFeatureResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        results: list[UpdatableFeatureResult] = DEFAULT,
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
        if version <= 1:
            write_struct_array(out, self.results, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.results = r.struct_array(UpdatableFeatureResult.read, version, True) if version <= 1 else []
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FeatureUpdateKey(Struct):
    """FeatureUpdateKey of UpdateFeaturesRequest (in versions 0-2)."""

    __slots__ = ("feature", "max_version_level", "allow_downgrade", "upgrade_type", "unknown_tagged_fields",)
    feature: str
    max_version_level: int
    allow_downgrade: bool
    upgrade_type: int

    def __init__(
        self,
        *,
        feature: str = "",
        max_version_level: int = 0,
        allow_downgrade: bool = False,
        upgrade_type: int = 1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.feature = feature
        self.max_version_level = max_version_level
        self.allow_downgrade = allow_downgrade
        self.upgrade_type = upgrade_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.feature, True)
        out += pack_int16(self.max_version_level)
        if version <= 0:
            out += pack_bool(self.allow_downgrade)
        elif version > 0 and self.allow_downgrade != False:
            raise absent_field(self, "allow_downgrade", version)
        if version >= 1:
            out += pack_int8(self.upgrade_type)
        elif version < 1 and self.upgrade_type != 1:
            raise absent_field(self, "upgrade_type", version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.feature = r.string(True)
        self.max_version_level = r.int16()
        self.allow_downgrade = r.boolean() if version <= 0 else False
        self.upgrade_type = r.int8() if version >= 1 else 1
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class UpdatableFeatureResult(Struct):
    """UpdatableFeatureResult of UpdateFeaturesResponse (in versions 0-1)."""

    __slots__ = ("feature", "error_code", "error_message", "unknown_tagged_fields",)
    feature: str
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        feature: str = "",
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.feature = feature
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.feature, True)
        out += pack_int16(self.error_code)
        write_string(out, self.error_message, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.feature = r.string(True)
        self.error_code = r.int16()
        self.error_message = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


UpdateFeaturesRequest.FIELDS = (
    FieldInfo("timeout_ms", "timeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("feature_updates", "FeatureUpdates", "[]FeatureUpdateKey", (0, 32767), None, None, None, False, FeatureUpdateKey),
    FieldInfo("validate_only", "ValidateOnly", "bool", (1, 32767), None, None, None, False, None),
)
UpdateFeaturesResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("results", "Results", "[]UpdatableFeatureResult", (0, 1), None, None, None, True, UpdatableFeatureResult),
)
FeatureUpdateKey.FIELDS = (
    FieldInfo("feature", "Feature", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("max_version_level", "MaxVersionLevel", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("allow_downgrade", "AllowDowngrade", "bool", (0, 0), None, None, None, False, None),
    FieldInfo("upgrade_type", "UpgradeType", "int8", (1, 32767), None, None, None, False, None),
)
UpdatableFeatureResult.FIELDS = (
    FieldInfo("feature", "Feature", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "FeatureUpdateKey",
    "UpdatableFeatureResult",
    "UpdateFeaturesRequest",
    "UpdateFeaturesResponse",
]
