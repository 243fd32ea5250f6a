# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 InitProducerIdRequest.json, InitProducerIdResponse.json - DO NOT EDIT; make gen-protocol
"""InitProducerId (API key 22): InitProducerIdRequest and InitProducerIdResponse, versions 0-5."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, absent_field, tags_unsupported
from ..primitives import Reader, pack_int32, write_string, write_tagged_fields

_S1 = _Struct(">qh")
_S2 = _Struct(">ihqh")


class InitProducerIdRequest(ApiMessage):
    """InitProducerIdRequest, versions 0-5, flexible from 2."""

    API_KEY = 22
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 2
    __slots__ = ("transactional_id", "transaction_timeout_ms", "producer_id", "producer_epoch", "unknown_tagged_fields",)
    transactional_id: str | None
    transaction_timeout_ms: int
    producer_id: int
    producer_epoch: int

    def __init__(
        self,
        *,
        transactional_id: str | None = "",
        transaction_timeout_ms: int = 0,
        producer_id: int = -1,
        producer_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.transactional_id, flexible, True)
        out += pack_int32(self.transaction_timeout_ms)
        if version >= 3:
            out += _S1.pack(self.producer_id, self.producer_epoch)
        else:
            if self.producer_id != -1:
                raise absent_field(self, "producer_id", version)
            if self.producer_epoch != -1:
                raise absent_field(self, "producer_epoch", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.transactional_id = r.nullable_string(flexible)
        self.transaction_timeout_ms = r.int32()
        if version >= 3:
            self.producer_id, self.producer_epoch = r.fixed(_S1)
        else:
            self.producer_id = -1
            self.producer_epoch = -1
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class InitProducerIdResponse(ApiMessage):
    """InitProducerIdResponse, versions 0-5, flexible from 2."""

    API_KEY = 22
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "error_code", "producer_id", "producer_epoch", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        producer_id: int = -1,
        producer_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S2.pack(self.throttle_time_ms, self.error_code, self.producer_id, self.producer_epoch)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms, self.error_code, self.producer_id, self.producer_epoch = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


InitProducerIdRequest.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("transaction_timeout_ms", "TransactionTimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (3, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (3, 32767), None, None, None, False, None),
)
InitProducerIdResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "InitProducerIdRequest",
    "InitProducerIdResponse",
]
