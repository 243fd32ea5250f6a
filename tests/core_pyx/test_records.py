"""Records decoding and decompression, both twins: real clients' batches in every codec read back as they wrote them."""

from __future__ import annotations

import gzip
import struct
from types import ModuleType

import cramjam
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from kafka.record.default_records import DefaultRecordBatch

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.compression import XERIAL_MAGIC, decompress
from rockafka.core_pyx.errors import CorruptBatchError, InvalidBatchError
from rockafka.core_pyx.recordbatch import patch_base_offset, set_log_append_time
from rockafka.core_pyx.records import Record, read_records

from .batches import BUILDERS, CODECS, Rec, kafka_python_batch, resign, sample_records

TWINS = twins("_records")


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def rec(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def as_kafka_python_reads(batch: bytes) -> list[Record]:
    """The records as kafka-python's own reader sees them (the independent expectation)."""
    return [
        Record(r.offset, r.timestamp, r.key, r.value, tuple(r.headers)) for r in DefaultRecordBatch(bytearray(batch))
    ]


def uncompressed_payload(records: list[Rec]) -> tuple[bytes, bytes]:
    batch = kafka_python_batch(0, records)
    return batch, batch[61:]


def recompress(batch: bytes, codec: int, payload: bytes) -> bytes:
    """Swap a batch's payload for ``payload`` written with ``codec``, as another client would have sent it."""
    out = bytearray(batch[:61] + payload)
    struct.pack_into(">i", out, 8, len(out) - 12)
    struct.pack_into(">h", out, 21, codec)
    return bytes(resign(out))


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


@pytest.mark.parametrize("codec", sorted(CODECS.values()), ids=sorted(CODECS, key=CODECS.__getitem__))
@pytest.mark.parametrize("client", sorted(BUILDERS))
def test_real_client_batches_read_back(client: str, codec: int) -> None:
    records = sample_records(12, value_size=200)
    batch = BUILDERS[client](codec, records)
    got = read_records(batch)
    assert got == as_kafka_python_reads(batch)
    assert [(r.key, r.value, list(r.headers), r.timestamp) for r in got] == [tuple(r) for r in records]
    assert [r.offset for r in got] == list(range(12))


@pytest.mark.parametrize("client", sorted(BUILDERS))
def test_xerial_snappy_with_several_blocks(client: str) -> None:
    records = sample_records(30, value_size=4000)  # ~120 KiB uncompressed: xerial cuts 32 KiB blocks
    batch = BUILDERS[client](2, records)
    payload = batch[61:]
    assert payload.startswith(XERIAL_MAGIC)
    first_block = struct.unpack_from(">i", payload, 16)[0]
    assert 16 + 4 + first_block < len(payload)  # more than one block
    assert read_records(batch) == as_kafka_python_reads(batch)


def test_raw_snappy_as_librdkafka_writes_it() -> None:
    records = sample_records(6, value_size=500)
    batch, payload = uncompressed_payload(records)
    raw = recompress(batch, 2, bytes(cramjam.snappy.compress_raw(payload)))
    assert not raw[61:].startswith(XERIAL_MAGIC)
    assert read_records(raw) == read_records(batch) == as_kafka_python_reads(batch)


def test_zstd_frame_without_content_size_and_concatenated_gzip() -> None:
    batch, payload = uncompressed_payload(sample_records(6, value_size=500))
    streamed = zstandard.ZstdCompressor(write_content_size=False).compress(payload)
    assert read_records(recompress(batch, 4, streamed)) == read_records(batch)
    half = len(payload) // 2
    members = gzip.compress(payload[:half]) + gzip.compress(payload[half:])
    assert read_records(recompress(batch, 1, members)) == read_records(batch)


@pytest.mark.parametrize("codec", [1, 2, 3, 4])
def test_garbage_compressed_payloads_are_corrupt(codec: int) -> None:
    batch = kafka_python_batch(codec, sample_records(4))
    for garbage in (
        b"",
        b"\x00" * 40,
        bytes(range(200)),
        batch[61:-7],
        XERIAL_MAGIC + b"\x00\x00\x00\x01" * 2 + b"\x7f",
    ):
        with pytest.raises(CorruptBatchError):
            read_records(recompress(batch, codec, garbage))


def test_unknown_codec_is_invalid() -> None:
    with pytest.raises(InvalidBatchError, match="codec 6"):
        decompress(6, b"xx")
    assert decompress(0, memoryview(b"abc")) == b"abc"


def test_log_append_time_and_patched_offsets() -> None:
    batch = bytearray(kafka_python_batch(3, sample_records(5)))
    patch_base_offset(batch, 0, 500)
    set_log_append_time(batch, 0, 1_900_000_000_000)
    got = read_records(batch)
    assert [r.offset for r in got] == [500, 501, 502, 503, 504]
    assert {r.timestamp for r in got} == {1_900_000_000_000}
    assert got == as_kafka_python_reads(bytes(batch))


def test_control_batch_records() -> None:
    batch = bytearray(kafka_python_batch(0, [Rec(b"\x00\x00\x00\x01", b"\x00\x00\x00\x00\x00\x00", [], 5)]))
    struct.pack_into(">h", batch, 21, 0x30)  # transactional + control: a COMMIT marker
    got = read_records(resign(batch))
    assert got == [Record(0, 5, b"\x00\x00\x00\x01", b"\x00\x00\x00\x00\x00\x00", ())]


def test_read_records_checks_the_batch_first() -> None:
    bad = bytearray(kafka_python_batch(0, sample_records(2)))
    bad[70] ^= 1
    with pytest.raises(CorruptBatchError, match="CRC"):
        read_records(bad)
    padded = b"\x01\x02" + kafka_python_batch(0, sample_records(2))
    assert [r.offset for r in read_records(padded, 2)] == [0, 1]


def test_every_truncated_payload_is_corrupt(rec: ModuleType) -> None:
    _, payload = uncompressed_payload(sample_records(3, value_size=20))
    assert len(rec.decode_records(payload, 3, 0, 0)) == 3
    for cut in range(len(payload)):
        with pytest.raises(CorruptBatchError):
            rec.decode_records(payload[:cut], 3, 0, 0)
    with pytest.raises(CorruptBatchError, match="bytes follow"):
        rec.decode_records(payload + b"\x00", 3, 0, 0)
    with pytest.raises(CorruptBatchError, match="ends after 3 of its 4"):
        rec.decode_records(payload, 4, 0, 0)


def _one_record(body: bytes) -> bytes:
    """A payload holding one record with the given body (its length prefix is a one-byte zigzag varint)."""
    assert len(body) < 64
    return bytes([len(body) << 1]) + body


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"\x00" + b"\xff" * 10 + b"\x01", "longer than 10 bytes"),  # timestampDelta varlong too long
        (b"\x00\x00" + b"\xff" * 5 + b"\x01", "longer than 5 bytes"),  # offsetDelta varint too long
        (b"\x00\x00\x00\x03", "length -2 is negative"),  # key length -2
        (b"\x00\x00\x00\x01\x01\x01", "negative header count"),
        (b"\x00\x00\x00\x01\x01\x02\x01", "header key length -1"),
        (b"\x00\x00\x00\x01\x01\x00\x00", "declares 7 bytes but its fields use 6"),
        (b"\x00\x00\x00\x01\x08ab", "overruns its record"),  # value of 4 bytes, 2 present
    ],
)
def test_malformed_records(rec: ModuleType, body: bytes, message: str) -> None:
    with pytest.raises(CorruptBatchError, match=message):
        rec.decode_records(_one_record(body), 1, 0, 0)


def test_varints_wrap_like_java_ints(rec: ModuleType) -> None:
    # offsetDelta 0xFFFFFFFF zigzag-encoded in 5 bytes with spare high bits: Java keeps the low 32 bits (-2^31).
    body = b"\x00\x00" + b"\xff\xff\xff\xff\x7f" + b"\x01\x01\x00"
    (got,) = rec.decode_records(_one_record(body), 1, 10, 0)
    assert got.offset == 10 - 2**31


def test_header_keys_that_are_not_utf8(rec: ModuleType) -> None:
    body = b"\x00\x00\x00\x01\x01\x02\x04\xff\xfe\x00"
    (got,) = rec.decode_records(_one_record(body), 1, 0, 0)
    assert got.headers == (("\ufffd\ufffd", b""),)


headers_st = st.lists(st.tuples(st.text(max_size=8), st.one_of(st.none(), st.binary(max_size=8))), max_size=3)
record_st = st.builds(
    Rec,
    key=st.one_of(st.none(), st.binary(max_size=40)),
    value=st.one_of(st.none(), st.binary(max_size=300)),
    headers=headers_st,
    timestamp=st.integers(min_value=0, max_value=2**41),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(record_st, min_size=1, max_size=8), st.integers(min_value=0, max_value=2**40))
def test_twins_decode_what_kafka_python_wrote(records: list[Rec], base_offset: int) -> None:
    batch = bytearray(kafka_python_batch(0, records))
    patch_base_offset(batch, 0, base_offset)
    expected = as_kafka_python_reads(bytes(batch))
    base_timestamp = struct.unpack_from(">q", batch, 27)[0]
    for impl in TWINS.values():
        assert impl.decode_records(bytes(batch[61:]), len(records), base_offset, base_timestamp) == expected


def _outcome(impl: ModuleType, payload: bytes, count: int) -> object:
    try:
        return impl.decode_records(payload, count, 7, 1000)
    except CorruptBatchError as exc:
        return str(exc)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=60), st.integers(min_value=0, max_value=4))
def test_twins_agree_on_arbitrary_payloads(payload: bytes, count: int) -> None:
    assert _outcome(TWINS["compiled"], payload, count) == _outcome(TWINS["pure"], payload, count)
