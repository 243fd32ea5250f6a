# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchResponse.json, MetadataResponse.json, ProduceRequest.json, ProduceResponse.json - DO NOT EDIT; make gen-protocol
"""The values of the hot-message codec (``hotcodec``): plain named tuples, shared by both twins.

Each is a struct of Kafka's JSON specs, field for field: the spec's names in snake case (Produce's ``Index``
is ``partition_index``: ``index`` would hide ``tuple.index``), in the spec's order, with the spec's defaults
(arrays ``()``, records no buffers, a tagged struct ``None``). A field that a version lacks is ignored when
writing that version; a tagged field is written only when it differs from its default. Sequences may be
lists or tuples; records are one buffer or several written back to back. The compiled kernel reads the
tuples by position: pass these types.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple, TypeAlias

if TYPE_CHECKING:
    from typing_extensions import Buffer

ZERO_UUID: Final = uuid.UUID(int=0)
Records: TypeAlias = "Buffer | Sequence[Buffer]"

PRODUCE_VERSIONS: Final = (0, 11)
FETCH_VERSIONS: Final = (0, 17)
METADATA_VERSIONS: Final = (0, 12)


class ProduceRequest(NamedTuple):
    """ProduceRequest."""

    transactional_id: str | None = None
    acks: int = 0
    timeout_ms: int = 0
    topic_data: Sequence[TopicProduceData] = ()


class TopicProduceData(NamedTuple):
    """TopicProduceData of ProduceRequest."""

    name: str = ""
    partition_data: Sequence[PartitionProduceData] = ()


class PartitionProduceData(NamedTuple):
    """PartitionProduceData of ProduceRequest."""

    partition_index: int = 0
    records: memoryview | None = None


class ProduceResponse(NamedTuple):
    """ProduceResponse."""

    responses: Sequence[TopicProduceResponse] = ()
    throttle_time_ms: int = 0
    node_endpoints: Sequence[NodeEndpoint] = ()  # tagged (0)


class TopicProduceResponse(NamedTuple):
    """TopicProduceResponse of ProduceResponse."""

    name: str = ""
    partition_responses: Sequence[PartitionProduceResponse] = ()


class PartitionProduceResponse(NamedTuple):
    """PartitionProduceResponse of ProduceResponse."""

    partition_index: int = 0
    error_code: int = 0
    base_offset: int = 0
    log_append_time_ms: int = -1
    log_start_offset: int = -1
    record_errors: Sequence[BatchIndexAndErrorMessage] = ()
    error_message: str | None = None
    current_leader: LeaderIdAndEpoch | None = None  # tagged (0)


class BatchIndexAndErrorMessage(NamedTuple):
    """BatchIndexAndErrorMessage of ProduceResponse."""

    batch_index: int = 0
    batch_index_error_message: str | None = None


class LeaderIdAndEpoch(NamedTuple):
    """LeaderIdAndEpoch of ProduceResponse."""

    leader_id: int = -1
    leader_epoch: int = -1


class NodeEndpoint(NamedTuple):
    """NodeEndpoint of ProduceResponse."""

    node_id: int = 0
    host: str = ""
    port: int = 0
    rack: str | None = None


class FetchResponse(NamedTuple):
    """FetchResponse."""

    throttle_time_ms: int = 0
    error_code: int = 0
    session_id: int = 0
    responses: Sequence[FetchableTopicResponse] = ()
    node_endpoints: Sequence[NodeEndpoint] = ()  # tagged (0)


class FetchableTopicResponse(NamedTuple):
    """FetchableTopicResponse of FetchResponse."""

    topic: str = ""
    topic_id: uuid.UUID = ZERO_UUID
    partitions: Sequence[PartitionData] = ()


class PartitionData(NamedTuple):
    """PartitionData of FetchResponse."""

    partition_index: int = 0
    error_code: int = 0
    high_watermark: int = 0
    last_stable_offset: int = -1
    log_start_offset: int = -1
    diverging_epoch: EpochEndOffset | None = None  # tagged (0)
    current_leader: LeaderIdAndEpoch | None = None  # tagged (1)
    snapshot_id: SnapshotId | None = None  # tagged (2)
    aborted_transactions: Sequence[AbortedTransaction] | None = ()
    preferred_read_replica: int = -1
    records: Records | None = ()


class EpochEndOffset(NamedTuple):
    """EpochEndOffset of FetchResponse."""

    epoch: int = -1
    end_offset: int = -1


class SnapshotId(NamedTuple):
    """SnapshotId of FetchResponse."""

    end_offset: int = -1
    epoch: int = -1


class AbortedTransaction(NamedTuple):
    """AbortedTransaction of FetchResponse."""

    producer_id: int = 0
    first_offset: int = 0


class MetadataResponse(NamedTuple):
    """MetadataResponse."""

    throttle_time_ms: int = 0
    brokers: Sequence[MetadataResponseBroker] = ()
    cluster_id: str | None = None
    controller_id: int = -1
    topics: Sequence[MetadataResponseTopic] = ()
    cluster_authorized_operations: int = -2147483648


class MetadataResponseBroker(NamedTuple):
    """MetadataResponseBroker of MetadataResponse."""

    node_id: int = 0
    host: str = ""
    port: int = 0
    rack: str | None = None


class MetadataResponseTopic(NamedTuple):
    """MetadataResponseTopic of MetadataResponse."""

    error_code: int = 0
    name: str | None = ""
    topic_id: uuid.UUID = ZERO_UUID
    is_internal: bool = False
    partitions: Sequence[MetadataResponsePartition] = ()
    topic_authorized_operations: int = -2147483648


class MetadataResponsePartition(NamedTuple):
    """MetadataResponsePartition of MetadataResponse."""

    error_code: int = 0
    partition_index: int = 0
    leader_id: int = 0
    leader_epoch: int = -1
    replica_nodes: Sequence[int] = ()
    isr_nodes: Sequence[int] = ()
    offline_replicas: Sequence[int] = ()


__all__ = [
    "AbortedTransaction",
    "BatchIndexAndErrorMessage",
    "EpochEndOffset",
    "FETCH_VERSIONS",
    "FetchResponse",
    "FetchableTopicResponse",
    "LeaderIdAndEpoch",
    "METADATA_VERSIONS",
    "MetadataResponse",
    "MetadataResponseBroker",
    "MetadataResponsePartition",
    "MetadataResponseTopic",
    "NodeEndpoint",
    "PRODUCE_VERSIONS",
    "PartitionData",
    "PartitionProduceData",
    "PartitionProduceResponse",
    "ProduceRequest",
    "ProduceResponse",
    "Records",
    "SnapshotId",
    "TopicProduceData",
    "TopicProduceResponse",
    "ZERO_UUID",
]
