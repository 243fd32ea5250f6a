# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 LeaderAndIsrRequest.json, LeaderAndIsrResponse.json - DO NOT EDIT; make gen-protocol
"""LeaderAndIsr (API key 4): LeaderAndIsrRequest and LeaderAndIsrResponse, versions 0-7."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int8, pack_int16, pack_int32, pack_int64, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iiii")
_S2 = _Struct(">ih")


class LeaderAndIsrRequest(ApiMessage):
    """LeaderAndIsrRequest, versions 0-7, flexible from 4."""

    API_KEY = 4
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 7
    FLEXIBLE_FROM = 4
    __slots__ = ("controller_id", "is_k_raft_controller", "controller_epoch", "broker_epoch", "type", "ungrouped_partition_states", "topic_states", "live_leaders", "unknown_tagged_fields",)
    controller_id: int
    is_k_raft_controller: bool
    controller_epoch: int
    broker_epoch: int
    type: int
    ungrouped_partition_states: list[LeaderAndIsrPartitionState]
    topic_states: list[LeaderAndIsrTopicState]
    live_leaders: list[LeaderAndIsrLiveLeader]

    def __init__(
        self,
        *,
        controller_id: int = 0,
        is_k_raft_controller: bool = False,
        controller_epoch: int = 0,
        broker_epoch: int = -1,
        type: int = 0,
        ungrouped_partition_states: list[LeaderAndIsrPartitionState] = DEFAULT,
        topic_states: list[LeaderAndIsrTopicState] = DEFAULT,
        live_leaders: list[LeaderAndIsrLiveLeader] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.controller_id = controller_id
        self.is_k_raft_controller = is_k_raft_controller
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.type = type
        self.ungrouped_partition_states = [] if ungrouped_partition_states is DEFAULT else ungrouped_partition_states
        self.topic_states = [] if topic_states is DEFAULT else topic_states
        self.live_leaders = [] if live_leaders is DEFAULT else live_leaders
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int32(self.controller_id)
        if version >= 7:
            out += pack_bool(self.is_k_raft_controller)
        elif version < 7 and self.is_k_raft_controller != False:
            raise absent_field(self, "is_k_raft_controller", version)
        out += pack_int32(self.controller_epoch)
        if version >= 2:
            out += pack_int64(self.broker_epoch)
        if version >= 5:
            out += pack_int8(self.type)
        elif version < 5 and self.type != 0:
            raise absent_field(self, "type", version)
        if version <= 1:
            write_struct_array(out, self.ungrouped_partition_states, version, False)
        elif version > 1 and self.ungrouped_partition_states != []:
            raise absent_field(self, "ungrouped_partition_states", version)
        if version >= 2:
            write_struct_array(out, self.topic_states, version, flexible)
        elif version < 2 and self.topic_states != []:
            raise absent_field(self, "topic_states", version)
        write_struct_array(out, self.live_leaders, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.controller_id = r.int32()
        self.is_k_raft_controller = r.boolean() if version >= 7 else False
        self.controller_epoch = r.int32()
        self.broker_epoch = r.int64() if version >= 2 else -1
        self.type = r.int8() if version >= 5 else 0
        self.ungrouped_partition_states = r.struct_array(LeaderAndIsrPartitionState.read, version, False) if version <= 1 else []
        self.topic_states = r.struct_array(LeaderAndIsrTopicState.read, version, flexible) if version >= 2 else []
        self.live_leaders = r.struct_array(LeaderAndIsrLiveLeader.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderAndIsrResponse(ApiMessage):
    """LeaderAndIsrResponse, versions 0-7, flexible from 4."""

    API_KEY = 4
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 7
    FLEXIBLE_FROM = 4
    __slots__ = ("error_code", "partition_errors", "topics", "unknown_tagged_fields",)
    error_code: int
    partition_errors: list[LeaderAndIsrPartitionError]
    topics: list[LeaderAndIsrTopicError]

    def __init__(
        self,
        *,
        error_code: int = 0,
        partition_errors: list[LeaderAndIsrPartitionError] = DEFAULT,
        topics: list[LeaderAndIsrTopicError] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.partition_errors = [] if partition_errors is DEFAULT else partition_errors
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int16(self.error_code)
        if version <= 4:
            write_struct_array(out, self.partition_errors, version, flexible)
        elif version > 4 and self.partition_errors != []:
            raise absent_field(self, "partition_errors", version)
        if version >= 5:
            write_struct_array(out, self.topics, version, True)
        elif version < 5 and self.topics != []:
            raise absent_field(self, "topics", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.error_code = r.int16()
        self.partition_errors = r.struct_array(LeaderAndIsrPartitionError.read, version, flexible) if version <= 4 else []
        self.topics = r.struct_array(LeaderAndIsrTopicError.read, version, True) if version >= 5 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderAndIsrPartitionState(Struct):
    """LeaderAndIsrPartitionState of LeaderAndIsrRequest (in versions 0-7)."""

    __slots__ = ("topic_name", "partition_index", "controller_epoch", "leader", "leader_epoch", "isr", "partition_epoch", "replicas", "adding_replicas", "removing_replicas", "is_new", "leader_recovery_state", "unknown_tagged_fields",)
    topic_name: str
    partition_index: int
    controller_epoch: int
    leader: int
    leader_epoch: int
    isr: list[int]
    partition_epoch: int
    replicas: list[int]
    adding_replicas: list[int]
    removing_replicas: list[int]
    is_new: bool
    leader_recovery_state: int

    def __init__(
        self,
        *,
        topic_name: str = "",
        partition_index: int = 0,
        controller_epoch: int = 0,
        leader: int = 0,
        leader_epoch: int = 0,
        isr: list[int] = DEFAULT,
        partition_epoch: int = 0,
        replicas: list[int] = DEFAULT,
        adding_replicas: list[int] = DEFAULT,
        removing_replicas: list[int] = DEFAULT,
        is_new: bool = False,
        leader_recovery_state: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index
        self.controller_epoch = controller_epoch
        self.leader = leader
        self.leader_epoch = leader_epoch
        self.isr = [] if isr is DEFAULT else isr
        self.partition_epoch = partition_epoch
        self.replicas = [] if replicas is DEFAULT else replicas
        self.adding_replicas = [] if adding_replicas is DEFAULT else adding_replicas
        self.removing_replicas = [] if removing_replicas is DEFAULT else removing_replicas
        self.is_new = is_new
        self.leader_recovery_state = leader_recovery_state
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        if version <= 1:
            write_string(out, self.topic_name, False)
        out += _S1.pack(self.partition_index, self.controller_epoch, self.leader, self.leader_epoch)
        write_int_array(out, "i", self.isr, flexible)
        out += pack_int32(self.partition_epoch)
        write_int_array(out, "i", self.replicas, flexible)
        if version >= 3:
            write_int_array(out, "i", self.adding_replicas, flexible)
        if version >= 3:
            write_int_array(out, "i", self.removing_replicas, flexible)
        if version >= 1:
            out += pack_bool(self.is_new)
        if version >= 6:
            out += pack_int8(self.leader_recovery_state)
        elif version < 6 and self.leader_recovery_state != 0:
            raise absent_field(self, "leader_recovery_state", version)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.topic_name = r.string(False) if version <= 1 else ""
        self.partition_index, self.controller_epoch, self.leader, self.leader_epoch = r.fixed(_S1)
        self.isr = r.int_array("i", flexible)
        self.partition_epoch = r.int32()
        self.replicas = r.int_array("i", flexible)
        self.adding_replicas = r.int_array("i", flexible) if version >= 3 else []
        self.removing_replicas = r.int_array("i", flexible) if version >= 3 else []
        self.is_new = r.boolean() if version >= 1 else False
        self.leader_recovery_state = r.int8() if version >= 6 else 0
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderAndIsrTopicState(Struct):
    """LeaderAndIsrTopicState of LeaderAndIsrRequest (in versions 2-7)."""

    __slots__ = ("topic_name", "topic_id", "partition_states", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    partition_states: list[LeaderAndIsrPartitionState]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        partition_states: list[LeaderAndIsrPartitionState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partition_states = [] if partition_states is DEFAULT else partition_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        write_string(out, self.topic_name, flexible)
        if version >= 5:
            out += self.topic_id.bytes
        write_struct_array(out, self.partition_states, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.topic_name = r.string(flexible)
        self.topic_id = r.uuid() if version >= 5 else ZERO_UUID
        self.partition_states = r.struct_array(LeaderAndIsrPartitionState.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderAndIsrLiveLeader(Struct):
    """LeaderAndIsrLiveLeader of LeaderAndIsrRequest (in versions 0-7)."""

    __slots__ = ("broker_id", "host_name", "port", "unknown_tagged_fields",)
    broker_id: int
    host_name: str
    port: int

    def __init__(
        self,
        *,
        broker_id: int = 0,
        host_name: str = "",
        port: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.host_name = host_name
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 4
        out += pack_int32(self.broker_id)
        write_string(out, self.host_name, flexible)
        out += pack_int32(self.port)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.broker_id = r.int32()
        self.host_name = r.string(flexible)
        self.port = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderAndIsrPartitionError(Struct):
    """LeaderAndIsrPartitionError of LeaderAndIsrResponse (in versions 0-7)."""

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
        flexible = version >= 4
        if version <= 4:
            write_string(out, self.topic_name, flexible)
        out += _S2.pack(self.partition_index, self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 4
        self.topic_name = r.string(flexible) if version <= 4 else ""
        self.partition_index, self.error_code = r.fixed(_S2)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class LeaderAndIsrTopicError(Struct):
    """LeaderAndIsrTopicError of LeaderAndIsrResponse (in versions 5-7)."""

    __slots__ = ("topic_id", "partition_errors", "unknown_tagged_fields",)
    topic_id: UUID
    partition_errors: list[LeaderAndIsrPartitionError]

    def __init__(
        self,
        *,
        topic_id: UUID = ZERO_UUID,
        partition_errors: list[LeaderAndIsrPartitionError] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_id = topic_id
        self.partition_errors = [] if partition_errors is DEFAULT else partition_errors
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += self.topic_id.bytes
        write_struct_array(out, self.partition_errors, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_id = r.uuid()
        self.partition_errors = r.struct_array(LeaderAndIsrPartitionError.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


LeaderAndIsrRequest.FIELDS = (
    FieldInfo("controller_id", "ControllerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("is_k_raft_controller", "isKRaftController", "bool", (7, 32767), None, None, None, False, None),
    FieldInfo("controller_epoch", "ControllerEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (2, 32767), None, None, None, True, None),
    FieldInfo("type", "Type", "int8", (5, 32767), None, None, None, False, None),
    FieldInfo("ungrouped_partition_states", "UngroupedPartitionStates", "[]LeaderAndIsrPartitionState", (0, 1), None, None, None, False, LeaderAndIsrPartitionState),
    FieldInfo("topic_states", "TopicStates", "[]LeaderAndIsrTopicState", (2, 32767), None, None, None, False, LeaderAndIsrTopicState),
    FieldInfo("live_leaders", "LiveLeaders", "[]LeaderAndIsrLiveLeader", (0, 32767), None, None, None, False, LeaderAndIsrLiveLeader),
)
LeaderAndIsrResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_errors", "PartitionErrors", "[]LeaderAndIsrPartitionError", (0, 4), None, None, None, False, LeaderAndIsrPartitionError),
    FieldInfo("topics", "Topics", "[]LeaderAndIsrTopicError", (5, 32767), None, None, None, False, LeaderAndIsrTopicError),
)
LeaderAndIsrPartitionState.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 1), None, None, None, True, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("controller_epoch", "ControllerEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader", "Leader", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("isr", "Isr", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_epoch", "PartitionEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replicas", "Replicas", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("adding_replicas", "AddingReplicas", "[]int32", (3, 32767), None, None, None, True, None),
    FieldInfo("removing_replicas", "RemovingReplicas", "[]int32", (3, 32767), None, None, None, True, None),
    FieldInfo("is_new", "IsNew", "bool", (1, 32767), None, None, None, True, None),
    FieldInfo("leader_recovery_state", "LeaderRecoveryState", "int8", (6, 32767), None, None, None, False, None),
)
LeaderAndIsrTopicState.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (2, 32767), None, None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (5, 32767), None, None, None, True, None),
    FieldInfo("partition_states", "PartitionStates", "[]LeaderAndIsrPartitionState", (2, 32767), None, None, None, False, LeaderAndIsrPartitionState),
)
LeaderAndIsrLiveLeader.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("host_name", "HostName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (0, 32767), None, None, None, False, None),
)
LeaderAndIsrPartitionError.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 4), None, None, None, True, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)
LeaderAndIsrTopicError.FIELDS = (
    FieldInfo("topic_id", "TopicId", "uuid", (5, 32767), None, None, None, False, None),
    FieldInfo("partition_errors", "PartitionErrors", "[]LeaderAndIsrPartitionError", (5, 32767), None, None, None, False, LeaderAndIsrPartitionError),
)


__all__ = [
    "LeaderAndIsrLiveLeader",
    "LeaderAndIsrPartitionError",
    "LeaderAndIsrPartitionState",
    "LeaderAndIsrRequest",
    "LeaderAndIsrResponse",
    "LeaderAndIsrTopicError",
    "LeaderAndIsrTopicState",
]
