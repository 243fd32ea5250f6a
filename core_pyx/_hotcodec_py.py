# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchResponse.json, MetadataResponse.json, ProduceRequest.json, ProduceResponse.json - DO NOT EDIT; make gen-protocol
"""Pure-Python twin of the generated hot-message kernel (``_hotcodec``): the same functions, the same bytes.

Wire rules and errors: ``_wire_py``; the values: ``_hotmessages``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._hotmessages import (
    AbortedTransaction,
    BatchIndexAndErrorMessage,
    EpochEndOffset,
    FetchResponse,
    FetchableTopicResponse,
    LeaderIdAndEpoch,
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
    NodeEndpoint,
    PartitionData,
    PartitionProduceData,
    PartitionProduceResponse,
    ProduceRequest,
    ProduceResponse,
    SnapshotId,
    TopicProduceData,
    TopicProduceResponse,
)
from ._wire_py import Reader, Writer, check_version
from .errors import MalformedMessageError

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["decode_produce_request", "encode_produce_response", "encode_fetch_response_parts", "encode_metadata_response"]

_DEFAULT_EpochEndOffset = EpochEndOffset()
_DEFAULT_LeaderIdAndEpoch = LeaderIdAndEpoch()
_DEFAULT_SnapshotId = SnapshotId()


def _r_produce_request_produce_request(r: Reader, version: int) -> ProduceRequest:
    if version >= 3:
        f0 = r.string(version >= 3)
    else:
        f0 = None
    f1 = r.i16()
    f2 = r.i32()
    count = r.array(False)
    f3 = None if count < 0 else [_r_produce_request_topic_produce_data(r, version) for _ in range(count)]
    r.skip_tags()
    return ProduceRequest._make((f0, f1, f2, f3))


def _r_produce_request_topic_produce_data(r: Reader, version: int) -> TopicProduceData:
    f0 = r.string(False)
    count = r.array(False)
    f1 = None if count < 0 else [_r_produce_request_partition_produce_data(r, version) for _ in range(count)]
    r.skip_tags()
    return TopicProduceData._make((f0, f1))


def _r_produce_request_partition_produce_data(r: Reader, version: int) -> PartitionProduceData:
    f0 = r.i32()
    f1 = r.records(True)
    r.skip_tags()
    return PartitionProduceData._make((f0, f1))


def _w_produce_response_produce_response(w: Writer, v: ProduceResponse, version: int) -> None:
    w.array(v[0])
    for item0 in v[0]:
        _w_produce_response_topic_produce_response(w, item0, version)
    if version >= 1:
        w.i32(v[1])
    if version >= 9:
        tag0 = (version >= 10) and v[2] is not None and len(v[2]) != 0
        w.uvarint(tag0)
        if tag0:
            sub = Writer(True)
            sub.array(v[2])
            for item1 in v[2]:
                _w_produce_response_node_endpoint(sub, item1, version)
            w.tagged(0, sub)


def _w_produce_response_topic_produce_response(w: Writer, v: TopicProduceResponse, version: int) -> None:
    w.string(v[0], False)
    w.array(v[1])
    for item0 in v[1]:
        _w_produce_response_partition_produce_response(w, item0, version)
    if version >= 9:
        w.uvarint(0)


def _w_produce_response_partition_produce_response(w: Writer, v: PartitionProduceResponse, version: int) -> None:
    w.i32(v[0])
    w.i16(v[1])
    w.i64(v[2])
    if version >= 2:
        w.i64(v[3])
    if version >= 5:
        w.i64(v[4])
    if version >= 8:
        w.array(v[5])
        for item0 in v[5]:
            _w_produce_response_batch_index_and_error_message(w, item0, version)
    if version >= 8:
        w.string(v[6], True)
    if version >= 9:
        tag0 = (version >= 10) and v[7] is not None and v[7] != _DEFAULT_LeaderIdAndEpoch
        w.uvarint(tag0)
        if tag0:
            sub = Writer(True)
            value0 = v[7]
            assert value0 is not None
            _w_produce_response_leader_id_and_epoch(sub, value0, version)
            w.tagged(0, sub)


def _w_produce_response_batch_index_and_error_message(w: Writer, v: BatchIndexAndErrorMessage, version: int) -> None:
    w.i32(v[0])
    w.string(v[1], True)
    if version >= 9:
        w.uvarint(0)


def _w_produce_response_leader_id_and_epoch(w: Writer, v: LeaderIdAndEpoch, version: int) -> None:
    w.i32(v[0])
    w.i32(v[1])
    w.uvarint(0)


def _w_produce_response_node_endpoint(w: Writer, v: NodeEndpoint, version: int) -> None:
    w.i32(v[0])
    w.string(v[1], False)
    w.i32(v[2])
    w.string(v[3], True)
    w.uvarint(0)


def _w_fetch_response_fetch_response(w: Writer, v: FetchResponse, version: int) -> None:
    if version >= 1:
        w.i32(v[0])
    if version >= 7:
        w.i16(v[1])
    if version >= 7:
        w.i32(v[2])
    w.array(v[3])
    for item0 in v[3]:
        _w_fetch_response_fetchable_topic_response(w, item0, version)
    if version >= 12:
        tag0 = (version >= 16) and v[4] is not None and len(v[4]) != 0
        w.uvarint(tag0)
        if tag0:
            sub = Writer(True)
            sub.array(v[4])
            for item1 in v[4]:
                _w_fetch_response_node_endpoint(sub, item1, version)
            w.tagged(0, sub)


def _w_fetch_response_fetchable_topic_response(w: Writer, v: FetchableTopicResponse, version: int) -> None:
    if version <= 12:
        w.string(v[0], False)
    if version >= 13:
        w.uuid(v[1])
    w.array(v[2])
    for item0 in v[2]:
        _w_fetch_response_partition_data(w, item0, version)
    if version >= 12:
        w.uvarint(0)


def _w_fetch_response_partition_data(w: Writer, v: PartitionData, version: int) -> None:
    w.i32(v[0])
    w.i16(v[1])
    w.i64(v[2])
    if version >= 4:
        w.i64(v[3])
    if version >= 5:
        w.i64(v[4])
    if version >= 4:
        w.array(v[8])
        if v[8] is not None:
            for item0 in v[8]:
                _w_fetch_response_aborted_transaction(w, item0, version)
    if version >= 11:
        w.i32(v[9])
    w.records(v[10])
    if version >= 12:
        tag0 = v[5] is not None and v[5] != _DEFAULT_EpochEndOffset
        tag1 = v[6] is not None and v[6] != _DEFAULT_LeaderIdAndEpoch
        tag2 = v[7] is not None and v[7] != _DEFAULT_SnapshotId
        w.uvarint(tag0 + tag1 + tag2)
        if tag0:
            sub = Writer(True)
            value0 = v[5]
            assert value0 is not None
            _w_fetch_response_epoch_end_offset(sub, value0, version)
            w.tagged(0, sub)
        if tag1:
            sub = Writer(True)
            value1 = v[6]
            assert value1 is not None
            _w_fetch_response_leader_id_and_epoch(sub, value1, version)
            w.tagged(1, sub)
        if tag2:
            sub = Writer(True)
            value2 = v[7]
            assert value2 is not None
            _w_fetch_response_snapshot_id(sub, value2, version)
            w.tagged(2, sub)


def _w_fetch_response_epoch_end_offset(w: Writer, v: EpochEndOffset, version: int) -> None:
    w.i32(v[0])
    w.i64(v[1])
    w.uvarint(0)


def _w_fetch_response_leader_id_and_epoch(w: Writer, v: LeaderIdAndEpoch, version: int) -> None:
    w.i32(v[0])
    w.i32(v[1])
    w.uvarint(0)


def _w_fetch_response_snapshot_id(w: Writer, v: SnapshotId, version: int) -> None:
    w.i64(v[0])
    w.i32(v[1])
    w.uvarint(0)


def _w_fetch_response_aborted_transaction(w: Writer, v: AbortedTransaction, version: int) -> None:
    w.i64(v[0])
    w.i64(v[1])
    if version >= 12:
        w.uvarint(0)


def _w_fetch_response_node_endpoint(w: Writer, v: NodeEndpoint, version: int) -> None:
    w.i32(v[0])
    w.string(v[1], False)
    w.i32(v[2])
    w.string(v[3], True)
    w.uvarint(0)


def _w_metadata_response_metadata_response(w: Writer, v: MetadataResponse, version: int) -> None:
    if version >= 3:
        w.i32(v[0])
    w.array(v[1])
    for item0 in v[1]:
        _w_metadata_response_metadata_response_broker(w, item0, version)
    if version >= 2:
        w.string(v[2], True)
    if version >= 1:
        w.i32(v[3])
    w.array(v[4])
    for item1 in v[4]:
        _w_metadata_response_metadata_response_topic(w, item1, version)
    if version >= 8 and version <= 10:
        w.i32(v[5])
    if version >= 9:
        w.uvarint(0)


def _w_metadata_response_metadata_response_broker(w: Writer, v: MetadataResponseBroker, version: int) -> None:
    w.i32(v[0])
    w.string(v[1], False)
    w.i32(v[2])
    if version >= 1:
        w.string(v[3], True)
    if version >= 9:
        w.uvarint(0)


def _w_metadata_response_metadata_response_topic(w: Writer, v: MetadataResponseTopic, version: int) -> None:
    w.i16(v[0])
    w.string(v[1], version >= 12)
    if version >= 10:
        w.uuid(v[2])
    if version >= 1:
        w.i8(1 if v[3] else 0)
    w.array(v[4])
    for item0 in v[4]:
        _w_metadata_response_metadata_response_partition(w, item0, version)
    if version >= 8:
        w.i32(v[5])
    if version >= 9:
        w.uvarint(0)


def _w_metadata_response_metadata_response_partition(w: Writer, v: MetadataResponsePartition, version: int) -> None:
    w.i16(v[0])
    w.i32(v[1])
    w.i32(v[2])
    if version >= 7:
        w.i32(v[3])
    w.array(v[4])
    for item0 in v[4]:
        w.i32(item0)
    w.array(v[5])
    for item1 in v[5]:
        w.i32(item1)
    if version >= 5:
        w.array(v[6])
        for item2 in v[6]:
            w.i32(item2)
    if version >= 9:
        w.uvarint(0)


def decode_produce_request(body: Buffer, version: int) -> ProduceRequest:
    """Decode a ProduceRequest body (v0-11); records are zero-copy views of ``body``."""
    check_version("ProduceRequest", version, 0, 11)
    r = Reader(body, version >= 9)
    value = _r_produce_request_produce_request(r, version)
    if r.pos != len(r.view):
        raise MalformedMessageError(f"ProduceRequest has {len(r.view) - r.pos} trailing bytes")
    return value


def encode_produce_response(version: int, response: ProduceResponse, correlation_id: int | None = None) -> bytes:
    """Encode a ProduceResponse (v0-11): the body, or with ``correlation_id`` the whole frame."""
    check_version("ProduceResponse", version, 0, 11)
    w = Writer(version >= 9, correlation_id, version >= 9)
    _w_produce_response_produce_response(w, response, version)
    return w.finish()


def encode_fetch_response_parts(
    version: int, response: FetchResponse, correlation_id: int | None = None, min_zero_copy: int = 0
) -> list[bytes | memoryview]:
    """Encode a FetchResponse (v0-17) as parts to write back to back: the body, or with ``correlation_id`` the whole frame; record buffers of ``min_zero_copy`` bytes or more are parts of their own, uncopied, the rest is copied into ``bytes`` parts between them."""
    check_version("FetchResponse", version, 0, 17)
    w = Writer(version >= 12, correlation_id, version >= 12)
    _w_fetch_response_fetch_response(w, response, version)
    return w.finish_parts(min_zero_copy)


def encode_metadata_response(version: int, response: MetadataResponse, correlation_id: int | None = None) -> bytes:
    """Encode a MetadataResponse (v0-12): the body, or with ``correlation_id`` the whole frame."""
    check_version("MetadataResponse", version, 0, 12)
    w = Writer(version >= 9, correlation_id, version >= 9)
    _w_metadata_response_metadata_response(w, response, version)
    return w.finish()
