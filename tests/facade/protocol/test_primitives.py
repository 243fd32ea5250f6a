"""The reader and writers: exact encodings, every short or malformed input as DecodeError, both varint twins."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from types import ModuleType
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import twins
from rockafka.facade.protocol import DecodeError, EncodeError, primitives
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic
from rockafka.facade.protocol.primitives import (
    Reader,
    write_bytes,
    write_int_array,
    write_string,
    write_string_array,
    write_struct,
    write_struct_array,
    write_tagged_fields,
    write_uvarint,
    write_varint,
    write_varlong,
)

VARINT_TWINS = twins("_varint")


@pytest.fixture(params=sorted(VARINT_TWINS), ids=lambda name: name)
def varint_twin(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """Run the test with the reader and writers bound to one twin of the varint kernel."""
    twin = VARINT_TWINS[request.param]
    for name in ("decode_uvarint", "decode_varint", "decode_varlong", "encode_uvarint", "encode_varint"):
        monkeypatch.setattr(primitives, name, getattr(twin, name))
    monkeypatch.setattr(primitives, "encode_varlong", twin.encode_varlong)
    yield twin


def written(write: object, *args: object) -> bytes:
    out = bytearray()
    write(out, *args)  # type: ignore[operator]
    return bytes(out)


def test_classic_and_compact_strings() -> None:
    assert written(write_string, "abc", False) == b"\x00\x03abc"
    assert written(write_string, "abc", True) == b"\x04abc"
    assert written(write_string, None, False, True) == b"\xff\xff"
    assert written(write_string, None, True, True) == b"\x00"
    assert written(write_string, "é", False) == b"\x00\x02\xc3\xa9"
    with pytest.raises(EncodeError):
        written(write_string, None, False)


def test_bytes_take_any_buffer() -> None:
    assert written(write_bytes, b"ab", False) == b"\x00\x00\x00\x02ab"
    assert written(write_bytes, memoryview(b"xab")[1:], True) == b"\x03ab"
    assert written(write_bytes, bytearray(b"ab"), True) == b"\x03ab"
    assert written(write_bytes, None, False, True) == b"\xff\xff\xff\xff"
    with pytest.raises(EncodeError):
        written(write_bytes, None, True)


def test_arrays() -> None:
    assert written(write_int_array, "i", [1, -1], False) == b"\x00\x00\x00\x02\x00\x00\x00\x01\xff\xff\xff\xff"
    assert written(write_int_array, "h", [], True) == b"\x01"
    assert written(write_int_array, "i", None, True, True) == b"\x00"
    assert written(write_string_array, ["a"], True) == b"\x02\x02a"
    assert written(write_string_array, None, False, True) == b"\xff\xff\xff\xff"
    with pytest.raises(EncodeError):
        written(write_int_array, "i", None, False)


def test_nullable_struct_marker() -> None:
    topic = MetadataRequestTopic(name="t")
    assert written(write_struct, None, 4, True) == b"\xff"
    assert written(write_struct, topic, 4, True) == b"\x01" + topic.encode(4)
    assert written(write_struct, topic, 4) == topic.encode(4)
    assert written(write_struct_array, [topic], 4, False) == b"\x00\x00\x00\x01" + topic.encode(4)
    with pytest.raises(EncodeError):
        written(write_struct, None, 4)


def test_tagged_fields_are_sorted_by_tag(varint_twin: ModuleType) -> None:
    assert written(write_tagged_fields, {}) == b"\x00"
    assert written(write_tagged_fields, {200: b"z", 1: b"ab"}) == b"\x02" + b"\x01\x02ab" + b"\xc8\x01\x01z"


def test_varint_writers_and_readers(varint_twin: ModuleType) -> None:
    assert written(write_uvarint, 300) == b"\xac\x02"
    assert written(write_varint, -1) == b"\x01"
    assert written(write_varlong, -(2**63)) == b"\xff" * 9 + b"\x01"
    r = Reader(b"\xac\x02\x01" + b"\xff" * 9 + b"\x01")
    assert (r.uvarint(), r.varint(), r.varlong()) == (300, -1, -(2**63))
    r.expect_end()
    for value, writer in ((-1, write_uvarint), (2**31, write_varint), (2**63, write_varlong)):
        with pytest.raises(EncodeError):
            written(writer, value)


def test_reader_fixed_width_and_uuid() -> None:
    data = struct.pack(">bhiqHd?", -1, -2, -3, -4, 65535, 2.5, True) + UUID(int=5).bytes
    r = Reader(data)
    values = (r.int8(), r.int16(), r.int32(), r.int64(), r.uint16(), r.float64(), r.boolean(), r.uuid())
    assert values == (-1, -2, -3, -4, 65535, 2.5, True, UUID(int=5))
    assert r.remaining == 0


def test_records_are_zero_copy_views() -> None:
    frame = bytearray(b"\x00\x00\x00\x03xyz")
    view = Reader(frame).records(False)
    frame[4] = ord("X")
    assert bytes(view) == b"Xyz"


@pytest.mark.parametrize(
    ("data", "read"),
    [
        (b"\x00", Reader.int16),
        (b"\x00\x00\x00", Reader.int32),
        (b"", Reader.boolean),
        (b"\x00" * 15, Reader.uuid),
        (b"\x80", Reader.uvarint),
        (b"\xff\xff\xff\xff\xff\xff", Reader.uvarint),
        (b"\x00\x05abc", lambda r: r.string(False)),
        (b"\x00\x02\xff\xfe", lambda r: r.string(False)),  # not UTF-8
        (b"\xff\xff", lambda r: r.string(False)),  # null where forbidden
        (b"\x00", lambda r: r.string(True)),
        (b"\x00\x00\x00\x09ab", lambda r: r.binary(False)),
        (b"\xff\xff\xff\xff", lambda r: r.records(False)),
        (b"\x7f\xff\xff\xff", lambda r: r.array_length(False)),  # more elements than bytes left
        (b"\x00", lambda r: r.array_length(True)),
        (b"\x00\x00\x00\x02\x00\x00\x00\x01", lambda r: r.int_array("i", False)),
        (b"\x02\x05\x07x", Reader.tagged_fields),
    ],
)
def test_short_or_bad_input_is_a_decode_error(data: bytes, read: object) -> None:
    with pytest.raises(DecodeError):
        read(Reader(data))  # type: ignore[operator]


def test_start_position_outside_the_buffer() -> None:
    with pytest.raises(DecodeError):
        Reader(b"ab", 3)


def test_trailing_bytes_are_rejected_by_decode() -> None:
    body = ApiVersionsRequest().encode(0)
    with pytest.raises(DecodeError, match="unread"):
        ApiVersionsRequest.decode(body + b"\x00", 0)
    assert ApiVersionsRequest.decode(b"pad" + body, 0, pos=3) == ApiVersionsRequest()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(min_size=120, max_size=200), min_size=1, max_size=3),
    st.dictionaries(st.integers(0, 2**20), st.binary(max_size=200), max_size=3),
)
def test_long_lengths_and_large_tags_round_trip_in_both_twins(names: list[str], tags: dict[int, bytes]) -> None:
    for twin in VARINT_TWINS.values():
        with pytest.MonkeyPatch.context() as patch:
            for name in ("decode_uvarint", "encode_uvarint"):
                patch.setattr(primitives, name, getattr(twin, name))
            request = MetadataRequest(
                topics=[MetadataRequestTopic(name=name, unknown_tagged_fields=tags) for name in names],
                unknown_tagged_fields=tags,
            )
            encoded = request.encode(12)
            assert MetadataRequest.decode(encoded, 12) == request
