# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AddOffsetsToTxnRequest.json, AddOffsetsToTxnResponse.json - DO NOT EDIT; make gen-protocol
"""AddOffsetsToTxn (API key 25): AddOffsetsToTxnRequest and AddOffsetsToTxnResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, tags_unsupported
from ..primitives import Reader, write_string, write_tagged_fields

_S1 = _Struct(">qh")
_S2 = _Struct(">ih")


class AddOffsetsToTxnRequest(ApiMessage):
    """AddOffsetsToTxnRequest, versions 0-4, flexible from 3."""

    API_KEY = 25
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 3
    __slots__ = ("transactional_id", "producer_id", "producer_epoch", "group_id", "unknown_tagged_fields",)
    transactional_id: str
    producer_id: int
    producer_epoch: int
    group_id: str

    def __init__(
        self,
        *,
        transactional_id: str = "",
        producer_id: int = 0,
        producer_epoch: int = 0,
        group_id: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.group_id = group_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.transactional_id, flexible)
        out += _S1.pack(self.producer_id, self.producer_epoch)
        write_string(out, self.group_id, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.transactional_id = r.string(flexible)
        self.producer_id, self.producer_epoch = r.fixed(_S1)
        self.group_id = r.string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AddOffsetsToTxnResponse(ApiMessage):
    """AddOffsetsToTxnResponse, versions 0-4, flexible from 3."""

    API_KEY = 25
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 3
    __slots__ = ("throttle_time_ms", "error_code", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


AddOffsetsToTxnRequest.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
)
AddOffsetsToTxnResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AddOffsetsToTxnRequest",
    "AddOffsetsToTxnResponse",
]
