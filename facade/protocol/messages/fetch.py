# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchRequest.json, FetchResponse.json - DO NOT EDIT; make gen-protocol
"""Fetch (API key 1): FetchRequest and FetchResponse, versions 0-17."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import TYPE_CHECKING, Self
from uuid import UUID

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field, tags_unsupported
from ..primitives import Reader, ZERO_UUID, pack_int8, pack_int32, pack_int64, write_bytes, write_int_array, write_string, write_struct_array, write_tagged_fields

if TYPE_CHECKING:
    from typing_extensions import Buffer

_S1 = _Struct(">ii")
_S2 = _Struct(">hi")
_S3 = _Struct(">iq")
_S4 = _Struct(">ihq")
_S5 = _Struct(">qi")
_S6 = _Struct(">qq")


class FetchRequest(ApiMessage):
    """FetchRequest, versions 0-17, flexible from 12."""

    API_KEY = 1
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 17
    FLEXIBLE_FROM = 12
    __slots__ = ("cluster_id", "replica_id", "replica_state", "max_wait_ms", "min_bytes", "max_bytes", "isolation_level", "session_id", "session_epoch", "topics", "forgotten_topics_data", "rack_id", "unknown_tagged_fields",)
    cluster_id: str | None
    replica_id: int
    replica_state: ReplicaState
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    isolation_level: int
    session_id: int
    session_epoch: int
    topics: list[FetchTopic]
    forgotten_topics_data: list[ForgottenTopic]
    rack_id: str

    def __init__(
        self,
        *,
        cluster_id: str | None = None,
        replica_id: int = -1,
        replica_state: ReplicaState = DEFAULT,
        max_wait_ms: int = 0,
        min_bytes: int = 0,
        max_bytes: int = 2147483647,
        isolation_level: int = 0,
        session_id: int = 0,
        session_epoch: int = -1,
        topics: list[FetchTopic] = DEFAULT,
        forgotten_topics_data: list[ForgottenTopic] = DEFAULT,
        rack_id: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.replica_state = ReplicaState() if replica_state is DEFAULT else replica_state
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.isolation_level = isolation_level
        self.session_id = session_id
        self.session_epoch = session_epoch
        self.topics = [] if topics is DEFAULT else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is DEFAULT else forgotten_topics_data
        self.rack_id = rack_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        if version <= 14:
            out += pack_int32(self.replica_id)
        elif version > 14 and self.replica_id != -1:
            raise absent_field(self, "replica_id", version)
        out += _S1.pack(self.max_wait_ms, self.min_bytes)
        if version >= 3:
            out += pack_int32(self.max_bytes)
        if version >= 4:
            out += pack_int8(self.isolation_level)
        if version >= 7:
            out += _S1.pack(self.session_id, self.session_epoch)
        write_struct_array(out, self.topics, version, flexible)
        if version >= 7:
            write_struct_array(out, self.forgotten_topics_data, version, flexible)
        elif version < 7 and self.forgotten_topics_data != []:
            raise absent_field(self, "forgotten_topics_data", version)
        if version >= 11:
            write_string(out, self.rack_id, flexible)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 12 and self.cluster_id is not None:
                tb = bytearray()
                write_string(tb, self.cluster_id, True, True)
                tags[0] = bytes(tb)
            if version >= 15 and self.replica_state != ReplicaState():
                tb = bytearray()
                self.replica_state.write(tb, version)
                tags[1] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 15 and self.replica_state != ReplicaState():
            raise absent_field(self, "replica_state", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.cluster_id = None
        self.replica_id = r.int32() if version <= 14 else -1
        self.replica_state = ReplicaState()
        self.max_wait_ms, self.min_bytes = r.fixed(_S1)
        self.max_bytes = r.int32() if version >= 3 else 2147483647
        self.isolation_level = r.int8() if version >= 4 else 0
        if version >= 7:
            self.session_id, self.session_epoch = r.fixed(_S1)
        else:
            self.session_id = 0
            self.session_epoch = -1
        self.topics = r.struct_array(FetchTopic.read, version, flexible)
        self.forgotten_topics_data = r.struct_array(ForgottenTopic.read, version, flexible) if version >= 7 else []
        self.rack_id = r.string(flexible) if version >= 11 else ""
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 12:
                    tr = Reader(tags.pop(0))
                    self.cluster_id = tr.nullable_string(True)
                    tr.expect_end()
                if 1 in tags and version >= 15:
                    tr = Reader(tags.pop(1))
                    self.replica_state = ReplicaState.read(tr, version)
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class FetchResponse(ApiMessage):
    """FetchResponse, versions 0-17, flexible from 12."""

    API_KEY = 1
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 17
    FLEXIBLE_FROM = 12
    __slots__ = ("throttle_time_ms", "error_code", "session_id", "responses", "node_endpoints", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    session_id: int
    responses: list[FetchableTopicResponse]
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        session_id: int = 0,
        responses: list[FetchableTopicResponse] = DEFAULT,
        node_endpoints: list[NodeEndpoint] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.session_id = session_id
        self.responses = [] if responses is DEFAULT else responses
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        if version >= 1:
            out += pack_int32(self.throttle_time_ms)
        if version >= 7:
            out += _S2.pack(self.error_code, self.session_id)
        else:
            if self.session_id != 0:
                raise absent_field(self, "session_id", version)
        write_struct_array(out, self.responses, version, flexible)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 16 and self.node_endpoints != []:
                tb = bytearray()
                write_struct_array(tb, self.node_endpoints, version, True)
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 16 and self.node_endpoints != []:
            raise absent_field(self, "node_endpoints", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.throttle_time_ms = r.int32() if version >= 1 else 0
        if version >= 7:
            self.error_code, self.session_id = r.fixed(_S2)
        else:
            self.error_code = 0
            self.session_id = 0
        self.responses = r.struct_array(FetchableTopicResponse.read, version, flexible)
        self.node_endpoints = []
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 16:
                    tr = Reader(tags.pop(0))
                    self.node_endpoints = tr.struct_array(NodeEndpoint.read, version, True)
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class ReplicaState(Struct):
    """ReplicaState of FetchRequest (in versions 15-17)."""

    __slots__ = ("replica_id", "replica_epoch", "unknown_tagged_fields",)
    replica_id: int
    replica_epoch: int

    def __init__(
        self,
        *,
        replica_id: int = -1,
        replica_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.replica_id = replica_id
        self.replica_epoch = replica_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S3.pack(self.replica_id, self.replica_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.replica_id, self.replica_epoch = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class FetchTopic(Struct):
    """FetchTopic of FetchRequest (in versions 0-17)."""

    __slots__ = ("topic", "topic_id", "partitions", "unknown_tagged_fields",)
    topic: str
    topic_id: UUID
    partitions: list[FetchPartition]

    def __init__(
        self,
        *,
        topic: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[FetchPartition] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        if version <= 12:
            write_string(out, self.topic, flexible)
        if version >= 13:
            out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.topic = r.string(flexible) if version <= 12 else ""
        self.topic_id = r.uuid() if version >= 13 else ZERO_UUID
        self.partitions = r.struct_array(FetchPartition.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class FetchPartition(Struct):
    """FetchPartition of FetchRequest (in versions 0-17)."""

    __slots__ = ("partition", "current_leader_epoch", "fetch_offset", "last_fetched_epoch", "log_start_offset", "partition_max_bytes", "replica_directory_id", "unknown_tagged_fields",)
    partition: int
    current_leader_epoch: int
    fetch_offset: int
    last_fetched_epoch: int
    log_start_offset: int
    partition_max_bytes: int
    replica_directory_id: UUID

    def __init__(
        self,
        *,
        partition: int = 0,
        current_leader_epoch: int = -1,
        fetch_offset: int = 0,
        last_fetched_epoch: int = -1,
        log_start_offset: int = -1,
        partition_max_bytes: int = 0,
        replica_directory_id: UUID = ZERO_UUID,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.fetch_offset = fetch_offset
        self.last_fetched_epoch = last_fetched_epoch
        self.log_start_offset = log_start_offset
        self.partition_max_bytes = partition_max_bytes
        self.replica_directory_id = replica_directory_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        out += pack_int32(self.partition)
        if version >= 9:
            out += pack_int32(self.current_leader_epoch)
        out += pack_int64(self.fetch_offset)
        if version >= 12:
            out += pack_int32(self.last_fetched_epoch)
        elif version < 12 and self.last_fetched_epoch != -1:
            raise absent_field(self, "last_fetched_epoch", version)
        if version >= 5:
            out += pack_int64(self.log_start_offset)
        out += pack_int32(self.partition_max_bytes)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 17 and self.replica_directory_id != ZERO_UUID:
                tb = bytearray()
                tb += self.replica_directory_id.bytes
                tags[0] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.partition = r.int32()
        self.current_leader_epoch = r.int32() if version >= 9 else -1
        self.fetch_offset = r.int64()
        self.last_fetched_epoch = r.int32() if version >= 12 else -1
        self.log_start_offset = r.int64() if version >= 5 else -1
        self.partition_max_bytes = r.int32()
        self.replica_directory_id = ZERO_UUID
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 17:
                    tr = Reader(tags.pop(0))
                    self.replica_directory_id = tr.uuid()
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class ForgottenTopic(Struct):
    """ForgottenTopic of FetchRequest (in versions 7-17)."""

    __slots__ = ("topic", "topic_id", "partitions", "unknown_tagged_fields",)
    topic: str
    topic_id: UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[int] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        if version <= 12:
            write_string(out, self.topic, flexible)
        if version >= 13:
            out += self.topic_id.bytes
        write_int_array(out, "i", self.partitions, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.topic = r.string(flexible) if version <= 12 else ""
        self.topic_id = r.uuid() if version >= 13 else ZERO_UUID
        self.partitions = r.int_array("i", flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class FetchableTopicResponse(Struct):
    """FetchableTopicResponse of FetchResponse (in versions 0-17)."""

    __slots__ = ("topic", "topic_id", "partitions", "unknown_tagged_fields",)
    topic: str
    topic_id: UUID
    partitions: list[PartitionData]

    def __init__(
        self,
        *,
        topic: str = "",
        topic_id: UUID = ZERO_UUID,
        partitions: list[PartitionData] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        if version <= 12:
            write_string(out, self.topic, flexible)
        if version >= 13:
            out += self.topic_id.bytes
        write_struct_array(out, self.partitions, version, flexible)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.topic = r.string(flexible) if version <= 12 else ""
        self.topic_id = r.uuid() if version >= 13 else ZERO_UUID
        self.partitions = r.struct_array(PartitionData.read, version, flexible)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class PartitionData(Struct):
    """PartitionData of FetchResponse (in versions 0-17)."""

    __slots__ = ("partition_index", "error_code", "high_watermark", "last_stable_offset", "log_start_offset", "diverging_epoch", "current_leader", "snapshot_id", "aborted_transactions", "preferred_read_replica", "records", "unknown_tagged_fields",)
    partition_index: int
    error_code: int
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    diverging_epoch: EpochEndOffset
    current_leader: LeaderIdAndEpoch
    snapshot_id: SnapshotId
    aborted_transactions: list[AbortedTransaction] | None
    preferred_read_replica: int
    records: Buffer | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        high_watermark: int = 0,
        last_stable_offset: int = -1,
        log_start_offset: int = -1,
        diverging_epoch: EpochEndOffset = DEFAULT,
        current_leader: LeaderIdAndEpoch = DEFAULT,
        snapshot_id: SnapshotId = DEFAULT,
        aborted_transactions: list[AbortedTransaction] | None = DEFAULT,
        preferred_read_replica: int = -1,
        records: Buffer | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.high_watermark = high_watermark
        self.last_stable_offset = last_stable_offset
        self.log_start_offset = log_start_offset
        self.diverging_epoch = EpochEndOffset() if diverging_epoch is DEFAULT else diverging_epoch
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.snapshot_id = SnapshotId() if snapshot_id is DEFAULT else snapshot_id
        self.aborted_transactions = [] if aborted_transactions is DEFAULT else aborted_transactions
        self.preferred_read_replica = preferred_read_replica
        self.records = records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        out += _S4.pack(self.partition_index, self.error_code, self.high_watermark)
        if version >= 4:
            out += pack_int64(self.last_stable_offset)
        if version >= 5:
            out += pack_int64(self.log_start_offset)
        if version >= 4:
            write_struct_array(out, self.aborted_transactions, version, flexible, True)
        if version >= 11:
            out += pack_int32(self.preferred_read_replica)
        elif version < 11 and self.preferred_read_replica != -1:
            raise absent_field(self, "preferred_read_replica", version)
        write_bytes(out, self.records, flexible, True)
        if flexible:
            tags = dict(self.unknown_tagged_fields)
            if version >= 12 and self.diverging_epoch != EpochEndOffset():
                tb = bytearray()
                self.diverging_epoch.write(tb, version)
                tags[0] = bytes(tb)
            if version >= 12 and self.current_leader != LeaderIdAndEpoch():
                tb = bytearray()
                self.current_leader.write(tb, version)
                tags[1] = bytes(tb)
            if version >= 12 and self.snapshot_id != SnapshotId():
                tb = bytearray()
                self.snapshot_id.write(tb, version)
                tags[2] = bytes(tb)
            write_tagged_fields(out, tags)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)
        if version < 12 and self.diverging_epoch != EpochEndOffset():
            raise absent_field(self, "diverging_epoch", version)
        if version < 12 and self.current_leader != LeaderIdAndEpoch():
            raise absent_field(self, "current_leader", version)
        if version < 12 and self.snapshot_id != SnapshotId():
            raise absent_field(self, "snapshot_id", version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.partition_index, self.error_code, self.high_watermark = r.fixed(_S4)
        self.last_stable_offset = r.int64() if version >= 4 else -1
        self.log_start_offset = r.int64() if version >= 5 else -1
        self.diverging_epoch = EpochEndOffset()
        self.current_leader = LeaderIdAndEpoch()
        self.snapshot_id = SnapshotId()
        self.aborted_transactions = r.nullable_struct_array(AbortedTransaction.read, version, flexible) if version >= 4 else []
        self.preferred_read_replica = r.int32() if version >= 11 else -1
        self.records = r.nullable_records(flexible)
        if flexible:
            tags = r.tagged_fields()
            if tags:
                if 0 in tags and version >= 12:
                    tr = Reader(tags.pop(0))
                    self.diverging_epoch = EpochEndOffset.read(tr, version)
                    tr.expect_end()
                if 1 in tags and version >= 12:
                    tr = Reader(tags.pop(1))
                    self.current_leader = LeaderIdAndEpoch.read(tr, version)
                    tr.expect_end()
                if 2 in tags and version >= 12:
                    tr = Reader(tags.pop(2))
                    self.snapshot_id = SnapshotId.read(tr, version)
                    tr.expect_end()
            self.unknown_tagged_fields = tags
        else:
            self.unknown_tagged_fields = {}
        return self


class EpochEndOffset(Struct):
    """EpochEndOffset of FetchResponse (in versions 12-17)."""

    __slots__ = ("epoch", "end_offset", "unknown_tagged_fields",)
    epoch: int
    end_offset: int

    def __init__(
        self,
        *,
        epoch: int = -1,
        end_offset: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.epoch = epoch
        self.end_offset = end_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S3.pack(self.epoch, self.end_offset)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.epoch, self.end_offset = r.fixed(_S3)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class LeaderIdAndEpoch(Struct):
    """LeaderIdAndEpoch of FetchResponse (in versions 12-17)."""

    __slots__ = ("leader_id", "leader_epoch", "unknown_tagged_fields",)
    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        leader_id: int = -1,
        leader_epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.leader_id, self.leader_epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.leader_id, self.leader_epoch = r.fixed(_S1)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class SnapshotId(Struct):
    """SnapshotId of FetchResponse (in versions 12-17)."""

    __slots__ = ("end_offset", "epoch", "unknown_tagged_fields",)
    end_offset: int
    epoch: int

    def __init__(
        self,
        *,
        end_offset: int = -1,
        epoch: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.end_offset = end_offset
        self.epoch = epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S5.pack(self.end_offset, self.epoch)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.end_offset, self.epoch = r.fixed(_S5)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class AbortedTransaction(Struct):
    """AbortedTransaction of FetchResponse (in versions 4-17)."""

    __slots__ = ("producer_id", "first_offset", "unknown_tagged_fields",)
    producer_id: int
    first_offset: int

    def __init__(
        self,
        *,
        producer_id: int = 0,
        first_offset: int = 0,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.producer_id = producer_id
        self.first_offset = first_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        flexible = version >= 12
        out += _S6.pack(self.producer_id, self.first_offset)
        if flexible:
            write_tagged_fields(out, self.unknown_tagged_fields)
        elif self.unknown_tagged_fields:
            raise tags_unsupported(self, version)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        flexible = version >= 12
        self.producer_id, self.first_offset = r.fixed(_S6)
        if flexible:
            self.unknown_tagged_fields = r.tagged_fields()
        else:
            self.unknown_tagged_fields = {}
        return self


class NodeEndpoint(Struct):
    """NodeEndpoint of FetchResponse (in versions 16-17)."""

    __slots__ = ("node_id", "host", "port", "rack", "unknown_tagged_fields",)
    node_id: int
    host: str
    port: int
    rack: str | None

    def __init__(
        self,
        *,
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        rack: str | None = None,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += pack_int32(self.node_id)
        write_string(out, self.host, True)
        out += pack_int32(self.port)
        write_string(out, self.rack, True, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.node_id = r.int32()
        self.host = r.string(True)
        self.port = r.int32()
        self.rack = r.nullable_string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


FetchRequest.FIELDS = (
    FieldInfo("cluster_id", "ClusterId", "string", (12, 32767), (12, 32767), (12, 32767), 0, True, None),
    FieldInfo("replica_id", "ReplicaId", "int32", (0, 14), None, None, None, False, None),
    FieldInfo("replica_state", "ReplicaState", "ReplicaState", (15, 32767), None, (15, 32767), 1, False, ReplicaState),
    FieldInfo("max_wait_ms", "MaxWaitMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("min_bytes", "MinBytes", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("max_bytes", "MaxBytes", "int32", (3, 32767), None, None, None, True, None),
    FieldInfo("isolation_level", "IsolationLevel", "int8", (4, 32767), None, None, None, True, None),
    FieldInfo("session_id", "SessionId", "int32", (7, 32767), None, None, None, True, None),
    FieldInfo("session_epoch", "SessionEpoch", "int32", (7, 32767), None, None, None, True, None),
    FieldInfo("topics", "Topics", "[]FetchTopic", (0, 32767), None, None, None, False, FetchTopic),
    FieldInfo("forgotten_topics_data", "ForgottenTopicsData", "[]ForgottenTopic", (7, 32767), None, None, None, False, ForgottenTopic),
    FieldInfo("rack_id", "RackId", "string", (11, 32767), None, None, None, True, None),
)
FetchResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (1, 32767), None, None, None, True, None),
    FieldInfo("error_code", "ErrorCode", "int16", (7, 32767), None, None, None, True, None),
    FieldInfo("session_id", "SessionId", "int32", (7, 32767), None, None, None, False, None),
    FieldInfo("responses", "Responses", "[]FetchableTopicResponse", (0, 32767), None, None, None, False, FetchableTopicResponse),
    FieldInfo("node_endpoints", "NodeEndpoints", "[]NodeEndpoint", (16, 32767), None, (16, 32767), 0, False, NodeEndpoint),
)
ReplicaState.FIELDS = (
    FieldInfo("replica_id", "ReplicaId", "int32", (15, 32767), None, None, None, False, None),
    FieldInfo("replica_epoch", "ReplicaEpoch", "int64", (15, 32767), None, None, None, False, None),
)
FetchTopic.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 12), None, None, None, True, None),
    FieldInfo("topic_id", "TopicId", "uuid", (13, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]FetchPartition", (0, 32767), None, None, None, False, FetchPartition),
)
FetchPartition.FIELDS = (
    FieldInfo("partition", "Partition", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("current_leader_epoch", "CurrentLeaderEpoch", "int32", (9, 32767), None, None, None, True, None),
    FieldInfo("fetch_offset", "FetchOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("last_fetched_epoch", "LastFetchedEpoch", "int32", (12, 32767), None, None, None, False, None),
    FieldInfo("log_start_offset", "LogStartOffset", "int64", (5, 32767), None, None, None, True, None),
    FieldInfo("partition_max_bytes", "PartitionMaxBytes", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("replica_directory_id", "ReplicaDirectoryId", "uuid", (17, 32767), None, (17, 32767), 0, True, None),
)
ForgottenTopic.FIELDS = (
    FieldInfo("topic", "Topic", "string", (7, 12), None, None, None, True, None),
    FieldInfo("topic_id", "TopicId", "uuid", (13, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]int32", (7, 32767), None, None, None, False, None),
)
FetchableTopicResponse.FIELDS = (
    FieldInfo("topic", "Topic", "string", (0, 12), None, None, None, True, None),
    FieldInfo("topic_id", "TopicId", "uuid", (13, 32767), None, None, None, True, None),
    FieldInfo("partitions", "Partitions", "[]PartitionData", (0, 32767), None, None, None, False, PartitionData),
)
PartitionData.FIELDS = (
    FieldInfo("partition_index", "PartitionIndex", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("high_watermark", "HighWatermark", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("last_stable_offset", "LastStableOffset", "int64", (4, 32767), None, None, None, True, None),
    FieldInfo("log_start_offset", "LogStartOffset", "int64", (5, 32767), None, None, None, True, None),
    FieldInfo("diverging_epoch", "DivergingEpoch", "EpochEndOffset", (12, 32767), None, (12, 32767), 0, False, EpochEndOffset),
    FieldInfo("current_leader", "CurrentLeader", "LeaderIdAndEpoch", (12, 32767), None, (12, 32767), 1, False, LeaderIdAndEpoch),
    FieldInfo("snapshot_id", "SnapshotId", "SnapshotId", (12, 32767), None, (12, 32767), 2, False, SnapshotId),
    FieldInfo("aborted_transactions", "AbortedTransactions", "[]AbortedTransaction", (4, 32767), (4, 32767), None, None, True, AbortedTransaction),
    FieldInfo("preferred_read_replica", "PreferredReadReplica", "int32", (11, 32767), None, None, None, False, None),
    FieldInfo("records", "Records", "records", (0, 32767), (0, 32767), None, None, False, None),
)
EpochEndOffset.FIELDS = (
    FieldInfo("epoch", "Epoch", "int32", (12, 32767), None, None, None, False, None),
    FieldInfo("end_offset", "EndOffset", "int64", (12, 32767), None, None, None, False, None),
)
LeaderIdAndEpoch.FIELDS = (
    FieldInfo("leader_id", "LeaderId", "int32", (12, 32767), None, None, None, False, None),
    FieldInfo("leader_epoch", "LeaderEpoch", "int32", (12, 32767), None, None, None, False, None),
)
SnapshotId.FIELDS = (
    FieldInfo("end_offset", "EndOffset", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("epoch", "Epoch", "int32", (0, 32767), None, None, None, False, None),
)
AbortedTransaction.FIELDS = (
    FieldInfo("producer_id", "ProducerId", "int64", (4, 32767), None, None, None, False, None),
    FieldInfo("first_offset", "FirstOffset", "int64", (4, 32767), None, None, None, False, None),
)
NodeEndpoint.FIELDS = (
    FieldInfo("node_id", "NodeId", "int32", (16, 32767), None, None, None, False, None),
    FieldInfo("host", "Host", "string", (16, 32767), None, None, None, False, None),
    FieldInfo("port", "Port", "int32", (16, 32767), None, None, None, False, None),
    FieldInfo("rack", "Rack", "string", (16, 32767), (16, 32767), None, None, False, None),
)


__all__ = [
    "AbortedTransaction",
    "EpochEndOffset",
    "FetchPartition",
    "FetchRequest",
    "FetchResponse",
    "FetchTopic",
    "FetchableTopicResponse",
    "ForgottenTopic",
    "LeaderIdAndEpoch",
    "NodeEndpoint",
    "PartitionData",
    "ReplicaState",
    "SnapshotId",
]
