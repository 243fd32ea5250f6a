"""Request-header decoding: v0, v1 and v2 headers in both twins, and MalformedHeaderError on short input."""

from __future__ import annotations

import struct
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.errors import MalformedHeaderError

TWINS = twins("_reqheader")
FLEXIBLE_FROM = {0: 9, 3: 9, 18: 3}


def header_v1(api_key: int, version: int, correlation_id: int, client_id: bytes | None) -> bytes:
    head = struct.pack(">hhi", api_key, version, correlation_id)
    if client_id is None:
        return head + struct.pack(">h", -1)
    return head + struct.pack(">h", len(client_id)) + client_id


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def fields(header: object) -> tuple[object, ...]:
    names = ("api_key", "api_version", "correlation_id", "client_id", "body_offset")
    return tuple(getattr(header, name) for name in names)


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


def test_v1_header(impl: ModuleType) -> None:
    frame = header_v1(3, 5, 77, b"kafka-python") + b"BODY"
    header = impl.decode_request_header(frame, FLEXIBLE_FROM)
    assert fields(header) == (3, 5, 77, "kafka-python", 22)
    assert frame[header.body_offset :] == b"BODY"


def test_v1_header_with_null_client_id(impl: ModuleType) -> None:
    header = impl.decode_request_header(header_v1(0, 7, -5, None), FLEXIBLE_FROM)
    assert fields(header) == (0, 7, -5, None, 10)


def test_v2_header_skips_tagged_fields(impl: ModuleType) -> None:
    tagged = b"\x02" + b"\x00\x03abc" + b"\x05\x00"  # two tagged fields: tag 0 (3 bytes), tag 5 (empty)
    frame = header_v1(18, 3, 1, b"rdkafka") + tagged + b"\x07body"
    header = impl.decode_request_header(frame, FLEXIBLE_FROM)
    assert fields(header) == (18, 3, 1, "rdkafka", 17 + len(tagged))
    assert frame[header.body_offset :] == b"\x07body"


def test_unknown_api_key_and_old_version_read_as_v1(impl: ModuleType) -> None:
    frame = header_v1(999, 12, 9, b"x") + b"\x00"
    assert impl.decode_request_header(frame, FLEXIBLE_FROM).body_offset == 11
    assert impl.decode_request_header(header_v1(18, 2, 9, b"x"), FLEXIBLE_FROM).body_offset == 11


def test_controlled_shutdown_v0_has_a_v0_header(impl: ModuleType) -> None:
    frame = struct.pack(">hhi", 7, 0, 12) + b"\x00\x00\x00\x01"
    assert fields(impl.decode_request_header(frame, FLEXIBLE_FROM)) == (7, 0, 12, None, 8)


def test_invalid_utf8_client_id_is_replaced(impl: ModuleType) -> None:
    header = impl.decode_request_header(header_v1(3, 1, 1, b"a\xffb"), FLEXIBLE_FROM)
    assert header.client_id == "a\ufffdb"


def test_any_buffer_type(impl: ModuleType) -> None:
    frame = header_v1(3, 1, 2, b"id")
    for buffer in (bytearray(frame), memoryview(frame)):
        assert fields(impl.decode_request_header(buffer, FLEXIBLE_FROM)) == (3, 1, 2, "id", 12)


@pytest.mark.parametrize(
    "frame",
    [
        b"",
        b"\x00\x03\x00\x01\x00\x00",  # shorter than the fixed part
        struct.pack(">hhi", 3, 1, 1),  # no client id length
        struct.pack(">hhi", 3, 1, 1) + b"\x00",  # half a client id length
        header_v1(3, 1, 1, b"abc")[:-1],  # client id runs past the end
        header_v1(18, 3, 1, b"a"),  # flexible, but no tagged-field count
        header_v1(18, 3, 1, b"a") + b"\x01\x00\x05ab",  # tagged field runs past the end
        header_v1(18, 3, 1, b"a") + b"\x01\x80",  # varint cut short
        header_v1(18, 3, 1, b"a") + b"\xff\xff\xff\xff\xff\xff",  # varint too long
    ],
)
def test_short_or_malformed_headers(impl: ModuleType, frame: bytes) -> None:
    with pytest.raises(MalformedHeaderError):
        impl.decode_request_header(frame, FLEXIBLE_FROM)


def test_header_values_compare_and_print(impl: ModuleType) -> None:
    a = impl.RequestHeader(1, 2, 3, "c", 4)
    assert a == impl.RequestHeader(1, 2, 3, "c", 4)
    assert a != impl.RequestHeader(1, 2, 3, None, 4)
    assert hash(a) == hash(impl.RequestHeader(1, 2, 3, "c", 4))
    assert repr(a) == "RequestHeader(api_key=1, api_version=2, correlation_id=3, client_id='c', body_offset=4)"


@settings(max_examples=100)
@given(
    st.integers(-(2**15), 2**15 - 1),
    st.integers(-(2**15), 2**15 - 1),
    st.integers(-(2**31), 2**31 - 1),
    st.none() | st.text(max_size=20),
    st.lists(st.tuples(st.integers(0, 300), st.binary(max_size=140)), max_size=3),
    st.binary(max_size=10),
)
def test_twins_agree(
    api_key: int, version: int, correlation_id: int, client_id: str | None, tags: list[tuple[int, bytes]], body: bytes
) -> None:
    from rockafka.core_pyx._varint_py import encode_uvarint

    frame = header_v1(api_key, version, correlation_id, None if client_id is None else client_id.encode())
    flexible = api_key in FLEXIBLE_FROM and version >= FLEXIBLE_FROM[api_key]
    if flexible:
        frame += encode_uvarint(len(tags)) + b"".join(
            encode_uvarint(tag) + encode_uvarint(len(value)) + value for tag, value in tags
        )
    results = {fields(impl.decode_request_header(frame + body, FLEXIBLE_FROM)) for impl in TWINS.values()}
    expected_client = None if (api_key, version) == (7, 0) else client_id
    expected_offset = 8 if (api_key, version) == (7, 0) else len(frame)
    assert results == {(api_key, version, correlation_id, expected_client, expected_offset)}
