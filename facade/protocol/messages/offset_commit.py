# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 OffsetCommitRequest.json, OffsetCommitResponse.json - DO NOT EDIT; make gen-protocol
"""OffsetCommit (API key 8): OffsetCommitRequest and OffsetCommitResponse, versions 0-9."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int32, pack_int64, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iq")
_S2 = _Struct(">ih")


class OffsetCommitRequest(ApiMessage):
    """OffsetCommitRequest, versions 0-9, flexible from 8."""

    API_KEY = 8
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 9
    FLEXIBLE_FROM = 8
    __slots__ = ("group_id", "generation_id_or_member_epoch", "member_id", "group_instance_id", "retention_time_ms", "topics", "unknown_tagged_fields",)
    group_id: str
    generation_id_or_member_epoch: int
    member_id: str
    group_instance_id: str | None
    retention_time_ms: int
    topics: list[OffsetCommitRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        generation_id_or_member_epoch: int = -1,
        member_id: str = "",
        group_instance_id: str | None = None,
        retention_time_ms: int = -1,
        topics: list[OffsetCommitRequestTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.generation_id_or_member_epoch = generation_id_or_member_epoch
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.retention_time_ms = retention_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 8
        write_string(out, self.group_id, flexible)
        if version >= 1:
            out += pack_int32(self.generation_id_or_member_epoch)
        if version >= 1:
            write_string(out, self.member_id, flexible)
        if version >= 7:
            write_string(out, self.group_instance_id, flexible, True)
        elif version < 7 and self.group_instance_id is not None:
            raise absent_field(self, "group_instance_id", version)
        if version >= 2 and version <= 4:
            out += pack_int64(self.retention_time_ms)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 8
        self.group_id = r.string(flexible)
        self.generation_id_or_member_epoch = r.int32() if version >= 1 else -1
        self.member_id = r.string(flexible) if version >= 1 else ""
        self.group_instance_id = r.nullable_string(flexible) if version >= 7 else None
        self.retention_time_ms = r.int64() if version >= 2 and version <= 4 else -1
        self.topics = r.struct_array(OffsetCommitRequestTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetCommitResponse(ApiMessage):
    """OffsetCommitResponse, versions 0-9, flexible from 8."""

    API_KEY = 8
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 9
    FLEXIBLE_FROM = 8
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[OffsetCommitResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[OffsetCommitResponseTopic] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 8
        if version >= 3:
            out += pack_int32(self.throttle_time_ms)
        write_struct_array(out, self.topics, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 8
        self.throttle_time_ms = r.int32() if version >= 3 else 0
        self.topics = r.struct_array(OffsetCommitResponseTopic.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetCommitRequestTopic(Struct):
    """OffsetCommitRequestTopic of OffsetCommitRequest (in versions 0-9)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OffsetCommitRequestPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetCommitRequestPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 8
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 8
        self.name = r.string(flexible)
        self.partitions = r.struct_array(OffsetCommitRequestPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetCommitRequestPartition(Struct):
    """OffsetCommitRequestPartition of OffsetCommitRequest (in versions 0-9)."""

    __slots__ = ("partition_index", "committed_offset", "committed_leader_epoch", "commit_timestamp", "committed_metadata", "unknown_tagged_fields",)
    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    commit_timestamp: int
    committed_metadata: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        commit_timestamp: int = -1,
        committed_metadata: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.commit_timestamp = commit_timestamp
        self.committed_metadata = committed_metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 8
        out += _S1.pack(self.partition_index, self.committed_offset)
        if version >= 6:
            out += pack_int32(self.committed_leader_epoch)
        if version >= 1 and version <= 1:
            out += pack_int64(self.commit_timestamp)
        elif (version < 1 or version > 1) and self.commit_timestamp != -1:
            raise absent_field(self, "commit_timestamp", version)
        write_string(out, self.committed_metadata, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 8
        self.partition_index, self.committed_offset = r.fixed(_S1)
        self.committed_leader_epoch = r.int32() if version >= 6 else -1
        self.commit_timestamp = r.int64() if version >= 1 and version <= 1 else -1
        self.committed_metadata = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetCommitResponseTopic(Struct):
    """OffsetCommitResponseTopic of OffsetCommitResponse (in versions 0-9)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OffsetCommitResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetCommitResponsePartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 8
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 8
        self.name = r.string(flexible)
        self.partitions = r.struct_array(OffsetCommitResponsePartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetCommitResponsePartition(Struct):
    """OffsetCommitResponsePartition of OffsetCommitResponse (in versions 0-9)."""

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
        flexible = version >= 8
        out += _S2.pack(self.partition_index, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 8
        self.partition_index, self.error_code = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


OffsetCommitRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("generation_id_or_member_epoch", "GenerationIdOrMemberEpoch", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("member_id", "MemberId", "string", (1, 32767), None, None, None, True, None),
    FieldInfo("group_instance_id", "GroupInstanceId", "string", (7, 32767), (7, 32767), None, None, False, None),
    FieldInfo("retention_time_ms", "RetentionTimeMs", "int64", (2, 4), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetCommitRequestTopic", (0, 32767), None, None, None, False, OffsetCommitRequestTopic),
)
OffsetCommitResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (3, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetCommitResponseTopic", (0, 32767), None, None, None, False, OffsetCommitResponseTopic),
)
OffsetCommitRequestTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetCommitRequestPartition", (0, 32767), None, None, None, False, OffsetCommitRequestPartition),
)
OffsetCommitRequestPartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("committed_offset", "CommittedOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("committed_leader_epoch", "CommittedLeaderEpoch", "int32", (6, 32767), None, None, None, True, None),
    FieldInfo("commit_timestamp", "CommitTimestamp", "int64", (1, 1), None, None, None, False, None),
    FieldInfo("committed_metadata", "CommittedMetadata", "string", (0, 32767), (0, 32767), None, None, False, None),
)
OffsetCommitResponseTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetCommitResponsePartition", (0, 32767), None, None, None, False, OffsetCommitResponsePartition),
)
OffsetCommitResponsePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "OffsetCommitRequest",
    "OffsetCommitRequestPartition",
    "OffsetCommitRequestTopic",
    "OffsetCommitResponse",
    "OffsetCommitResponsePartition",
    "OffsetCommitResponseTopic",
]
