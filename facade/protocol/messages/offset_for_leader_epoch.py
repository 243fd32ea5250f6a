# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 OffsetForLeaderEpochRequest.json, OffsetForLeaderEpochResponse.json - DO NOT EDIT; make gen-protocol
"""OffsetForLeaderEpoch (API key 23): OffsetForLeaderEpochRequest and OffsetForLeaderEpochResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int32, pack_int64, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">hi")


class OffsetForLeaderEpochRequest(ApiMessage):
    """OffsetForLeaderEpochRequest, versions 0-4, flexible from 4."""

    API_KEY = 23
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 4
    __slots__ = ("replica_id", "topics", "unknown_tagged_fields",)
    replica_id: int
    topics: list[OffsetForLeaderTopic]

    def __init__(
        self,
        *,
        replica_id: int = -2,
        topics: list[OffsetForLeaderTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.replica_id = replica_id
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version >= 3:
            out += pack_int32(self.replica_id)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.replica_id = r.int32() if version >= 3 else -2
        self.topics = r.struct_array(OffsetForLeaderTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetForLeaderEpochResponse(ApiMessage):
    """OffsetForLeaderEpochResponse, versions 0-4, flexible from 4."""

    API_KEY = 23
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 4
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[OffsetForLeaderTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[OffsetForLeaderTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version >= 2:
            out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.throttle_time_ms = r.int32() if version >= 2 else 0
        self.topics = r.struct_array(OffsetForLeaderTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetForLeaderTopic(Struct):
    """OffsetForLeaderTopic of OffsetForLeaderEpochRequest (in versions 0-4)."""

    __slots__ = ("topic", "partitions", "unknown_tagged_fields",)
    topic: str
    partitions: list[OffsetForLeaderPartition]

    def __init__(
        self,
        *,
        topic: str = "",
        partitions: list[OffsetForLeaderPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.topic, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.topic = r.string(flexible)
        self.partitions = r.struct_array(OffsetForLeaderPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetForLeaderPartition(Struct):
    """OffsetForLeaderPartition of OffsetForLeaderEpochRequest (in versions 0-4)."""

    __slots__ = ("partition", "current_leader_epoch", "leader_epoch", "unknown_tagged_fields",)
    partition: int
    current_leader_epoch: int
    leader_epoch: int

    def __init__(
        self,
        *,
        partition: int = 0,
        current_leader_epoch: int = -1,
        leader_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int32(self.partition)
        if version >= 2:
            out += pack_int32(self.current_leader_epoch)
        out += pack_int32(self.leader_epoch)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.partition = r.int32()
        self.current_leader_epoch = r.int32() if version >= 2 else -1
        self.leader_epoch = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetForLeaderTopicResult(Struct):
    """OffsetForLeaderTopicResult of OffsetForLeaderEpochResponse (in versions 0-4)."""

    __slots__ = ("topic", "partitions", "unknown_tagged_fields",)
    topic: str
    partitions: list[EpochEndOffset]

    def __init__(
        self,
        *,
        topic: str = "",
        partitions: list[EpochEndOffset] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.topic, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.topic = r.string(flexible)
        self.partitions = r.struct_array(EpochEndOffset.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class EpochEndOffset(Struct):
    """EpochEndOffset of OffsetForLeaderEpochResponse (in versions 0-4)."""

    __slots__ = ("error_code", "partition", "leader_epoch", "end_offset", "unknown_tagged_fields",)
    error_code: int
    partition: int
    leader_epoch: int
    end_offset: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        partition: int = 0,
        leader_epoch: int = -1,
        end_offset: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.partition = partition
        self.leader_epoch = leader_epoch
        self.end_offset = end_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += _S1.pack(self.error_code, self.partition)
        if version >= 1:
            out += pack_int32(self.leader_epoch)
        out += pack_int64(self.end_offset)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.error_code, self.partition = r.fixed(_S1)
        self.leader_epoch = r.int32() if version >= 1 else -1
        self.end_offset = r.int64()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


OffsetForLeaderEpochRequest.FIELDS = (
    FieldInfo("replica_id", "ReplicaId", "int32", (3, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetForLeaderTopic", (0, 32767), None, None, None, False, OffsetForLeaderTopic),
)
OffsetForLeaderEpochResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetForLeaderTopicResult", (0, 32767), None, None, None, False, OffsetForLeaderTopicResult),
)
OffsetForLeaderTopic.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetForLeaderPartition", (0, 32767), None, None, None, False, OffsetForLeaderPartition),
)
OffsetForLeaderPartition.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("current_leader_epoch", "CurrentLeaderEpoch", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
)
OffsetForLeaderTopicResult.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]EpochEndOffset", (0, 32767), None, None, None, False, EpochEndOffset),
)
EpochEndOffset.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("end_offset", "EndOffset", "int64", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "EpochEndOffset",
    "OffsetForLeaderEpochRequest",
    "OffsetForLeaderEpochResponse",
    "OffsetForLeaderPartition",
    "OffsetForLeaderTopic",
    "OffsetForLeaderTopicResult",
]
