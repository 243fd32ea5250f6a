"""Pure-Python twin of the hot-message kernel: Produce, Fetch, Metadata and ApiVersions responses out (Produce
requests in: :mod:`._hotrequest_py`). Bodies only, unless a correlation id asks for the whole frame.

Wire rules (Kafka protocol guide, and the JSON specs' ``flexibleVersions``):

- Integers are big-endian. A classic string is int16 length + UTF-8 (-1: null); classic bytes and arrays
  carry an int32 count (-1: null).
- From the first flexible version (Produce 9, Fetch 12, Metadata 9, ApiVersions 3) strings, bytes and arrays
  are *compact*: an unsigned varint of length + 1 (0: null); every struct ends with its tagged fields: an
  unsigned varint count, then per field an unsigned varint tag, an unsigned varint size and the value (a
  tagged struct carries its own, empty, tagged fields). Tags are written in ascending order, and only for
  values that differ from their defaults.
- A framed response is int32 size, then the response header: int32 correlation id, plus empty tagged fields
  (one zero byte) when the API version is flexible (header v1). ApiVersions always uses header v0.

Fetch records are given as buffers, copied once, into the output.
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ._hotmessages import (
    ApiVersionsResponse,
    FetchPartitionResponse,
    FetchResponse,
    FinalizedFeature,
    MetadataResponse,
    MetadataTopic,
    NodeEndpoint,
    ProducePartitionResponse,
    ProduceResponse,
    SupportedFeature,
)
from .errors import UnsupportedVersionError

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Buffer

PRODUCE_VERSIONS: Final = (3, 11)
FETCH_VERSIONS: Final = (4, 17)
METADATA_VERSIONS: Final = (0, 12)
API_VERSIONS_VERSIONS: Final = (0, 4)

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_NO_TAGS = b"\x00"


def _check_version(api: str, version: int, versions: tuple[int, int]) -> None:
    if not versions[0] <= version <= versions[1]:
        raise UnsupportedVersionError(api, version)


# --- writing ---------------------------------------------------------------------------------------------------


class _Writer:
    """Output as a list of parts: small fields gather in a bytearray, record buffers are spliced in uncopied."""

    __slots__ = ("buf", "flexible", "framed", "parts")

    def __init__(self, flexible: bool, correlation_id: int | None = None, header_flexible: bool = False) -> None:
        self.flexible = flexible
        self.parts: list[Buffer] = []
        self.buf = bytearray()
        self.framed = correlation_id is not None
        if correlation_id is not None:
            self.buf += b"\x00\x00\x00\x00" + _I32.pack(correlation_id) + (_NO_TAGS if header_flexible else b"")

    def i8(self, value: int) -> None:
        self.buf += struct.pack(">b", value)

    def i16(self, value: int) -> None:
        self.buf += _I16.pack(value)

    def i32(self, value: int) -> None:
        self.buf += _I32.pack(value)

    def i64(self, value: int) -> None:
        self.buf += _I64.pack(value)

    def uvarint(self, value: int) -> None:
        while value >= 0x80:
            self.buf.append((value & 0x7F) | 0x80)
            value >>= 7
        self.buf.append(value)

    def length(self, n: int, wide: bool) -> None:
        if self.flexible:
            self.uvarint(n + 1)
        elif wide:
            self.i32(n)
        else:
            self.i16(n)

    def string(self, value: str | None, nullable: bool = False) -> None:
        if value is None:
            if not nullable:
                raise ValueError("a non-nullable string field is None")
            self.length(-1, wide=False)
            return
        data = value.encode("utf-8")
        self.length(len(data), wide=False)
        self.buf += data

    def uuid(self, value: uuid.UUID) -> None:
        self.buf += value.bytes

    def array(self, items: Sequence[object] | None) -> None:
        self.length(-1 if items is None else len(items), wide=True)

    def int32s(self, items: Sequence[int]) -> None:
        self.array(items)
        for item in items:
            self.i32(item)

    def records(self, records: Buffer | Sequence[Buffer] | None) -> None:
        if records is None:
            self.length(-1, wide=True)
            return
        try:
            chunks: Sequence[Buffer] = (memoryview(records),)  # type: ignore[arg-type]
        except TypeError:
            chunks = records  # type: ignore[assignment]
        views = [memoryview(chunk) for chunk in chunks]
        self.length(sum(view.nbytes for view in views), wide=True)
        for view in views:
            if view.nbytes:
                self.parts.append(self.buf)
                self.parts.append(view)
                self.buf = bytearray()

    def tags(self, fields: list[tuple[int, Callable[[_Writer], None]]]) -> None:
        """Tagged fields: each (tag, write) in ascending tag order, or nothing but the count when empty."""
        if not self.flexible:
            return
        self.uvarint(len(fields))
        for tag, write in fields:
            sub = _Writer(flexible=True)
            write(sub)
            self.uvarint(tag)
            self.uvarint(len(sub.buf))
            self.buf += sub.buf

    def finish(self) -> bytes:
        return b"".join(self.finish_parts(1 << 62))

    def finish_parts(self, min_splice: int) -> list[bytes | memoryview]:
        """The output as parts: record buffers of ``min_splice`` bytes or more uncopied, the rest joined."""
        self.parts.append(self.buf)
        parts: list[bytes | memoryview] = []
        piece = bytearray()
        for part in self.parts:
            view = memoryview(part)
            if isinstance(part, memoryview) and view.nbytes >= min_splice:
                if piece:
                    parts.append(bytes(piece))
                parts.append(view)
                piece = bytearray()
            else:
                piece += view
        if piece:
            parts.append(bytes(piece))
        if self.framed:
            total = sum(memoryview(part).nbytes for part in parts)
            parts[0] = _I32.pack(total - 4) + parts[0][4:]
        return parts


def _node_endpoints(endpoints: Sequence[NodeEndpoint]) -> Callable[[_Writer], None]:
    def write(w: _Writer) -> None:
        w.array(endpoints)
        for node_id, host, port, rack in endpoints:
            w.i32(node_id)
            w.string(host)
            w.i32(port)
            w.string(rack, nullable=True)
            w.tags([])

    return write


def _leader(leader: tuple[int, int]) -> Callable[[_Writer], None]:
    def write(w: _Writer) -> None:
        w.i32(leader[0])
        w.i32(leader[1])
        w.tags([])

    return write


# --- Produce response --------------------------------------------------------------------------------------------


def _produce_partition(w: _Writer, p: ProducePartitionResponse, version: int) -> None:
    w.i32(p.partition_index)
    w.i16(p.error_code)
    w.i64(p.base_offset)
    w.i64(p.log_append_time_ms)
    if version >= 5:
        w.i64(p.log_start_offset)
    if version >= 8:
        w.array(p.record_errors)
        for error in p.record_errors:
            w.i32(error.batch_index)
            w.string(error.batch_index_error_message, nullable=True)
            w.tags([])
        w.string(p.error_message, nullable=True)
    leader = p.current_leader
    w.tags([(0, _leader(leader))] if version >= 10 and leader is not None and tuple(leader) != (-1, -1) else [])


def encode_produce_response(version: int, response: ProduceResponse, correlation_id: int | None = None) -> bytes:
    """Encode a Produce response (v3-11): the body, or with ``correlation_id`` the whole frame."""
    _check_version("Produce response", version, PRODUCE_VERSIONS)
    w = _Writer(version >= 9, correlation_id, version >= 9)
    w.array(response.responses)
    for topic in response.responses:
        w.string(topic.name)
        w.array(topic.partition_responses)
        for partition in topic.partition_responses:
            _produce_partition(w, partition, version)
        w.tags([])
    w.i32(response.throttle_time_ms)
    endpoints = response.node_endpoints
    w.tags([(0, _node_endpoints(endpoints))] if version >= 10 and endpoints else [])
    return w.finish()


# --- Fetch response ----------------------------------------------------------------------------------------------


def _fetch_partition_tags(p: FetchPartitionResponse) -> list[tuple[int, Callable[[_Writer], None]]]:
    fields: list[tuple[int, Callable[[_Writer], None]]] = []
    diverging, leader, snapshot = p.diverging_epoch, p.current_leader, p.snapshot_id
    if diverging is not None and tuple(diverging) != (-1, -1):

        def write_diverging(w: _Writer) -> None:
            w.i32(diverging[0])
            w.i64(diverging[1])
            w.tags([])

        fields.append((0, write_diverging))
    if leader is not None and tuple(leader) != (-1, -1):
        fields.append((1, _leader(leader)))
    if snapshot is not None and tuple(snapshot) != (-1, -1):

        def write_snapshot(w: _Writer) -> None:
            w.i64(snapshot[0])
            w.i32(snapshot[1])
            w.tags([])

        fields.append((2, write_snapshot))
    return fields


def _fetch_partition(w: _Writer, p: FetchPartitionResponse, version: int) -> None:
    w.i32(p.partition_index)
    w.i16(p.error_code)
    w.i64(p.high_watermark)
    w.i64(p.last_stable_offset)
    if version >= 5:
        w.i64(p.log_start_offset)
    aborted = p.aborted_transactions
    w.array(aborted)
    for transaction in aborted or ():
        w.i64(transaction.producer_id)
        w.i64(transaction.first_offset)
        w.tags([])
    if version >= 11:
        w.i32(p.preferred_read_replica)
    w.records(p.records)
    w.tags(_fetch_partition_tags(p) if version >= 12 else [])


def encode_fetch_response(version: int, response: FetchResponse, correlation_id: int | None = None) -> bytes:
    """Encode a Fetch response (v4-17), each partition's record buffers copied once into the output."""
    return _fetch_writer(version, response, correlation_id).finish()


def encode_fetch_response_parts(
    version: int, response: FetchResponse, correlation_id: int | None = None, min_zero_copy: int = 0
) -> list[bytes | memoryview]:
    """Encode a Fetch response as parts to write back to back: record buffers of ``min_zero_copy`` bytes or
    more are parts of their own, uncopied; the rest is copied into ``bytes`` parts between them."""
    return _fetch_writer(version, response, correlation_id).finish_parts(min_zero_copy)


def _fetch_writer(version: int, response: FetchResponse, correlation_id: int | None) -> _Writer:
    _check_version("Fetch response", version, FETCH_VERSIONS)
    w = _Writer(version >= 12, correlation_id, version >= 12)
    w.i32(response.throttle_time_ms)
    if version >= 7:
        w.i16(response.error_code)
        w.i32(response.session_id)
    w.array(response.responses)
    for topic in response.responses:
        if version >= 13:
            w.uuid(topic.topic_id)
        else:
            w.string(topic.topic)
        w.array(topic.partitions)
        for partition in topic.partitions:
            _fetch_partition(w, partition, version)
        w.tags([])
    endpoints = response.node_endpoints
    w.tags([(0, _node_endpoints(endpoints))] if version >= 16 and endpoints else [])
    return w


# --- Metadata response -------------------------------------------------------------------------------------------


def _metadata_topic(w: _Writer, t: MetadataTopic, version: int) -> None:
    w.i16(t.error_code)
    w.string(t.name, nullable=version >= 12)
    if version >= 10:
        w.uuid(t.topic_id)
    if version >= 1:
        w.i8(1 if t.is_internal else 0)
    w.array(t.partitions)
    for p in t.partitions:
        w.i16(p.error_code)
        w.i32(p.partition_index)
        w.i32(p.leader_id)
        if version >= 7:
            w.i32(p.leader_epoch)
        w.int32s(p.replica_nodes)
        w.int32s(p.isr_nodes)
        if version >= 5:
            w.int32s(p.offline_replicas)
        w.tags([])
    if version >= 8:
        w.i32(t.topic_authorized_operations)
    w.tags([])


def encode_metadata_response(version: int, response: MetadataResponse, correlation_id: int | None = None) -> bytes:
    """Encode a Metadata response (v0-12)."""
    _check_version("Metadata response", version, METADATA_VERSIONS)
    w = _Writer(version >= 9, correlation_id, version >= 9)
    if version >= 3:
        w.i32(response.throttle_time_ms)
    w.array(response.brokers)
    for b in response.brokers:
        w.i32(b.node_id)
        w.string(b.host)
        w.i32(b.port)
        if version >= 1:
            w.string(b.rack, nullable=True)
        w.tags([])
    if version >= 2:
        w.string(response.cluster_id, nullable=True)
    if version >= 1:
        w.i32(response.controller_id)
    w.array(response.topics)
    for topic in response.topics:
        _metadata_topic(w, topic, version)
    if 8 <= version <= 10:
        w.i32(response.cluster_authorized_operations)
    w.tags([])
    return w.finish()


# --- ApiVersions response ----------------------------------------------------------------------------------------


def _features(features: Sequence[SupportedFeature] | Sequence[FinalizedFeature]) -> Callable[[_Writer], None]:
    def write(w: _Writer) -> None:
        w.array(features)
        for name, first, second in features:
            w.string(name)
            w.i16(first)
            w.i16(second)
            w.tags([])

    return write


def _api_versions_tags(response: ApiVersionsResponse) -> list[tuple[int, Callable[[_Writer], None]]]:
    fields: list[tuple[int, Callable[[_Writer], None]]] = []
    if response.supported_features:
        fields.append((0, _features(response.supported_features)))
    if response.finalized_features_epoch != -1:
        epoch = response.finalized_features_epoch
        fields.append((1, lambda w: w.i64(epoch)))
    if response.finalized_features:
        fields.append((2, _features(response.finalized_features)))
    if response.zk_migration_ready:
        fields.append((3, lambda w: w.i8(1)))
    return fields


def encode_api_versions_response(
    version: int, response: ApiVersionsResponse, correlation_id: int | None = None
) -> bytes:
    """Encode an ApiVersions response (v0-4); the frame's header is always v0. For UNSUPPORTED_VERSION, Kafka
    answers with the v0 body: pass ``version=0`` then."""
    _check_version("ApiVersions response", version, API_VERSIONS_VERSIONS)
    w = _Writer(version >= 3, correlation_id, header_flexible=False)
    w.i16(response.error_code)
    w.array(response.api_keys)
    for api in response.api_keys:
        w.i16(api.api_key)
        w.i16(api.min_version)
        w.i16(api.max_version)
        w.tags([])
    if version >= 1:
        w.i32(response.throttle_time_ms)
    w.tags(_api_versions_tags(response))
    return w.finish()
