# GENERATED FROM apache/kafka@08c855f43666564eb7c13ac29a86673f92cfbafa newer_specs/ShareFetchRequest.json, newer_specs/ShareFetchResponse.json - DO NOT EDIT; make gen-protocol
"""ShareFetch (API key 78): ShareFetchRequest and ShareFetchResponse, versions 1-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import TYPE_CHECKING, Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_int8, pack_int16, pack_int32, write_bytes, write_int_array, write_string, write_struct_array, write_tagged_fields

if TYPE_CHECKING:
    from typing_extensions import Buffer

_S1 = _Struct(">iiiiii")
_S2 = _Struct(">ih")
_S3 = _Struct(">qq")
_S4 = _Struct(">ii")
_S5 = _Struct(">qqh")


class ShareFetchRequest(ApiMessage):
    """ShareFetchRequest, versions 1-2, flexible from 1."""

    API_KEY = 78
    IS_REQUEST = True
    MIN_VERSION = 1
    MAX_VERSION = 2
    FLEXIBLE_FROM = 1
    __slots__ = ("group_id", "member_id", "share_session_epoch", "max_wait_ms", "min_bytes", "max_bytes", "max_records", "batch_size", "share_acquire_mode", "topics", "forgotten_topics_data", "unknown_tagged_fields",)
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    max_records: int
    batch_size: int
    share_acquire_mode: int
    topics: list[FetchTopic]
    forgotten_topics_data: list[ForgottenTopic]

    def __init__(
        self,
        *,
        group_id: str | None = None,
        member_id: str | None = "",
        share_session_epoch: int = 0,
        max_wait_ms: int = 0,
        min_bytes: int = 0,
        max_bytes: int = 2147483647,
        max_records: int = 0,
        batch_size: int = 0,
        share_acquire_mode: int = 0,
        topics: list[FetchTopic] = DEFAULT,
        forgotten_topics_data: list[ForgottenTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.max_records = max_records
        self.batch_size = batch_size
        self.share_acquire_mode = share_acquire_mode
        self.topics = [] if topics is DEFAULT else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is DEFAULT else forgotten_topics_data
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True, True)
        write_string(out, self.member_id, True, True)
        out += _S1.pack(self.share_session_epoch, self.max_wait_ms, self.min_bytes, self.max_bytes, self.max_records, self.batch_size)
        if version >= 2:
            out += pack_int8(self.share_acquire_mode)
        elif version < 2 and self.share_acquire_mode != 0:
            raise absent_field(self, "share_acquire_mode", version)
        write_struct_array(out, self.topics, version, True)
        write_struct_array(out, self.forgotten_topics_data, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.nullable_string(True)
        self.member_id = r.nullable_string(True)
        self.share_session_epoch, self.max_wait_ms, self.min_bytes, self.max_bytes, self.max_records, self.batch_size = r.fixed(_S1)
        self.share_acquire_mode = r.int8() if version >= 2 else 0
        self.topics = r.struct_array(FetchTopic.read, version, True)
        self.forgotten_topics_data = r.struct_array(ForgottenTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ShareFetchResponse(ApiMessage):
    """ShareFetchResponse, versions 1-2, flexible from 1."""

    API_KEY = 78
    IS_REQUEST = False
    MIN_VERSION = 1
    MAX_VERSION = 2
    FLEXIBLE_FROM = 1
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "acquisition_lock_timeout_ms", "responses", "node_endpoints", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareFetchableTopicResponse]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        acquisition_lock_timeout_ms: int = 0,
        responses: list[ShareFetchableTopicResponse] = DEFAULT,
        node_endpoints: list[NodeEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.acquisition_lock_timeout_ms = acquisition_lock_timeout_ms
        self.responses = [] if responses is DEFAULT else responses
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        out += pack_int32(self.acquisition_lock_timeout_ms)
        write_struct_array(out, self.responses, version, True)
        write_struct_array(out, self.node_endpoints, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.error_message = r.nullable_string(True)
        self.acquisition_lock_timeout_ms = r.int32()
        self.responses = r.struct_array(ShareFetchableTopicResponse.read, version, True)
        self.node_endpoints = r.struct_array(NodeEndpoint.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FetchTopic(Struct):
    """FetchTopic of ShareFetchRequest (in versions 1-2)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[FetchPartition]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[FetchPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partitions = r.struct_array(FetchPartition.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FetchPartition(Struct):
    """FetchPartition of ShareFetchRequest (in versions 1-2)."""

    __slots__ = ("partition_index", "partition_max_bytes", "acknowledgement_batches", "unknown_tagged_fields",)
    partition_index: int
    partition_max_bytes: int
    acknowledgement_batches: list[AcknowledgementBatch]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        partition_max_bytes: int = 0,
        acknowledgement_batches: list[AcknowledgementBatch] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.partition_max_bytes = partition_max_bytes
        self.acknowledgement_batches = [] if acknowledgement_batches is DEFAULT else acknowledgement_batches
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.partition_index)
        if self.partition_max_bytes != 0:
            raise absent_field(self, "partition_max_bytes", version)
        write_struct_array(out, self.acknowledgement_batches, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index = r.int32()
        self.partition_max_bytes = 0
        self.acknowledgement_batches = r.struct_array(AcknowledgementBatch.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AcknowledgementBatch(Struct):
    """AcknowledgementBatch of ShareFetchRequest (in versions 1-2)."""

    __slots__ = ("first_offset", "last_offset", "acknowledge_types", "unknown_tagged_fields",)
    first_offset: int
    last_offset: int
    acknowledge_types: list[int]

    def __init__(
        self,
        *,
        first_offset: int = 0,
        last_offset: int = 0,
        acknowledge_types: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.acknowledge_types = [] if acknowledge_types is DEFAULT else acknowledge_types
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S3.pack(self.first_offset, self.last_offset)
        write_int_array(out, "b", self.acknowledge_types, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.first_offset, self.last_offset = r.fixed(_S3)
        self.acknowledge_types = r.int_array("b", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ForgottenTopic(Struct):
    """ForgottenTopic of ShareFetchRequest (in versions 1-2)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_int_array(out, "i", self.partitions, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partitions = r.int_array("i", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ShareFetchableTopicResponse(Struct):
    """ShareFetchableTopicResponse of ShareFetchResponse (in versions 1-2)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[PartitionData]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[PartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partitions = r.struct_array(PartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class PartitionData(Struct):
    """PartitionData of ShareFetchResponse (in versions 1-2)."""

    __slots__ = ("partition_index", "error_code", "error_message", "acknowledge_error_code", "acknowledge_error_message", "current_leader", "records", "acquired_records", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    error_message: str | None
    acknowledge_error_code: int
    acknowledge_error_message: str | None
    current_leader: LeaderIdAndEpoch
    records: Buffer | None
    acquired_records: list[AcquiredRecords]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        acknowledge_error_code: int = 0,
        acknowledge_error_message: str | None = None,
        current_leader: LeaderIdAndEpoch = DEFAULT,
        records: Buffer | None = None,
        acquired_records: list[AcquiredRecords] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.acknowledge_error_code = acknowledge_error_code
        self.acknowledge_error_message = acknowledge_error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.records = records
        self.acquired_records = [] if acquired_records is DEFAULT else acquired_records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.partition_index, self.error_code)
        write_string(out, self.error_message, True, True)
        out += pack_int16(self.acknowledge_error_code)
        write_string(out, self.acknowledge_error_message, True, True)
        self.current_leader.write(out, version)
        write_bytes(out, self.records, True)
        write_struct_array(out, self.acquired_records, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S2)
        self.error_message = r.nullable_string(True)
        self.acknowledge_error_code = r.int16()
        self.acknowledge_error_message = r.nullable_string(True)
        self.current_leader = LeaderIdAndEpoch.read(r, version)
        self.records = r.records(True)
        self.acquired_records = r.struct_array(AcquiredRecords.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class LeaderIdAndEpoch(Struct):
    """LeaderIdAndEpoch of ShareFetchResponse (in versions 1-2)."""

    __slots__ = ("leader_id", "leader_epoch", "unknown_tagged_fields",)
    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        leader_id: int = 0,
        leader_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S4.pack(self.leader_id, self.leader_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.leader_id, self.leader_epoch = r.fixed(_S4)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AcquiredRecords(Struct):
    """AcquiredRecords of ShareFetchResponse (in versions 1-2)."""

    __slots__ = ("first_offset", "last_offset", "delivery_count", "unknown_tagged_fields",)
    first_offset: int
    last_offset: int
    delivery_count: int

    def __init__(
        self,
        *,
        first_offset: int = 0,
        last_offset: int = 0,
        delivery_count: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_count = delivery_count
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S5.pack(self.first_offset, self.last_offset, self.delivery_count)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.first_offset, self.last_offset, self.delivery_count = r.fixed(_S5)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class NodeEndpoint(Struct):
    """NodeEndpoint of ShareFetchResponse (in versions 1-2)."""

    __slots__ = ("node_id", "host", "port", "rack", "unknown_tagged_fields",)
    node_id: int
    host: str
    port: int
    rack: str | None

    def __init__(
        self,
        *,
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        rack: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.node_id)
        write_string(out, self.host, True)
        out += pack_int32(self.port)
        write_string(out, self.rack, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.node_id = r.int32()
        self.host = r.string(True)
        self.port = r.int32()
        self.rack = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ShareFetchRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("share_session_epoch", "ShareSessionEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("max_wait_ms", "MaxWaitMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("min_bytes", "MinBytes", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("max_bytes", "MaxBytes", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("max_records", "MaxRecords", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("batch_size", "BatchSize", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("share_acquire_mode", "ShareAcquireMode", "int8", (2, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]FetchTopic", (0, 32767), None, None, None, False, FetchTopic),
    FieldInfo("forgotten_topics_data", "ForgottenTopicsData", "[]ForgottenTopic", (0, 32767), None, None, None, False, ForgottenTopic),
)
ShareFetchResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("acquisition_lock_timeout_ms", "AcquisitionLockTimeoutMs", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("responses", "Responses", "[]ShareFetchableTopicResponse", (0, 32767), None, None, None, False, ShareFetchableTopicResponse),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (0, 32767), None, None, None, False, NodeEndpoint),
)
FetchTopic.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]FetchPartition", (0, 32767), None, None, None, False, FetchPartition),
)
FetchPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_max_bytes", "PartitionMaxBytes", "int32", (0, 0), None, None, None, False, None),
    FieldInfo("acknowledgement_batches", "AcknowledgementBatches", "[]AcknowledgementBatch", (0, 32767), None, None, None, False, AcknowledgementBatch),
)
AcknowledgementBatch.FIELDS = (
    FieldInfo("first_offset", "FirstOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("last_offset", "LastOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("acknowledge_types", "AcknowledgeTypes", "[]int8", (0, 32767), None, None, None, False, None),
)
ForgottenTopic.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)
ShareFetchableTopicResponse.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, PartitionData),
)
PartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("acknowledge_error_code", "AcknowledgeErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("acknowledge_error_message", "AcknowledgeErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("current_leader", "CurrentLeader", "LeaderIdAndEpoch", (0, 32767), None, None, None, False, LeaderIdAndEpoch),
    FieldInfo("records", "Records", "records", (0, 32767), (0, 0), None, None, False, None),
    FieldInfo("acquired_records", "AcquiredRecords", "[]AcquiredRecords", (0, 32767), None, None, None, False, AcquiredRecords),
)
LeaderIdAndEpoch.FIELDS = (
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
AcquiredRecords.FIELDS = (
    FieldInfo("first_offset", "FirstOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("last_offset", "LastOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("delivery_count", "DeliveryCount", "int16", (0, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("rack", "Rack", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "AcknowledgementBatch",
    "AcquiredRecords",
    "FetchPartition",
    "FetchTopic",
    "ForgottenTopic",
    "LeaderIdAndEpoch",
    "NodeEndpoint",
    "PartitionData",
    "ShareFetchRequest",
    "ShareFetchResponse",
    "ShareFetchableTopicResponse",
]
