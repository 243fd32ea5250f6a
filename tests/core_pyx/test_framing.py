"""Frame splitter: both twins split any chunking of a stream (whole, byte by byte, with trailing bytes)
into the same frames, and raise the same typed errors."""

from __future__ import annotations

import struct
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.errors import FrameTooLargeError, NegativeFrameLengthError, TruncatedFrameError

TWINS = twins("_framing")
PAYLOADS = [b"", b"a", b"hello world", bytes(range(256)) * 3]


def frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


STREAM = b"".join(frame(payload) for payload in PAYLOADS)


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


def test_whole_stream(impl: ModuleType) -> None:
    splitter = impl.FrameSplitter()
    assert splitter.feed(STREAM) == PAYLOADS
    assert splitter.pending == 0
    splitter.finish()


def test_byte_by_byte(impl: ModuleType) -> None:
    splitter = impl.FrameSplitter()
    frames: list[bytes] = []
    for i in range(len(STREAM)):
        frames += splitter.feed(STREAM[i : i + 1])
        assert splitter.pending == i + 1 - sum(4 + len(f) for f in frames)
    assert frames == PAYLOADS
    splitter.finish()


def test_trailing_bytes_stay_pending_until_completed(impl: ModuleType) -> None:
    splitter = impl.FrameSplitter()
    extra = frame(b"next one")
    assert splitter.feed(STREAM + extra[:6]) == PAYLOADS
    assert splitter.pending == 6
    with pytest.raises(TruncatedFrameError):
        splitter.finish()
    assert splitter.feed(memoryview(extra)[6:]) == [b"next one"]
    assert splitter.pending == 0
    splitter.finish()


def test_partial_size_prefix_is_truncation(impl: ModuleType) -> None:
    splitter = impl.FrameSplitter()
    assert splitter.feed(b"\x00\x00") == []
    assert splitter.pending == 2
    with pytest.raises(TruncatedFrameError):
        splitter.finish()


def test_negative_size_is_rejected_as_soon_as_seen_and_for_good(impl: ModuleType) -> None:
    splitter = impl.FrameSplitter()
    with pytest.raises(NegativeFrameLengthError):
        splitter.feed(frame(b"ok") + b"\xff\xff\xff\xfe")
    with pytest.raises(NegativeFrameLengthError):
        splitter.feed(frame(b"later"))
    with pytest.raises(NegativeFrameLengthError):
        splitter.finish()


def test_oversized_frame_is_rejected_before_its_payload(impl: ModuleType) -> None:
    splitter = impl.FrameSplitter(max_frame_size=10)
    assert splitter.max_frame_size == 10
    assert splitter.feed(frame(b"0123456789")) == [b"0123456789"]
    with pytest.raises(FrameTooLargeError):
        splitter.feed(struct.pack(">i", 11))


def test_default_maximum_is_100_mib(impl: ModuleType) -> None:
    assert impl.DEFAULT_MAX_FRAME_SIZE == 100 * 1024 * 1024
    splitter = impl.FrameSplitter()
    assert splitter.feed(struct.pack(">i", 100 * 1024 * 1024)) == []
    with pytest.raises(FrameTooLargeError):
        impl.FrameSplitter().feed(struct.pack(">i", 100 * 1024 * 1024 + 1))


def test_negative_maximum_is_refused(impl: ModuleType) -> None:
    with pytest.raises(ValueError):
        impl.FrameSplitter(-1)


def test_large_frame_in_small_chunks(impl: ModuleType) -> None:
    payload = bytes(range(256)) * 4096  # 1 MiB
    data = frame(payload) + frame(b"tail")
    splitter = impl.FrameSplitter()
    frames: list[bytes] = []
    for start in range(0, len(data), 65536):
        frames += splitter.feed(data[start : start + 65536])
    assert frames == [payload, b"tail"]


@settings(max_examples=60)
@given(st.lists(st.binary(max_size=40), max_size=8), st.lists(st.integers(min_value=1, max_value=50), max_size=30))
def test_any_chunking_gives_the_same_frames_in_both_twins(payloads: list[bytes], cuts: list[int]) -> None:
    data = b"".join(frame(payload) for payload in payloads)
    for impl in TWINS.values():
        splitter = impl.FrameSplitter()
        frames: list[bytes] = []
        pos = 0
        for size in [*cuts, len(data)]:
            frames += splitter.feed(bytearray(data[pos : pos + size]))
            pos += size
        assert frames == payloads
        assert splitter.pending == 0


def test_frames_returned_are_bytes_that_later_input_never_changes(impl: ModuleType) -> None:
    payloads = [bytes([n]) * (3000 + n) for n in range(6)]
    data = b"".join(frame(payload) for payload in payloads)
    splitter = impl.FrameSplitter()
    frames: list[bytes] = []
    for pos in range(0, len(data), 1000):  # every frame spans chunks; prefixes split at times
        frames += splitter.feed(data[pos : pos + 1000])
        if frames:
            assert all(type(f) is bytes for f in frames)
    assert frames == payloads
    assert splitter.pending == 0
