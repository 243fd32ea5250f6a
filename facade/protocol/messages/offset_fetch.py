# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 OffsetFetchRequest.json, OffsetFetchResponse.json - DO NOT EDIT; make gen-protocol
"""OffsetFetch (API key 9): OffsetFetchRequest and OffsetFetchResponse, versions 0-9."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iq")
_S2 = _Struct(">iqi")


class OffsetFetchRequest(ApiMessage):
    """OffsetFetchRequest, versions 0-9, flexible from 6."""

    API_KEY = 9
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 9
    FLEXIBLE_FROM = 6
    __slots__ = ("group_id", "topics", "groups", "require_stable", "unknown_tagged_fields",)
    group_id: str
    topics: list[OffsetFetchRequestTopic] | None
    groups: list[OffsetFetchRequestGroup]
    require_stable: bool

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[OffsetFetchRequestTopic] | None = DEFAULT,
        groups: list[OffsetFetchRequestGroup] = DEFAULT,
        require_stable: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.groups = [] if groups is DEFAULT else groups
        self.require_stable = require_stable
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        if version <= 7:
            write_string(out, self.group_id, flexible)
        elif version > 7 and self.group_id != "":
            raise absent_field(self, "group_id", version)
        if version <= 7:
            write_struct_array(out, self.topics, version, flexible, version >= 2)
        elif version > 7 and self.topics != []:
            raise absent_field(self, "topics", version)
        if version >= 8:
            write_struct_array(out, self.groups, version, True)
        elif version < 8 and self.groups != []:
            raise absent_field(self, "groups", version)
        if version >= 7:
            out += pack_bool(self.require_stable)
        elif version < 7 and self.require_stable != False:
            raise absent_field(self, "require_stable", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.group_id = r.string(flexible) if version <= 7 else ""
        self.topics = (r.nullable_struct_array(OffsetFetchRequestTopic.read, version, flexible) if version >= 2 else r.struct_array(OffsetFetchRequestTopic.read, version, flexible)) if version <= 7 else []
        self.groups = r.struct_array(OffsetFetchRequestGroup.read, version, True) if version >= 8 else []
        self.require_stable = r.boolean() if version >= 7 else False
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetFetchResponse(ApiMessage):
    """OffsetFetchResponse, versions 0-9, flexible from 6."""

    API_KEY = 9
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 9
    FLEXIBLE_FROM = 6
    __slots__ = ("throttle_time_ms", "topics", "error_code", "groups", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[OffsetFetchResponseTopic]
    error_code: int
    groups: list[OffsetFetchResponseGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[OffsetFetchResponseTopic] = DEFAULT,
        error_code: int = 0,
        groups: list[OffsetFetchResponseGroup] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.error_code = error_code
        self.groups = [] if groups is DEFAULT else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        if version >= 3:
            out += pack_int32(self.throttle_time_ms)
        if version <= 7:
            write_struct_array(out, self.topics, version, flexible)
        elif version > 7 and self.topics != []:
            raise absent_field(self, "topics", version)
        if version >= 2 and version <= 7:
            out += pack_int16(self.error_code)
        if version >= 8:
            write_struct_array(out, self.groups, version, True)
        elif version < 8 and self.groups != []:
            raise absent_field(self, "groups", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.throttle_time_ms = r.int32() if version >= 3 else 0
        self.topics = r.struct_array(OffsetFetchResponseTopic.read, version, flexible) if version <= 7 else []
        self.error_code = r.int16() if version >= 2 and version <= 7 else 0
        self.groups = r.struct_array(OffsetFetchResponseGroup.read, version, True) if version >= 8 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetFetchRequestTopic(Struct):
    """OffsetFetchRequestTopic of OffsetFetchRequest (in versions 0-7)."""

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
        flexible = version >= 6
        write_string(out, self.name, flexible)
        write_int_array(out, "i", self.partition_indexes, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.name = r.string(flexible)
        self.partition_indexes = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetFetchRequestGroup(Struct):
    """OffsetFetchRequestGroup of OffsetFetchRequest (in versions 8-9)."""

    __slots__ = ("group_id", "member_id", "member_epoch", "topics", "unknown_tagged_fields",)
    group_id: str
    member_id: str | None
    member_epoch: int
    topics: list[OffsetFetchRequestTopics] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str | None = None,
        member_epoch: int = -1,
        topics: list[OffsetFetchRequestTopics] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True)
        if version >= 9:
            write_string(out, self.member_id, True, True)
        if version >= 9:
            out += pack_int32(self.member_epoch)
        write_struct_array(out, self.topics, version, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(True)
        self.member_id = r.nullable_string(True) if version >= 9 else None
        self.member_epoch = r.int32() if version >= 9 else -1
        self.topics = r.nullable_struct_array(OffsetFetchRequestTopics.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class OffsetFetchRequestTopics(Struct):
    """OffsetFetchRequestTopics of OffsetFetchRequest (in versions 8-9)."""

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


class OffsetFetchResponseTopic(Struct):
    """OffsetFetchResponseTopic of OffsetFetchResponse (in versions 0-7)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OffsetFetchResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetFetchResponsePartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.name, flexible)
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.name = r.string(flexible)
        self.partitions = r.struct_array(OffsetFetchResponsePartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetFetchResponsePartition(Struct):
    """OffsetFetchResponsePartition of OffsetFetchResponse (in versions 0-7)."""

    __slots__ = ("partition_index", "committed_offset", "committed_leader_epoch", "metadata", "error_code", "unknown_tagged_fields",)
    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    metadata: str | None
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        metadata: str | None = "",
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += _S1.pack(self.partition_index, self.committed_offset)
        if version >= 5:
            out += pack_int32(self.committed_leader_epoch)
        write_string(out, self.metadata, flexible, True)
        out += pack_int16(self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.partition_index, self.committed_offset = r.fixed(_S1)
        self.committed_leader_epoch = r.int32() if version >= 5 else -1
        self.metadata = r.nullable_string(flexible)
        self.error_code = r.int16()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class OffsetFetchResponseGroup(Struct):
    """OffsetFetchResponseGroup of OffsetFetchResponse (in versions 8-9)."""

    __slots__ = ("group_id", "topics", "error_code", "unknown_tagged_fields",)
    group_id: str
    topics: list[OffsetFetchResponseTopics]
    error_code: int

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[OffsetFetchResponseTopics] = DEFAULT,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.group_id, True)
        write_struct_array(out, self.topics, version, True)
        out += pack_int16(self.error_code)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.group_id = r.string(True)
        self.topics = r.struct_array(OffsetFetchResponseTopics.read, version, True)
        self.error_code = r.int16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class OffsetFetchResponseTopics(Struct):
    """OffsetFetchResponseTopics of OffsetFetchResponse (in versions 8-9)."""

    __slots__ = ("name", "partitions", "unknown_tagged_fields",)
    name: str
    partitions: list[OffsetFetchResponsePartitions]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetFetchResponsePartitions] = DEFAULT,
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
        self.partitions = r.struct_array(OffsetFetchResponsePartitions.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class OffsetFetchResponsePartitions(Struct):
    """OffsetFetchResponsePartitions of OffsetFetchResponse (in versions 8-9)."""

    __slots__ = ("partition_index", "committed_offset", "committed_leader_epoch", "metadata", "error_code", "unknown_tagged_fields",)
    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    metadata: str | None
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        metadata: str | None = "",
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.partition_index, self.committed_offset, self.committed_leader_epoch)
        write_string(out, self.metadata, True, True)
        out += pack_int16(self.error_code)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.committed_offset, self.committed_leader_epoch = r.fixed(_S2)
        self.metadata = r.nullable_string(True)
        self.error_code = r.int16()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


OffsetFetchRequest.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (0, 7), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]OffsetFetchRequestTopic", (0, 7), (2, 7), None, None, False, OffsetFetchRequestTopic),
    FieldInfo("groups", "Groups", "[]OffsetFetchRequestGroup", (8, 32767), None, None, None, False, OffsetFetchRequestGroup),
    FieldInfo("require_stable", "RequireStable", "bool", (7, 32767), None, None, None, False, None),
)
OffsetFetchResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (3, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetFetchResponseTopic", (0, 7), None, None, None, False, OffsetFetchResponseTopic),
    FieldInfo("error_code", "ErrorCode", "int16", (2, 7), None, None, None, True, None),
    FieldInfo("groups", "Groups", "[]OffsetFetchResponseGroup", (8, 32767), None, None, None, False, OffsetFetchResponseGroup),
)
OffsetFetchRequestTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 7), None, None, None, False, None),
    FieldInfo("partition_indexes", "PartitionIndexes", "[]int32", (0, 7), None, None, None, False, None),
)
OffsetFetchRequestGroup.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (8, 32767), None, None, None, False, None),
    FieldInfo("member_id", "MemberId", "string", (9, 32767), (9, 32767), None, None, True, None),
    FieldInfo("member_epoch", "MemberEpoch", "int32", (9, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]OffsetFetchRequestTopics", (8, 32767), (8, 32767), None, None, False, OffsetFetchRequestTopics),
)
OffsetFetchRequestTopics.FIELDS = (
    FieldInfo("name", "Name", "string", (8, 32767), None, None, None, False, None),
    FieldInfo("partition_indexes", "PartitionIndexes", "[]int32", (8, 32767), None, None, None, False, None),
)
OffsetFetchResponseTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 7), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetFetchResponsePartition", (0, 7), None, None, None, False, OffsetFetchResponsePartition),
)
OffsetFetchResponsePartition.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 7), None, None, None, False, None),
    FieldInfo("committed_offset", "CommittedOffset", "int64", (0, 7), None, None, None, False, None),
    FieldInfo("committed_leader_epoch", "CommittedLeaderEpoch", "int32", (5, 7), None, None, None, True, None),
    FieldInfo("metadata", "Metadata", "string", (0, 7), (0, 7), None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 7), None, None, None, False, None),
)
OffsetFetchResponseGroup.FIELDS = (
    FieldInfo("group_id", "GroupId", "string", (8, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]OffsetFetchResponseTopics", (8, 32767), None, None, None, False, OffsetFetchResponseTopics),
    FieldInfo("error_code", "ErrorCode", "int16", (8, 32767), None, None, None, False, None),
)
OffsetFetchResponseTopics.FIELDS = (
    FieldInfo("name", "Name", "string", (8, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]OffsetFetchResponsePartitions", (8, 32767), None, None, None, False, OffsetFetchResponsePartitions),
)
OffsetFetchResponsePartitions.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (8, 32767), None, None, None, False, None),
    FieldInfo("committed_offset", "CommittedOffset", "int64", (8, 32767), None, None, None, False, None),
    FieldInfo("committed_leader_epoch", "CommittedLeaderEpoch", "int32", (8, 32767), None, None, None, True, None),
    FieldInfo("metadata", "Metadata", "string", (8, 32767), (8, 32767), None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (8, 32767), None, None, None, False, None),
)


__all__ = [
    "OffsetFetchRequest",
    "OffsetFetchRequestGroup",
    "OffsetFetchRequestTopic",
    "OffsetFetchRequestTopics",
    "OffsetFetchResponse",
    "OffsetFetchResponseGroup",
    "OffsetFetchResponsePartition",
    "OffsetFetchResponsePartitions",
    "OffsetFetchResponseTopic",
    "OffsetFetchResponseTopics",
]
