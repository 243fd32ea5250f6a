# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 WriteTxnMarkersRequest.json, WriteTxnMarkersResponse.json - DO NOT EDIT; make gen-protocol
"""WriteTxnMarkers (API key 27): WriteTxnMarkersRequest and WriteTxnMarkersResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int32, pack_int64, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">qh?")
_S2 = _Struct(">ih")


class WriteTxnMarkersRequest(ApiMessage):
    """WriteTxnMarkersRequest, versions 0-1, flexible from 1."""

    API_KEY = 27
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("markers", "unknown_tagged_fields",)
    markers: list[WritableTxnMarker]

    def __init__(
        self,
        *,
        markers: list[WritableTxnMarker] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.markers = [] if markers is DEFAULT else markers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_struct_array(out, self.markers, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.markers = r.struct_array(WritableTxnMarker.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class WriteTxnMarkersResponse(ApiMessage):
    """WriteTxnMarkersResponse, versions 0-1, flexible from 1."""

    API_KEY = 27
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 1
    __slots__ = ("markers", "unknown_tagged_fields",)
    markers: list[WritableTxnMarkerResult]

    def __init__(
        self,
        *,
        markers: list[WritableTxnMarkerResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.markers = [] if markers is DEFAULT else markers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_struct_array(out, self.markers, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.markers = r.struct_array(WritableTxnMarkerResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class WritableTxnMarker(Struct):
    """WritableTxnMarker of WriteTxnMarkersRequest (in versions 0-1)."""

    __slots__ = ("producer_id", "producer_epoch", "transaction_result", "topics", "coordinator_epoch", "unknown_tagged_fields",)
    producer_id: int
    producer_epoch: int
    transaction_result: bool
    topics: list[WritableTxnMarkerTopic]
    coordinator_epoch: int

    def __init__(
        self,
        *,
        producer_id: int = 0,
        producer_epoch: int = 0,
        transaction_result: bool = False,
        topics: list[WritableTxnMarkerTopic] = DEFAULT,
        coordinator_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.transaction_result = transaction_result
        self.topics = [] if topics is DEFAULT else topics
        self.coordinator_epoch = coordinator_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += _S1.pack(self.producer_id, self.producer_epoch, self.transaction_result)
        write_struct_array(out, self.topics, version, flexible)
        out += pack_int32(self.coordinator_epoch)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.producer_id, self.producer_epoch, self.transaction_result = r.fixed(_S1)
        self.topics = r.struct_array(WritableTxnMarkerTopic.read, version, flexible)
        self.coordinator_epoch = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class WritableTxnMarkerTopic(Struct):
    """WritableTxnMarkerTopic of WriteTxnMarkersRequest (in versions 0-1)."""

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
        flexible = version >= 1
        write_string(out, self.name, flexible)
        write_int_array(out, "i", self.partition_indexes, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.name = r.string(flexible)
        self.partition_indexes = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class WritableTxnMarkerResult(Struct):
    """WritableTxnMarkerResult of WriteTxnMarkersResponse (in versions 0-1)."""

    __slots__ = ("producer_id", "topics", "unknown_tagged_fields",)
    producer_id: int
    topics: list[WritableTxnMarkerTopicResult]

    def __init__(
        self,
        *,
        producer_id: int = 0,
        topics: list[WritableTxnMarkerTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.producer_id = producer_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += pack_int64(self.producer_id)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.producer_id = r.int64()
        self.topics = r.struct_array(WritableTxnMarkerTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class WritableTxnMarkerTopicResult(Struct):
    """WritableTxnMarkerTopicResult of WriteTxnMarkersResponse (in versions 0-1)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[WritableTxnMarkerPartitionResult]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[WritableTxnMarkerPartitionResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.name = r.string(flexible)
        self.partitions = r.struct_array(WritableTxnMarkerPartitionResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class WritableTxnMarkerPartitionResult(Struct):
    """WritableTxnMarkerPartitionResult of WriteTxnMarkersResponse (in versions 0-1)."""

    __slots__ = ("partition_index", "error_code", "unknown_tagged_fields",)
    partition_index: int
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 1
        out += _S2.pack(self.partition_index, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 1
        self.partition_index, self.error_code = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


WriteTxnMarkersRequest.FIELDS = (
    FieldInfo("markers", "Markers", "[]WritableTxnMarker", (0, 32767), None, None, None, False, WritableTxnMarker),
)
WriteTxnMarkersResponse.FIELDS = (
    FieldInfo("markers", "Markers", "[]WritableTxnMarkerResult", (0, 32767), None, None, None, False, WritableTxnMarkerResult),
)
WritableTxnMarker.FIELDS = (
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_result", "TransactionResult", "bool", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]WritableTxnMarkerTopic", (0, 32767), None, None, None, False, WritableTxnMarkerTopic),
    FieldInfo("coordinator_epoch", "CoordinatorEpoch", "int32", (0, 32767), None, None, None, False, None),
)
WritableTxnMarkerTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_indexes", "PartitionIndexes", "[]int32", (0, 32767), None, None, None, False, None),
)
WritableTxnMarkerResult.FIELDS = (
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]WritableTxnMarkerTopicResult", (0, 32767), None, None, None, False, WritableTxnMarkerTopicResult),
)
WritableTxnMarkerTopicResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]WritableTxnMarkerPartitionResult", (0, 32767), None, None, None, False, WritableTxnMarkerPartitionResult),
)
WritableTxnMarkerPartitionResult.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "WritableTxnMarker",
    "WritableTxnMarkerPartitionResult",
    "WritableTxnMarkerResult",
    "WritableTxnMarkerTopic",
    "WritableTxnMarkerTopicResult",
    "WriteTxnMarkersRequest",
    "WriteTxnMarkersResponse",
]
