"""The LZ4 frame header of Kafka 0.8-0.9's message format v0, made readable.

An LZ4 frame opens with the magic number ``04 22 4D 18``, then the frame descriptor: FLG (bit 3: an 8-byte
content size follows; bit 0: a 4-byte dictionary id follows), BD, the optional fields, and HC, the header
checksum: the second byte of xxHash32 (seed 0) of the descriptor from FLG to the byte before HC. Kafka 0.8
and 0.9 clients, and librdkafka when it writes message format v0, hash the magic number too (KAFKA-3160), so
a standard LZ4 reader refuses their frames. :func:`lz4_with_header_checksum` rewrites HC; a frame whose HC is
right comes back unchanged, and bytes that are not a frame are returned for the decompressor to refuse.
"""

from __future__ import annotations

from typing import Final

LZ4_MAGIC: Final = b"\x04\x22\x4d\x18"
_DESCRIPTOR_AT: Final = len(LZ4_MAGIC)
_CONTENT_SIZE_FLAG: Final = 0x08
_DICTIONARY_ID_FLAG: Final = 0x01
_MASK: Final = 0xFFFFFFFF
_PRIME1: Final = 2654435761
_PRIME2: Final = 2246822519
_PRIME3: Final = 3266489917
_PRIME4: Final = 668265263
_PRIME5: Final = 374761393


def lz4_with_header_checksum(frame: bytes) -> bytes:
    """``frame`` with its header checksum computed as LZ4 defines it (see the module docstring)."""
    if len(frame) < _DESCRIPTOR_AT + 2 or frame[:_DESCRIPTOR_AT] != LZ4_MAGIC:
        return frame  # not a frame: the decompressor says why
    flags = frame[_DESCRIPTOR_AT]
    end = _DESCRIPTOR_AT + 2 + (8 if flags & _CONTENT_SIZE_FLAG else 0) + (4 if flags & _DICTIONARY_ID_FLAG else 0)
    if len(frame) <= end:
        return frame
    checksum = (xxh32_short(frame[_DESCRIPTOR_AT:end]) >> 8) & 0xFF
    return frame[:end] + bytes((checksum,)) + frame[end + 1 :]


def xxh32_short(data: bytes) -> int:
    """xxHash32 with seed 0 of fewer than 16 bytes (the only case a frame descriptor needs)."""
    h = (_PRIME5 + len(data)) & _MASK
    pos = 0
    while pos + 4 <= len(data):
        h = (h + int.from_bytes(data[pos : pos + 4], "little") * _PRIME3) & _MASK
        h = (((h << 17) | (h >> 15)) & _MASK) * _PRIME4 & _MASK
        pos += 4
    for byte in data[pos:]:
        h = (h + byte * _PRIME5) & _MASK
        h = (((h << 11) | (h >> 21)) & _MASK) * _PRIME1 & _MASK
    h ^= h >> 15
    h = h * _PRIME2 & _MASK
    h ^= h >> 13
    h = h * _PRIME3 & _MASK
    return h ^ (h >> 16)
