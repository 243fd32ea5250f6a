"""The replication stream's codec (``cluster/replication/stream.py``): every message survives the round trip,
however the bytes are split, and bytes that are not a message of the spec are a typed error."""

from __future__ import annotations

import struct
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.cluster.replication.stream import (
    Ack,
    Data,
    Hello,
    Message,
    Refused,
    ReplicationProtocolError,
    StreamDecoder,
    Topics,
    TopicSpec,
    Welcome,
    data_header,
    encode,
)
from rockafka.store.epochfile import EpochEntry

MESSAGES: list[Message] = [
    Hello(2, 1 << 30, 123_456, (EpochEntry(0, 0), EpochEntry(3, 4096), EpochEntry(7, 99_000))),
    Hello(3, 32 << 20, 0, ()),
    Ack(7_000_000_000),
    Welcome(4096, 1 << 40),
    Refused("segment sizes differ: 1073741824 here, 33554432 there"),
    Topics((TopicSpec("orders", uuid.UUID(int=5), 3, {"cleanup.policy": "compact"}), TopicSpec("t", uuid.uuid4(), 1))),
    Data(1 << 33, 4, 1 << 32, b"\x00\x01" * 500),
    Data(0, 0, 0),
]

_offsets = st.integers(0, (1 << 62))
_messages = st.one_of(
    st.builds(
        Hello,
        st.integers(0, 1 << 30),
        _offsets,
        _offsets,
        st.lists(st.builds(EpochEntry, st.integers(0, 1 << 30), _offsets)).map(tuple),
    ),
    st.builds(Ack, _offsets),
    st.builds(Welcome, _offsets, _offsets),
    st.builds(Refused, st.text()),
    st.builds(Data, _offsets, st.integers(0, 1 << 30), _offsets, st.binary(max_size=300)),
)


def test_each_message_round_trips() -> None:
    decoder = StreamDecoder()
    assert decoder.feed(b"".join(encode(message) for message in MESSAGES)) == MESSAGES
    assert decoder.pending == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(_messages, max_size=12), st.lists(st.integers(1, 64), max_size=40))
def test_any_split_of_the_bytes_gives_the_same_messages(messages: list[Message], cuts: list[int]) -> None:
    stream = b"".join(encode(message) for message in messages)
    decoder, out, position = StreamDecoder(), [], 0
    for size in cuts:
        out += decoder.feed(stream[position : position + size])
        position += size
    out += decoder.feed(stream[position:])
    assert out == messages and decoder.pending == 0


def test_a_partial_frame_waits_for_the_rest() -> None:
    frame = encode(Data(4096, 2, 100, b"x" * 1000))
    decoder = StreamDecoder()
    assert decoder.feed(frame[:3]) == [] and decoder.feed(frame[3:600]) == []
    assert decoder.pending == 600
    assert decoder.feed(frame[600:] + frame[:10]) == [Data(4096, 2, 100, b"x" * 1000)]
    assert decoder.pending == 10


def test_the_data_header_and_bytes_written_apart_make_one_frame() -> None:
    payload = memoryview(bytearray(b"r" * 77))
    wire = data_header(10, 1, 5, len(payload)) + bytes(payload)
    assert wire == encode(Data(10, 1, 5, b"r" * 77))


def _frame(kind: int, body: bytes) -> bytes:
    return struct.pack(">iB", len(body) + 1, kind) + body


@pytest.mark.parametrize(
    ("wire", "match"),
    [
        (_frame(9, b""), "unknown frame type 9"),
        (_frame(2, b"\x00" * 7), "ACK frame of 7 bytes"),
        (_frame(3, b"\x00" * 17), "WELCOME frame of 17 bytes"),
        (_frame(6, b"\x00" * 19), "no room for its header"),
        (_frame(1, b"XXXX" + b"\x00" * 26), "magic"),
        (_frame(1, encode(Hello(1, 1, 2, (EpochEntry(0, 0),)))[5:-1]), "HELLO frame of"),
        (_frame(1, struct.pack(">4shiqqi", b"RKRP", 1, 1, 1, 1, -1)), "-1 epoch entries"),
        (_frame(4, b"\xff\xfe"), "does not parse"),
        (_frame(5, b"[{]"), "does not parse"),
        (_frame(5, b'[{"name": "t", "id": "not-a-uuid", "partitions": 1, "configs": {}}]'), "does not parse"),
        (_frame(5, b'[{"name": 5, "id": "00000000-0000-0000-0000-000000000001", "partitions": 1, "configs": {}}]'),
         "wrong shape"),
        (struct.pack(">iB", 0, 2), "a frame of 0 bytes"),
        (struct.pack(">iB", 1 << 30, 6), "a frame of 1073741824 bytes"),
    ],
)  # fmt: skip
def test_bad_frames_are_a_typed_error(wire: bytes, match: str) -> None:
    with pytest.raises(ReplicationProtocolError, match=match):
        StreamDecoder(max_frame=1 << 20).feed(wire)


def test_a_whole_frame_is_decoded_in_place_and_a_split_one_gathered_once() -> None:
    frames = encode(Data(0, 1, 0, b"a" * 300)) + encode(Data(300, 1, 0, b"b" * 300))
    decoder, chunk = StreamDecoder(), frames[:400]
    first = decoder.feed(chunk)
    assert first == [Data(0, 1, 0, b"a" * 300)]
    assert isinstance(first[0].data, memoryview) and first[0].data.obj is chunk  # no copy of the bytes fed
    assert decoder.pending == 400 - len(frames) // 2
    second = decoder.feed(frames[400:])
    assert second == [Data(300, 1, 0, b"b" * 300)] and decoder.pending == 0
    gathered = second[0].data
    assert isinstance(gathered, memoryview) and isinstance(gathered.obj, bytearray)
    assert len(gathered.obj) == len(frames) // 2 - 5  # one buffer, the second frame's body, allocated to size
