"""Conversion between MessageSets (v0, v1) and RecordBatch v2, as Kafka's broker converts.

Up-conversion (Produce v0-2, :func:`up_convert`): the produced MessageSet, compressed wrappers opened, becomes
one RecordBatch v2 holding its messages in order: offset deltas 0..n-1 (the producer's offsets are ignored, as
the broker assigns offsets), each message's key, value and timestamp (-1 for v0 messages; a v1 LogAppendTime
wrapper's timestamp for its inner messages), no headers, no producer id (-1, epoch -1, sequence -1), CreateTime,
uncompressed (Kafka recompresses with the producer's codec; this broker stores the records uncompressed, which
costs disk space, not meaning). Nested wrappers, CRC mismatches and malformed messages raise
:class:`~.messageset.MessageSetError`; an empty set raises it too.

Down-conversion (Fetch v0-3, :func:`down_convert`): the stored batches become uncompressed messages of the
fetch version's magic (v0-1: magic 0, v2-3: magic 1), one per record at its absolute offset: headers are
dropped (the old formats have none), control batches are left out, and transactional records are served as
they are stored, aborted ones included (a fetch without an isolation level reads uncommitted, as Kafka serves
it). Records below the fetch offset (the start of the first batch) are left out. The output is bounded: it
stops before the message that would take it past ``limit`` bytes, except that the first message always goes
(so a consumer progresses), and the batches after that point are not decoded at all.

Cost: :data:`CONVERSIONS` counts messages, bytes and nanoseconds spent in each direction, per process.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rockafka.core_pyx.compression import CODEC_LZ4, decompress
from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.recordbatch import (
    ATTRIBUTES_OFFSET,
    CRC_OFFSET,
    LOG_OVERHEAD,
    RECORD_BATCH_OVERHEAD,
    read_batch_header,
)
from rockafka.core_pyx.records import decode_records
from rockafka.core_pyx.varint import encode_varint, encode_varlong

from .lz4frame import lz4_with_header_checksum
from .messageset import (
    LOG_APPEND_TIME_BIT,
    MAGIC_V0,
    MAGIC_V1,
    NO_TIMESTAMP,
    LegacyMessage,
    MessageSetError,
    UnsupportedCodecError,
    encode_message,
    read_message_set,
)

if TYPE_CHECKING:
    from typing_extensions import Buffer

#: RecordBatch v2 header fields from baseOffset to recordCount (their spec: ``core_pyx/_recordbatch_py``).
_BATCH_HEAD = struct.Struct(">qiibIhiqqqhii")
#: lz4, the last codec the old formats know (zstd needs RecordBatch v2).
MAX_LEGACY_CODEC: Final = CODEC_LZ4
RECORD_BATCH_MAGIC: Final = 2
_NO_PRODUCER: Final = -1
_NO_LEADER_EPOCH: Final = -1
_NULL: Final = encode_varint(-1)
_NO_HEADERS: Final = encode_varint(0)


@dataclass(slots=True)
class ConversionMeter:
    """What conversion has cost so far: messages, bytes written and nanoseconds, per direction."""

    up_messages: int = 0
    up_bytes: int = 0
    up_ns: int = 0
    down_messages: int = 0
    down_bytes: int = 0
    down_ns: int = 0


#: This process's conversion costs (every broker in it adds to the one meter).
CONVERSIONS: Final = ConversionMeter()


def fetch_magic(fetch_version: int) -> int:
    """The message format a Fetch of ``fetch_version`` (0-3) is answered in: magic 1 from v2 (KIP-32)."""
    return MAGIC_V1 if fetch_version >= 2 else MAGIC_V0


def up_convert(message_set: Buffer) -> bytes:
    """A produced MessageSet as one uncompressed RecordBatch v2 with base offset 0 (see the module docstring)."""
    started = time.perf_counter_ns()
    records = list(_flatten(read_message_set(message_set)))
    if not records:
        raise MessageSetError("the produced message set holds no messages")
    batch = _record_batch(records)
    CONVERSIONS.up_messages += len(records)
    CONVERSIONS.up_bytes += len(batch)
    CONVERSIONS.up_ns += time.perf_counter_ns() - started
    return batch


def _flatten(messages: Sequence[LegacyMessage]) -> Iterator[tuple[int, bytes | None, bytes | None]]:
    """(timestamp, key, value) of every message, compressed wrappers opened."""
    for message in messages:
        if message.codec > MAX_LEGACY_CODEC:
            raise UnsupportedCodecError(f"message at offset {message.offset} names codec {message.codec}, not 0-3")
        if not message.codec:
            yield message.timestamp, message.key, message.value
            continue
        for child in read_message_set(_legacy_payload(message)):
            if child.codec:
                raise MessageSetError(f"compressed message at offset {message.offset} nests another compressed one")
            timestamp = message.timestamp if message.is_log_append_time else child.timestamp
            yield timestamp, child.key, child.value


def _legacy_payload(message: LegacyMessage) -> bytes:
    """A compressed wrapper's inner MessageSet, decompressed (MessageSetError when it does not)."""
    payload = message.value or b""
    if message.codec == CODEC_LZ4 and message.magic == MAGIC_V0:
        payload = lz4_with_header_checksum(payload)
    try:
        return decompress(message.codec, payload)
    except KernelError as exc:
        raise MessageSetError(f"compressed message at offset {message.offset} does not decompress: {exc}") from None


def _record_batch(records: Sequence[tuple[int, bytes | None, bytes | None]]) -> bytes:
    base_timestamp = records[0][0]
    max_timestamp = max(record[0] for record in records)
    parts: list[bytes] = []
    for delta, (timestamp, key, value) in enumerate(records):
        body = b"".join(
            (
                b"\x00",  # attributes
                encode_varlong(timestamp - base_timestamp),
                encode_varint(delta),
                _NULL if key is None else encode_varint(len(key)) + key,
                _NULL if value is None else encode_varint(len(value)) + value,
                _NO_HEADERS,
            )
        )
        parts.append(encode_varint(len(body)))
        parts.append(body)
    payload = b"".join(parts)
    count = len(records)
    head = _BATCH_HEAD.pack(
        0, RECORD_BATCH_OVERHEAD - LOG_OVERHEAD + len(payload), _NO_LEADER_EPOCH, RECORD_BATCH_MAGIC, 0, 0, count - 1,
        base_timestamp, max_timestamp, _NO_PRODUCER, _NO_PRODUCER, _NO_PRODUCER, count,
    )  # fmt: skip
    batch = bytearray(head + payload)
    struct.pack_into(">I", batch, CRC_OFFSET, crc32c(memoryview(batch)[ATTRIBUTES_OFFSET:]))
    return bytes(batch)


@dataclass(frozen=True, slots=True)
class DownConverted:
    """A fetch answer's MessageSet and the number of messages in it."""

    records: bytes
    messages: int


def down_convert(batches: Sequence[Buffer], magic: int, fetch_offset: int, limit: int) -> DownConverted:
    """The stored ``batches`` as one MessageSet of ``magic``, within ``limit`` bytes (module docstring)."""
    started = time.perf_counter_ns()
    out = _MessageSetOut(limit)
    for batch in batches:
        if not out.add_batch(batch, magic, fetch_offset):
            break
    records = b"".join(out.messages)
    CONVERSIONS.down_messages += len(out.messages)
    CONVERSIONS.down_bytes += len(records)
    CONVERSIONS.down_ns += time.perf_counter_ns() - started
    return DownConverted(records, len(out.messages))


class _MessageSetOut:
    """The messages of a down-converted answer so far, and their size against its limit."""

    __slots__ = ("limit", "messages", "size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.messages: list[bytes] = []
        self.size = 0

    def add_batch(self, batch: Buffer, magic: int, fetch_offset: int) -> bool:
        """Add ``batch``'s records at or after ``fetch_offset`` as messages; False once the limit is reached."""
        header = read_batch_header(batch)
        if header.is_control:
            return True
        payload = memoryview(batch).cast("B")[RECORD_BATCH_OVERHEAD : header.size]
        plain = decompress(header.compression, payload) if header.compression else payload
        append_time = header.max_timestamp if header.is_log_append_time else None
        attributes = LOG_APPEND_TIME_BIT if append_time is not None and magic == MAGIC_V1 else 0
        records = decode_records(plain, header.record_count, header.base_offset, header.base_timestamp, append_time)
        for record in records:
            if record.offset < fetch_offset:
                continue
            timestamp = record.timestamp if magic == MAGIC_V1 else NO_TIMESTAMP
            message = encode_message(record.offset, magic, timestamp, record.key, record.value, attributes)
            if self.messages and self.size + len(message) > self.limit:
                return False
            self.messages.append(message)
            self.size += len(message)
        return True
