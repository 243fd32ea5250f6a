# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ControlledShutdownRequest.json, ControlledShutdownResponse.json - DO NOT EDIT; make gen-protocol
"""ControlledShutdown (API key 7): ControlledShutdownRequest and ControlledShutdownResponse, versions 0-3."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, tags_unsupported
from ..primitives import Reader, pack_int16, pack_int32, pack_int64, write_string, write_struct_array, write_tagged_fields


class ControlledShutdownRequest(ApiMessage):
    """ControlledShutdownRequest, versions 0-3, flexible from 3."""

    API_KEY = 7
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 3
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
        flexible = version >= 3
        out += pack_int32(self.broker_id)
        if version >= 2:
            out += pack_int64(self.broker_epoch)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.broker_id = r.int32()
        self.broker_epoch = r.int64() if version >= 2 else -1
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class ControlledShutdownResponse(ApiMessage):
    """ControlledShutdownResponse, versions 0-3, flexible from 3."""

    API_KEY = 7
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = 3
    __slots__ = ("error_code", "remaining_partitions", "unknown_tagged_fields",)
    error_code: int
    remaining_partitions: list[RemainingPartition]

    def __init__(
        self,
        *,
        error_code: int = 0,
        remaining_partitions: list[RemainingPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.error_code = error_code
        self.remaining_partitions = [] if remaining_partitions is DEFAULT else remaining_partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 3
        out += pack_int16(self.error_code)
        write_struct_array(out, self.remaining_partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.error_code = r.int16()
        self.remaining_partitions = r.struct_array(RemainingPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class RemainingPartition(Struct):
    """RemainingPartition of ControlledShutdownResponse (in versions 0-3)."""

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
        flexible = version >= 3
        write_string(out, self.topic_name, flexible)
        out += pack_int32(self.partition_index)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 3
        self.topic_name = r.string(flexible)
        self.partition_index = r.int32()
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


ControlledShutdownRequest.FIELDS = (
    FieldInfo("broker_id", "BrokerId", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("broker_epoch", "BrokerEpoch", "int64", (2, 32767), None, None, None, True, None),
)
ControlledShutdownResponse.FIELDS = (
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("remaining_partitions", "RemainingPartitions", "[]RemainingPartition", (0, 32767), None, None, None, False, RemainingPartition),
)
RemainingPartition.FIELDS = (
    FieldInfo("topic_name", "TopicName", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ControlledShutdownRequest",
    "ControlledShutdownResponse",
    "RemainingPartition",
]
