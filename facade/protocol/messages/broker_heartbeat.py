# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 BrokerHeartbeatRequest.json, BrokerHeartbeatResponse.json - DO NOT EDIT; make gen-protocol
"""BrokerHeartbeat (API key 63): BrokerHeartbeatRequest and BrokerHeartbeatResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, absent_field
from ..primitives import Reader, write_tagged_fields, write_uuid_array

_S1 = _Struct(">iqq??")
_S2 = _Struct(">ih???")


class BrokerHeartbeatRequest(ApiMessage):
    """BrokerHeartbeatRequest, versions 0-1, flexible from 0."""

    API_KEY = 63
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("broker_id", "broker_epoch", "current_metadata_offset", "want_fence", "want_shut_down", "offline_log_dirs", "unknown_tagged_fields",)
    broker_id: int
    broker_epoch: int
    current_metadata_offset: int
    want_fence: bool
    want_shut_down: bool
    offline_log_dirs: list[UUID]

    def __init__(
        self,
        *,
        broker_id: int = 0,
        broker_epoch: int = -1,
        current_metadata_offset: int = 0,
        want_fence: bool = False,
        want_shut_down: bool = False,
        offline_log_dirs: list[UUID] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.current_metadata_offset = current_metadata_offset
        self.want_fence = want_fence
        self.want_shut_down = want_shut_down
        self.offline_log_dirs = [] if offline_log_dirs is DEFAULT else offline_log_dirs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.broker_id, self.broker_epoch, self.current_metadata_offset, self.want_fence, self.want_shut_down)
        tags = dict(self.unknown_tagged_fields)
        if version >= 1 and self.offline_log_dirs != []:
            tb = bytearray()
            write_uuid_array(tb, self.offline_log_dirs, True)
            tags[0] = bytes(tb)
        write_tagged_fields(out, tags)
        if version < 1 and self.offline_log_dirs != []:
            raise absent_field(self, "offline_log_dirs", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id, self.broker_epoch, self.current_metadata_offset, self.want_fence, self.want_shut_down = r.fixed(_S1)
        self.offline_log_dirs = []
        tags = r.tagged_fields()
        if tags:
            if 0 in tags and version >= 1:
                tr = Reader(tags.pop(0))
                self.offline_log_dirs = tr.uuid_array(True)
                tr.expect_end()
        self.unknown_tagged_fields = tags
        return self


class BrokerHeartbeatResponse(ApiMessage):
    """BrokerHeartbeatResponse, versions 0-1, flexible from 0."""

    API_KEY = 63
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "is_caught_up", "is_fenced", "should_shut_down", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    is_caught_up: bool
    is_fenced: bool
    should_shut_down: bool

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        is_caught_up: bool = False,
        is_fenced: bool = True,
        should_shut_down: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.is_caught_up = is_caught_up
        self.is_fenced = is_fenced
        self.should_shut_down = should_shut_down
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code, self.is_caught_up, self.is_fenced, self.should_shut_down)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code, self.is_caught_up, self.is_fenced, self.should_shut_down = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


BrokerHeartbeatRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("current_metadata_offset", "CurrentMetadataOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("want_fence", "WantFence", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("want_shut_down", "WantShutDown", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("offline_log_dirs", "OfflineLogDirs", "[]uuid", (1, 32767), None, (1, 32767), 0, False, None),
)
BrokerHeartbeatResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("is_caught_up", "IsCaughtUp", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("is_fenced", "IsFenced", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("should_shut_down", "ShouldShutDown", "bool", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "BrokerHeartbeatRequest",
    "BrokerHeartbeatResponse",
]
