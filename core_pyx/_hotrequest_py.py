"""Pure-Python twin of the Produce request kernel: the request every producer sends, decoded without the
generic codec's per-field work.

Wire rules: those of :mod:`._hotcodec_py` (big-endian integers; classic and, from Produce 9, compact strings,
bytes and arrays; tagged fields). Produce requests are read strictly: a length past the end, a null where the
spec forbids it, a varint over 5 bytes or bytes left over raise :class:`MalformedMessageError`; unknown tagged
fields are skipped. The records of each partition come back as a zero-copy ``memoryview`` of the body, so the
body must stay alive and unchanged while they are used.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Final

from ._hotmessages import ProducePartition, ProduceRequest, ProduceTopic
from .errors import MalformedMessageError, UnsupportedVersionError

if TYPE_CHECKING:
    from typing_extensions import Buffer

PRODUCE_VERSIONS: Final = (3, 11)

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")


class _Reader:
    """A bounds-checked cursor over a Produce request body."""

    __slots__ = ("flexible", "pos", "view")

    def __init__(self, body: Buffer, flexible: bool) -> None:
        view = memoryview(body)
        self.view = view if view.format == "B" and view.ndim == 1 else view.cast("B")
        self.pos = 0
        self.flexible = flexible

    def need(self, n: int) -> int:
        start = self.pos
        if n > len(self.view) - start:
            raise MalformedMessageError(f"Produce request truncated at byte {start}: {n} more bytes needed")
        self.pos = start + n
        return start

    def i16(self) -> int:
        return int(_I16.unpack_from(self.view, self.need(2))[0])

    def i32(self) -> int:
        return int(_I32.unpack_from(self.view, self.need(4))[0])

    def uvarint(self) -> int:
        result = 0
        for shift in range(0, 35, 7):
            byte = self.view[self.need(1)]
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result & 0xFFFFFFFF
        raise MalformedMessageError(f"Produce request has a varint longer than 5 bytes at byte {self.pos}")

    def length(self, wide: bool) -> int:
        """A string, bytes or array length; -1 for null (classic: int16 or int32; flexible: varint - 1)."""
        if self.flexible:
            return self.uvarint() - 1
        return self.i32() if wide else self.i16()

    def nullable_string(self) -> str | None:
        at = self.pos
        n = self.length(wide=False)
        return None if n == -1 else self._text(n, at)

    def string(self) -> str:
        at = self.pos
        return self._text(self.length(wide=False), at)

    def _text(self, n: int, at: int) -> str:
        if n < 0:
            raise MalformedMessageError(f"Produce request has an invalid string length {n} at byte {at}")
        start = self.need(n)
        return str(self.view[start : start + n], "utf-8", "replace")

    def records(self) -> memoryview | None:
        at = self.pos
        n = self.length(wide=True)
        if n < 0:
            if n == -1:
                return None
            raise MalformedMessageError(f"Produce request has an invalid records length {n} at byte {at}")
        start = self.need(n)
        return self.view[start : start + n]

    def array(self) -> int:
        at = self.pos
        n = self.length(wide=True)
        if n < 0 or n > len(self.view) - self.pos:
            raise MalformedMessageError(f"Produce request has an invalid array length {n} at byte {at}")
        return n

    def skip_tags(self) -> None:
        if self.flexible:
            for _ in range(self.uvarint()):
                self.uvarint()
                self.need(self.uvarint())


def decode_produce_request(body: Buffer, version: int) -> ProduceRequest:
    """Decode a Produce request body (v3-11); each partition's records is a zero-copy view of ``body``."""
    if not PRODUCE_VERSIONS[0] <= version <= PRODUCE_VERSIONS[1]:
        raise UnsupportedVersionError("Produce request", version)
    r = _Reader(body, version >= 9)
    transactional_id = r.nullable_string()
    acks = r.i16()
    timeout_ms = r.i32()
    topics = []
    for _ in range(r.array()):
        name = r.string()
        partitions = []
        for _ in range(r.array()):
            index = r.i32()
            partitions.append(ProducePartition(index, r.records()))
            r.skip_tags()
        r.skip_tags()
        topics.append(ProduceTopic(name, partitions))
    r.skip_tags()
    if r.pos != len(r.view):
        raise MalformedMessageError(f"Produce request has {len(r.view) - r.pos} trailing bytes")
    return ProduceRequest(transactional_id, acks, timeout_ms, topics)
