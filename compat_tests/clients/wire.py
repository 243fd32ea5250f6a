"""The Kafka protocol over a raw socket, for tests that send what no client would.

Requests are framed with the project's codec (``encode_request``/``decode_response``); record batches
are built with kafka-python's record builders, an encoder independent of the broker's, and then
damaged on purpose (CRC, magic, counts) where a test needs it.
"""

from __future__ import annotations

import itertools
import socket
import struct
import time
from collections.abc import Sequence
from typing import TypeVar

import crc32c
from kafka.codec import gzip_encode, lz4_encode, snappy_encode, zstd_encode
from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import api_spec

from .records import Rec

M = TypeVar("M", bound=ApiMessage)
CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
COMPRESSORS = {"gzip": gzip_encode, "snappy": snappy_encode, "lz4": lz4_encode, "zstd": zstd_encode}
RECORD_BATCH_OVERHEAD = 61
READ_TIMEOUT_S = 10.0


def host_port(bootstrap: str) -> tuple[str, int]:
    host, _, port = bootstrap.rpartition(":")
    return host, int(port)


class ConnectionClosed(Exception):
    """The broker closed the connection (or reset it) before a whole response arrived."""


class RawClient:
    """One blocking socket to the broker: raw bytes out, whole frames in."""

    def __init__(self, bootstrap: str, client_id: str = "raw-compat") -> None:
        self.sock = socket.create_connection(host_port(bootstrap), timeout=READ_TIMEOUT_S)
        self.client_id = client_id
        self._correlation = itertools.count(1)
        self._buffer = b""

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def frame(self, body: ApiMessage, version: int) -> tuple[int, bytes]:
        """A request frame for ``body`` at ``version``: ``(correlation_id, bytes)``."""
        correlation_id = next(self._correlation)
        return correlation_id, encode_request(body, version, correlation_id, self.client_id)

    def read_frame(self, timeout_s: float = READ_TIMEOUT_S) -> bytes:
        """The next response frame's payload (without its size prefix)."""
        deadline = time.monotonic() + timeout_s
        while True:
            if len(self._buffer) >= 4:
                (size,) = struct.unpack_from(">i", self._buffer)
                if len(self._buffer) >= 4 + size:
                    payload, self._buffer = self._buffer[4 : 4 + size], self._buffer[4 + size :]
                    return payload
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no whole response within {timeout_s}s ({len(self._buffer)} bytes buffered)")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 16)
            except ConnectionResetError as exc:
                raise ConnectionClosed(str(exc)) from None
            if not chunk:
                raise ConnectionClosed("the broker closed the connection")
            self._buffer += chunk

    def request(self, body: ApiMessage, version: int, response: type[M] | None = None) -> M:
        """Send ``body`` at ``version`` and decode the answer (which must carry the same correlation id)."""
        correlation_id, data = self.frame(body, version)
        self.send(data)
        kind = response if response is not None else api_spec(body.API_KEY).response
        answered, decoded = decode_response(self.read_frame(), kind, version)
        assert answered == correlation_id, f"correlation id {answered} answers {correlation_id}"
        return decoded  # type: ignore[return-value]

    def closed_by_broker(self, timeout_s: float = READ_TIMEOUT_S) -> bool:
        """True when the broker closes the connection within ``timeout_s`` without sending anything."""
        try:
            data = self.read_frame(timeout_s)
        except ConnectionClosed:
            return True
        except TimeoutError:
            return False
        raise AssertionError(f"expected the connection to close, got a {len(data)}-byte response")


def record_batch(records: Sequence[Rec], *, codec: str = "none", base_offset: int = 0) -> bytes:
    """A magic-2 RecordBatch holding ``records`` (timestamps default to now), encoded by kafka-python.

    The records are always compressed with ``codec`` (kafka-python's builder would keep them plain
    when compression does not shrink them): the uncompressed batch is built, then its records section
    is compressed with kafka-python's codecs and the header's attributes, length and CRC rewritten.
    """
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=False,
        producer_id=-1, producer_epoch=-1, base_sequence=-1, batch_size=1 << 30,
    )  # fmt: skip
    now = int(time.time() * 1000)
    for index, r in enumerate(records):
        timestamp = r.timestamp if r.timestamp is not None else now
        assert builder.append(index, timestamp, r.key, r.value, list(r.headers)) is not None
    batch = bytes(builder.build())
    if codec != "none":
        payload = COMPRESSORS[codec](batch[RECORD_BATCH_OVERHEAD:])
        (attributes,) = struct.unpack_from(">h", batch, 21)
        head = bytearray(batch[:RECORD_BATCH_OVERHEAD])
        struct.pack_into(">i", head, 8, RECORD_BATCH_OVERHEAD - 12 + len(payload))
        struct.pack_into(">h", head, 21, attributes | CODEC_IDS[codec])
        batch = restamp_crc(bytes(head) + payload)
    return struct.pack(">q", base_offset) + batch[8:]


def legacy_messages(data: bytes) -> list[tuple[int, int, int | None, bytes | None, bytes | None]]:
    """(magic, offset, timestamp, key, value) of each message of a magic-0/1 message set, read by kafka-python."""
    found = []
    records = MemoryRecords(data)
    while records.has_next():
        batch = records.next_batch()
        assert batch.magic in (0, 1), f"magic {batch.magic} where a message set was expected"
        found.extend((batch.magic, r.offset, r.timestamp, r.key, r.value) for r in batch)
    return found


def legacy_message_set(records: Sequence[Rec], *, magic: int = 1) -> bytes:
    """A magic-0/1 message set (the format Produce v3+ must refuse)."""
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=0, batch_size=1 << 30)
    for index, r in enumerate(records):
        assert builder.append(index, r.timestamp or int(time.time() * 1000), r.key, r.value) is not None
    return bytes(builder.build())


def restamp_crc(batch: bytes) -> bytes:
    """The batch with its CRC-32C recomputed over bytes 21..end (after editing covered fields)."""
    return batch[:17] + struct.pack(">I", crc32c.crc32c(batch[21:])) + batch[21:]


def with_record_count(batch: bytes, count: int) -> bytes:
    """The batch claiming ``count`` records (CRC kept valid, so only the count is wrong)."""
    return restamp_crc(batch[:57] + struct.pack(">i", count) + batch[61:])


def with_declared_records(batch: bytes, count: int) -> bytes:
    """The batch declaring ``count`` records in both lastOffsetDelta and recordsCount, consistently,
    while holding what it holds (CRC kept valid): only decoding the records shows the lie."""
    return restamp_crc(batch[:23] + struct.pack(">i", count - 1) + batch[27:57] + struct.pack(">i", count) + batch[61:])


def with_flipped_crc(batch: bytes) -> bytes:
    return batch[:17] + bytes([batch[17] ^ 0xFF]) + batch[18:]


def with_magic(batch: bytes, magic: int) -> bytes:
    return batch[:16] + bytes([magic]) + batch[17:]
