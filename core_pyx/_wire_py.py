"""Pure-Python twin of the wire kernel: :class:`Writer` and :class:`Reader`, what the generated hot-message
codec (``_hotcodec_py``, made by ``make gen-protocol``) is made of.

Wire rules (Kafka protocol guide, and the JSON specs' ``flexibleVersions``):

- Integers are big-endian. A classic string is int16 length + UTF-8 (-1: null); classic bytes and arrays
  carry an int32 count (-1: null).
- From a message's first flexible version strings, bytes and arrays are *compact*: an unsigned varint of
  length + 1 (0: null); every struct ends with its tagged fields: an unsigned varint count, then per field an
  unsigned varint tag, an unsigned varint size and the value (a tagged struct carries its own, empty, tagged
  fields). Tags are written in ascending order, and only for values that differ from their defaults.
- A framed response is int32 size, then the response header: int32 correlation id, plus empty tagged fields
  (one zero byte) when the API version is flexible (header v1).

Requests are read strictly: a length past the end, a null where the spec forbids it, a varint over 5 bytes
raise :class:`MalformedMessageError`; unknown tagged fields are skipped. Records come back as zero-copy
``memoryview`` slices of the body, so the body must stay alive and unchanged while they are used. Records
written are given as buffers (one, or several written back to back), copied once into the output or, with
:meth:`Writer.finish_parts`, handed on uncopied.
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import MalformedMessageError, UnsupportedVersionError

if TYPE_CHECKING:
    from typing_extensions import Buffer

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_NO_TAGS = b"\x00"


def check_version(message: str, version: int, low: int, high: int) -> None:
    """:class:`UnsupportedVersionError` unless ``low <= version <= high``."""
    if not low <= version <= high:
        raise UnsupportedVersionError(message, version)


class Writer:
    """Output as a list of parts: small fields gather in a bytearray, record buffers are spliced in uncopied."""

    __slots__ = ("buf", "flexible", "framed", "parts")

    def __init__(self, flexible: bool, correlation_id: int | None = None, header_flexible: bool = False) -> None:
        self.flexible = flexible
        self.parts: list[Buffer] = []
        self.buf = bytearray()
        self.framed = correlation_id is not None
        if correlation_id is not None:
            self.buf += b"\x00\x00\x00\x00" + _I32.pack(correlation_id) + (_NO_TAGS if header_flexible else b"")

    def i8(self, value: int) -> None:
        self.buf += struct.pack(">b", value)

    def i16(self, value: int) -> None:
        self.buf += _I16.pack(value)

    def i32(self, value: int) -> None:
        self.buf += _I32.pack(value)

    def i64(self, value: int) -> None:
        self.buf += _I64.pack(value)

    def uvarint(self, value: int) -> None:
        while value >= 0x80:
            self.buf.append((value & 0x7F) | 0x80)
            value >>= 7
        self.buf.append(value)

    def length(self, n: int, wide: bool) -> None:
        if self.flexible:
            self.uvarint(n + 1)
        elif wide:
            self.i32(n)
        else:
            self.i16(n)

    def string(self, value: str | None, nullable: bool = False) -> None:
        if value is None:
            if not nullable:
                raise ValueError("a non-nullable string field is None")
            self.length(-1, wide=False)
            return
        data = value.encode("utf-8")
        self.length(len(data), wide=False)
        self.buf += data

    def uuid(self, value: uuid.UUID) -> None:
        self.buf += value.bytes

    def array(self, items: Sequence[object] | None) -> None:
        self.length(-1 if items is None else len(items), wide=True)

    def records(self, records: Buffer | Sequence[Buffer] | None) -> None:
        if records is None:
            self.length(-1, wide=True)
            return
        try:
            chunks: Sequence[Buffer] = (memoryview(records),)  # type: ignore[arg-type]
        except TypeError:
            chunks = records  # type: ignore[assignment]
        views = [memoryview(chunk) for chunk in chunks]
        self.length(sum(view.nbytes for view in views), wide=True)
        for view in views:
            if view.nbytes:
                self.parts.append(self.buf)
                self.parts.append(view)
                self.buf = bytearray()

    def tagged(self, tag: int, value: Writer) -> None:
        """One tagged field: its tag, its size and ``value``'s bytes (a sub-writer holding only small fields)."""
        self.uvarint(tag)
        self.uvarint(len(value.buf))
        self.buf += value.buf

    def finish(self) -> bytes:
        return b"".join(self.finish_parts(1 << 62))

    def finish_parts(self, min_splice: int) -> list[bytes | memoryview]:
        """The output as parts: record buffers of ``min_splice`` bytes or more uncopied, the rest joined."""
        self.parts.append(self.buf)
        parts: list[bytes | memoryview] = []
        piece = bytearray()
        for part in self.parts:
            view = memoryview(part)
            if isinstance(part, memoryview) and view.nbytes >= min_splice:
                if piece:
                    parts.append(bytes(piece))
                parts.append(view)
                piece = bytearray()
            else:
                piece += view
        if piece:
            parts.append(bytes(piece))
        if self.framed:
            total = sum(memoryview(part).nbytes for part in parts)
            parts[0] = _I32.pack(total - 4) + parts[0][4:]
        return parts


class Reader:
    """A bounds-checked cursor over a request body (the compiled ``Cursor``)."""

    __slots__ = ("flexible", "pos", "view")

    def __init__(self, body: Buffer, flexible: bool) -> None:
        view = memoryview(body)
        self.view = view if view.format == "B" and view.ndim == 1 else view.cast("B")
        self.pos = 0
        self.flexible = flexible

    def need(self, n: int) -> int:
        start = self.pos
        if n > len(self.view) - start:
            raise MalformedMessageError(f"request truncated at byte {start}: {n} more bytes needed")
        self.pos = start + n
        return start

    def i8(self) -> int:
        return int(struct.unpack_from(">b", self.view, self.need(1))[0])

    def i16(self) -> int:
        return int(_I16.unpack_from(self.view, self.need(2))[0])

    def i32(self) -> int:
        return int(_I32.unpack_from(self.view, self.need(4))[0])

    def i64(self) -> int:
        return int(_I64.unpack_from(self.view, self.need(8))[0])

    def uvarint(self) -> int:
        result = 0
        for shift in range(0, 35, 7):
            byte = self.view[self.need(1)]
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result & 0xFFFFFFFF
        raise MalformedMessageError(f"request has a varint longer than 5 bytes at byte {self.pos}")

    def length(self, wide: bool) -> int:
        """A string, bytes or array length; -1 for null (classic: int16 or int32; flexible: varint - 1)."""
        if self.flexible:
            return self.uvarint() - 1
        return self.i32() if wide else self.i16()

    def _bad_length(self, what: str, n: int, at: int) -> MalformedMessageError:
        return MalformedMessageError(f"request has an invalid {what} length {n} at byte {at}")

    def string(self, nullable: bool) -> str | None:
        at = self.pos
        n = self.length(wide=False)
        if n < 0:
            if n == -1 and nullable:
                return None
            raise self._bad_length("string", n, at)
        start = self.need(n)
        return str(self.view[start : start + n], "utf-8", "replace")

    def array(self, nullable: bool) -> int:
        """An array's count; -1 for a null array where ``nullable``."""
        at = self.pos
        n = self.length(wide=True)
        if n == -1 and nullable:
            return -1
        if n < 0 or n > len(self.view) - self.pos:
            raise self._bad_length("array", n, at)
        return n

    def records(self, nullable: bool) -> memoryview | None:
        at = self.pos
        n = self.length(wide=True)
        if n < 0:
            if n == -1 and nullable:
                return None
            raise self._bad_length("records", n, at)
        start = self.need(n)
        return self.view[start : start + n]

    def skip_tags(self) -> None:
        if self.flexible:
            for _ in range(self.uvarint()):
                self.uvarint()
                self.need(self.uvarint())


__all__ = ["Reader", "Writer", "check_version"]
