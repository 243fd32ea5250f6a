"""Kafka's primitive wire types: a bounds-checked :class:`Reader` over a borrowed buffer, and writers
that append to a ``bytearray``. The generated messages (``messages/``) are made of these calls.

All integers are big-endian two's complement unless noted.

============  =====================================  ==========================================
type          classic versions                       flexible versions (compact / tagged)
============  =====================================  ==========================================
int8..int64   1, 2, 4, 8 bytes                       same
uint16        2 bytes, unsigned                      same
float64       8 bytes, IEEE 754                      same
bool          1 byte, 0 = false, anything else true  same
uuid          16 bytes                               same
varint/long   zigzag varint / varlong                same
string        int16 length (-1 = null) + UTF-8       uvarint (length + 1, 0 = null) + UTF-8
bytes         int32 length (-1 = null) + bytes       uvarint (length + 1, 0 = null) + bytes
records       as bytes; kept as a memoryview         as compact bytes; kept as a memoryview
array         int32 count (-1 = null) + elements     uvarint (count + 1, 0 = null) + elements
struct        its fields in order                    its fields, then its tagged-field section
nullable      (non-array struct) int8 -1 = null, 1 = present, then the struct
tagged        (flexible only) uvarint count, then per field: uvarint tag, uvarint size, value bytes
============  =====================================  ==========================================

Tagged fields are written in ascending tag order. The reader raises :class:`DecodeError` on every
short read, bad length, over-long varint or invalid UTF-8, and refuses an array count larger than the
bytes left (so a hostile count cannot make it loop). Writers let ``struct.error`` escape for integers
out of range; :meth:`Message.encode` turns it into :class:`EncodeError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from struct import Struct, calcsize, pack, unpack_from
from struct import error as StructError
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar
from uuid import UUID

from rockafka.core_pyx.errors import MalformedVarintError
from rockafka.core_pyx.varint import (
    decode_uvarint,
    decode_varint,
    decode_varlong,
    encode_uvarint,
    encode_varint,
    encode_varlong,
)

from .errors import DecodeError, EncodeError

if TYPE_CHECKING:
    from typing_extensions import Buffer

T = TypeVar("T")

ZERO_UUID: Final[UUID] = UUID(int=0)

_INT8 = Struct(">b")
_INT16 = Struct(">h")
_INT32 = Struct(">i")
_INT64 = Struct(">q")
_UINT16 = Struct(">H")
_FLOAT64 = Struct(">d")

pack_int8 = _INT8.pack
pack_int16 = _INT16.pack
pack_int32 = _INT32.pack
pack_int64 = _INT64.pack
pack_uint16 = _UINT16.pack
pack_float64 = _FLOAT64.pack
_NULL_INT16: Final[bytes] = pack_int16(-1)
_NULL_INT32: Final[bytes] = pack_int32(-1)


def pack_bool(value: bool) -> bytes:
    return b"\x01" if value else b"\x00"


class Writable(Protocol):
    """A generated struct: it writes itself for a message version."""

    def write(self, out: bytearray, version: int) -> None: ...


class Reader:
    """A cursor over a borrowed buffer (no copy): ``buf`` is a byte memoryview, ``pos`` the next byte to read."""

    __slots__ = ("buf", "pos")

    def __init__(self, buf: Buffer, pos: int = 0) -> None:
        view = memoryview(buf)
        if view.ndim != 1 or view.itemsize != 1:
            view = view.cast("B")
        if not 0 <= pos <= len(view):
            raise DecodeError(f"start position {pos} is outside a buffer of {len(view)} bytes")
        self.buf = view
        self.pos = pos

    @property
    def remaining(self) -> int:
        return len(self.buf) - self.pos

    def expect_end(self) -> None:
        """Raise :class:`DecodeError` unless every byte has been read."""
        if self.pos != len(self.buf):
            raise DecodeError(f"{len(self.buf) - self.pos} unread bytes after the message")

    def _short(self, need: int) -> DecodeError:
        return DecodeError(f"need {need} bytes at offset {self.pos}, only {len(self.buf) - self.pos} left")

    def _unpack(self, fmt: Struct) -> Any:
        pos = self.pos
        try:
            value = fmt.unpack_from(self.buf, pos)[0]
        except StructError:
            raise self._short(fmt.size) from None
        self.pos = pos + fmt.size
        return value

    def int8(self) -> int:
        value: int = self._unpack(_INT8)
        return value

    def int16(self) -> int:
        value: int = self._unpack(_INT16)
        return value

    def int32(self) -> int:
        value: int = self._unpack(_INT32)
        return value

    def int64(self) -> int:
        value: int = self._unpack(_INT64)
        return value

    def uint16(self) -> int:
        value: int = self._unpack(_UINT16)
        return value

    def float64(self) -> float:
        value: float = self._unpack(_FLOAT64)
        return value

    def boolean(self) -> bool:
        pos = self.pos
        if pos >= len(self.buf):
            raise self._short(1)
        self.pos = pos + 1
        return self.buf[pos] != 0

    def fixed(self, fmt: Struct) -> tuple[Any, ...]:
        """Several fixed-width fields at once, by a precompiled ``struct.Struct``."""
        pos = self.pos
        try:
            values = fmt.unpack_from(self.buf, pos)
        except StructError:
            raise self._short(fmt.size) from None
        self.pos = pos + fmt.size
        return values

    def uuid(self) -> UUID:
        return UUID(bytes=self.take(16).tobytes())

    def uvarint(self) -> int:
        pos = self.pos
        buf = self.buf
        if pos < len(buf) and buf[pos] < 0x80:
            self.pos = pos + 1
            return buf[pos]
        try:
            value, self.pos = decode_uvarint(buf, pos)
        except MalformedVarintError as exc:
            raise DecodeError(str(exc)) from None
        return value

    def varint(self) -> int:
        try:
            value, self.pos = decode_varint(self.buf, self.pos)
        except MalformedVarintError as exc:
            raise DecodeError(str(exc)) from None
        return value

    def varlong(self) -> int:
        try:
            value, self.pos = decode_varlong(self.buf, self.pos)
        except MalformedVarintError as exc:
            raise DecodeError(str(exc)) from None
        return value

    def take(self, size: int) -> memoryview:
        """The next ``size`` bytes, as a view into the buffer."""
        pos = self.pos
        end = pos + size
        if size < 0 or end > len(self.buf):
            raise self._short(size)
        self.pos = end
        return self.buf[pos:end]

    def _length(self, flexible: bool, classic: Struct) -> int:
        """A length or count: -1 (or any negative) for null."""
        if flexible:
            return self.uvarint() - 1
        value: int = self._unpack(classic)
        return value

    def _text(self, size: int) -> str:
        try:
            return str(self.take(size), "utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(f"string at offset {self.pos - size} is not UTF-8: {exc.reason}") from None

    def string(self, flexible: bool) -> str:
        size = self._length(flexible, _INT16)
        if size < 0:
            raise DecodeError(f"null string at offset {self.pos} where the version forbids null")
        return self._text(size)

    def nullable_string(self, flexible: bool) -> str | None:
        size = self._length(flexible, _INT16)
        return None if size < 0 else self._text(size)

    def binary(self, flexible: bool) -> bytes:
        size = self._length(flexible, _INT32)
        if size < 0:
            raise DecodeError(f"null bytes at offset {self.pos} where the version forbids null")
        return self.take(size).tobytes()

    def nullable_binary(self, flexible: bool) -> bytes | None:
        size = self._length(flexible, _INT32)
        return None if size < 0 else self.take(size).tobytes()

    def records(self, flexible: bool) -> memoryview:
        size = self._length(flexible, _INT32)
        if size < 0:
            raise DecodeError(f"null records at offset {self.pos} where the version forbids null")
        return self.take(size)

    def nullable_records(self, flexible: bool) -> memoryview | None:
        size = self._length(flexible, _INT32)
        return None if size < 0 else self.take(size)

    def array_length(self, flexible: bool) -> int:
        count = self._length(flexible, _INT32)
        if count < 0:
            raise DecodeError(f"null array at offset {self.pos} where the version forbids null")
        if count > len(self.buf) - self.pos:
            raise DecodeError(f"array of {count} elements at offset {self.pos} exceeds the bytes left")
        return count

    def nullable_array_length(self, flexible: bool) -> int | None:
        count = self._length(flexible, _INT32)
        if count < 0:
            return None
        if count > len(self.buf) - self.pos:
            raise DecodeError(f"array of {count} elements at offset {self.pos} exceeds the bytes left")
        return count

    def _ints(self, code: str, count: int) -> list[int]:
        if not count:
            return []
        pos = self.pos
        try:
            values = unpack_from(f">{count}{code}", self.buf, pos)
        except StructError:
            raise self._short(count * calcsize(code)) from None
        self.pos = pos + count * calcsize(code)
        return list(values)

    def int_array(self, code: str, flexible: bool) -> list[int]:
        """An array of fixed-width integers (``code`` as in ``struct``: b, h, i, q, H)."""
        return self._ints(code, self.array_length(flexible))

    def nullable_int_array(self, code: str, flexible: bool) -> list[int] | None:
        count = self.nullable_array_length(flexible)
        return None if count is None else self._ints(code, count)

    def string_array(self, flexible: bool) -> list[str]:
        return [self.string(flexible) for _ in range(self.array_length(flexible))]

    def nullable_string_array(self, flexible: bool) -> list[str] | None:
        count = self.nullable_array_length(flexible)
        return None if count is None else [self.string(flexible) for _ in range(count)]

    def uuid_array(self, flexible: bool) -> list[UUID]:
        return [self.uuid() for _ in range(self.array_length(flexible))]

    def nullable_uuid_array(self, flexible: bool) -> list[UUID] | None:
        count = self.nullable_array_length(flexible)
        return None if count is None else [self.uuid() for _ in range(count)]

    def struct_array(self, read: Callable[[Reader, int], T], version: int, flexible: bool) -> list[T]:
        return [read(self, version) for _ in range(self.array_length(flexible))]

    def nullable_struct_array(self, read: Callable[[Reader, int], T], version: int, flexible: bool) -> list[T] | None:
        count = self.nullable_array_length(flexible)
        return None if count is None else [read(self, version) for _ in range(count)]

    def nullable_struct(self, read: Callable[[Reader, int], T], version: int) -> T | None:
        return None if self.int8() < 0 else read(self, version)

    def tagged_fields(self) -> dict[int, bytes]:
        """The tagged-field section of a flexible struct: tag -> raw value bytes."""
        count = self.uvarint()
        if not count:
            return {}
        fields: dict[int, bytes] = {}
        for _ in range(count):
            tag = self.uvarint()
            fields[tag] = self.take(self.uvarint()).tobytes()
        return fields


def _write_length(out: bytearray, length: int, flexible: bool, classic: Struct) -> None:
    if flexible:
        if length < 0x7F:
            out.append(length + 1)
        else:
            out += encode_uvarint(length + 1)
    else:
        out += classic.pack(length)


def _write_null(out: bytearray, flexible: bool, classic: bytes, nullable: bool, what: str) -> None:
    if not nullable:
        raise EncodeError(f"null {what} where the version forbids null")
    if flexible:
        out.append(0)
    else:
        out += classic


def write_uvarint(out: bytearray, value: int) -> None:
    if 0 <= value < 0x80:
        out.append(value)
    else:
        try:
            out += encode_uvarint(value)
        except MalformedVarintError as exc:
            raise EncodeError(str(exc)) from None


def write_varint(out: bytearray, value: int) -> None:
    try:
        out += encode_varint(value)
    except MalformedVarintError as exc:
        raise EncodeError(str(exc)) from None


def write_varlong(out: bytearray, value: int) -> None:
    try:
        out += encode_varlong(value)
    except MalformedVarintError as exc:
        raise EncodeError(str(exc)) from None


def write_uuid(out: bytearray, value: UUID) -> None:
    out += value.bytes


def write_string(out: bytearray, value: str | None, flexible: bool, nullable: bool = False) -> None:
    if value is None:
        _write_null(out, flexible, _NULL_INT16, nullable, "string")
        return
    data = value.encode()
    _write_length(out, len(data), flexible, _INT16)
    out += data


def write_bytes(out: bytearray, value: Buffer | None, flexible: bool, nullable: bool = False) -> None:
    """Bytes or records: any buffer, written as it is."""
    if value is None:
        _write_null(out, flexible, _NULL_INT32, nullable, "bytes")
        return
    size = len(value) if type(value) is bytes else memoryview(value).nbytes
    _write_length(out, size, flexible, _INT32)
    out += value


def _write_count(out: bytearray, values: Sequence[Any] | None, flexible: bool, nullable: bool) -> bool:
    """Write an array's count (or null); True when elements follow."""
    if values is None:
        _write_null(out, flexible, _NULL_INT32, nullable, "array")
        return False
    _write_length(out, len(values), flexible, _INT32)
    return bool(values)


def write_int_array(
    out: bytearray, code: str, values: Sequence[int] | None, flexible: bool, nullable: bool = False
) -> None:
    if _write_count(out, values, flexible, nullable):
        assert values is not None
        out += pack(f">{len(values)}{code}", *values)


def write_string_array(out: bytearray, values: Sequence[str] | None, flexible: bool, nullable: bool = False) -> None:
    if _write_count(out, values, flexible, nullable):
        assert values is not None
        for value in values:
            write_string(out, value, flexible)


def write_uuid_array(out: bytearray, values: Sequence[UUID] | None, flexible: bool, nullable: bool = False) -> None:
    if _write_count(out, values, flexible, nullable):
        assert values is not None
        for value in values:
            out += value.bytes


def write_struct_array(
    out: bytearray, items: Sequence[Writable] | None, version: int, flexible: bool, nullable: bool = False
) -> None:
    if _write_count(out, items, flexible, nullable):
        assert items is not None
        for item in items:
            item.write(out, version)


def write_struct(out: bytearray, item: Writable | None, version: int, nullable: bool = False) -> None:
    """A struct field whose type admits null: with a presence byte (-1 null, 1 present) where the version is
    nullable, bare where it is not."""
    if nullable:
        if item is None:
            out += b"\xff"
            return
        out += b"\x01"
    elif item is None:
        raise EncodeError("null struct where the version forbids null")
    item.write(out, version)


def write_tagged_fields(out: bytearray, fields: Mapping[int, Buffer]) -> None:
    """The tagged-field section: ``fields`` maps tag -> raw value bytes; written in ascending tag order."""
    if not fields:
        out.append(0)
        return
    write_uvarint(out, len(fields))
    for tag in sorted(fields):
        value = fields[tag]
        write_uvarint(out, tag)
        write_uvarint(out, memoryview(value).nbytes)
        out += value
