"""Fast codecs for the hot Kafka messages: Produce requests in; Produce, Fetch, Metadata, ApiVersions responses out.

The generic generated codec (``rockafka.facade.protocol``) handles every message; these kernels do the few that
every client sends all the time, without per-field Python work. Wire rules: :mod:`rockafka.core_pyx._hotrequest_py`
(requests) and :mod:`rockafka.core_pyx._hotcodec_py` (responses); the values: :mod:`rockafka.core_pyx._hotmessages`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._hotmessages import (
    NO_AUTHORIZED_OPERATIONS,
    ZERO_UUID,
    AbortedTransaction,
    ApiVersion,
    ApiVersionsResponse,
    EpochEndOffset,
    FetchPartitionResponse,
    FetchResponse,
    FetchTopicResponse,
    FinalizedFeature,
    LeaderIdAndEpoch,
    MetadataBroker,
    MetadataPartition,
    MetadataResponse,
    MetadataTopic,
    NodeEndpoint,
    ProducePartition,
    ProducePartitionResponse,
    ProduceRequest,
    ProduceResponse,
    ProduceTopic,
    ProduceTopicResponse,
    RecordError,
    SnapshotId,
    SupportedFeature,
)

if TYPE_CHECKING:
    from ._hotcodec_py import (
        API_VERSIONS_VERSIONS,
        FETCH_VERSIONS,
        METADATA_VERSIONS,
        PRODUCE_VERSIONS,
        encode_api_versions_response,
        encode_fetch_response,
        encode_fetch_response_parts,
        encode_metadata_response,
        encode_produce_response,
    )
    from ._hotrequest_py import decode_produce_request
else:
    _impl = kernel("_hotcodec")
    PRODUCE_VERSIONS = _impl.PRODUCE_VERSIONS
    FETCH_VERSIONS = _impl.FETCH_VERSIONS
    METADATA_VERSIONS = _impl.METADATA_VERSIONS
    API_VERSIONS_VERSIONS = _impl.API_VERSIONS_VERSIONS
    decode_produce_request = kernel("_hotrequest").decode_produce_request
    encode_produce_response = _impl.encode_produce_response
    encode_fetch_response = _impl.encode_fetch_response
    encode_fetch_response_parts = _impl.encode_fetch_response_parts
    encode_metadata_response = _impl.encode_metadata_response
    encode_api_versions_response = _impl.encode_api_versions_response

__all__ = [
    "API_VERSIONS_VERSIONS",
    "FETCH_VERSIONS",
    "METADATA_VERSIONS",
    "NO_AUTHORIZED_OPERATIONS",
    "PRODUCE_VERSIONS",
    "ZERO_UUID",
    "AbortedTransaction",
    "ApiVersion",
    "ApiVersionsResponse",
    "EpochEndOffset",
    "FetchPartitionResponse",
    "FetchResponse",
    "FetchTopicResponse",
    "FinalizedFeature",
    "LeaderIdAndEpoch",
    "MetadataBroker",
    "MetadataPartition",
    "MetadataResponse",
    "MetadataTopic",
    "NodeEndpoint",
    "ProducePartition",
    "ProducePartitionResponse",
    "ProduceRequest",
    "ProduceResponse",
    "ProduceTopic",
    "ProduceTopicResponse",
    "RecordError",
    "SnapshotId",
    "SupportedFeature",
    "decode_produce_request",
    "encode_api_versions_response",
    "encode_fetch_response",
    "encode_fetch_response_parts",
    "encode_metadata_response",
    "encode_produce_response",
]
