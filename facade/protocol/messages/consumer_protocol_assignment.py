# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ConsumerProtocolAssignment.json - DO NOT EDIT; make gen-protocol
"""ConsumerProtocolAssignment (data), versions 0-3."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, FieldInfo, Message, Struct, tags_unsupported
from ..primitives import Reader, write_bytes, write_int_array, write_string, write_struct_array


class ConsumerProtocolAssignment(Message):
    """ConsumerProtocolAssignment, versions 0-3."""

    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = None
    __slots__ = ("assigned_partitions", "user_data", "unknown_tagged_fields",)
    assigned_partitions: list[TopicPartition]
    user_data: bytes | None

    def __init__(
        self,
        *,
        assigned_partitions: list[TopicPartition] = DEFAULT,
        user_data: bytes | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.assigned_partitions = [] if assigned_partitions is DEFAULT else assigned_partitions
        self.user_data = user_data
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_struct_array(out, self.assigned_partitions, version, False)
        write_bytes(out, self.user_data, False, True)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.assigned_partitions = r.struct_array(TopicPartition.read, version, False)
        self.user_data = r.nullable_binary(False)
        self.unknown_tagged_fields = {}
        return self


class TopicPartition(Struct):
    """TopicPartition of ConsumerProtocolAssignment (in versions 0-3)."""

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
        write_string(out, self.topic, False)
        write_int_array(out, "i", self.partitions, False)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topic = r.string(False)
        self.partitions = r.int_array("i", False)
        self.unknown_tagged_fields = {}
        return self


ConsumerProtocolAssignment.FIELDS = (
    FieldInfo("assigned_partitions", "AssignedPartitions", "[]TopicPartition", (0, 32767), None, None, None, False, TopicPartition),
    FieldInfo("user_data", "UserData", "bytes", (0, 32767), (0, 32767), None, None, False, None),
)
TopicPartition.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ConsumerProtocolAssignment",
    "TopicPartition",
]
