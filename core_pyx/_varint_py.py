"""Pure-Python twin of the varint kernel: Kafka's variable-length integers.

Encodings (as in Kafka's ``ByteUtils`` and the protocol guide):

- **unsigned varint** (``uvarint``): 7 bits per byte, least significant group first, high bit set on every
  byte but the last; at most 5 bytes, values 0 .. 2**32-1. Used for compact lengths (length + 1) and for
  tagged-field counts, tags and sizes in flexible message versions.
- **varint**: a signed 32-bit value, zigzag-mapped (``(v << 1) ^ (v >> 31)``) then written as an unsigned
  varint. Used inside records (lengths, deltas, header counts).
- **varlong**: a signed 64-bit value, zigzag-mapped (``(v << 1) ^ (v >> 63)``); at most 10 bytes.

Decoders take ``(buf, pos)`` and return ``(value, new_pos)``; they raise :class:`MalformedVarintError`
when the input ends inside a varint or the varint runs past its maximum length. Encoders raise it for
values out of range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import MalformedVarintError

if TYPE_CHECKING:
    from typing_extensions import Buffer

_U32_MAX = 0xFFFFFFFF
_U64_MAX = 0xFFFFFFFFFFFFFFFF


def _encode(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _decode(buf: Buffer, pos: int, max_bytes: int) -> tuple[int, int]:
    view = memoryview(buf)
    if view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    end = len(view)
    if pos < 0:
        raise MalformedVarintError(f"negative position {pos}")
    value = 0
    shift = 0
    for i in range(max_bytes):
        if pos + i >= end:
            raise MalformedVarintError(f"input ends inside a varint at byte {pos + i}")
        byte = view[pos + i]
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos + i + 1
        shift += 7
    raise MalformedVarintError(f"varint at byte {pos} is longer than {max_bytes} bytes")


def encode_uvarint(value: int) -> bytes:
    """The unsigned varint of ``value`` (0 .. 2**32-1)."""
    if not 0 <= value <= _U32_MAX:
        raise MalformedVarintError(f"unsigned varint out of range: {value}")
    return _encode(value)


def decode_uvarint(buf: Buffer, pos: int = 0) -> tuple[int, int]:
    """Read an unsigned varint at ``pos``: ``(value, position after it)``."""
    value, new_pos = _decode(buf, pos, 5)
    if value > _U32_MAX:
        raise MalformedVarintError(f"unsigned varint at byte {pos} exceeds 32 bits")
    return value, new_pos


def encode_varint(value: int) -> bytes:
    """The zigzag varint of a signed 32-bit ``value``."""
    if not -(2**31) <= value < 2**31:
        raise MalformedVarintError(f"varint out of range: {value}")
    return _encode(((value << 1) ^ (value >> 31)) & _U32_MAX)


def decode_varint(buf: Buffer, pos: int = 0) -> tuple[int, int]:
    """Read a zigzag varint (signed 32-bit) at ``pos``: ``(value, position after it)``."""
    raw, new_pos = _decode(buf, pos, 5)
    if raw > _U32_MAX:
        raise MalformedVarintError(f"varint at byte {pos} exceeds 32 bits")
    return (raw >> 1) ^ -(raw & 1), new_pos


def encode_varlong(value: int) -> bytes:
    """The zigzag varlong of a signed 64-bit ``value``."""
    if not -(2**63) <= value < 2**63:
        raise MalformedVarintError(f"varlong out of range: {value}")
    return _encode(((value << 1) ^ (value >> 63)) & _U64_MAX)


def decode_varlong(buf: Buffer, pos: int = 0) -> tuple[int, int]:
    """Read a zigzag varlong (signed 64-bit) at ``pos``: ``(value, position after it)``."""
    raw, new_pos = _decode(buf, pos, 10)
    if raw > _U64_MAX:
        raise MalformedVarintError(f"varlong at byte {pos} exceeds 64 bits")
    return (raw >> 1) ^ -(raw & 1), new_pos
