"""The generated hot-message kernel against the project's generated codec (``rockafka.facade.protocol.messages``).

Both are written from the same JSON specs, so this is a consistency check rather than an independent one
(kafka-python is the independent encoder, in ``test_hotcodec.py``): the generated codec must read the hot
codec's bytes exactly to their end and write them back byte for byte, and both must read a Produce request
the same way.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import hotcodec as hc
from rockafka.core_pyx import twins
from rockafka.facade.protocol.messages.fetch import FetchResponse
from rockafka.facade.protocol.messages.metadata import MetadataResponse
from rockafka.facade.protocol.messages.produce import ProduceRequest, ProduceResponse

from .kafka_python_messages import kafka_python_produce_request
from .test_hotcodec import (
    MINIMAL,
    PRODUCE_REQUEST,
    SAMPLES,
    encode,
    fetch_responses,
    metadata_responses,
    produce_requests,
    produce_responses,
    versions,
)

TWINS = twins("_hotcodec")
DECODERS = TWINS
GENERATED: dict[type, Any] = {
    hc.ProduceResponse: ProduceResponse,
    hc.FetchResponse: FetchResponse,
    hc.MetadataResponse: MetadataResponse,
}


def assert_generated_round_trip(message: Any, version: int) -> None:
    ours = encode(TWINS["compiled"], version, message)
    assert encode(TWINS["pure"], version, message) == ours
    generated = GENERATED[type(message)].decode(ours, version)  # must consume every byte
    assert generated.encode(version) == ours


@pytest.mark.parametrize("message", SAMPLES + MINIMAL, ids=lambda m: type(m).__name__)
def test_generated_codec_reads_and_rewrites_every_version(message: Any) -> None:
    for version in versions(message):
        assert_generated_round_trip(message, version)


def test_a_sample_reads_back_field_for_field() -> None:
    fetched = FetchResponse.decode(encode(TWINS["compiled"], 12, SAMPLES[1]), 12)
    topic = fetched.responses[0]
    partition = topic.partitions[0]
    ours = SAMPLES[1].responses[0].partitions[0]
    assert (topic.topic, fetched.session_id, partition.high_watermark) == ("orders", 1234, ours.high_watermark)
    assert bytes(partition.records) == b"".join(bytes(chunk) for chunk in ours.records)
    assert [(a.producer_id, a.first_offset) for a in partition.aborted_transactions] == [(11, 60), (12, 61)]
    assert (partition.current_leader.leader_id, partition.current_leader.leader_epoch) == (1, 4)


def _as_hot(version: int, body: bytes) -> hc.ProduceRequest:
    decoded = ProduceRequest.decode(body, version)
    return hc.ProduceRequest(
        decoded.transactional_id,
        decoded.acks,
        decoded.timeout_ms,
        [
            hc.TopicProduceData(t.name, [hc.PartitionProduceData(p.index, p.records) for p in t.partition_data])
            for t in decoded.topic_data
        ],
    )


@pytest.mark.parametrize("version", range(3, 12))
def test_produce_requests_read_alike(version: int) -> None:
    body = kafka_python_produce_request(version, PRODUCE_REQUEST)
    for impl in DECODERS.values():
        assert impl.decode_produce_request(body, version) == _as_hot(version, body)


@settings(max_examples=40, deadline=None)
@given(st.one_of(produce_responses, fetch_responses, metadata_responses), st.data())
def test_random_responses_round_trip_through_the_generated_codec(message: Any, data: st.DataObject) -> None:
    assert_generated_round_trip(message, data.draw(st.sampled_from(versions(message))))


@settings(max_examples=40, deadline=None)
@given(produce_requests, st.integers(min_value=3, max_value=11))
def test_random_produce_requests_read_alike(request: hc.ProduceRequest, version: int) -> None:
    body = kafka_python_produce_request(version, request)
    assert DECODERS["compiled"].decode_produce_request(body, version) == _as_hot(version, body) == request
