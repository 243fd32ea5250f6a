# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ProduceRequest.json, ProduceResponse.json - DO NOT EDIT; make gen-protocol
"""Produce (API key 0): ProduceRequest and ProduceResponse, versions 0-11."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import TYPE_CHECKING, Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int32, pack_int64, write_bytes, write_string, write_struct_array, write_tagged_fields

if TYPE_CHECKING:
    from typing_extensions import Buffer

_S1 = _Struct(">hi")
_S2 = _Struct(">ihq")
_S3 = _Struct(">ii")


class ProduceRequest(ApiMessage):
    """ProduceRequest, versions 0-11, flexible from 9."""

    API_KEY = 0
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 11
    FLEXIBLE_FROM = 9
    __slots__ = ("transactional_id", "acks", "timeout_ms", "topic_data", "unknown_tagged_fields",)
    transactional_id: str | None
    acks: int
    timeout_ms: int
    topic_data: list[TopicProduceData]

    def __init__(
        self,
        *,
        transactional_id: str | None = None,
        acks: int = 0,
        timeout_ms: int = 0,
        topic_data: list[TopicProduceData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topic_data = [] if topic_data is DEFAULT else topic_data
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        if version >= 3:
            write_string(out, self.transactional_id, flexible, True)
        elif version < 3 and self.transactional_id is not None:
            raise absent_field(self, "transactional_id", version)
        out += _S1.pack(self.acks, self.timeout_ms)
        write_struct_array(out, self.topic_data, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.transactional_id = r.nullable_string(flexible) if version >= 3 else None
        self.acks, self.timeout_ms = r.fixed(_S1)
        self.topic_data = r.struct_array(TopicProduceData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ProduceResponse(ApiMessage):
    """ProduceResponse, versions 0-11, flexible from 9."""

    API_KEY = 0
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 11
    FLEXIBLE_FROM = 9
    __slots__ = ("responses", "throttle_time_ms", "node_endpoints", "unknown_tagged_fields",)
    responses: list[TopicProduceResponse]
    throttle_time_ms: int
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        responses: list[TopicProduceResponse] = DEFAULT,
        throttle_time_ms: int = 0,
        node_endpoints: list[NodeEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.responses = [] if responses is DEFAULT else responses
        self.throttle_time_ms = throttle_time_ms
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        write_struct_array(out, self.responses, version, flexible)
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 10 and self.node_endpoints != []:
                tb = bytearray()
                write_struct_array(tb, self.node_endpoints, version, True)
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 10 and self.node_endpoints != []:
            raise absent_field(self, "node_endpoints", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.responses = r.struct_array(TopicProduceResponse.read, version, flexible)
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        self.node_endpoints = []
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 10:
                    tr = Reader(tags.pop(0))
                    self.node_endpoints = tr.struct_array(NodeEndpoint.read, version, True)
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class TopicProduceData(Struct):
    """TopicProduceData of ProduceRequest (in versions 0-11)."""

    __slots__ = ("name", "partition_data", "unknown_tagged_fields",)
    name: str
    partition_data: list[PartitionProduceData]

    def __init__(
        self,
        *,
        name: str = "",
        partition_data: list[PartitionProduceData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partition_data = [] if partition_data is DEFAULT else partition_data
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partition_data, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.name = r.string(flexible)
        self.partition_data = r.struct_array(PartitionProduceData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class PartitionProduceData(Struct):
    """PartitionProduceData of ProduceRequest (in versions 0-11)."""

    __slots__ = ("index", "records", "unknown_tagged_fields",)
    index: int
    records: Buffer | None

    def __init__(
        self,
        *,
        index: int = 0,
        records: Buffer | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.index = index
        self.records = records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        out += pack_int32(self.index)
        write_bytes(out, self.records, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.index = r.int32()
        self.records = r.nullable_records(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TopicProduceResponse(Struct):
    """TopicProduceResponse of ProduceResponse (in versions 0-11)."""

    __slots__ = ("name", "partition_responses", "unknown_tagged_fields",)
    name: str
    partition_responses: list[PartitionProduceResponse]

    def __init__(
        self,
        *,
        name: str = "",
        partition_responses: list[PartitionProduceResponse] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partition_responses = [] if partition_responses is DEFAULT else partition_responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partition_responses, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.name = r.string(flexible)
        self.partition_responses = r.struct_array(PartitionProduceResponse.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class PartitionProduceResponse(Struct):
    """PartitionProduceResponse of ProduceResponse (in versions 0-11)."""

    __slots__ = ("index", "error_code", "base_offset", "log_append_time_ms", "log_start_offset", "record_errors", "error_message", "current_leader", "unknown_tagged_fields",)
    index: int
    error_code: int
    base_offset: int
    log_append_time_ms: int
    log_start_offset: int
    record_errors: list[BatchIndexAndErrorMessage]
    error_message: str | None
    current_leader: LeaderIdAndEpoch

    def __init__(
        self,
        *,
        index: int = 0,
        error_code: int = 0,
        base_offset: int = 0,
        log_append_time_ms: int = -1,
        log_start_offset: int = -1,
        record_errors: list[BatchIndexAndErrorMessage] = DEFAULT,
        error_message: str | None = None,
        current_leader: LeaderIdAndEpoch = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.index = index
        self.error_code = error_code
        self.base_offset = base_offset
        self.log_append_time_ms = log_append_time_ms
        self.log_start_offset = log_start_offset
        self.record_errors = [] if record_errors is DEFAULT else record_errors
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        out += _S2.pack(self.index, self.error_code, self.base_offset)
        if version >= 2:
            out += pack_int64(self.log_append_time_ms)
        if version >= 5:
            out += pack_int64(self.log_start_offset)
        if version >= 8:
            write_struct_array(out, self.record_errors, version, flexible)
        if version >= 8:
            write_string(out, self.error_message, flexible, True)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 10 and self.current_leader != LeaderIdAndEpoch():
                tb = bytearray()
                self.current_leader.write(tb, version)
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 10 and self.current_leader != LeaderIdAndEpoch():
            raise absent_field(self, "current_leader", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.index, self.error_code, self.base_offset = r.fixed(_S2)
        self.log_append_time_ms = r.int64() if version >= 2 else -1
        self.log_start_offset = r.int64() if version >= 5 else -1
        self.record_errors = r.struct_array(BatchIndexAndErrorMessage.read, version, flexible) if version >= 8 else []
        self.error_message = r.nullable_string(flexible) if version >= 8 else None
        self.current_leader = LeaderIdAndEpoch()
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 10:
                    tr = Reader(tags.pop(0))
                    self.current_leader = LeaderIdAndEpoch.read(tr, version)
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class BatchIndexAndErrorMessage(Struct):
    """BatchIndexAndErrorMessage of ProduceResponse (in versions 8-11)."""

    __slots__ = ("batch_index", "batch_index_error_message", "unknown_tagged_fields",)
    batch_index: int
    batch_index_error_message: str | None

    def __init__(
        self,
        *,
        batch_index: int = 0,
        batch_index_error_message: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.batch_index = batch_index
        self.batch_index_error_message = batch_index_error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 9
        out += pack_int32(self.batch_index)
        write_string(out, self.batch_index_error_message, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 9
        self.batch_index = r.int32()
        self.batch_index_error_message = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderIdAndEpoch(Struct):
    """LeaderIdAndEpoch of ProduceResponse (in versions 10-11)."""

    __slots__ = ("leader_id", "leader_epoch", "unknown_tagged_fields",)
    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        leader_id: int = -1,
        leader_epoch: int = -1,
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
    """NodeEndpoint of ProduceResponse (in versions 10-11)."""

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


ProduceRequest.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("acks", "Acks", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topic_data", "TopicData", "[]TopicProduceData", (0, 32767), None, None, None, False, TopicProduceData),
)
ProduceResponse.FIELDS = (
    FieldInfo("responses", "Responses", "[]TopicProduceResponse", (0, 32767), None, None, None, False, TopicProduceResponse),
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (10, 32767), None, (10, 32767), 0, False, NodeEndpoint),
)
TopicProduceData.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_data", "PartitionData", "[]PartitionProduceData", (0, 32767), None, None, None, False, PartitionProduceData),
)
PartitionProduceData.FIELDS = (
    FieldInfo("index", "Index", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("records", "Records", "records", (0, 32767), (0, 32767), None, None, False, None),
)
TopicProduceResponse.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_responses", "PartitionResponses", "[]PartitionProduceResponse", (0, 32767), None, None, None, False, PartitionProduceResponse),
)
PartitionProduceResponse.FIELDS = (
    FieldInfo("index", "Index", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("base_offset", "BaseOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("log_append_time_ms", "LogAppendTimeMs", "int64", (2, 32767), None, None, None, True, None),
    FieldInfo("log_start_offset", "LogStartOffset", "int64", (5, 32767), None, None, None, True, None),
    FieldInfo("record_errors", "RecordErrors", "[]BatchIndexAndErrorMessage", (8, 32767), None, None, None, True, BatchIndexAndErrorMessage),
    FieldInfo("error_message", "ErrorMessage", "string", (8, 32767), (8, 32767), None, None, True, None),
    FieldInfo("current_leader", "CurrentLeader", "LeaderIdAndEpoch", (10, 32767), None, (10, 32767), 0, False, LeaderIdAndEpoch),
)
BatchIndexAndErrorMessage.FIELDS = (
    FieldInfo("batch_index", "BatchIndex", "int32", (8, 32767), None, None, None, False, None),
    FieldInfo("batch_index_error_message", "BatchIndexErrorMessage", "string", (8, 32767), (8, 32767), None, None, False, None),
)
LeaderIdAndEpoch.FIELDS = (
    FieldInfo("leader_id", "LeaderId", "int32", (10, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (10, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (10, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (10, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (10, 32767), None, None, None, False, None),
    FieldInfo("rack", "Rack", "string", (10, 32767), (10, 32767), None, None, False, None),
)


__all__ = [
    "BatchIndexAndErrorMessage",
    "LeaderIdAndEpoch",
    "NodeEndpoint",
    "PartitionProduceData",
    "PartitionProduceResponse",
    "ProduceRequest",
    "ProduceResponse",
    "TopicProduceData",
    "TopicProduceResponse",
]
