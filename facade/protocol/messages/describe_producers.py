# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 DescribeProducersRequest.json, DescribeProducersResponse.json - DO NOT EDIT; make gen-protocol
"""DescribeProducers (API key 61): DescribeProducersRequest and DescribeProducersResponse, versions 0."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct
from ..primitives import Reader, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">qiiqiq")


class DescribeProducersRequest(ApiMessage):
    """DescribeProducersRequest, versions 0, flexible from 0."""

    API_KEY = 61
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("topics", "unknown_tagged_fields",)
    topics: list[TopicRequest]

    def __init__(
        self,
        *,
        topics: list[TopicRequest] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topics = r.struct_array(TopicRequest.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class DescribeProducersResponse(ApiMessage):
    """DescribeProducersResponse, versions 0, flexible from 0."""

    API_KEY = 61
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 0
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[TopicResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[TopicResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms = r.int32()
        self.topics = r.struct_array(TopicResponse.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TopicRequest(Struct):
    """TopicRequest of DescribeProducersRequest (in versions 0)."""

    __slots__ = ("name", "partition_indexes", "unknown_tagged_fields",)
    name: str
    partition_indexes: list[int]

    def __init__(
        self,
        *,
        name: str = "",
        partition_indexes: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partition_indexes = [] if partition_indexes is DEFAULT else partition_indexes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_int_array(out, "i", self.partition_indexes, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.partition_indexes = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TopicResponse(Struct):
    """TopicResponse of DescribeProducersResponse (in versions 0)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[PartitionResponse]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[PartitionResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.partitions = r.struct_array(PartitionResponse.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class PartitionResponse(Struct):
    """PartitionResponse of DescribeProducersResponse (in versions 0)."""

    __slots__ = ("partition_index", "error_code", "error_message", "active_producers", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    error_message: str | None
    active_producers: list[ProducerState]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        active_producers: list[ProducerState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.active_producers = [] if active_producers is DEFAULT else active_producers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.error_code)
        write_string(out, self.error_message, True, True)
        write_struct_array(out, self.active_producers, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.active_producers = r.struct_array(ProducerState.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ProducerState(Struct):
    """ProducerState of DescribeProducersResponse (in versions 0)."""

    __slots__ = ("producer_id", "producer_epoch", "last_sequence", "last_timestamp", "coordinator_epoch", "current_txn_start_offset", "unknown_tagged_fields",)
    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int
    current_txn_start_offset: int

    def __init__(
        self,
        *,
        producer_id: int = 0,
        producer_epoch: int = 0,
        last_sequence: int = -1,
        last_timestamp: int = -1,
        coordinator_epoch: int = 0,
        current_txn_start_offset: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.last_sequence = last_sequence
        self.last_timestamp = last_timestamp
        self.coordinator_epoch = coordinator_epoch
        self.current_txn_start_offset = current_txn_start_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.producer_id, self.producer_epoch, self.last_sequence, self.last_timestamp, self.coordinator_epoch, self.current_txn_start_offset)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.producer_id, self.producer_epoch, self.last_sequence, self.last_timestamp, self.coordinator_epoch, self.current_txn_start_offset = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


DescribeProducersRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]TopicRequest", (0, 32767), None, None, None, False, TopicRequest),
)
DescribeProducersResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicResponse", (0, 32767), None, None, None, False, TopicResponse),
)
TopicRequest.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_indexes", "PartitionIndexes", "[]int32", (0, 32767), None, None, None, False, None),
)
TopicResponse.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionResponse", (0, 32767), None, None, None, False, PartitionResponse),
)
PartitionResponse.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("active_producers", "ActiveProducers", "[]ProducerState", (0, 32767), None, None, None, False, ProducerState),
)
ProducerState.FIELDS = (
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("last_sequence", "LastSequence", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("last_timestamp", "LastTimestamp", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("coordinator_epoch", "CoordinatorEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("current_txn_start_offset", "CurrentTxnStartOffset", "int64", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "DescribeProducersRequest",
    "DescribeProducersResponse",
    "PartitionResponse",
    "ProducerState",
    "TopicRequest",
    "TopicResponse",
]
