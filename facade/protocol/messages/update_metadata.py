# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 UpdateMetadataRequest.json, UpdateMetadataResponse.json - DO NOT EDIT; make gen-protocol
"""UpdateMetadata (API key 6): UpdateMetadataRequest and UpdateMetadataResponse, versions 0-8."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_bool, pack_int8, pack_int16, pack_int32, pack_int64, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iiii")


class UpdateMetadataRequest(ApiMessage):
    """UpdateMetadataRequest, versions 0-8, flexible from 6."""

    API_KEY = 6
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 8
    FLEXIBLE_FROM = 6
    __slots__ = ("controller_id", "is_k_raft_controller", "type", "controller_epoch", "broker_epoch", "ungrouped_partition_states", "topic_states", "live_brokers", "unknown_tagged_fields",)
    controller_id: int
    is_k_raft_controller: bool
    type: int
    controller_epoch: int
    broker_epoch: int
    ungrouped_partition_states: list[UpdateMetadataPartitionState]
    topic_states: list[UpdateMetadataTopicState]
    live_brokers: list[UpdateMetadataBroker]

    def __init__(
        self,
        *,
        controller_id: int = 0,
        is_k_raft_controller: bool = False,
        type: int = 0,
        controller_epoch: int = 0,
        broker_epoch: int = -1,
        ungrouped_partition_states: list[UpdateMetadataPartitionState] = DEFAULT,
        topic_states: list[UpdateMetadataTopicState] = DEFAULT,
        live_brokers: list[UpdateMetadataBroker] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.controller_id = controller_id
        self.is_k_raft_controller = is_k_raft_controller
        self.type = type
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.ungrouped_partition_states = [] if ungrouped_partition_states is DEFAULT else ungrouped_partition_states
        self.topic_states = [] if topic_states is DEFAULT else topic_states
        self.live_brokers = [] if live_brokers is DEFAULT else live_brokers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += pack_int32(self.controller_id)
        if version >= 8:
            out += pack_bool(self.is_k_raft_controller)
        elif version < 8 and self.is_k_raft_controller != False:
            raise absent_field(self, "is_k_raft_controller", version)
        out += pack_int32(self.controller_epoch)
        if version >= 5:
            out += pack_int64(self.broker_epoch)
        if version <= 4:
            write_struct_array(out, self.ungrouped_partition_states, version, False)
        elif version > 4 and self.ungrouped_partition_states != []:
            raise absent_field(self, "ungrouped_partition_states", version)
        if version >= 5:
            write_struct_array(out, self.topic_states, version, flexible)
        elif version < 5 and self.topic_states != []:
            raise absent_field(self, "topic_states", version)
        write_struct_array(out, self.live_brokers, version, flexible)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 8 and self.type != 0:
                tb = bytearray()
                tb += pack_int8(self.type)
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 8 and self.type != 0:
            raise absent_field(self, "type", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.controller_id = r.int32()
        self.is_k_raft_controller = r.boolean() if version >= 8 else False
        self.type = 0
        self.controller_epoch = r.int32()
        self.broker_epoch = r.int64() if version >= 5 else -1
        self.ungrouped_partition_states = r.struct_array(UpdateMetadataPartitionState.read, version, False) if version <= 4 else []
        self.topic_states = r.struct_array(UpdateMetadataTopicState.read, version, flexible) if version >= 5 else []
        self.live_brokers = r.struct_array(UpdateMetadataBroker.read, version, flexible)
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 8:
                    tr = Reader(tags.pop(0))
                    self.type = tr.int8()
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class UpdateMetadataResponse(ApiMessage):
    """UpdateMetadataResponse, versions 0-8, flexible from 6."""

    API_KEY = 6
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 8
    FLEXIBLE_FROM = 6
    __slots__ = ("error_code", "unknown_tagged_fields",)
    error_code: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += pack_int16(self.error_code)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.error_code = r.int16()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class UpdateMetadataPartitionState(Struct):
    """UpdateMetadataPartitionState of UpdateMetadataRequest (in versions 0-8)."""

    __slots__ = ("topic_name", "partition_index", "controller_epoch", "leader", "leader_epoch", "isr", "zk_version", "replicas", "offline_replicas", "unknown_tagged_fields",)
    topic_name: str
    partition_index: int
    controller_epoch: int
    leader: int
    leader_epoch: int
    isr: list[int]
    zk_version: int
    replicas: list[int]
    offline_replicas: list[int]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partition_index: int = 0,
        controller_epoch: int = 0,
        leader: int = 0,
        leader_epoch: int = 0,
        isr: list[int] = DEFAULT,
        zk_version: int = 0,
        replicas: list[int] = DEFAULT,
        offline_replicas: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index
        self.controller_epoch = controller_epoch
        self.leader = leader
        self.leader_epoch = leader_epoch
        self.isr = [] if isr is DEFAULT else isr
        self.zk_version = zk_version
        self.replicas = [] if replicas is DEFAULT else replicas
        self.offline_replicas = [] if offline_replicas is DEFAULT else offline_replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        if version <= 4:
            write_string(out, self.topic_name, False)
        out += _S1.pack(self.partition_index, self.controller_epoch, self.leader, self.leader_epoch)
        write_int_array(out, "i", self.isr, flexible)
        out += pack_int32(self.zk_version)
        write_int_array(out, "i", self.replicas, flexible)
        if version >= 4:
            write_int_array(out, "i", self.offline_replicas, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.topic_name = r.string(False) if version <= 4 else ""
        self.partition_index, self.controller_epoch, self.leader, self.leader_epoch = r.fixed(_S1)
        self.isr = r.int_array("i", flexible)
        self.zk_version = r.int32()
        self.replicas = r.int_array("i", flexible)
        self.offline_replicas = r.int_array("i", flexible) if version >= 4 else []
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class UpdateMetadataTopicState(Struct):
    """UpdateMetadataTopicState of UpdateMetadataRequest (in versions 5-8)."""

    __slots__ = ("topic_name", "topic_id", "partition_states", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    partition_states: list[UpdateMetadataPartitionState]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        partition_states: list[UpdateMetadataPartitionState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partition_states = [] if partition_states is DEFAULT else partition_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        write_string(out, self.topic_name, flexible)
        if version >= 7:
            out += self.topic_id.bytes
        write_struct_array(out, self.partition_states, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.topic_name = r.string(flexible)
        self.topic_id = r.uuid() if version >= 7 else ZERO_UUID
        self.partition_states = r.struct_array(UpdateMetadataPartitionState.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class UpdateMetadataBroker(Struct):
    """UpdateMetadataBroker of UpdateMetadataRequest (in versions 0-8)."""

    __slots__ = ("id", "v0_host", "v0_port", "endpoints", "rack", "unknown_tagged_fields",)
    id: int
    v0_host: str
    v0_port: int
    endpoints: list[UpdateMetadataEndpoint]
    rack: str | None

    def __init__(
        self,
        *,
        id: int = 0,
        v0_host: str = "",
        v0_port: int = 0,
        endpoints: list[UpdateMetadataEndpoint] = DEFAULT,
        rack: str | None = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.id = id
        self.v0_host = v0_host
        self.v0_port = v0_port
        self.endpoints = [] if endpoints is DEFAULT else endpoints
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += pack_int32(self.id)
        if version <= 0:
            write_string(out, self.v0_host, False)
        if version <= 0:
            out += pack_int32(self.v0_port)
        if version >= 1:
            write_struct_array(out, self.endpoints, version, flexible)
        if version >= 2:
            write_string(out, self.rack, flexible, True)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.id = r.int32()
        self.v0_host = r.string(False) if version <= 0 else ""
        self.v0_port = r.int32() if version <= 0 else 0
        self.endpoints = r.struct_array(UpdateMetadataEndpoint.read, version, flexible) if version >= 1 else []
        self.rack = r.nullable_string(flexible) if version >= 2 else ""
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class UpdateMetadataEndpoint(Struct):
    """UpdateMetadataEndpoint of UpdateMetadataRequest (in versions 1-8)."""

    __slots__ = ("port", "host", "listener", "security_protocol", "unknown_tagged_fields",)
    port: int
    host: str
    listener: str
    security_protocol: int

    def __init__(
        self,
        *,
        port: int = 0,
        host: str = "",
        listener: str = "",
        security_protocol: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.port = port
        self.host = host
        self.listener = listener
        self.security_protocol = security_protocol
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 6
        out += pack_int32(self.port)
        write_string(out, self.host, flexible)
        if version >= 3:
            write_string(out, self.listener, flexible)
        out += pack_int16(self.security_protocol)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 6
        self.port = r.int32()
        self.host = r.string(flexible)
        self.listener = r.string(flexible) if version >= 3 else ""
        self.security_protocol = r.int16()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


UpdateMetadataRequest.FIELDS = (
    FieldInfo("controller_id", "ControllerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("is_k_raft_controller", "isKRaftController", "bool", (8, 32767), None, None, None, False, None),
    FieldInfo("type", "Type", "int8", (8, 32767), None, (8, 32767), 0, False, None),
    FieldInfo("controller_epoch", "ControllerEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (5, 32767), None, None, None, True, None),
    FieldInfo("ungrouped_partition_states", "UngroupedPartitionStates", "[]UpdateMetadataPartitionState", (0, 4), None, None, None, False, UpdateMetadataPartitionState),
    FieldInfo("topic_states", "TopicStates", "[]UpdateMetadataTopicState", (5, 32767), None, None, None, False, UpdateMetadataTopicState),
    FieldInfo("live_brokers", "LiveBrokers", "[]UpdateMetadataBroker", (0, 32767), None, None, None, False, UpdateMetadataBroker),
)
UpdateMetadataResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
)
UpdateMetadataPartitionState.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 4), None, None, None, True, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("controller_epoch", "ControllerEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader", "Leader", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("isr", "Isr", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("zk_version", "ZkVersion", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replicas", "Replicas", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("offline_replicas", "OfflineReplicas", "[]int32", (4, 32767), None, None, None, True, None),
)
UpdateMetadataTopicState.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (5, 32767), None, None, None, False, None),
    FieldInfo("topic_id", "TopicId", "uuid", (7, 32767), None, None, None, True, None),
    FieldInfo("partition_states", "PartitionStates", "[]UpdateMetadataPartitionState", (5, 32767), None, None, None, False, UpdateMetadataPartitionState),
)
UpdateMetadataBroker.FIELDS = (
    FieldInfo("id", "Id", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("v0_host", "V0Host", "string", (0, 0), None, None, None, True, None),
    FieldInfo("v0_port", "V0Port", "int32", (0, 0), None, None, None, True, None),
    FieldInfo("endpoints", "Endpoints", "[]UpdateMetadataEndpoint", (1, 32767), None, None, None, True, UpdateMetadataEndpoint),
    FieldInfo("rack", "Rack", "string", (2, 32767), (0, 32767), None, None, True, None),
)
UpdateMetadataEndpoint.FIELDS = (
    FieldInfo("port", "Port", "int32", (1, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("listener", "Listener", "string", (3, 32767), None, None, None, True, None),
    FieldInfo("security_protocol", "SecurityProtocol", "int16", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "UpdateMetadataBroker",
    "UpdateMetadataEndpoint",
    "UpdateMetadataPartitionState",
    "UpdateMetadataRequest",
    "UpdateMetadataResponse",
    "UpdateMetadataTopicState",
]
