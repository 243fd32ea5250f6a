# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 StopReplicaRequest.json, StopReplicaResponse.json - DO NOT EDIT; make gen-protocol
"""StopReplica (API key 5): StopReplicaRequest and StopReplicaResponse, versions 0-4."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, pack_bool, pack_int16, pack_int32, pack_int64, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">ii?")
_S2 = _Struct(">ih")


class StopReplicaRequest(ApiMessage):
    """StopReplicaRequest, versions 0-4, flexible from 2."""

    API_KEY = 5
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 2
    __slots__ = ("controller_id", "is_k_raft_controller", "controller_epoch", "broker_epoch", "delete_partitions", "ungrouped_partitions", "topics", "topic_states", "unknown_tagged_fields",)
    controller_id: int
    is_k_raft_controller: bool
    controller_epoch: int
    broker_epoch: int
    delete_partitions: bool
    ungrouped_partitions: list[StopReplicaPartitionV0]
    topics: list[StopReplicaTopicV1]
    topic_states: list[StopReplicaTopicState]

    def __init__(
        self,
        *,
        controller_id: int = 0,
        is_k_raft_controller: bool = False,
        controller_epoch: int = 0,
        broker_epoch: int = -1,
        delete_partitions: bool = False,
        ungrouped_partitions: list[StopReplicaPartitionV0] = DEFAULT,
        topics: list[StopReplicaTopicV1] = DEFAULT,
        topic_states: list[StopReplicaTopicState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.controller_id = controller_id
        self.is_k_raft_controller = is_k_raft_controller
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.delete_partitions = delete_partitions
        self.ungrouped_partitions = [] if ungrouped_partitions is DEFAULT else ungrouped_partitions
        self.topics = [] if topics is DEFAULT else topics
        self.topic_states = [] if topic_states is DEFAULT else topic_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int32(self.controller_id)
        if version >= 4:
            out += pack_bool(self.is_k_raft_controller)
        elif version < 4 and self.is_k_raft_controller != False:
            raise absent_field(self, "is_k_raft_controller", version)
        out += pack_int32(self.controller_epoch)
        if version >= 1:
            out += pack_int64(self.broker_epoch)
        if version <= 2:
            out += pack_bool(self.delete_partitions)
        elif version > 2 and self.delete_partitions != False:
            raise absent_field(self, "delete_partitions", version)
        if version <= 0:
            write_struct_array(out, self.ungrouped_partitions, version, False)
        elif version > 0 and self.ungrouped_partitions != []:
            raise absent_field(self, "ungrouped_partitions", version)
        if version >= 1 and version <= 2:
            write_struct_array(out, self.topics, version, flexible)
        elif (version < 1 or version > 2) and self.topics != []:
            raise absent_field(self, "topics", version)
        if version >= 3:
            write_struct_array(out, self.topic_states, version, True)
        elif version < 3 and self.topic_states != []:
            raise absent_field(self, "topic_states", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.controller_id = r.int32()
        self.is_k_raft_controller = r.boolean() if version >= 4 else False
        self.controller_epoch = r.int32()
        self.broker_epoch = r.int64() if version >= 1 else -1
        self.delete_partitions = r.boolean() if version <= 2 else False
        self.ungrouped_partitions = r.struct_array(StopReplicaPartitionV0.read, version, False) if version <= 0 else []
        self.topics = r.struct_array(StopReplicaTopicV1.read, version, flexible) if version >= 1 and version <= 2 else []
        self.topic_states = r.struct_array(StopReplicaTopicState.read, version, True) if version >= 3 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class StopReplicaResponse(ApiMessage):
    """StopReplicaResponse, versions 0-4, flexible from 2."""

    API_KEY = 5
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 4
    FLEXIBLE_FROM = 2
    __slots__ = ("error_code", "partition_errors", "unknown_tagged_fields",)
    error_code: int
    partition_errors: list[StopReplicaPartitionError]

    def __init__(
        self,
        *,
        error_code: int = 0,
        partition_errors: list[StopReplicaPartitionError] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.partition_errors = [] if partition_errors is DEFAULT else partition_errors
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        out += pack_int16(self.error_code)
        write_struct_array(out, self.partition_errors, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.error_code = r.int16()
        self.partition_errors = r.struct_array(StopReplicaPartitionError.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class StopReplicaPartitionV0(Struct):
    """StopReplicaPartitionV0 of StopReplicaRequest (in versions 0)."""

    __slots__ = ("topic_name", "partition_index", "unknown_tagged_fields",)
    topic_name: str
    partition_index: int

    def __init__(
        self,
        *,
        topic_name: str = "",
        partition_index: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, False)
        out += pack_int32(self.partition_index)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(False)
        self.partition_index = r.int32()
        self.unknown_tagged_fields = {}
        return self


class StopReplicaTopicV1(Struct):
    """StopReplicaTopicV1 of StopReplicaRequest (in versions 1-2)."""

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
        flexible = version >= 2
        write_string(out, self.name, flexible)
        write_int_array(out, "i", self.partition_indexes, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.name = r.string(flexible)
        self.partition_indexes = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class StopReplicaTopicState(Struct):
    """StopReplicaTopicState of StopReplicaRequest (in versions 3-4)."""

    __slots__ = ("topic_name", "partition_states", "unknown_tagged_fields",)
    topic_name: str
    partition_states: list[StopReplicaPartitionState]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partition_states: list[StopReplicaPartitionState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partition_states = [] if partition_states is DEFAULT else partition_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.topic_name, True)
        write_struct_array(out, self.partition_states, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True)
        self.partition_states = r.struct_array(StopReplicaPartitionState.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class StopReplicaPartitionState(Struct):
    """StopReplicaPartitionState of StopReplicaRequest (in versions 3-4)."""

    __slots__ = ("partition_index", "leader_epoch", "delete_partition", "unknown_tagged_fields",)
    partition_index: int
    leader_epoch: int
    delete_partition: bool

    def __init__(
        self,
        *,
        partition_index: int = 0,
        leader_epoch: int = -1,
        delete_partition: bool = False,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.leader_epoch = leader_epoch
        self.delete_partition = delete_partition
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.partition_index, self.leader_epoch, self.delete_partition)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.leader_epoch, self.delete_partition = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class StopReplicaPartitionError(Struct):
    """StopReplicaPartitionError of StopReplicaResponse (in versions 0-4)."""

    __slots__ = ("topic_name", "partition_index", "error_code", "unknown_tagged_fields",)
    topic_name: str
    partition_index: int
    error_code: int

    def __init__(
        self,
        *,
        topic_name: str = "",
        partition_index: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 2
        write_string(out, self.topic_name, flexible)
        out += _S2.pack(self.partition_index, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 2
        self.topic_name = r.string(flexible)
        self.partition_index, self.error_code = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


StopReplicaRequest.FIELDS = (
    FieldInfo("controller_id", "ControllerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("is_k_raft_controller", "isKRaftController", "bool", (4, 32767), None, None, None, False, None),
    FieldInfo("controller_epoch", "ControllerEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (1, 32767), None, None, None, True, None),
    FieldInfo("delete_partitions", "DeletePartitions", "bool", (0, 2), None, None, None, False, None),
    FieldInfo("ungrouped_partitions", "UngroupedPartitions", "[]StopReplicaPartitionV0", (0, 0), None, None, None, False, StopReplicaPartitionV0),
    FieldInfo("topics", "Topics", "[]StopReplicaTopicV1", (1, 2), None, None, None, False, StopReplicaTopicV1),
    FieldInfo("topic_states", "TopicStates", "[]StopReplicaTopicState", (3, 32767), None, None, None, False, StopReplicaTopicState),
)
StopReplicaResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_errors", "PartitionErrors", "[]StopReplicaPartitionError", (0, 32767), None, None, None, False, StopReplicaPartitionError),
)
StopReplicaPartitionV0.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 0), None, None, None, False, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 0), None, None, None, False, None),
)
StopReplicaTopicV1.FIELDS = (
    FieldInfo("name", "Name", "string", (1, 2), None, None, None, False, None),
    FieldInfo("partition_indexes", "PartitionIndexes", "[]int32", (1, 2), None, None, None, False, None),
)
StopReplicaTopicState.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (3, 32767), None, None, None, False, None),
    FieldInfo("partition_states", "PartitionStates", "[]StopReplicaPartitionState", (3, 32767), None, None, None, False, StopReplicaPartitionState),
)
StopReplicaPartitionState.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (3, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (3, 32767), None, None, None, False, None),
    FieldInfo("delete_partition", "DeletePartition", "bool", (3, 32767), None, None, None, False, None),
)
StopReplicaPartitionError.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "StopReplicaPartitionError",
    "StopReplicaPartitionState",
    "StopReplicaPartitionV0",
    "StopReplicaRequest",
    "StopReplicaResponse",
    "StopReplicaTopicState",
    "StopReplicaTopicV1",
]
