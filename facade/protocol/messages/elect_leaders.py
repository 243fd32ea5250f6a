# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ElectLeadersRequest.json, ElectLeadersResponse.json - DO NOT EDIT; make gen-protocol
"""ElectLeaders (API key 43): ElectLeadersRequest and ElectLeadersResponse, versions 0-2."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_int8, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class ElectLeadersRequest(ApiMessage):
    """ElectLeadersRequest, versions 0-2, flexible from 2."""

    API_KEY = 43
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("election_type", "topic_partitions", "timeout_ms", "unknown_tagged_fields",)
    election_type: int
    topic_partitions: list[TopicPartitions] | None
    timeout_ms: int

    def __init__(
        self,
        *,
        election_type: int = 0,
        topic_partitions: list[TopicPartitions] | None = DEFAULT,
        timeout_ms: int = 60000,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.election_type = election_type
        self.topic_partitions = [] if topic_partitions is DEFAULT else topic_partitions
        self.timeout_ms = timeout_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        if version >= 1:
            out += pack_int8(self.election_type)
        elif version < 1 and self.election_type != 0:
            raise absent_field(self, "election_type", version)
        write_struct_array(out, self.topic_partitions, version, flexible, True)
        out += pack_int32(self.timeout_ms)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.election_type = r.int8() if version >= 1 else 0
        self.topic_partitions = r.nullable_struct_array(TopicPartitions.read, version, flexible)
        self.timeout_ms = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ElectLeadersResponse(ApiMessage):
    """ElectLeadersResponse, versions 0-2, flexible from 2."""

    API_KEY = 43
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 2
    FLEXIBLE_FROM = 2
    __slots__ = ("throttle_time_ms", "error_code", "replica_election_results", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    replica_election_results: list[ReplicaElectionResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        replica_election_results: list[ReplicaElectionResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.replica_election_results = [] if replica_election_results is DEFAULT else replica_election_results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.throttle_time_ms)
        if version >= 1:
            out += pack_int16(self.error_code)
        elif version < 1 and self.error_code != 0:
            raise absent_field(self, "error_code", version)
        write_struct_array(out, self.replica_election_results, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.throttle_time_ms = r.int32()
        self.error_code = r.int16() if version >= 1 else 0
        self.replica_election_results = r.struct_array(ReplicaElectionResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class TopicPartitions(Struct):
    """TopicPartitions of ElectLeadersRequest (in versions 0-2)."""

    __slots__ = ("topic", "partitions", "unknown_tagged_fields",)
    topic: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic: str = "",
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.topic, flexible)
        write_int_array(out, "i", self.partitions, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topic = r.string(flexible)
        self.partitions = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ReplicaElectionResult(Struct):
    """ReplicaElectionResult of ElectLeadersResponse (in versions 0-2)."""

    __slots__ = ("topic", "partition_result", "unknown_tagged_fields",)
    topic: str
    partition_result: list[PartitionResult]

    def __init__(
        self,
        *,
        topic: str = "",
        partition_result: list[PartitionResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.partition_result = [] if partition_result is DEFAULT else partition_result
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.topic, flexible)
        write_struct_array(out, self.partition_result, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topic = r.string(flexible)
        self.partition_result = r.struct_array(PartitionResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class PartitionResult(Struct):
    """PartitionResult of ElectLeadersResponse (in versions 0-2)."""

    __slots__ = ("partition_id", "error_code", "error_message", "unknown_tagged_fields",)
    partition_id: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition_id: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_id = partition_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += _S1.pack(self.partition_id, self.error_code)
        write_string(out, self.error_message, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.partition_id, self.error_code = r.fixed(_S1)
        self.error_message = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


ElectLeadersRequest.FIELDS = (
    FieldInfo("election_type", "ElectionType", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("topic_partitions", "TopicPartitions", "[]TopicPartitions", (0, 32767), (0, 32767), None, None, False, TopicPartitions),
    FieldInfo("timeout_ms", "TimeoutMs", "int32", (0, 32767), None, None, None, False, None),
)
ElectLeadersResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (1, 32767), None, None, None, False, None),
    FieldInfo("replica_election_results", "ReplicaElectionResults", "[]ReplicaElectionResult", (0, 32767), None, None, None, False, ReplicaElectionResult),
)
TopicPartitions.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)
ReplicaElectionResult.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_result", "PartitionResult", "[]PartitionResult", (0, 32767), None, None, None, False, PartitionResult),
)
PartitionResult.FIELDS = (
    FieldInfo("partition_id", "PartitionId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (0, 32767), (0, 32767), None, None, False, None),
)


__all__ = [
    "ElectLeadersRequest",
    "ElectLeadersResponse",
    "PartitionResult",
    "ReplicaElectionResult",
    "TopicPartitions",
]
