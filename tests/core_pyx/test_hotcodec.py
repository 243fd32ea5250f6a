"""The generated hot-message kernel (``_hotcodec``: Produce requests in; Produce, Fetch and Metadata responses out),
both twins: the same bytes as kafka-python 3.0.12 for every version both support.

The samples are built through the adapters below in the field order they were first written in (the tuples now
follow the specs' order, which for FetchResponse, FetchableTopicResponse and MetadataResponse differs)."""

from __future__ import annotations

import mmap
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import hotcodec as hc
from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.errors import MalformedMessageError, UnsupportedVersionError

from .batches import kafka_python_batch, sample_records
from .kafka_python_messages import (
    kafka_python_decode_produce_request,
    kafka_python_encode,
    kafka_python_produce_request,
)

TWINS = twins("_hotcodec")
DECODERS = TWINS
ENCODERS = {
    hc.ProduceResponse: ("encode_produce_response", hc.PRODUCE_VERSIONS),
    hc.FetchResponse: ("encode_fetch_response_parts", hc.FETCH_VERSIONS),
    hc.MetadataResponse: ("encode_metadata_response", hc.METADATA_VERSIONS),
}


def fetch_response(
    responses: Any, throttle_time_ms: int = 0, error_code: int = 0, session_id: int = 0, node_endpoints: Any = ()
) -> hc.FetchResponse:
    return hc.FetchResponse(throttle_time_ms, error_code, session_id, responses, node_endpoints)


def fetch_topic(topic: Any, partitions: Any, topic_id: uuid.UUID = hc.ZERO_UUID) -> hc.FetchableTopicResponse:
    return hc.FetchableTopicResponse(topic, topic_id, partitions)


def metadata_response(
    brokers: Any,
    topics: Any,
    throttle_time_ms: int = 0,
    cluster_id: str | None = None,
    controller_id: int = -1,
    cluster_authorized_operations: int = -(2**31),
) -> hc.MetadataResponse:
    return hc.MetadataResponse(
        throttle_time_ms, brokers, cluster_id, controller_id, topics, cluster_authorized_operations
    )


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def codec(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


@pytest.fixture(params=sorted(DECODERS), ids=lambda name: name)
def decoder(request: pytest.FixtureRequest) -> ModuleType:
    return DECODERS[request.param]


def encode(impl: ModuleType, version: int, message: Any, correlation_id: int | None = None) -> bytes:
    name, _ = ENCODERS[type(message)]
    result = getattr(impl, name)(version, message, correlation_id)
    return b"".join(result) if isinstance(result, list) else bytes(result)


def versions(message: Any) -> range:
    low, high = ENCODERS[type(message)][1]
    return range(low, high + 1)


def assert_same_as_kafka_python(message: Any, version: int, correlation_id: int | None = None) -> None:
    expected = kafka_python_encode(version, message, correlation_id)
    for name, impl in TWINS.items():
        assert encode(impl, version, message, correlation_id) == expected, (name, version)


# --- sample messages that set every field ----------------------------------------------------------------------

BATCH = kafka_python_batch(1, sample_records(5))
PRODUCE_RESPONSE = hc.ProduceResponse(
    [
        hc.TopicProduceResponse(
            "orders",
            [
                hc.PartitionProduceResponse(
                    0,
                    0,
                    42,
                    1_700_000_000_000,
                    3,
                    [hc.BatchIndexAndErrorMessage(1, "bad"), hc.BatchIndexAndErrorMessage(2)],
                    "why",
                    (7, 9),
                ),
                hc.PartitionProduceResponse(1, error_code=6, current_leader=hc.LeaderIdAndEpoch(2, 0)),
            ],
        ),
        hc.TopicProduceResponse("ünïcode", []),
    ],
    throttle_time_ms=12,
    node_endpoints=[hc.NodeEndpoint(2, "127.0.0.1", 9093, "rack-b"), hc.NodeEndpoint(7, "h", 1)],
)
FETCH_RESPONSE = fetch_response(
    [
        fetch_topic(
            "orders",
            [
                hc.PartitionData(
                    0,
                    0,
                    100,
                    90,
                    5,
                    hc.EpochEndOffset(3, 80),
                    hc.LeaderIdAndEpoch(1, 4),
                    hc.SnapshotId(70, 2),
                    [hc.AbortedTransaction(11, 60), hc.AbortedTransaction(12, 61)],
                    1,
                    [BATCH, memoryview(BATCH)[:61], b""],
                ),
                hc.PartitionData(1, error_code=1, records=None, aborted_transactions=[]),
                hc.PartitionData(2, high_watermark=0, records=BATCH),
            ],
            uuid.UUID("5f1e3b1c-0f4e-4a53-9b7a-1d2c3e4f5a6b"),
        )
    ],
    throttle_time_ms=3,
    error_code=0,
    session_id=1234,
    node_endpoints=[hc.NodeEndpoint(1, "broker-1", 9092)],
)
METADATA_RESPONSE = metadata_response(
    [hc.MetadataResponseBroker(1, "127.0.0.1", 9092, "rack-a"), hc.MetadataResponseBroker(2, "127.0.0.2", 9093)],
    [
        hc.MetadataResponseTopic(
            0,
            "orders",
            uuid.UUID(int=0x1234),
            False,
            [hc.MetadataResponsePartition(0, 0, 1, 5, [1, 2], [1], [2]), hc.MetadataResponsePartition(9, 1, -1)],
            0x0FF8,
        ),
        hc.MetadataResponseTopic(3, "missing", is_internal=True),
    ],
    throttle_time_ms=4,
    cluster_id="rockafka-cluster",
    controller_id=1,
    cluster_authorized_operations=0x77,
)
SAMPLES = [PRODUCE_RESPONSE, FETCH_RESPONSE, METADATA_RESPONSE]
MINIMAL = [
    hc.ProduceResponse([]),
    fetch_response([]),
    metadata_response([], []),
]


def test_compiled_twins_are_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


@pytest.mark.parametrize("message", SAMPLES + MINIMAL, ids=lambda m: type(m).__name__)
def test_every_version_matches_kafka_python(message: Any) -> None:
    for version in versions(message):
        assert_same_as_kafka_python(message, version)
        assert_same_as_kafka_python(message, version, correlation_id=0x01020304)


def test_frames_carry_size_and_the_right_header_version(codec: ModuleType) -> None:
    cases = [(PRODUCE_RESPONSE, 9, True), (FETCH_RESPONSE, 11, False), (FETCH_RESPONSE, 12, True)]
    cases += [(METADATA_RESPONSE, 9, True)]
    for message, version, flexible_header in cases:
        frame = encode(codec, version, message, 77)
        body = encode(codec, version, message)
        assert int.from_bytes(frame[:4], "big") == len(frame) - 4
        assert frame[4:8] == (77).to_bytes(4, "big")
        assert frame[8:] == (b"\x00" if flexible_header else b"") + body


def test_unsupported_versions_are_refused(codec: ModuleType) -> None:
    for message in MINIMAL:
        low, high = ENCODERS[type(message)][1]
        for version in (low - 1, high + 1):
            with pytest.raises(UnsupportedVersionError):
                encode(codec, version, message)


def test_unsupported_request_versions_are_refused(decoder: ModuleType) -> None:
    for version in (-1, 12, 13):
        with pytest.raises(UnsupportedVersionError) as caught:
            decoder.decode_produce_request(b"", version)
        assert caught.value.version == version


def test_default_tagged_values_are_not_written(codec: ModuleType) -> None:
    quiet = hc.PartitionData(0, diverging_epoch=(-1, -1), current_leader=(-1, -1), snapshot_id=(-1, -1))
    plain = hc.PartitionData(0)
    for version in (12, 17):
        assert encode(codec, version, fetch_response([fetch_topic("t", [quiet])])) == encode(
            codec, version, fetch_response([fetch_topic("t", [plain])])
        )
    quiet_produce = hc.ProduceResponse(
        [hc.TopicProduceResponse("t", [hc.PartitionProduceResponse(0, current_leader=(-1, -1))])]
    )
    assert encode(codec, 11, quiet_produce) == encode(
        codec, 11, hc.ProduceResponse([hc.TopicProduceResponse("t", [hc.PartitionProduceResponse(0)])])
    )


def test_null_where_the_version_forbids_it(codec: ModuleType) -> None:
    nameless = metadata_response([], [hc.MetadataResponseTopic(100, None, uuid.UUID(int=5))])
    assert encode(codec, 12, nameless) == kafka_python_encode(12, nameless)
    with pytest.raises(ValueError, match="non-nullable"):
        encode(codec, 11, nameless)
    with pytest.raises(ValueError, match="non-nullable"):
        encode(codec, 12, fetch_response([fetch_topic(None, [])]))  # type: ignore[arg-type]


def test_fetch_records_from_mapped_files_and_views(codec: ModuleType, tmp_path: Path) -> None:
    big = kafka_python_batch(0, sample_records(20, value_size=5000))  # over 64 KiB: copied with the GIL released
    path = tmp_path / "segment"
    path.write_bytes(BATCH + big)
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        view = memoryview(mapped)
        chunks = [view[: len(BATCH)], view[len(BATCH) :], bytearray(BATCH)]
        response = fetch_response([fetch_topic("t", [hc.PartitionData(0, records=chunks)])])
        for version in (0, 1, 3, 4, 12, 17):
            out = encode(codec, version, response, 1)
            assert out.endswith(BATCH + big + BATCH + (b"\x00\x00\x00" if version >= 12 else b""))
            assert out == kafka_python_encode(version, response, 1)
        del response, chunks
        view.release()


@pytest.mark.parametrize("min_zero_copy", [0, 1, len(BATCH), len(BATCH) + 1, 1 << 40])
def test_fetch_parts_join_to_the_response_and_share_big_buffers(codec: ModuleType, min_zero_copy: int) -> None:
    big = bytearray(kafka_python_batch(0, sample_records(8, value_size=3000)))
    chunks = [memoryview(big), memoryview(bytearray(BATCH)), memoryview(big)[:0]]
    partitions = [hc.PartitionData(p, records=chunks) for p in range(3)]
    response = fetch_response([fetch_topic("t", partitions), fetch_topic("u", [])])
    for version in (4, 12, 17):
        parts = codec.encode_fetch_response_parts(version, response, 7, min_zero_copy)
        assert b"".join(bytes(part) for part in parts) == b"".join(
            codec.encode_fetch_response_parts(version, response, 7)
        )
        uncopied = [part for part in parts if isinstance(part, memoryview)]
        expected = [c for _ in partitions for c in chunks if len(c) and len(c) >= min_zero_copy]
        assert len(uncopied) == len(expected)
        assert all(part.obj is chunk.obj for part, chunk in zip(uncopied, expected, strict=True))
        assert all(not isinstance(part, memoryview) for part in parts[:1])  # the size prefix is ours


# --- Produce requests --------------------------------------------------------------------------------------------

PRODUCE_REQUEST = hc.ProduceRequest(
    "txn-1",
    -1,
    30_000,
    [
        hc.TopicProduceData("orders", [hc.PartitionProduceData(0, BATCH), hc.PartitionProduceData(3, None)]),  # type: ignore[arg-type]
        hc.TopicProduceData("ünïcode", []),
    ],
)


@pytest.mark.parametrize("version", range(0, 12))
def test_decodes_what_kafka_python_writes(decoder: ModuleType, version: int) -> None:
    request = PRODUCE_REQUEST if version >= 3 else PRODUCE_REQUEST._replace(transactional_id=None)  # v3+ only
    body = kafka_python_produce_request(version, request)
    decoded = decoder.decode_produce_request(body, version)
    assert decoded == request == kafka_python_decode_produce_request(version, body)
    assert type(decoded) is hc.ProduceRequest and type(decoded.topic_data[0]) is hc.TopicProduceData
    assert type(decoded.topic_data[0].partition_data[0]) is hc.PartitionProduceData


def test_records_are_zero_copy_views_of_the_body(decoder: ModuleType) -> None:
    body = bytearray(kafka_python_produce_request(9, PRODUCE_REQUEST))
    records = decoder.decode_produce_request(body, 9).topic_data[0].partition_data[0].records
    assert isinstance(records, memoryview) and records.obj is body and records == BATCH
    body[body.index(BATCH) + 20] ^= 0xFF
    assert records != BATCH
    records.release()


def test_unknown_tagged_fields_are_skipped(decoder: ModuleType) -> None:
    record_bytes = b"RECORDS"
    body = (
        b"\x00"  # transactional id: null
        + b"\x00\x01"  # acks
        + b"\x00\x00\x03\xe8"  # timeout
        + b"\x02"  # one topic
        + b"\x02t"
        + b"\x02"  # one partition
        + b"\x00\x00\x00\x05"
        + bytes([len(record_bytes) + 1])
        + record_bytes
        + b"\x01\x05\x02xx"  # partition: one unknown tag (5), 2 bytes
        + b"\x02\x00\x00\x07\x01y"  # topic: tags 0 (empty) and 7
        + b"\x01\xe4\x00\x03zzz"  # request: tag 100 (a 2-byte varint), 3 bytes
    )
    decoded = decoder.decode_produce_request(body, 9)
    assert decoded == hc.ProduceRequest(
        None, 1, 1000, [hc.TopicProduceData("t", [hc.PartitionProduceData(5, record_bytes)])]
    )  # type: ignore[list-item]
    assert decoded == kafka_python_decode_produce_request(9, body)


@pytest.mark.parametrize("version", [3, 9])
def test_every_truncation_and_any_trailing_byte_is_malformed(decoder: ModuleType, version: int) -> None:
    body = kafka_python_produce_request(version, PRODUCE_REQUEST)
    for cut in range(len(body)):
        with pytest.raises(MalformedMessageError):
            decoder.decode_produce_request(body[:cut], version)
    with pytest.raises(MalformedMessageError, match="1 trailing bytes"):
        decoder.decode_produce_request(body + b"\x00", version)


@pytest.mark.parametrize(
    ("version", "body", "message"),
    [
        (3, b"\xff\xff\x00\x01\x00\x00\x00\x01\xff\xff\xff\xff", "invalid array length -1"),
        (3, b"\xff\xff\x00\x01\x00\x00\x00\x01\x7f\xff\xff\xff", "invalid array length 2147483647"),
        (3, b"\xff\xff\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\xff\xff", "invalid string length -1"),
        (3, b"\xff\xfe\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00", "invalid string length -2"),
        (
            3,
            b"\xff\xff\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x01t\x00\x00\x00\x01\x00\x00\x00\x00\xff\xff\xff\xfe",
            "invalid records length -2",
        ),
        (9, b"\x00\x00\x01\x00\x00\x00\x01\x02\x00", "invalid string length -1"),
        (9, b"\x00\x00\x01\x00\x00\x00\x01\xff\xff\xff\xff\xff\x01", "longer than 5 bytes"),
        (9, b"\x00\x00\x01\x00\x00\x00\x01\x01\x01\x00\x05ab", "truncated at byte 11: 5 more bytes needed"),
    ],
)
def test_malformed_bodies(decoder: ModuleType, version: int, body: bytes, message: str) -> None:
    with pytest.raises(MalformedMessageError, match=message):
        decoder.decode_produce_request(body, version)


# --- properties --------------------------------------------------------------------------------------------------

i16 = st.integers(-(2**15), 2**15 - 1)
i32 = st.integers(-(2**31), 2**31 - 1)
i64 = st.integers(-(2**63), 2**63 - 1)
names = st.text(max_size=12)
maybe_names = st.none() | names
short = {"max_size": 3}
# Kafka leaves tagged structs equal to their defaults unwritten; kafka-python writes whatever it is given.
pairs = st.none() | st.tuples(i32, i32).filter(lambda p: p != (-1, -1))
endpoints = st.lists(st.builds(hc.NodeEndpoint, i32, names, i32, maybe_names), **short)
records = st.none() | st.lists(st.binary(max_size=40), **short) | st.binary(max_size=40)

produce_responses = st.builds(
    hc.ProduceResponse,
    st.lists(
        st.builds(
            hc.TopicProduceResponse,
            names,
            st.lists(
                st.builds(
                    hc.PartitionProduceResponse,
                    i32, i16, i64, i64, i64,
                    st.lists(st.builds(hc.BatchIndexAndErrorMessage, i32, maybe_names), **short),
                    maybe_names,
                    pairs.map(lambda p: None if p is None else hc.LeaderIdAndEpoch(*p)),
                ),
                **short,
            ),
        ),
        **short,
    ),
    i32,
    endpoints,
)  # fmt: skip
fetch_responses = st.builds(
    fetch_response,
    st.lists(
        st.builds(
            fetch_topic,
            names,
            st.lists(
                st.builds(
                    hc.PartitionData,
                    i32, i16, i64, i64, i64,
                    pairs.map(lambda p: None if p is None else hc.EpochEndOffset(*p)),
                    pairs.map(lambda p: None if p is None else hc.LeaderIdAndEpoch(*p)),
                    st.none() | st.builds(hc.SnapshotId, i64, i32).filter(lambda s: s != (-1, -1)),
                    st.none() | st.lists(st.builds(hc.AbortedTransaction, i64, i64), **short),
                    i32,
                    records,
                ),
                **short,
            ),
            st.uuids(),
        ),
        **short,
    ),
    i32, i16, i32,
    endpoints,
)  # fmt: skip
int32_lists = st.lists(i32, max_size=4)
metadata_responses = st.builds(
    metadata_response,
    st.lists(st.builds(hc.MetadataResponseBroker, i32, names, i32, maybe_names), **short),
    st.lists(
        st.builds(
            hc.MetadataResponseTopic,
            i16, names, st.uuids(), st.booleans(),
            st.lists(
                st.builds(hc.MetadataResponsePartition, i16, i32, i32, i32, int32_lists, int32_lists, int32_lists),
                **short,
            ),
            i32,
        ),
        **short,
    ),
    i32, maybe_names, i32, i32,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.one_of(produce_responses, fetch_responses, metadata_responses), st.data())
def test_random_responses_match_kafka_python(message: Any, data: st.DataObject) -> None:
    version = data.draw(st.sampled_from(versions(message)))
    correlation_id = data.draw(st.none() | i32)
    assert_same_as_kafka_python(message, version, correlation_id)


produce_requests = st.builds(
    hc.ProduceRequest,
    maybe_names,
    i16,
    i32,
    st.lists(
        st.builds(
            hc.TopicProduceData,
            names,
            st.lists(st.builds(hc.PartitionProduceData, i32, st.none() | st.binary(max_size=50)), **short),
        ),
        **short,
    ),
)


@settings(max_examples=60, deadline=None)
@given(produce_requests, st.integers(min_value=3, max_value=11))
def test_random_produce_requests_decode_as_written(request: hc.ProduceRequest, version: int) -> None:
    body = kafka_python_produce_request(version, request)
    for impl in DECODERS.values():
        assert impl.decode_produce_request(body, version) == request


def _outcome(impl: ModuleType, body: bytes, version: int) -> object:
    try:
        return impl.decode_produce_request(body, version)
    except MalformedMessageError as exc:
        return str(exc)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=60), st.sampled_from([3, 8, 9, 11]), st.integers(0, 2**32), st.data())
def test_twins_agree_on_damaged_bodies(noise: bytes, version: int, seed: int, data: st.DataObject) -> None:
    body = bytearray(kafka_python_produce_request(version, PRODUCE_REQUEST)[:80] + noise)
    body[data.draw(st.integers(0, len(body) - 1))] = seed % 256
    assert _outcome(DECODERS["compiled"], bytes(body), version) == _outcome(DECODERS["pure"], bytes(body), version)
