"""The sans-I/O request decoder and the response encoder: whole, byte-by-byte and trailing-bytes feeding,
per-request errors that keep the header, frame errors that raise, and the header-version rules."""

from __future__ import annotations

import struct

import pytest

from rockafka.facade.protocol import (
    API_SPECS,
    DecodedRequest,
    DecodeError,
    EncodeError,
    ErrorCode,
    FrameTooLargeError,
    MalformedHeaderError,
    NegativeFrameLengthError,
    RequestDecoder,
    RequestError,
    TruncatedFrameError,
    UnknownApiKeyError,
    UnsupportedVersionError,
    api_spec,
    decode_request,
    decode_response,
    encode_request,
    encode_response,
    unsupported_api_versions_response,
)
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
from rockafka.facade.protocol.messages.controlled_shutdown import ControlledShutdownRequest
from rockafka.facade.protocol.messages.fetch import FetchResponse
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)
from rockafka.facade.protocol.messages.response_header import ResponseHeader

RECORDS = b"\x00" * 61


def produce(acks: int = -1) -> ProduceRequest:
    partition = PartitionProduceData(index=0, records=RECORDS)
    topic = TopicProduceData(name="t", partition_data=[partition])
    return ProduceRequest(acks=acks, timeout_ms=100, topic_data=[topic])


REQUESTS = [
    (ApiVersionsRequest(client_software_name="kafka-python", client_software_version="3.0.12"), 3),
    (MetadataRequest(topics=[MetadataRequestTopic(name="t")]), 5),
    (MetadataRequest(topics=None), 12),
    (produce(), 9),
    (produce(acks=0), 7),
]
STREAM = b"".join(encode_request(body, version, index, "client") for index, (body, version) in enumerate(REQUESTS))


def check_decoded(results: list[DecodedRequest | RequestError]) -> None:
    assert len(results) == len(REQUESTS)
    for index, (result, (body, version)) in enumerate(zip(results, REQUESTS, strict=True)):
        assert isinstance(result, DecodedRequest)
        assert result.header.correlation_id == index
        assert result.header.client_id == "client"
        assert result.version == version
        assert result.spec is api_spec(body.API_KEY)
        assert result.body == body


def test_whole_stream() -> None:
    decoder = RequestDecoder()
    check_decoded(decoder.feed(STREAM))
    assert decoder.pending == 0
    decoder.finish()


def test_byte_by_byte() -> None:
    decoder = RequestDecoder()
    results: list[DecodedRequest | RequestError] = []
    for i in range(len(STREAM)):
        results += decoder.feed(STREAM[i : i + 1])
    check_decoded(results)


def test_trailing_bytes_wait_for_the_rest() -> None:
    decoder = RequestDecoder()
    tail = encode_request(produce(), 11, 99)
    results = decoder.feed(STREAM + tail[:7])
    check_decoded(results)
    assert decoder.pending == 7
    with pytest.raises(TruncatedFrameError):
        decoder.finish()
    (last,) = decoder.feed(tail[7:])
    assert isinstance(last, DecodedRequest) and last.header.correlation_id == 99


def test_records_are_views_into_the_frame() -> None:
    (result,) = RequestDecoder().feed(encode_request(produce(), 9, 1))
    assert isinstance(result, DecodedRequest) and isinstance(result.body, ProduceRequest)
    records = result.body.topic_data[0].partition_data[0].records
    assert isinstance(records, memoryview) and records == RECORDS


def test_acks_zero_expects_no_response() -> None:
    results = RequestDecoder().feed(STREAM)
    assert [r.expects_response for r in results if isinstance(r, DecodedRequest)] == [True, True, True, True, False]


def frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def header(api_key: int, version: int, correlation_id: int) -> bytes:
    return struct.pack(">hhih", api_key, version, correlation_id, -1)


def test_unknown_api_key_keeps_the_header() -> None:
    (result,) = RequestDecoder().feed(frame(header(999, 0, 5) + b"body"))
    assert isinstance(result, RequestError)
    assert isinstance(result.error, UnknownApiKeyError)
    assert (result.header.api_key, result.header.correlation_id, result.spec) == (999, 5, None)
    assert result.error_code == ErrorCode.INVALID_REQUEST


def test_unsupported_version_keeps_the_header() -> None:
    (result,) = RequestDecoder().feed(frame(header(18, 99, 6) + b"\x00"))
    assert isinstance(result, RequestError) and isinstance(result.error, UnsupportedVersionError)
    assert result.header.correlation_id == 6 and result.spec is API_SPECS[18]
    assert result.error_code == ErrorCode.UNSUPPORTED_VERSION == 35


def test_undecodable_body_keeps_the_header_and_the_stream_goes_on() -> None:
    bad = frame(header(3, 4, 7) + b"\x00\x00\x00\x05")  # claims 5 topics, holds none
    results = RequestDecoder().feed(bad + encode_request(ApiVersionsRequest(), 0, 8))
    assert isinstance(results[0], RequestError) and isinstance(results[0].error, DecodeError)
    assert results[0].header.correlation_id == 7 and results[0].error_code == ErrorCode.INVALID_REQUEST
    assert isinstance(results[1], DecodedRequest) and results[1].header.correlation_id == 8


def test_bytes_after_the_body_are_ignored_like_kafka() -> None:
    payload = encode_request(ApiVersionsRequest(), 2, 9)[4:] + b"extra"
    result = decode_request(payload)
    assert isinstance(result, DecodedRequest) and result.body == ApiVersionsRequest()


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"\xff\xff\xff\xfe", NegativeFrameLengthError),
        (struct.pack(">i", 1001), FrameTooLargeError),
        (frame(b"\x00\x03"), MalformedHeaderError),
    ],
)
def test_frame_errors_raise(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error):
        RequestDecoder(max_frame_size=1000).feed(data)


def test_response_header_versions() -> None:
    for body, version, header_version in [
        (MetadataResponse(), 8, 0),
        (MetadataResponse(), 9, 1),
        (ProduceResponse(), 9, 1),
        (FetchResponse(), 11, 0),
        (ApiVersionsResponse(), 3, 0),  # ApiVersions responses always use header v0
    ]:
        request = decode_request(encode_request(api_spec(body.API_KEY).request(), version, 77)[4:])
        assert isinstance(request, DecodedRequest)
        encoded = encode_response(request.header, body)
        size, rest = struct.unpack(">i", encoded[:4])[0], encoded[4:]
        assert size == len(rest)
        head = ResponseHeader(correlation_id=77).encode(header_version)
        assert rest == head + body.encode(version)
        assert decode_response(rest, type(body), version) == (77, body)


def test_unsupported_api_versions_answer_uses_the_v0_body() -> None:
    (request,) = RequestDecoder().feed(frame(header(18, 7, 3) + b"\x00\x01x\x01y\x00"))
    assert isinstance(request, RequestError)
    answer = encode_response(request.header, unsupported_api_versions_response(max_version=4), version=0)
    assert answer == bytes.fromhex("0000001000000003002300000001001200000004")
    # a client that asked for v3 reads it as v0 because the error code is set
    correlation_id, body = decode_response(answer[4:], ApiVersionsResponse, 3)
    assert correlation_id == 3 and body.error_code == 35
    assert [(k.api_key, k.min_version, k.max_version) for k in body.api_keys] == [(18, 0, 4)]


def test_response_must_match_the_request() -> None:
    request = decode_request(encode_request(MetadataRequest(), 1, 1)[4:])
    assert isinstance(request, DecodedRequest)
    with pytest.raises(EncodeError):
        encode_response(request.header, ProduceResponse())
    with pytest.raises(UnsupportedVersionError):
        encode_response(request.header, MetadataResponse(), version=13)
    with pytest.raises(EncodeError):
        encode_request(MetadataResponse(), 1, 1)  # type: ignore[arg-type]


def test_values_out_of_range_are_encode_errors() -> None:
    with pytest.raises(EncodeError):
        ProduceRequest(acks=1 << 20).encode(3)
    request = decode_request(encode_request(MetadataRequest(), 1, 1)[4:])
    assert isinstance(request, DecodedRequest)
    with pytest.raises(EncodeError):
        encode_response(request.header, MetadataResponse(throttle_time_ms=1 << 40), 3)


def test_request_header_v2_and_v0() -> None:
    flexible = encode_request(MetadataRequest(), 9, 1, None)
    assert flexible[4:].startswith(struct.pack(">hhih", 3, 9, 1, -1) + b"\x00")
    result = decode_request(flexible[4:])
    assert isinstance(result, DecodedRequest) and result.header.client_id is None
    assert result.header.body_offset == 11
    shutdown = encode_request(ControlledShutdownRequest(broker_id=4), 0, 5, "ignored in v0")
    assert shutdown[4:] == struct.pack(">hhii", 7, 0, 5, 4)
    result = decode_request(shutdown[4:])
    assert isinstance(result, DecodedRequest) and result.header.body_offset == 8
    assert result.body == ControlledShutdownRequest(broker_id=4)
