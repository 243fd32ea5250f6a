# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchResponse.json, MetadataResponse.json, ProduceRequest.json, ProduceResponse.json - DO NOT EDIT; make gen-protocol
"""The hot-message codec: the messages every client sends all the time, without per-field Python work.

Generated from the specs with the rest of the codec (``make gen-protocol``; the plan:
``rockafka.facade.protocol.codegen.hot``). Functions: the compiled ``_hotcodec`` or its pure twin
``_hotcodec_py``, chosen by :func:`rockafka.core_pyx.kernel`; values: ``_hotmessages``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._hotmessages import (
    AbortedTransaction,
    BatchIndexAndErrorMessage,
    EpochEndOffset,
    FETCH_VERSIONS,
    FetchResponse,
    FetchableTopicResponse,
    LeaderIdAndEpoch,
    METADATA_VERSIONS,
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
    NodeEndpoint,
    PRODUCE_VERSIONS,
    PartitionData,
    PartitionProduceData,
    PartitionProduceResponse,
    ProduceRequest,
    ProduceResponse,
    Records,
    SnapshotId,
    TopicProduceData,
    TopicProduceResponse,
    ZERO_UUID,
)

if TYPE_CHECKING:
    from ._hotcodec_py import (
        decode_produce_request,
        encode_produce_response,
        encode_fetch_response_parts,
        encode_metadata_response,
    )
else:
    _impl = kernel("_hotcodec")
    decode_produce_request = _impl.decode_produce_request
    encode_produce_response = _impl.encode_produce_response
    encode_fetch_response_parts = _impl.encode_fetch_response_parts
    encode_metadata_response = _impl.encode_metadata_response

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
    "decode_produce_request",
    "encode_fetch_response_parts",
    "encode_metadata_response",
    "encode_produce_response",
]
