"""Kafka's variable-length integers: unsigned varints, zigzag varints (32-bit) and varlongs (64-bit).

Decoders read at ``(buf, pos)`` and return ``(value, new_pos)``; see ``_varint_py`` for the encodings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel

if TYPE_CHECKING:
    from ._varint_py import (
        decode_uvarint,
        decode_varint,
        decode_varlong,
        encode_uvarint,
        encode_varint,
        encode_varlong,
    )
else:
    _impl = kernel("_varint")
    encode_uvarint = _impl.encode_uvarint
    decode_uvarint = _impl.decode_uvarint
    encode_varint = _impl.encode_varint
    decode_varint = _impl.decode_varint
    encode_varlong = _impl.encode_varlong
    decode_varlong = _impl.decode_varlong

__all__ = ["decode_uvarint", "decode_varint", "decode_varlong", "encode_uvarint", "encode_varint", "encode_varlong"]
