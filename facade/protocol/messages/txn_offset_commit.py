# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 TxnOffsetCommitRequest.json, TxnOffsetCommitResponse.json - DO NOT EDIT; make gen-protocol
"""TxnOffsetCommit (API key 28): TxnOffsetCommitRequest and TxnOffsetCommitResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int32, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">qh")
_S2 = _Struct(">iq")
_S3 = _Struct(">ih")


class TxnOffsetCommitRequest(ApiMessage):
    """TxnOffsetCommitRequest, versions 0-4, flexible from 3."""

    API_KEY = 28
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 3
    __slots__ = ("transactional_id", "group_id", "producer_id", "producer_epoch", "generation_id", "member_id", "group_instance_id", "topics", "unknown_tagged_fields",)
    transactional_id: str
    group_id: str
    producer_id: int
    producer_epoch: int
    generation_id: int
    member_id: str
    group_instance_id: str | None
    topics: list[TxnOffsetCommitRequestTopic]

    def __init__(
        self,
        *,
        transactional_id: str = "",
        group_id: str = "",
        producer_id: int = 0,
        producer_epoch: int = 0,
        generation_id: int = -1,
        member_id: str = "",
        group_instance_id: str | None = None,
        topics: list[TxnOffsetCommitRequestTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.group_id = group_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.transactional_id, flexible)
        write_string(out, self.group_id, flexible)
        out += _S1.pack(self.producer_id, self.producer_epoch)
        if version >= 3:
            out += pack_int32(self.generation_id)
        elif version < 3 and self.generation_id != -1:
            raise absent_field(self, "generation_id", version)
        if version >= 3:
            write_string(out, self.member_id, True)
        elif version < 3 and self.member_id != "":
            raise absent_field(self, "member_id", version)
        if version >= 3:
            write_string(out, self.group_instance_id, True, True)
        elif version < 3 and self.group_instance_id is not None:
            raise absent_field(self, "group_instance_id", version)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.transactional_id = r.string(flexible)
        self.group_id = r.string(flexible)
        self.producer_id, self.producer_epoch = r.fixed(_S1)
        self.generation_id = r.int32() if version >= 3 else -1
        self.member_id = r.string(True) if version >= 3 else ""
        self.group_instance_id = r.nullable_string(True) if version >= 3 else None
        self.topics = r.struct_array(TxnOffsetCommitRequestTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TxnOffsetCommitResponse(ApiMessage):
    """TxnOffsetCommitResponse, versions 0-4, flexible from 3."""

    API_KEY = 28
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 3
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[TxnOffsetCommitResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[TxnOffsetCommitResponseTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.throttle_time_ms = r.int32()
        self.topics = r.struct_array(TxnOffsetCommitResponseTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TxnOffsetCommitRequestTopic(Struct):
    """TxnOffsetCommitRequestTopic of TxnOffsetCommitRequest (in versions 0-4)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[TxnOffsetCommitRequestPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[TxnOffsetCommitRequestPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.name = r.string(flexible)
        self.partitions = r.struct_array(TxnOffsetCommitRequestPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TxnOffsetCommitRequestPartition(Struct):
    """TxnOffsetCommitRequestPartition of TxnOffsetCommitRequest (in versions 0-4)."""

    __slots__ = ("partition_index", "committed_offset", "committed_leader_epoch", "committed_metadata", "unknown_tagged_fields",)
    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    committed_metadata: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        committed_metadata: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.committed_metadata = committed_metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += _S2.pack(self.partition_index, self.committed_offset)
        if version >= 2:
            out += pack_int32(self.committed_leader_epoch)
        write_string(out, self.committed_metadata, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.partition_index, self.committed_offset = r.fixed(_S2)
        self.committed_leader_epoch = r.int32() if version >= 2 else -1
        self.committed_metadata = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TxnOffsetCommitResponseTopic(Struct):
    """TxnOffsetCommitResponseTopic of TxnOffsetCommitResponse (in versions 0-4)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[TxnOffsetCommitResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[TxnOffsetCommitResponsePartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.name = r.string(flexible)
        self.partitions = r.struct_array(TxnOffsetCommitResponsePartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TxnOffsetCommitResponsePartition(Struct):
    """TxnOffsetCommitResponsePartition of TxnOffsetCommitResponse (in versions 0-4)."""

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
        flexible = version >= 3
        out += _S3.pack(self.partition_index, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.partition_index, self.error_code = r.fixed(_S3)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


TxnOffsetCommitRequest.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_epoch", "ProducerEpoch", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("generation_id", "GenerationId", "int32", (3, 32767), None, None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (3, 32767), (3, 32767), None, None, False, None),
    FieldInfo("topics", "Topics", "[]TxnOffsetCommitRequestTopic", (0, 32767), None, None, None, False, TxnOffsetCommitRequestTopic),
)
TxnOffsetCommitResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TxnOffsetCommitResponseTopic", (0, 32767), None, None, None, False, TxnOffsetCommitResponseTopic),
)
TxnOffsetCommitRequestTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]TxnOffsetCommitRequestPartition", (0, 32767), None, None, None, False, TxnOffsetCommitRequestPartition),
)
TxnOffsetCommitRequestPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("committed_offset", "CommittedOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("committed_leader_epoch", "CommittedLeaderEpoch", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("committed_metadata", "CommittedMetadata", "string", (0, 32767), (0, 32767), None, None, False, None),
)
TxnOffsetCommitResponseTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]TxnOffsetCommitResponsePartition", (0, 32767), None, None, None, False, TxnOffsetCommitResponsePartition),
)
TxnOffsetCommitResponsePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "TxnOffsetCommitRequest",
    "TxnOffsetCommitRequestPartition",
    "TxnOffsetCommitRequestTopic",
    "TxnOffsetCommitResponse",
    "TxnOffsetCommitResponsePartition",
    "TxnOffsetCommitResponseTopic",
]
