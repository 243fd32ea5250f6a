# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AllocateProducerIdsRequest.json, AllocateProducerIdsResponse.json - DO NOT EDIT; make gen-protocol
"""AllocateProducerIds (API key 67): AllocateProducerIdsRequest and AllocateProducerIdsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo
from ..primitives import Reader, write_tagged_fields

_S1 = _Struct(">iq")
_S2 = _Struct(">ihqi")


class AllocateProducerIdsRequest(ApiMessage):
    """AllocateProducerIdsRequest, versions 0, flexible from 0."""

    API_KEY = 67
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("broker_id", "broker_epoch", "unknown_tagged_fields",)
    broker_id: int
    broker_epoch: int

    def __init__(
        self,
        *,
        broker_id: int = 0,
        broker_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.broker_id, self.broker_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id, self.broker_epoch = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AllocateProducerIdsResponse(ApiMessage):
    """AllocateProducerIdsResponse, versions 0, flexible from 0."""

    API_KEY = 67
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "producer_id_start", "producer_id_len", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    producer_id_start: int
    producer_id_len: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        producer_id_start: int = 0,
        producer_id_len: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id_start = producer_id_start
        self.producer_id_len = producer_id_len
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code, self.producer_id_start, self.producer_id_len)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code, self.producer_id_start, self.producer_id_len = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


AllocateProducerIdsRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (0, 32767), None, None, None, False, None),
)
AllocateProducerIdsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id_start", "ProducerIdStart", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id_len", "ProducerIdLen", "int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AllocateProducerIdsRequest",
    "AllocateProducerIdsResponse",
]
