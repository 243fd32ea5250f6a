"""Varints: both twins agree with Kafka's published encodings, with each other, and reject bad input."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.errors import KernelError, MalformedVarintError

TWINS = twins("_varint")
INT32 = st.integers(min_value=-(2**31), max_value=2**31 - 1)
INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
UINT32 = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (1, b"\x01"),
        (127, b"\x7f"),
        (128, b"\x80\x01"),
        (300, b"\xac\x02"),
        (2**32 - 1, b"\xff\xff\xff\xff\x0f"),
    ],
)
def test_unsigned_varint_known_encodings(impl: ModuleType, value: int, encoded: bytes) -> None:
    assert impl.encode_uvarint(value) == encoded
    assert impl.decode_uvarint(encoded, 0) == (value, len(encoded))


@pytest.mark.parametrize(
    ("value", "encoded"),
    [(0, b"\x00"), (-1, b"\x01"), (1, b"\x02"), (-2, b"\x03"), (63, b"\x7e"), (-64, b"\x7f"), (64, b"\x80\x01")],
)
def test_zigzag_known_encodings(impl: ModuleType, value: int, encoded: bytes) -> None:
    assert impl.encode_varint(value) == encoded
    assert impl.encode_varlong(value) == encoded
    assert impl.decode_varint(encoded) == (value, len(encoded))
    assert impl.decode_varlong(encoded) == (value, len(encoded))


def test_extremes(impl: ModuleType) -> None:
    assert impl.decode_varint(impl.encode_varint(-(2**31))) == (-(2**31), 5)
    assert impl.decode_varint(impl.encode_varint(2**31 - 1)) == (2**31 - 1, 5)
    assert impl.decode_varlong(impl.encode_varlong(-(2**63))) == (-(2**63), 10)
    assert impl.decode_varlong(impl.encode_varlong(2**63 - 1)) == (2**63 - 1, 10)


def test_decoding_at_an_offset_in_any_buffer(impl: ModuleType) -> None:
    data = b"junk" + impl.encode_uvarint(300) + impl.encode_varint(-5)
    value, pos = impl.decode_uvarint(memoryview(bytearray(data)), 4)
    assert (value, pos) == (300, 6)
    assert impl.decode_varint(data, pos) == (-5, 7)


@pytest.mark.parametrize(
    ("data", "pos"),
    [(b"", 0), (b"\x80", 0), (b"\x01", 1), (b"\xff\xff", 0), (b"\xff" * 5 + b"\x01", 0), (b"\xff" * 4 + b"\x10", 0)],
)
def test_bad_unsigned_varints_are_rejected(impl: ModuleType, data: bytes, pos: int) -> None:
    with pytest.raises(MalformedVarintError):
        impl.decode_uvarint(data, pos)


def test_bad_varlongs_are_rejected(impl: ModuleType) -> None:
    with pytest.raises(MalformedVarintError):
        impl.decode_varlong(b"\xff" * 10 + b"\x01")
    with pytest.raises(MalformedVarintError):
        impl.decode_varlong(b"\xff" * 9 + b"\x02")  # the 10th byte may only hold bit 63
    with pytest.raises(MalformedVarintError):
        impl.decode_varint(b"\xff" * 4 + b"\x10")


@pytest.mark.parametrize(
    ("encoder", "value"),
    [("encode_uvarint", -1), ("encode_uvarint", 2**32), ("encode_varint", 2**31), ("encode_varlong", -(2**63) - 1)],
)
def test_out_of_range_values_are_rejected(impl: ModuleType, encoder: str, value: int) -> None:
    with pytest.raises(KernelError):
        getattr(impl, encoder)(value)


@settings(max_examples=200)
@given(UINT32, INT32, INT64)
def test_twins_agree_and_round_trip(unsigned: int, signed: int, wide: int) -> None:
    compiled, pure = TWINS["compiled"], TWINS["pure"]
    for encoder, decoder, value in (
        ("encode_uvarint", "decode_uvarint", unsigned),
        ("encode_varint", "decode_varint", signed),
        ("encode_varlong", "decode_varlong", wide),
    ):
        encoded = getattr(pure, encoder)(value)
        assert getattr(compiled, encoder)(value) == encoded
        assert getattr(pure, decoder)(encoded + b"\x00") == (value, len(encoded))
        assert getattr(compiled, decoder)(encoded + b"\x00") == (value, len(encoded))
