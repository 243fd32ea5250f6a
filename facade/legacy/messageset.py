"""Kafka's old message formats, v0 and v1 (the MessageSet), read and written.

A MessageSet is messages back to back, no count before them. One message, big-endian:

======  ====  ===============  =========================================================================
offset  size  field            notes
======  ====  ===============  =========================================================================
0       8     offset           the log offset (a producer writes anything; see compressed wrappers below)
8       4     messageSize      bytes of the message after this field
12      4     crc              CRC-32 (IEEE, zlib's) of the bytes from magic to the end of the message
16      1     magic            0 or 1
17      1     attributes       bits 0-2: codec (0 none, 1 gzip, 2 snappy, 3 lz4); bit 3 (v1 only): timestamp
                               type, 0 CreateTime, 1 LogAppendTime
18      8     timestamp        v1 only: milliseconds since the epoch, -1 for none
…       4     keyLength        -1: null key
…       …     key
…       4     valueLength      -1: null value
…       …     value
======  ====  ===============  =========================================================================

A message is 26 bytes plus key and value at v0 (12 of log overhead, 14 of message), 34 at v1.

Compressed wrappers: a message whose codec is not 0 carries, as its value, a whole MessageSet compressed
with that codec (the inner messages, uncompressed themselves; nesting is not allowed). At v0 the inner
offsets are absolute; at v1 they are relative (0, 1, … n-1) and the wrapper's offset is the absolute
offset of the last inner message (KIP-31). At v1 a LogAppendTime wrapper's timestamp is every inner
message's timestamp; a CreateTime wrapper's is the greatest inner timestamp. The lz4 payload is one LZ4
frame; snappy is raw or xerial-framed (``rockafka.core_pyx.compression`` reads both).

A MessageSet in a fetch answer may end with a partial message (a client drops it); one a producer sends
may not. :func:`read_message_set` raises :class:`MessageSetError` for anything that does not parse, whose
``crc`` flag tells a checksum mismatch (CORRUPT_MESSAGE) from a malformed message.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, NamedTuple

from rockafka.core_pyx.recordbatch import COMPRESSION_MASK, TIMESTAMP_TYPE_BIT

if TYPE_CHECKING:
    from typing_extensions import Buffer

MAGIC_V0: Final = 0
MAGIC_V1: Final = 1
# A message's attributes byte keeps the codec and (v1) the timestamp type in the bits a RecordBatch v2 uses for them.
CODEC_MASK: Final = COMPRESSION_MASK
LOG_APPEND_TIME_BIT: Final = TIMESTAMP_TYPE_BIT
NO_TIMESTAMP: Final = -1

_LOG_HEAD = struct.Struct(">qi")  # offset, messageSize
_MESSAGE_HEAD = struct.Struct(">Ibb")  # crc, magic, attributes
_TIMESTAMP = struct.Struct(">q")
_LENGTH = struct.Struct(">i")
_CRC = struct.Struct(">I")
_V0_HEAD = struct.Struct(">qiIbb")  # offset .. attributes
_V1_HEAD = struct.Struct(">qiIbbq")  # offset .. timestamp
#: Bytes of a message without key and value: log overhead, crc, magic, attributes, (timestamp), two lengths.
MESSAGE_OVERHEAD: Final = {MAGIC_V0: _V0_HEAD.size + 2 * _LENGTH.size, MAGIC_V1: _V1_HEAD.size + 2 * _LENGTH.size}


class MessageSetError(ValueError):
    """A MessageSet that does not parse; ``crc`` is true for a checksum mismatch (else a malformed message)."""

    def __init__(self, message: str, *, crc: bool = False) -> None:
        super().__init__(message)
        self.crc = crc


class UnsupportedCodecError(MessageSetError):
    """A message names a codec the old formats do not have (zstd, 4, needs RecordBatch v2): Kafka answers
    UNSUPPORTED_COMPRESSION_TYPE."""


class LegacyMessage(NamedTuple):
    """One message of a MessageSet (a compressed wrapper's ``value`` is its compressed inner set)."""

    offset: int
    magic: int
    attributes: int
    timestamp: int  # NO_TIMESTAMP at v0
    key: bytes | None
    value: bytes | None

    @property
    def codec(self) -> int:
        return self.attributes & CODEC_MASK

    @property
    def is_log_append_time(self) -> bool:
        return self.magic == MAGIC_V1 and bool(self.attributes & LOG_APPEND_TIME_BIT)


def message_size(magic: int, key: bytes | None, value: bytes | None) -> int:
    """Bytes of one message with this key and value, log overhead included."""
    return MESSAGE_OVERHEAD[magic] + (0 if key is None else len(key)) + (0 if value is None else len(value))


def encode_message(
    offset: int, magic: int, timestamp: int, key: bytes | None, value: bytes | None, attributes: int = 0
) -> bytes:
    """One message, its CRC computed (``timestamp`` is ignored at v0)."""
    size = message_size(magic, key, value) - _LOG_HEAD.size
    stamp = _TIMESTAMP.pack(timestamp) if magic == MAGIC_V1 else b""
    tail = b"".join((bytes((magic, attributes & 0xFF)), stamp, _nullable(key), _nullable(value)))
    return b"".join((_LOG_HEAD.pack(offset, size), _CRC.pack(zlib.crc32(tail)), tail))


def _nullable(data: bytes | None) -> bytes:
    return _LENGTH.pack(-1) if data is None else _LENGTH.pack(len(data)) + data


def read_message_set(buf: Buffer, *, allow_partial: bool = False) -> list[LegacyMessage]:
    """Every message of ``buf`` (wrappers not opened), CRCs checked; a partial last one is dropped only when
    ``allow_partial`` (a fetched set), else it is a :class:`MessageSetError`."""
    return list(_iter_messages(memoryview(buf).cast("B"), allow_partial))


def _iter_messages(view: memoryview, allow_partial: bool) -> Iterator[LegacyMessage]:
    pos, end = 0, len(view)
    while pos < end:
        if end - pos < _LOG_HEAD.size:
            if allow_partial:
                return
            raise MessageSetError(f"{end - pos} bytes at byte {pos} are too few for a message")
        offset, size = _LOG_HEAD.unpack_from(view, pos)
        body_end = pos + _LOG_HEAD.size + size
        if size < MESSAGE_OVERHEAD[MAGIC_V0] - _LOG_HEAD.size:
            raise MessageSetError(f"message at byte {pos} declares {size} bytes, fewer than its fields need")
        if body_end > end:
            if allow_partial:
                return
            raise MessageSetError(f"message of {size} bytes at byte {pos} overruns the set")
        yield _read_message(view, pos + _LOG_HEAD.size, body_end, offset)
        pos = body_end


def _read_message(view: memoryview, pos: int, end: int, offset: int) -> LegacyMessage:
    crc, magic, attributes = _MESSAGE_HEAD.unpack_from(view, pos)
    if magic not in (MAGIC_V0, MAGIC_V1):
        raise MessageSetError(f"message at offset {offset} has magic {magic}, not 0 or 1")
    actual = zlib.crc32(view[pos + 4 : end])
    if actual != crc:
        raise MessageSetError(f"message CRC mismatch: stored {crc:#010x}, computed {actual:#010x}", crc=True)
    pos += _MESSAGE_HEAD.size
    timestamp = NO_TIMESTAMP
    if magic == MAGIC_V1:
        if end - pos < _TIMESTAMP.size:
            raise MessageSetError(f"v1 message at offset {offset} is too short for its timestamp")
        timestamp = _TIMESTAMP.unpack_from(view, pos)[0]
        pos += _TIMESTAMP.size
    key, pos = _read_bytes(view, pos, end, offset)
    value, pos = _read_bytes(view, pos, end, offset)
    if pos != end:
        raise MessageSetError(f"message at offset {offset} has {end - pos} bytes after its value")
    return LegacyMessage(offset, magic, attributes, timestamp, key, value)


def _read_bytes(view: memoryview, pos: int, end: int, offset: int) -> tuple[bytes | None, int]:
    if end - pos < _LENGTH.size:
        raise MessageSetError(f"message at offset {offset} ends inside a length")
    length = _LENGTH.unpack_from(view, pos)[0]
    pos += _LENGTH.size
    if length == -1:
        return None, pos
    if length < 0 or length > end - pos:
        raise MessageSetError(f"message at offset {offset}: length {length} overruns the message")
    return bytes(view[pos : pos + length]), pos + length
