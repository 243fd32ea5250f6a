"""The values the hot-message kernels read and write: plain named tuples, shared by both twins.

They mirror Kafka's JSON message specs (``ProduceRequest.json``, ``ProduceResponse.json``,
``FetchResponse.json``, ``MetadataResponse.json``, ``ApiVersionsResponse.json``) field for field: the specs'
names in snake case (except Produce's ``Index``, named ``partition_index`` here as ``index`` would hide
``tuple.index``) and the specs' defaults. Fields without a default come first, so the order is not always the
wire order. A field that a version lacks is ignored when encoding that version. Tagged fields are written only
when they differ from their default (``None``, an empty sequence, ``-1``, ``False``), as Kafka's generated code
does. Sequences may be lists or tuples. The compiled encoders read the tuples by position: pass these types,
not shorter tuples.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from typing_extensions import Buffer

ZERO_UUID: Final = uuid.UUID(int=0)
NO_AUTHORIZED_OPERATIONS: Final = -(2**31)


# --- Produce request (decoded) -----------------------------------------------------------------------------


class ProducePartition(NamedTuple):
    partition_index: int
    records: memoryview | None  # a zero-copy slice of the request body


class ProduceTopic(NamedTuple):
    name: str
    partition_data: list[ProducePartition]


class ProduceRequest(NamedTuple):
    transactional_id: str | None
    acks: int
    timeout_ms: int
    topic_data: list[ProduceTopic]


# --- shared response parts ---------------------------------------------------------------------------------


class LeaderIdAndEpoch(NamedTuple):
    leader_id: int = -1
    leader_epoch: int = -1


class NodeEndpoint(NamedTuple):
    node_id: int
    host: str
    port: int
    rack: str | None = None


# --- Produce response --------------------------------------------------------------------------------------


class RecordError(NamedTuple):
    batch_index: int
    batch_index_error_message: str | None = None


class ProducePartitionResponse(NamedTuple):
    partition_index: int
    error_code: int = 0
    base_offset: int = -1
    log_append_time_ms: int = -1
    log_start_offset: int = -1
    record_errors: Sequence[RecordError] = ()
    error_message: str | None = None
    current_leader: LeaderIdAndEpoch | None = None  # tagged (0), v10+


class ProduceTopicResponse(NamedTuple):
    name: str
    partition_responses: Sequence[ProducePartitionResponse]


class ProduceResponse(NamedTuple):
    responses: Sequence[ProduceTopicResponse]
    throttle_time_ms: int = 0
    node_endpoints: Sequence[NodeEndpoint] = ()  # tagged (0), v10+


# --- Fetch response ----------------------------------------------------------------------------------------


class EpochEndOffset(NamedTuple):
    epoch: int = -1
    end_offset: int = -1


class SnapshotId(NamedTuple):
    end_offset: int = -1
    epoch: int = -1


class AbortedTransaction(NamedTuple):
    producer_id: int
    first_offset: int


class FetchPartitionResponse(NamedTuple):
    partition_index: int
    error_code: int = 0
    high_watermark: int = -1
    last_stable_offset: int = -1
    log_start_offset: int = -1
    diverging_epoch: EpochEndOffset | None = None  # tagged (0)
    current_leader: LeaderIdAndEpoch | None = None  # tagged (1)
    snapshot_id: SnapshotId | None = None  # tagged (2)
    aborted_transactions: Sequence[AbortedTransaction] | None = None
    preferred_read_replica: int = -1
    # One buffer, or several (e.g. slices of mapped store files) written back to back; None is null records.
    records: Buffer | Sequence[Buffer] | None = ()


class FetchTopicResponse(NamedTuple):
    topic: str  # v4-12
    partitions: Sequence[FetchPartitionResponse]
    topic_id: uuid.UUID = ZERO_UUID  # v13+


class FetchResponse(NamedTuple):
    responses: Sequence[FetchTopicResponse]
    throttle_time_ms: int = 0
    error_code: int = 0
    session_id: int = 0
    node_endpoints: Sequence[NodeEndpoint] = ()  # tagged (0), v16+


# --- Metadata response -------------------------------------------------------------------------------------


class MetadataBroker(NamedTuple):
    node_id: int
    host: str
    port: int
    rack: str | None = None


class MetadataPartition(NamedTuple):
    error_code: int
    partition_index: int
    leader_id: int
    leader_epoch: int = -1
    replica_nodes: Sequence[int] = ()
    isr_nodes: Sequence[int] = ()
    offline_replicas: Sequence[int] = ()


class MetadataTopic(NamedTuple):
    error_code: int
    name: str | None  # null only from v12, for topics asked by id
    topic_id: uuid.UUID = ZERO_UUID
    is_internal: bool = False
    partitions: Sequence[MetadataPartition] = ()
    topic_authorized_operations: int = NO_AUTHORIZED_OPERATIONS


class MetadataResponse(NamedTuple):
    brokers: Sequence[MetadataBroker]
    topics: Sequence[MetadataTopic]
    throttle_time_ms: int = 0
    cluster_id: str | None = None
    controller_id: int = -1
    cluster_authorized_operations: int = NO_AUTHORIZED_OPERATIONS  # v8-10


# --- ApiVersions response ----------------------------------------------------------------------------------


class ApiVersion(NamedTuple):
    api_key: int
    min_version: int
    max_version: int


class SupportedFeature(NamedTuple):
    name: str
    min_version: int
    max_version: int


class FinalizedFeature(NamedTuple):
    name: str
    max_version_level: int
    min_version_level: int


class ApiVersionsResponse(NamedTuple):
    error_code: int
    api_keys: Sequence[ApiVersion]
    throttle_time_ms: int = 0
    supported_features: Sequence[SupportedFeature] = ()  # tagged (0), v3+
    finalized_features_epoch: int = -1  # tagged (1), v3+
    finalized_features: Sequence[FinalizedFeature] = ()  # tagged (2), v3+
    zk_migration_ready: bool = False  # tagged (3), v3+
