# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeTransactionsRequest.json, DescribeTransactionsResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeTransactions (API key 65): DescribeTransactionsRequest and DescribeTransactionsResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, pack_int16, pack_int32, write_int_array, write_string, write_string_array, write_struct_array, write_tagged_fields

_S1 = _Struct(">iqqh")


class DescribeTransactionsRequest(ApiMessage):
    """DescribeTransactionsRequest, versions 0, flexible from 0."""

    API_KEY = 65
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("transactional_ids", "unknown_tagged_fields",)
    transactional_ids: list[str]

    def __init__(
        self,
        *,
        transactional_ids: list[str] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_ids = [] if transactional_ids is DEFAULT else transactional_ids
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string_array(out, self.transactional_ids, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.transactional_ids = r.string_array(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeTransactionsResponse(ApiMessage):
    """DescribeTransactionsResponse, versions 0, flexible from 0."""

    API_KEY = 65
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "transaction_states", "unknown_tagged_fields",)
    throttle_time_ms: int
    transaction_states: list[TransactionState]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        transaction_states: list[TransactionState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.transaction_states = [] if transaction_states is DEFAULT else transaction_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.transaction_states, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms = r.int32()
        self.transaction_states = r.struct_array(TransactionState.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TransactionState(Struct):
    """TransactionState of DescribeTransactionsResponse (in versions 0)."""

    __slots__ = ("error_code", "transactional_id", "transaction_state", "transaction_timeout_ms", "transaction_start_time_ms", "producer_id", "producer_epoch", "topics", "unknown_tagged_fields",)
    error_code: int
    transactional_id: str
    transaction_state: str
    transaction_timeout_ms: int
    transaction_start_time_ms: int
    producer_id: int
    producer_epoch: int
    topics: list[TopicData]

    def __init__(
        self,
        *,
        error_code: int = 0,
        transactional_id: str = "",
        transaction_state: str = "",
        transaction_timeout_ms: int = 0,
        transaction_start_time_ms: int = 0,
        producer_id: int = 0,
        producer_epoch: int = 0,
        topics: list[TopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.transactional_id = transactional_id
        self.transaction_state = transaction_state
        self.transaction_timeout_ms = transaction_timeout_ms
        self.transaction_start_time_ms = transaction_start_time_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int16(self.error_code)
        write_string(out, self.transactional_id, True)
        write_string(out, self.transaction_state, True)
        out += _S1.pack(self.transaction_timeout_ms, self.transaction_start_time_ms, self.producer_id, self.producer_epoch)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.error_code = r.int16()
        self.transactional_id = r.string(True)
        self.transaction_state = r.string(True)
        self.transaction_timeout_ms, self.transaction_start_time_ms, self.producer_id, self.producer_epoch = r.fixed(_S1)
        self.topics = r.struct_array(TopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TopicData(Struct):
    """TopicData of DescribeTransactionsResponse (in versions 0)."""

    __slots__ = ("topic", "partitions", "unknown_tagged_fields",)
    topic: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic, True)
        write_int_array(out, "i", self.partitions, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic = r.string(True)
        self.partitions = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DescribeTransactionsRequest.FIELDS = (
    FieldInfo("transactional_ids", "TransactionalIds", "[]string", (0, 32767), None, None, None, False, None),
)
DescribeTransactionsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_states", "TransactionStates", "[]TransactionState", (0, 32767), None, None, None, False, TransactionState),
)
TransactionState.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("transactional_id", "TransactionalId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_state", "TransactionState", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_timeout_ms", "TransactionTimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_start_time_ms", "TransactionStartTimeMs", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, TopicData),
)
TopicData.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribeTransactionsRequest",
    "DescribeTransactionsResponse",
    "TopicData",
    "TransactionState",
]
