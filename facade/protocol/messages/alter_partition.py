# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 AlterPartitionRequest.json, AlterPartitionResponse.json - DO NOT EDIT; make gen-protocol
"""AlterPartition (API key 56): AlterPartitionRequest and AlterPartitionResponse, versions 0-3."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, ZERO_UUID, pack_int8, pack_int32, write_int_array, write_string, write_struct_array, write_tagged_fields

_S1 = _Struct(">iq")
_S2 = _Struct(">ih")
_S3 = _Struct(">ii")
_S4 = _Struct(">ihii")


class AlterPartitionRequest(ApiMessage):
    """AlterPartitionRequest, versions 0-3, flexible from 0."""

    API_KEY = 56
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 0
    __slots__ = ("broker_id", "broker_epoch", "topics", "unknown_tagged_fields",)
    broker_id: int
    broker_epoch: int
    topics: list[AlterPartitionRequestTopicData]

    def __init__(
        self,
        *,
        broker_id: int = 0,
        broker_epoch: int = -1,
        topics: list[AlterPartitionRequestTopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.broker_id, self.broker_epoch)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id, self.broker_epoch = r.fixed(_S1)
        self.topics = r.struct_array(AlterPartitionRequestTopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterPartitionResponse(ApiMessage):
    """AlterPartitionResponse, versions 0-3, flexible from 0."""

    API_KEY = 56
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "topics", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    topics: list[AlterPartitionResponseTopicData]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        topics: list[AlterPartitionResponseTopicData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S2.pack(self.throttle_time_ms, self.error_code)
        write_struct_array(out, self.topics, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S2)
        self.topics = r.struct_array(AlterPartitionResponseTopicData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterPartitionRequestTopicData(Struct):
    """TopicData of AlterPartitionRequest (in versions 0-3)."""

    __slots__ = ("topic_name", "topic_id", "partitions", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    partitions: list[AlterPartitionRequestPartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[AlterPartitionRequestPartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        if version <= 1:
            write_string(out, self.topic_name, True)
        if version >= 2:
            out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True) if version <= 1 else ""
        self.topic_id = r.uuid() if version >= 2 else ZERO_UUID
        self.partitions = r.struct_array(AlterPartitionRequestPartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterPartitionResponseTopicData(Struct):
    """TopicData of AlterPartitionResponse (in versions 0-3)."""

    __slots__ = ("topic_name", "topic_id", "partitions", "unknown_tagged_fields",)
    topic_name: str
    topic_id: UUID
    partitions: list[AlterPartitionResponsePartitionData]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[AlterPartitionResponsePartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        if version <= 1:
            write_string(out, self.topic_name, True)
        if version >= 2:
            out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic_name = r.string(True) if version <= 1 else ""
        self.topic_id = r.uuid() if version >= 2 else ZERO_UUID
        self.partitions = r.struct_array(AlterPartitionResponsePartitionData.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterPartitionRequestPartitionData(Struct):
    """PartitionData of AlterPartitionRequest (in versions 0-3)."""

    __slots__ = ("partition_index", "leader_epoch", "new_isr", "new_isr_with_epochs", "leader_recovery_state", "partition_epoch", "unknown_tagged_fields",)
    partition_index: int
    leader_epoch: int
    new_isr: list[int]
    new_isr_with_epochs: list[BrokerState]
    leader_recovery_state: int
    partition_epoch: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        leader_epoch: int = 0,
        new_isr: list[int] = DEFAULT,
        new_isr_with_epochs: list[BrokerState] = DEFAULT,
        leader_recovery_state: int = 0,
        partition_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.leader_epoch = leader_epoch
        self.new_isr = [] if new_isr is DEFAULT else new_isr
        self.new_isr_with_epochs = [] if new_isr_with_epochs is DEFAULT else new_isr_with_epochs
        self.leader_recovery_state = leader_recovery_state
        self.partition_epoch = partition_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S3.pack(self.partition_index, self.leader_epoch)
        if version <= 2:
            write_int_array(out, "i", self.new_isr, True)
        elif version > 2 and self.new_isr != []:
            raise absent_field(self, "new_isr", version)
        if version >= 3:
            write_struct_array(out, self.new_isr_with_epochs, version, True)
        elif version < 3 and self.new_isr_with_epochs != []:
            raise absent_field(self, "new_isr_with_epochs", version)
        if version >= 1:
            out += pack_int8(self.leader_recovery_state)
        elif version < 1 and self.leader_recovery_state != 0:
            raise absent_field(self, "leader_recovery_state", version)
        out += pack_int32(self.partition_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.leader_epoch = r.fixed(_S3)
        self.new_isr = r.int_array("i", True) if version <= 2 else []
        self.new_isr_with_epochs = r.struct_array(BrokerState.read, version, True) if version >= 3 else []
        self.leader_recovery_state = r.int8() if version >= 1 else 0
        self.partition_epoch = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AlterPartitionResponsePartitionData(Struct):
    """PartitionData of AlterPartitionResponse (in versions 0-3)."""

    __slots__ = ("partition_index", "error_code", "leader_id", "leader_epoch", "isr", "leader_recovery_state", "partition_epoch", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    leader_id: int
    leader_epoch: int
    isr: list[int]
    leader_recovery_state: int
    partition_epoch: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        leader_id: int = 0,
        leader_epoch: int = 0,
        isr: list[int] = DEFAULT,
        leader_recovery_state: int = 0,
        partition_epoch: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.isr = [] if isr is DEFAULT else isr
        self.leader_recovery_state = leader_recovery_state
        self.partition_epoch = partition_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S4.pack(self.partition_index, self.error_code, self.leader_id, self.leader_epoch)
        write_int_array(out, "i", self.isr, True)
        if version >= 1:
            out += pack_int8(self.leader_recovery_state)
        out += pack_int32(self.partition_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.partition_index, self.error_code, self.leader_id, self.leader_epoch = r.fixed(_S4)
        self.isr = r.int_array("i", True)
        self.leader_recovery_state = r.int8() if version >= 1 else 0
        self.partition_epoch = r.int32()
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class BrokerState(Struct):
    """BrokerState of AlterPartitionRequest (in versions 3)."""

    __slots__ = ("broker_id", "broker_epoch", "unknown_tagged_fields",)
    broker_id: int
    broker_epoch: int

    def __init__(
        self,
        *,
        broker_id: int = 0,
        broker_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.broker_id, self.broker_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.broker_id, self.broker_epoch = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


AlterPartitionRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, AlterPartitionRequestTopicData),
)
AlterPartitionResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("topics", "Topics", "[]TopicData", (0, 32767), None, None, None, False, AlterPartitionResponseTopicData),
)
AlterPartitionRequestTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 1), None, None, None, True, None),
    FieldInfo("topic_id", "TopicId", "uuid", (2, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, AlterPartitionRequestPartitionData),
)
AlterPartitionResponseTopicData.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 1), None, None, None, True, None),
    FieldInfo("topic_id", "TopicId", "uuid", (2, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, AlterPartitionResponsePartitionData),
)
AlterPartitionRequestPartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("new_isr", "NewIsr", "[]int32", (0, 2), None, None, None, False, None),
    FieldInfo("new_isr_with_epochs", "NewIsrWithEpochs", "[]BrokerState", (3, 32767), None, None, None, False, BrokerState),
    FieldInfo("leader_recovery_state", "LeaderRecoveryState", "int8", (1, 32767), None, None, None, False, None),
    FieldInfo("partition_epoch", "PartitionEpoch", "int32", (0, 32767), None, None, None, False, None),
)
AlterPartitionResponsePartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_id", "LeaderId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("isr", "Isr", "[]int32", (0, 32767), None, None, None, False, None),
    FieldInfo("leader_recovery_state", "LeaderRecoveryState", "int8", (1, 32767), None, None, None, True, None),
    FieldInfo("partition_epoch", "PartitionEpoch", "int32", (0, 32767), None, None, None, False, None),
)
BrokerState.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (3, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (3, 32767), None, None, None, False, None),
)


__all__ = [
    "AlterPartitionRequest",
    "AlterPartitionRequestPartitionData",
    "AlterPartitionRequestTopicData",
    "AlterPartitionResponse",
    "AlterPartitionResponsePartitionData",
    "AlterPartitionResponseTopicData",
    "BrokerState",
]
