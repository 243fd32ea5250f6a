# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 CreateTopicsRequest.json, CreateTopicsResponse.json - DO NOT EDIT; make gen-protocol
"""CreateTopics (API key 19): CreateTopicsRequest and CreateTopicsResponse, versions 0-7."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int16, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")
_S2 = _Struct(">?b?")


class CreateTopicsRequest(ApiMessage):
    """CreateTopicsRequest, versions 0-7, flexible from 5."""

    API_KEY = 19
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 7
    FLEXIBLE_FROM = 5
    __slots__ = ("topics", "timeout_ms", "validate_only", "unknown_tagged_fields",)
    topics: list[CreatableTopic]
    timeout_ms: int
    validate_only: bool

    def __init__(
        self,
        *,
        topics: list[CreatableTopic] = DEFAULT,
        timeout_ms: int = 60000,
        validate_only: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        write_struct_array(out, self.topics, version, flexible)
        out += pack_int32(self.timeout_ms)
        if version >= 1:
            out += pack_bool(self.validate_only)
        elif version < 1 and self.validate_only != False:
            raise absent_field(self, "validate_only", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.topics = r.struct_array(CreatableTopic.read, version, flexible)
        self.timeout_ms = r.int32()
        self.validate_only = r.boolean() if version >= 1 else False
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreateTopicsResponse(ApiMessage):
    """CreateTopicsResponse, versions 0-7, flexible from 5."""

    API_KEY = 19
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 7
    FLEXIBLE_FROM = 5
    __slots__ = ("throttle_time_ms", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    topics: list[CreatableTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[CreatableTopicResult] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
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
        flexible = version >= 5
        self.throttle_time_ms = r.int32() if version >= 2 else 0
        self.topics = r.struct_array(CreatableTopicResult.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatableTopic(Struct):
    """CreatableTopic of CreateTopicsRequest (in versions 0-7)."""

    __slots__ = ("name", "num_partitions", "replication_factor", "assignments", "configs", "unknown_tagged_fields",)
    name: str
    num_partitions: int
    replication_factor: int
    assignments: list[CreatableReplicaAssignment]
    configs: list[CreatableTopicConfig]

    def __init__(
        self,
        *,
        name: str = "",
        num_partitions: int = 0,
        replication_factor: int = 0,
        assignments: list[CreatableReplicaAssignment] = DEFAULT,
        configs: list[CreatableTopicConfig] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.assignments = [] if assignments is DEFAULT else assignments
        self.configs = [] if configs is DEFAULT else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        write_string(out, self.name, flexible)
        out += _S1.pack(self.num_partitions, self.replication_factor)
        write_struct_array(out, self.assignments, version, flexible)
        write_struct_array(out, self.configs, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.name = r.string(flexible)
        self.num_partitions, self.replication_factor = r.fixed(_S1)
        self.assignments = r.struct_array(CreatableReplicaAssignment.read, version, flexible)
        self.configs = r.struct_array(CreatableTopicConfig.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatableReplicaAssignment(Struct):
    """CreatableReplicaAssignment of CreateTopicsRequest (in versions 0-7)."""

    __slots__ = ("partition_index", "broker_ids", "unknown_tagged_fields",)
    partition_index: int
    broker_ids: list[int]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        broker_ids: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.broker_ids = [] if broker_ids is DEFAULT else broker_ids
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        out += pack_int32(self.partition_index)
        write_int_array(out, "i", self.broker_ids, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.partition_index = r.int32()
        self.broker_ids = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatableTopicConfig(Struct):
    """CreatableTopicConfig of CreateTopicsRequest (in versions 0-7)."""

    __slots__ = ("name", "value", "unknown_tagged_fields",)
    name: str
    value: str | None

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.value = value
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        write_string(out, self.name, flexible)
        write_string(out, self.value, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.name = r.string(flexible)
        self.value = r.nullable_string(flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatableTopicResult(Struct):
    """CreatableTopicResult of CreateTopicsResponse (in versions 0-7)."""

    __slots__ = ("name", "topic_id", "error_code", "error_message", "topic_config_error_code", "num_partitions", "replication_factor", "configs", "unknown_tagged_fields",)
    name: str
    topic_id: UUID
    error_code: int
    error_message: str | None
    topic_config_error_code: int
    num_partitions: int
    replication_factor: int
    configs: list[CreatableTopicConfigs] | None

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: UUID = ZERO_UUID,
        error_code: int = 0,
        error_message: str | None = "",
        topic_config_error_code: int = 0,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: list[CreatableTopicConfigs] | None = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.topic_config_error_code = topic_config_error_code
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.configs = [] if configs is DEFAULT else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 5
        write_string(out, self.name, flexible)
        if version >= 7:
            out += self.topic_id.bytes
        out += pack_int16(self.error_code)
        if version >= 1:
            write_string(out, self.error_message, flexible, True)
        if version >= 5:
            out += _S1.pack(self.num_partitions, self.replication_factor)
        if version >= 5:
            write_struct_array(out, self.configs, version, True, True)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 5 and self.topic_config_error_code != 0:
                tb = bytearray()
                tb += pack_int16(self.topic_config_error_code)
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 5
        self.name = r.string(flexible)
        self.topic_id = r.uuid() if version >= 7 else ZERO_UUID
        self.error_code = r.int16()
        self.error_message = r.nullable_string(flexible) if version >= 1 else ""
        self.topic_config_error_code = 0
        if version >= 5:
            self.num_partitions, self.replication_factor = r.fixed(_S1)
        else:
            self.num_partitions = -1
            self.replication_factor = -1
        self.configs = r.nullable_struct_array(CreatableTopicConfigs.read, version, True) if version >= 5 else []
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 5:
                    tr = Reader(tags.pop(0))
                    self.topic_config_error_code = tr.int16()
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class CreatableTopicConfigs(Struct):
    """CreatableTopicConfigs of CreateTopicsResponse (in versions 5-7)."""

    __slots__ = ("name", "value", "read_only", "config_source", "is_sensitive", "unknown_tagged_fields",)
    name: str
    value: str | None
    read_only: bool
    config_source: int
    is_sensitive: bool

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        read_only: bool = False,
        config_source: int = -1,
        is_sensitive: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.name, True)
        write_string(out, self.value, True, True)
        out += _S2.pack(self.read_only, self.config_source, self.is_sensitive)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.name = r.string(True)
        self.value = r.nullable_string(True)
        self.read_only, self.config_source, self.is_sensitive = r.fixed(_S2)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


CreateTopicsRequest.FIELDS = (
    FieldInfo("topics", "Topics", "[]CreatableTopic", (0, 32767), None, None, None, False, CreatableTopic),
    FieldInfo("timeout_ms", "timeoutMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("validate_only", "validateOnly", "bool", (1, 32767), None, None, None, False, None),
)
CreateTopicsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]CreatableTopicResult", (0, 32767), None, None, None, False, CreatableTopicResult),
)
CreatableTopic.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("num_partitions", "NumPartitions", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replication_factor", "ReplicationFactor", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("assignments", "Assignments", "[]CreatableReplicaAssignment", (0, 32767), None, None, None, False, CreatableReplicaAssignment),
    FieldInfo("configs", "Configs", "[]CreatableTopicConfig", (0, 32767), None, None, None, False, CreatableTopicConfig),
)
CreatableReplicaAssignment.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_ids", "BrokerIds", "[]int32", (0, 32767), None, None, None, False, None),
)
CreatableTopicConfig.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "string", (0, 32767), (0, 32767), None, None, False, None),
)
CreatableTopicResult.FIELDS = (
    FieldInfo("name", "Name", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (7, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("error_message", "ErrorMessage", "string", (1, 32767), (0, 32767), None, None, True, None),
    FieldInfo("topic_config_error_code", "TopicConfigErrorCode", "int16", (5, 32767), None, (5, 32767), 0, True, None),
    FieldInfo("num_partitions", "NumPartitions", "int32", (5, 32767), None, None, None, True, None),
    FieldInfo("replication_factor", "ReplicationFactor", "int16", (5, 32767), None, None, None, True, None),
    FieldInfo("configs", "Configs", "[]CreatableTopicConfigs", (5, 32767), (5, 32767), None, None, True, CreatableTopicConfigs),
)
CreatableTopicConfigs.FIELDS = (
    FieldInfo("name", "Name", "string", (5, 32767), None, None, None, False, None),
    FieldInfo("value", "Value", "string", (5, 32767), (5, 32767), None, None, False, None),
    FieldInfo("read_only", "ReadOnly", "bool", (5, 32767), None, None, None, False, None),
    FieldInfo("config_source", "ConfigSource", "int8", (5, 32767), None, None, None, True, None),
    FieldInfo("is_sensitive", "IsSensitive", "bool", (5, 32767), None, None, None, False, None),
)


__all__ = [
    "CreatableReplicaAssignment",
    "CreatableTopic",
    "CreatableTopicConfig",
    "CreatableTopicConfigs",
    "CreatableTopicResult",
    "CreateTopicsRequest",
    "CreateTopicsResponse",
]
