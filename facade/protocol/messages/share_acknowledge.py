# GENERATED FROM apache/kafka@11ad3ba54ac71650cf6e73629002435c7e0ffb9f newer_specs/ShareAcknowledgeRequest.json, newer_specs/ShareAcknowledgeResponse.json - DO NOT EDIT; make gen-protocol
"""ShareAcknowledge (API key 79): ShareAcknowledgeRequest and ShareAcknowledgeResponse, versions 1-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">qq")
_S3 = _Struct(">ii")


class ShareAcknowledgeRequest(ApiMessage):
    """ShareAcknowledgeRequest, versions 1-2, flexible from 1."""

    API_KEY = 79
    IS_REQUEST = True
    MIN_VERSION = 1
    MAX_VERSION = 2
    FLEXIBLE_FROM = 1
    __slots__ = ("group_id", "member_id", "share_session_epoch", "is_renew_ack", "topics", "unknown_tagged_fields",)
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    is_renew_ack: bool
    topics: list[AcknowledgeTopic]

    def __init__(
        self,
        *,
        group_id: str | None = None,
        member_id: str | None = "",
        share_session_epoch: int = 0,
        is_renew_ack: bool = False,
        topics: list[AcknowledgeTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.is_renew_ack = is_renew_ack
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True, True)
        write_string(out, self.member_id, True, True)
        out += pack_int32(self.share_session_epoch)
        if version >= 2:
            out += pack_bool(self.is_renew_ack)
        elif version < 2 and self.is_renew_ack != False:
            raise absent_field(self, "is_renew_ack", version)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.nullable_string(True)
        self.member_id = r.nullable_string(True)
        self.share_session_epoch = r.int32()
        self.is_renew_ack = r.boolean() if version >= 2 else False
        self.topics = r.struct_array(AcknowledgeTopic.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ShareAcknowledgeResponse(ApiMessage):
    """ShareAcknowledgeResponse, versions 1-2, flexible from 1."""

    API_KEY = 79
    IS_REQUEST = False
    MIN_VERSION = 1
    MAX_VERSION = 2
    FLEXIBLE_FROM = 1
    __slots__ = ("throttle_time_ms", "error_code", "error_message", "acquisition_lock_timeout_ms", "responses", "node_endpoints", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareAcknowledgeTopicResponse]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        acquisition_lock_timeout_ms: int = 0,
        responses: list[ShareAcknowledgeTopicResponse] = DEFAULT,
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
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string(out, self.error_message, True, True)
        if version >= 2:
            out += pack_int32(self.acquisition_lock_timeout_ms)
        write_struct_array(out, self.responses, version, True)
        write_struct_array(out, self.node_endpoints, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.acquisition_lock_timeout_ms = r.int32() if version >= 2 else 0
        self.responses = r.struct_array(ShareAcknowledgeTopicResponse.read, version, True)
        self.node_endpoints = r.struct_array(NodeEndpoint.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AcknowledgeTopic(Struct):
    """AcknowledgeTopic of ShareAcknowledgeRequest (in versions 1-2)."""

    __slots__ = ("topic_id", "partitions", "unknown_tagged_fields",)
    topic_id: UUID
    partitions: list[AcknowledgePartition]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partitions: list[AcknowledgePartition] = DEFAULT,
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
        self.partitions = r.struct_array(AcknowledgePartition.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AcknowledgePartition(Struct):
    """AcknowledgePartition of ShareAcknowledgeRequest (in versions 1-2)."""

    __slots__ = ("partition_index", "acknowledgement_batches", "unknown_tagged_fields",)
    partition_index: int
    acknowledgement_batches: list[AcknowledgementBatch]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        acknowledgement_batches: list[AcknowledgementBatch] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.acknowledgement_batches = [] if acknowledgement_batches is DEFAULT else acknowledgement_batches
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.partition_index)
        write_struct_array(out, self.acknowledgement_batches, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index = r.int32()
        self.acknowledgement_batches = r.struct_array(AcknowledgementBatch.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AcknowledgementBatch(Struct):
    """AcknowledgementBatch of ShareAcknowledgeRequest (in versions 1-2)."""

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
        out += _S2.pack(self.first_offset, self.last_offset)
        write_int_array(out, "b", self.acknowledge_types, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.first_offset, self.last_offset = r.fixed(_S2)
        self.acknowledge_types = r.int_array("b", True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ShareAcknowledgeTopicResponse(Struct):
    """ShareAcknowledgeTopicResponse of ShareAcknowledgeResponse (in versions 1-2)."""

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
    """PartitionData of ShareAcknowledgeResponse (in versions 1-2)."""

    __slots__ = ("partition_index", "error_code", "error_message", "current_leader", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    error_message: str | None
    current_leader: LeaderIdAndEpoch

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        current_leader: LeaderIdAndEpoch = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.error_code)
        write_string(out, self.error_message, True, True)
        self.current_leader.write(out, version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(True)
        self.current_leader = LeaderIdAndEpoch.read(r, version)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class LeaderIdAndEpoch(Struct):
    """LeaderIdAndEpoch of ShareAcknowledgeResponse (in versions 1-2)."""

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
        out += _S3.pack(self.leader_id, self.leader_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.leader_id, self.leader_epoch = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class NodeEndpoint(Struct):
    """NodeEndpoint of ShareAcknowledgeResponse (in versions 1-2)."""

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


ShareAcknowledgeRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("share_session_epoch", "ShareSessionEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("is_renew_ack", "IsRenewAck", "bool", (2, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]AcknowledgeTopic", (0, 32767), None, None, None, False, AcknowledgeTopic),
)
ShareAcknowledgeResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("acquisition_lock_timeout_ms", "AcquisitionLockTimeoutMs", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("responses", "Responses", "[]ShareAcknowledgeTopicResponse", (0, 32767), None, None, None, False, ShareAcknowledgeTopicResponse),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (0, 32767), None, None, None, False, NodeEndpoint),
)
AcknowledgeTopic.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]AcknowledgePartition", (0, 32767), None, None, None, False, AcknowledgePartition),
)
AcknowledgePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("acknowledgement_batches", "AcknowledgementBatches", "[]AcknowledgementBatch", (0, 32767), None, None, None, False, AcknowledgementBatch),
)
AcknowledgementBatch.FIELDS = (
    FieldInfo("first_offset", "FirstOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("last_offset", "LastOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("acknowledge_types", "AcknowledgeTypes", "[]int8", (0, 32767), None, None, None, False, None),
)
ShareAcknowledgeTopicResponse.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, PartitionData),
)
PartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("current_leader", "CurrentLeader", "LeaderIdAndEpoch", (0, 32767), None, None, None, False, LeaderIdAndEpoch),
)
LeaderIdAndEpoch.FIELDS = (
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("rack", "Rack", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "AcknowledgePartition",
    "AcknowledgeTopic",
    "AcknowledgementBatch",
    "LeaderIdAndEpoch",
    "NodeEndpoint",
    "PartitionData",
    "ShareAcknowledgeRequest",
    "ShareAcknowledgeResponse",
    "ShareAcknowledgeTopicResponse",
]
