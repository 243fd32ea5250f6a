# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ConsumerProtocolSubscription.json - DO NOT EDIT; make gen-protocol
"""ConsumerProtocolSubscription (data), versions 0-3."""

from __future__ import annotations

from typing import Self

from ..message import DEFAULT, FieldInfo, Message, Struct, tags_unsupported
from ..primitives import Reader, pack_int32, write_bytes, write_int_array, write_string, write_string_array, write_struct_array


class ConsumerProtocolSubscription(Message):
    """ConsumerProtocolSubscription, versions 0-3."""

    MIN_VERSION = 0
    MAX_VERSION = 3
    FLEXIBLE_FROM = None
    __slots__ = ("topics", "user_data", "owned_partitions", "generation_id", "rack_id", "unknown_tagged_fields",)
    topics: list[str]
    user_data: bytes | None
    owned_partitions: list[TopicPartition]
    generation_id: int
    rack_id: str | None

    def __init__(
        self,
        *,
        topics: list[str] = DEFAULT,
        user_data: bytes | None = None,
        owned_partitions: list[TopicPartition] = DEFAULT,
        generation_id: int = -1,
        rack_id: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topics = [] if topics is DEFAULT else topics
        self.user_data = user_data
        self.owned_partitions = [] if owned_partitions is DEFAULT else owned_partitions
        self.generation_id = generation_id
        self.rack_id = rack_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string_array(out, self.topics, False)
        write_bytes(out, self.user_data, False, True)
        if version >= 1:
            write_struct_array(out, self.owned_partitions, version, False)
        if version >= 2:
            out += pack_int32(self.generation_id)
        if version >= 3:
            write_string(out, self.rack_id, False, True)
        if self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.topics = r.string_array(False)
        self.user_data = r.nullable_binary(False)
        self.owned_partitions = r.struct_array(TopicPartition.read, version, False) if version >= 1 else []
        self.generation_id = r.int32() if version >= 2 else -1
        self.rack_id = r.nullable_string(False) if version >= 3 else None
        self.unknown_tagged_fields = {}
        return self


class TopicPartition(Struct):
    """TopicPartition of ConsumerProtocolSubscription (in versions 1-3)."""

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


ConsumerProtocolSubscription.FIELDS = (
    FieldInfo("topics", "Topics", "[]string", (0, 32767), None, None, None, False, None),
    FieldInfo("user_data", "UserData", "bytes", (0, 32767), (0, 32767), None, None, False, None),
    FieldInfo("owned_partitions", "OwnedPartitions", "[]TopicPartition", (1, 32767), None, None, None, True, TopicPartition),
    FieldInfo("generation_id", "GenerationId", "int32", (2, 32767), None, None, None, True, None),
    FieldInfo("rack_id", "RackId", "string", (3, 32767), (3, 32767), None, None, True, None),
)
TopicPartition.FIELDS = (
    FieldInfo("topic", "Topic", "string", (1, 32767), None, None, None, False, None),
    FieldInfo("partitions", "Partitions", "[]int32", (1, 32767), None, None, None, False, None),
)


__all__ = [
    "ConsumerProtocolSubscription",
    "TopicPartition",
]
