# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AddPartitionsToTxnRequest.json, AddPartitionsToTxnResponse.json - DO NOT EDIT; make gen-protocol
"""AddPartitionsToTxn (API key 24): AddPartitionsToTxnRequest and AddPartitionsToTxnResponse, versions 0-5."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">qh")
_S2 = _Struct(">qh?")
_S3 = _Struct(">ih")


class AddPartitionsToTxnRequest(ApiMessage):
    """AddPartitionsToTxnRequest, versions 0-5, flexible from 3."""

    API_KEY = 24
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 3
    __slots__ = ("transactions", "v3_and_below_transactional_id", "v3_and_below_producer_id", "v3_and_below_producer_epoch", "v3_and_below_topics", "unknown_tagged_fields",)
    transactions: list[AddPartitionsToTxnTransaction]
    v3_and_below_transactional_id: str
    v3_and_below_producer_id: int
    v3_and_below_producer_epoch: int
    v3_and_below_topics: list[AddPartitionsToTxnTopic]

    def __init__(
        self,
        *,
        transactions: list[AddPartitionsToTxnTransaction] = DEFAULT,
        v3_and_below_transactional_id: str = "",
        v3_and_below_producer_id: int = 0,
        v3_and_below_producer_epoch: int = 0,
        v3_and_below_topics: list[AddPartitionsToTxnTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactions = [] if transactions is DEFAULT else transactions
        self.v3_and_below_transactional_id = v3_and_below_transactional_id
        self.v3_and_below_producer_id = v3_and_below_producer_id
        self.v3_and_below_producer_epoch = v3_and_below_producer_epoch
        self.v3_and_below_topics = [] if v3_and_below_topics is DEFAULT else v3_and_below_topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        if version >= 4:
            write_struct_array(out, self.transactions, version, True)
        elif version < 4 and self.transactions != []:
            raise absent_field(self, "transactions", version)
        if version <= 3:
            write_string(out, self.v3_and_below_transactional_id, flexible)
        elif version > 3 and self.v3_and_below_transactional_id != "":
            raise absent_field(self, "v3_and_below_transactional_id", version)
        if version <= 3:
            out += _S1.pack(self.v3_and_below_producer_id, self.v3_and_below_producer_epoch)
        else:
            if self.v3_and_below_producer_id != 0:
                raise absent_field(self, "v3_and_below_producer_id", version)
            if self.v3_and_below_producer_epoch != 0:
                raise absent_field(self, "v3_and_below_producer_epoch", version)
        if version <= 3:
            write_struct_array(out, self.v3_and_below_topics, version, flexible)
        elif version > 3 and self.v3_and_below_topics != []:
            raise absent_field(self, "v3_and_below_topics", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.transactions = r.struct_array(AddPartitionsToTxnTransaction.read, version, True) if version >= 4 else []
        self.v3_and_below_transactional_id = r.string(flexible) if version <= 3 else ""
        if version <= 3:
            self.v3_and_below_producer_id, self.v3_and_below_producer_epoch = r.fixed(_S1)
        else:
            self.v3_and_below_producer_id = 0
            self.v3_and_below_producer_epoch = 0
        self.v3_and_below_topics = r.struct_array(AddPartitionsToTxnTopic.read, version, flexible) if version <= 3 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AddPartitionsToTxnResponse(ApiMessage):
    """AddPartitionsToTxnResponse, versions 0-5, flexible from 3."""

    API_KEY = 24
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 5
    FLEXIBLE_FROM = 3
    __slots__ = ("throttle_time_ms", "error_code", "results_by_transaction", "results_by_topic_v3_and_below", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    results_by_transaction: list[AddPartitionsToTxnResult]
    results_by_topic_v3_and_below: list[AddPartitionsToTxnTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        results_by_transaction: list[AddPartitionsToTxnResult] = DEFAULT,
        results_by_topic_v3_and_below: list[AddPartitionsToTxnTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results_by_transaction = [] if results_by_transaction is DEFAULT else results_by_transaction
        self.results_by_topic_v3_and_below = [] if results_by_topic_v3_and_below is DEFAULT else results_by_topic_v3_and_below
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += pack_int32(self.throttle_time_ms)
        if version >= 4:
            out += pack_int16(self.error_code)
        if version >= 4:
            write_struct_array(out, self.results_by_transaction, version, True)
        elif version < 4 and self.results_by_transaction != []:
            raise absent_field(self, "results_by_transaction", version)
        if version <= 3:
            write_struct_array(out, self.results_by_topic_v3_and_below, version, flexible)
        elif version > 3 and self.results_by_topic_v3_and_below != []:
            raise absent_field(self, "results_by_topic_v3_and_below", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.throttle_time_ms = r.int32()
        self.error_code = r.int16() if version >= 4 else 0
        self.results_by_transaction = r.struct_array(AddPartitionsToTxnResult.read, version, True) if version >= 4 else []
        self.results_by_topic_v3_and_below = r.struct_array(AddPartitionsToTxnTopicResult.read, version, flexible) if version <= 3 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AddPartitionsToTxnTransaction(Struct):
    """AddPartitionsToTxnTransaction of AddPartitionsToTxnRequest (in versions 4-5)."""

    __slots__ = ("transactional_id", "producer_id", "producer_epoch", "verify_only", "topics", "unknown_tagged_fields",)
    transactional_id: str
    producer_id: int
    producer_epoch: int
    verify_only: bool
    topics: list[AddPartitionsToTxnTopic]

    def __init__(
        self,
        *,
        transactional_id: str = "",
        producer_id: int = 0,
        producer_epoch: int = 0,
        verify_only: bool = False,
        topics: list[AddPartitionsToTxnTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.verify_only = verify_only
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.transactional_id, True)
        out += _S2.pack(self.producer_id, self.producer_epoch, self.verify_only)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.transactional_id = r.string(True)
        self.producer_id, self.producer_epoch, self.verify_only = r.fixed(_S2)
        self.topics = r.struct_array(AddPartitionsToTxnTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AddPartitionsToTxnTopic(Struct):
    """AddPartitionsToTxnTopic of AddPartitionsToTxnRequest (in versions 0-5)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.name, flexible)
        write_int_array(out, "i", self.partitions, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.name = r.string(flexible)
        self.partitions = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AddPartitionsToTxnResult(Struct):
    """AddPartitionsToTxnResult of AddPartitionsToTxnResponse (in versions 4-5)."""

    __slots__ = ("transactional_id", "topic_results", "unknown_tagged_fields",)
    transactional_id: str
    topic_results: list[AddPartitionsToTxnTopicResult]

    def __init__(
        self,
        *,
        transactional_id: str = "",
        topic_results: list[AddPartitionsToTxnTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.topic_results = [] if topic_results is DEFAULT else topic_results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.transactional_id, True)
        write_struct_array(out, self.topic_results, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.transactional_id = r.string(True)
        self.topic_results = r.struct_array(AddPartitionsToTxnTopicResult.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AddPartitionsToTxnTopicResult(Struct):
    """AddPartitionsToTxnTopicResult of AddPartitionsToTxnResponse (in versions 0-5)."""

    __slots__ = ("name", "results_by_partition", "unknown_tagged_fields",)
    name: str
    results_by_partition: list[AddPartitionsToTxnPartitionResult]

    def __init__(
        self,
        *,
        name: str = "",
        results_by_partition: list[AddPartitionsToTxnPartitionResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.results_by_partition = [] if results_by_partition is DEFAULT else results_by_partition
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.name, flexible)
        write_struct_array(out, self.results_by_partition, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.name = r.string(flexible)
        self.results_by_partition = r.struct_array(AddPartitionsToTxnPartitionResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class AddPartitionsToTxnPartitionResult(Struct):
    """AddPartitionsToTxnPartitionResult of AddPartitionsToTxnResponse (in versions 0-5)."""

    __slots__ = ("partition_index", "partition_error_code", "unknown_tagged_fields",)
    partition_index: int
    partition_error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        partition_error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.partition_error_code = partition_error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += _S3.pack(self.partition_index, self.partition_error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.partition_index, self.partition_error_code = r.fixed(_S3)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


AddPartitionsToTxnRequest.FIELDS = (
    FieldInfo("transactions", "Transactions", "[]AddPartitionsToTxnTransaction", (4, 32767), None, None, None, False, AddPartitionsToTxnTransaction),
    FieldInfo("v3_and_below_transactional_id", "V3AndBelowTransactionalId", "string", (0, 3), None, None, None, False, None),
    FieldInfo("v3_and_below_producer_id", "V3AndBelowProducerId", "int64", (0, 3), None, None, None, False, None),
    FieldInfo("v3_and_below_producer_epoch", "V3AndBelowProducerEpoch", "int16", (0, 3), None, None, None, False, None),
    FieldInfo("v3_and_below_topics", "V3AndBelowTopics", "[]AddPartitionsToTxnTopic", (0, 3), None, None, None, False, AddPartitionsToTxnTopic),
)
AddPartitionsToTxnResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (4, 32767), None, None, None, True, None),
    FieldInfo("results_by_transaction", "ResultsByTransaction", "[]AddPartitionsToTxnResult", (4, 32767), None, None, None, False, AddPartitionsToTxnResult),
    FieldInfo("results_by_topic_v3_and_below", "ResultsByTopicV3AndBelow", "[]AddPartitionsToTxnTopicResult", (0, 3), None, None, None, False, AddPartitionsToTxnTopicResult),
)
AddPartitionsToTxnTransaction.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (4, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (4, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (4, 32767), None, None, None, False, None),
    FieldInfo("verify_only", "VerifyOnly", "bool", (4, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]AddPartitionsToTxnTopic", (4, 32767), None, None, None, False, AddPartitionsToTxnTopic),
)
AddPartitionsToTxnTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)
AddPartitionsToTxnResult.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (4, 32767), None, None, None, False, None),
    FieldInfo("topic_results", "TopicResults", "[]AddPartitionsToTxnTopicResult", (4, 32767), None, None, None, False, AddPartitionsToTxnTopicResult),
)
AddPartitionsToTxnTopicResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("results_by_partition", "ResultsByPartition", "[]AddPartitionsToTxnPartitionResult", (0, 32767), None, None, None, False, AddPartitionsToTxnPartitionResult),
)
AddPartitionsToTxnPartitionResult.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_error_code", "PartitionErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "AddPartitionsToTxnPartitionResult",
    "AddPartitionsToTxnRequest",
    "AddPartitionsToTxnResponse",
    "AddPartitionsToTxnResult",
    "AddPartitionsToTxnTopic",
    "AddPartitionsToTxnTopicResult",
    "AddPartitionsToTxnTransaction",
]
