"""The replication stream's wire format, sans-I/O: a follower of a broker group copies its leader's CommitLog.

One TCP connection per follower carries every partition of the group (RocketMQ's HA connection, not Kafka's
per-partition Fetch): the bytes are the CommitLog's own, at the same physical offsets. All integers are
big-endian. Every message is a frame::

    frame   = length:int32  type:int8  body        (length counts type and body; at most ``max_frame`` bytes)

Follower to leader:

- ``HELLO`` (type 1), first and once: ``magic:4 bytes "RKRP"  version:int16  node_id:int32  segment_bytes:int64
  end:int64  count:int32  count x (epoch:int32 start:int64)``: the follower's ``node.id``, its CommitLog segment
  size (it must equal the leader's: a segment-closing BLANK lands at the same place only then), its CommitLog
  end, and its epoch file's entries, oldest first.
- ``ACK`` (type 2): ``end:int64``: the follower's CommitLog end after storing what it received (dispatched and
  published). The leader's confirm offset is the smallest end among its in-sync followers.

Leader to follower:

- ``WELCOME`` (type 3), once, the answer to ``HELLO``: ``truncate_to:int64  leader_end:int64``. ``truncate_to``
  is where the follower's log parts from the leader's (``store/divergence.py``); the follower cuts its log back
  to it (nothing to cut when it equals its end) and the data frames start there.
- ``REFUSED`` (type 4), instead of ``WELCOME``: ``reason:utf-8``; the leader closes the connection (a segment
  size that differs, a follower whose end is below the leader's first CommitLog offset, a version it does not
  speak).
- ``TOPICS`` (type 5): ``document:utf-8 JSON``: the leader's topic table, ``[{"name", "id", "partitions",
  "configs"}]`` (user topics only), sent after ``WELCOME`` and again whenever it changed, always before data
  frames that need it: copied records name their topic by id, and the follower must hold the same ids.
- ``DATA`` (type 6): ``physical_offset:int64  leader_epoch:int32  confirm_offset:int64  bytes``: CommitLog bytes
  from ``physical_offset``, whole records only (and the BLANK that closes a segment, with the rest of that
  segment); frames follow each other without gaps. ``leader_epoch`` is the leader's current epoch,
  ``confirm_offset`` what every in-sync member holds (the follower's high watermark). A frame without bytes is a
  heartbeat that carries the two numbers.

A frame of an unknown type, a body of the wrong size, a bad magic, a length below 1 or above ``max_frame`` is a
:class:`ReplicationProtocolError`; so is a message the other side should not send (the codec checks shapes; who
sends what when is the leader's and follower's business).
"""

from __future__ import annotations

import json
import struct
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rockafka.store.epochfile import EpochEntry

from ..errors import ClusterError

MAGIC: Final = b"RKRP"
VERSION: Final = 1
DEFAULT_MAX_FRAME: Final = 16 << 20
"""The largest frame either side accepts unless told otherwise; the leader's data frames stay well under it."""

HELLO, ACK, WELCOME, REFUSED, TOPICS, DATA = 1, 2, 3, 4, 5, 6

_FRAME = struct.Struct(">iB")
_HELLO = struct.Struct(">4shiqqi")
_ENTRY = struct.Struct(">iq")
_OFFSET = struct.Struct(">q")
_WELCOME = struct.Struct(">qq")
_DATA = struct.Struct(">qiq")


class ReplicationProtocolError(ClusterError):
    """Bytes on a replication connection that are not a well-formed message of this spec."""


@dataclass(frozen=True, slots=True)
class Hello:
    node_id: int
    segment_bytes: int
    end: int
    entries: tuple[EpochEntry, ...]
    version: int = VERSION


@dataclass(frozen=True, slots=True)
class Ack:
    end: int


@dataclass(frozen=True, slots=True)
class Welcome:
    truncate_to: int
    leader_end: int


@dataclass(frozen=True, slots=True)
class Refused:
    reason: str


@dataclass(frozen=True, slots=True)
class TopicSpec:
    """One user topic of the leader: the follower creates or alters its own to match."""

    name: str
    topic_id: uuid.UUID
    partitions: int
    configs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Topics:
    topics: tuple[TopicSpec, ...]


@dataclass(frozen=True, slots=True)
class Data:
    physical_offset: int
    leader_epoch: int
    confirm_offset: int
    data: bytes | memoryview = b""
    """The CommitLog bytes; decoded, a memoryview of the frame (see ``StreamDecoder``)."""


Message = Hello | Ack | Welcome | Refused | Topics | Data


def _frame(kind: int, body: bytes) -> bytes:
    return _FRAME.pack(len(body) + 1, kind) + body


def encode(message: Message) -> bytes:
    """The whole frame of ``message`` (for ``Data``, header and bytes together: see ``data_header``)."""
    if isinstance(message, Hello):
        body = _HELLO.pack(
            MAGIC, message.version, message.node_id, message.segment_bytes, message.end, len(message.entries)
        )
        return _frame(HELLO, body + b"".join(_ENTRY.pack(e.epoch, e.start) for e in message.entries))
    if isinstance(message, Ack):
        return _frame(ACK, _OFFSET.pack(message.end))
    if isinstance(message, Welcome):
        return _frame(WELCOME, _WELCOME.pack(message.truncate_to, message.leader_end))
    if isinstance(message, Refused):
        return _frame(REFUSED, message.reason.encode())
    if isinstance(message, Topics):
        return _frame(TOPICS, json.dumps([_topic_json(t) for t in message.topics]).encode())
    return data_header(message.physical_offset, message.leader_epoch, message.confirm_offset, len(message.data)) + (
        message.data
    )


def data_header(physical_offset: int, leader_epoch: int, confirm_offset: int, size: int) -> bytes:
    """The frame header of a ``DATA`` frame whose ``size`` bytes follow it: the leader writes this, then a slice
    of its CommitLog's mapping, without copying the bytes into a frame."""
    return _FRAME.pack(1 + _DATA.size + size, DATA) + _DATA.pack(physical_offset, leader_epoch, confirm_offset)


def _topic_json(topic: TopicSpec) -> dict[str, object]:
    return {"name": topic.name, "id": str(topic.topic_id), "partitions": topic.partitions, "configs": topic.configs}


class StreamDecoder:
    """Bytes in, messages out, split anywhere: ``feed`` returns every message completed by the bytes given.

    Copies as little as it can: a frame whole within the bytes fed is decoded in place (its messages' ``data`` is
    a memoryview of them, so the caller must not change those bytes while it uses the messages: ``bytes`` from a
    socket read never change); a frame split across feeds is gathered into a buffer of its own size, allocated
    once its length is known, which then becomes the message's."""

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self._max_frame = max_frame
        self._head = bytearray()  # the first bytes of a frame header split across feeds (fewer than its 5)
        self._kind = 0
        self._body: bytearray | None = None  # the body of a split frame being gathered
        self._filled = 0

    @property
    def pending(self) -> int:
        """Bytes held of a frame not complete yet."""
        return len(self._head) + (0 if self._body is None else _FRAME.size + self._filled)

    def feed(self, data: bytes | bytearray | memoryview) -> list[Message]:
        view = memoryview(data).cast("B")
        messages: list[Message] = []
        position = 0
        while position < len(view):
            if self._body is None:
                position = self._begin(view, position, messages)
            else:
                position = self._gather(view, position, messages)
        return messages

    def held(self) -> bytes:
        """The bytes held of a frame not complete yet, as they came (to hand them to another reader)."""
        if self._body is None:
            return bytes(self._head)
        return _FRAME.pack(len(self._body) + 1, self._kind) + self._body[: self._filled]

    def _begin(self, view: memoryview, position: int, messages: list[Message]) -> int:
        """At a frame's start (or inside its header): decode the frames whole in ``view`` in place, then start
        gathering the next; returns where ``view`` goes on."""
        if not self._head:
            found, position = whole_frames(view, position, self._max_frame)
            messages += found
            size = frame_size(view, position, self._max_frame)
            if size is not None:
                self._start(size - 4, view[position + 4])
                return position + _FRAME.size
        take = min(_FRAME.size - len(self._head), len(view) - position)
        self._head += view[position : position + take]
        if len(self._head) == _FRAME.size:
            length: int
            kind: int
            length, kind = _FRAME.unpack(self._head)
            self._head.clear()
            _check(length, self._max_frame)
            self._start(length, kind)
            if length == 1:  # a frame without a body is complete with its header
                messages.append(self._finish())
        return position + take

    def _gather(self, view: memoryview, position: int, messages: list[Message]) -> int:
        body = self._body
        assert body is not None
        take = min(len(body) - self._filled, len(view) - position)
        body[self._filled : self._filled + take] = view[position : position + take]
        self._filled += take
        if self._filled == len(body):
            messages.append(self._finish())
        return position + take

    def _start(self, length: int, kind: int) -> None:
        self._body, self._kind, self._filled = bytearray(length - 1), kind, 0

    def _finish(self) -> Message:
        body, self._body = self._body, None
        assert body is not None
        return decode_body(self._kind, memoryview(body))


def frame_size(view: memoryview, position: int, max_frame: int) -> int | None:
    """The size of the frame at ``position`` of ``view``, its length field included; None when fewer bytes than
    its header remain. ``ReplicationProtocolError`` for a length below 1 or above ``max_frame``."""
    if len(view) - position < _FRAME.size:
        return None
    length: int = _FRAME.unpack_from(view, position)[0]
    _check(length, max_frame)
    return 4 + length


def whole_frames(view: memoryview, position: int, max_frame: int) -> tuple[list[Message], int]:
    """The messages of the frames whole in ``view`` from ``position``, decoded in place (``Data.data`` is a slice
    of ``view``), and where the first frame not whole starts."""
    messages = []
    while (size := frame_size(view, position, max_frame)) is not None and len(view) - position >= size:
        messages.append(decode_body(view[position + 4], view[position + _FRAME.size : position + size]))
        position += size
    return messages, position


def _check(length: int, max_frame: int) -> None:
    if not 1 <= length <= max_frame:
        raise ReplicationProtocolError(f"a frame of {length} bytes (1 to {max_frame} allowed)")


def decode_body(kind: int, body: bytes | memoryview) -> Message:
    """The message of a frame of type ``kind`` whose body is ``body`` (``Data.data`` is a slice of it)."""
    try:
        if kind == HELLO:
            return _hello(body)
        if kind == ACK:
            _exact(body, _OFFSET.size, "ACK")
            return Ack(*_OFFSET.unpack(body))
        if kind == WELCOME:
            _exact(body, _WELCOME.size, "WELCOME")
            return Welcome(*_WELCOME.unpack(body))
        if kind == REFUSED:
            return Refused(bytes(body).decode())
        if kind == TOPICS:
            return Topics(tuple(_topic_spec(item) for item in json.loads(bytes(body))))
        if kind == DATA:
            if len(body) < _DATA.size:
                raise ReplicationProtocolError(f"a DATA frame of {len(body)} bytes has no room for its header")
            offset, epoch, confirm = _DATA.unpack_from(body)
            return Data(offset, epoch, confirm, memoryview(body)[_DATA.size :])
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:  # JSON, UUID and text that do not parse
        raise ReplicationProtocolError(f"a frame of type {kind} that does not parse: {exc}") from None
    raise ReplicationProtocolError(f"unknown frame type {kind}")


def _exact(body: bytes | memoryview, size: int, what: str) -> None:
    if len(body) != size:
        raise ReplicationProtocolError(f"a {what} frame of {len(body)} bytes ({size} expected)")


def _hello(body: bytes | memoryview) -> Hello:
    if len(body) < _HELLO.size:
        raise ReplicationProtocolError(f"a HELLO frame of {len(body)} bytes is too short")
    magic, version, node_id, segment_bytes, end, count = _HELLO.unpack_from(body)
    if magic != MAGIC:
        raise ReplicationProtocolError(f"a HELLO frame with magic {magic!r} (not {MAGIC!r})")
    if count < 0:
        raise ReplicationProtocolError(f"a HELLO frame with {count} epoch entries")
    _exact(body, _HELLO.size + count * _ENTRY.size, "HELLO")
    entries = tuple(EpochEntry(*_ENTRY.unpack_from(body, _HELLO.size + i * _ENTRY.size)) for i in range(count))
    return Hello(node_id, segment_bytes, end, entries, version)


def _topic_spec(item: Mapping[str, object]) -> TopicSpec:
    name, partitions, configs = item["name"], item["partitions"], item["configs"]
    if not isinstance(name, str) or not isinstance(partitions, int) or not isinstance(configs, dict):
        raise ValueError(f"a topic entry of the wrong shape: {item!r}")
    return TopicSpec(name, uuid.UUID(str(item["id"])), partitions, {str(k): str(v) for k, v in configs.items()})


def topic_specs(topics: Sequence[tuple[str, uuid.UUID, int, Mapping[str, str]]]) -> Topics:
    """A ``TOPICS`` message from (name, id, partitions, configs) rows."""
    return Topics(tuple(TopicSpec(name, topic_id, count, dict(configs)) for name, topic_id, count, configs in topics))
