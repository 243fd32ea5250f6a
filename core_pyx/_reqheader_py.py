"""Pure-Python twin of the request-header kernel: the header in front of every Kafka request body.

Layout (big-endian), by request header version::

    v0  api_key:int16 | api_version:int16 | correlation_id:int32                      (8 bytes)
    v1  v0 | client_id: int16 length (-1 = null) + UTF-8 bytes                        (10+ bytes)
    v2  v1 | tagged fields: uvarint count, then per field uvarint tag, uvarint size, bytes

``client_id`` keeps the old two-byte length even in v2, so that any broker can read the header of any
request. The version follows from the request: v2 for flexible versions of the API (``api_version >=
flexible_from[api_key]``), v0 only for ControlledShutdown v0 (API key 7), v1 otherwise, including API
keys the caller does not know. Tagged header fields are skipped (none is defined yet). A client id that
is not valid UTF-8 is decoded with replacement characters, as Kafka's Java broker reads it.

:class:`RequestHeader` reports where the body starts (``body_offset``) so that the body can be decoded
in place from the same frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from struct import Struct
from typing import TYPE_CHECKING, Final

from ._varint_py import decode_uvarint
from .errors import MalformedHeaderError, MalformedVarintError

if TYPE_CHECKING:
    from typing_extensions import Buffer

CONTROLLED_SHUTDOWN_KEY: Final[int] = 7
_FIXED = Struct(">hhi")
_INT16 = Struct(">h")


@dataclass(frozen=True, slots=True)
class RequestHeader:
    """The request header of one frame, and where its body starts."""

    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    body_offset: int


def decode_request_header(frame: Buffer, flexible_from: Mapping[int, int]) -> RequestHeader:
    """Read the request header at the start of ``frame`` (a frame payload, without its size prefix).

    ``flexible_from`` maps each API key to the first flexible version of its request (APIs without
    flexible versions are absent). Raises :class:`MalformedHeaderError` when the frame is too short.
    """
    view = memoryview(frame)
    if view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    end = len(view)
    if end < 8:
        raise MalformedHeaderError(f"a request header needs at least 8 bytes, the frame has {end}")
    api_key, api_version, correlation_id = _FIXED.unpack_from(view)
    if api_key == CONTROLLED_SHUTDOWN_KEY and api_version == 0:
        return RequestHeader(api_key, api_version, correlation_id, None, 8)
    if end < 10:
        raise MalformedHeaderError(f"a request header v1 needs at least 10 bytes, the frame has {end}")
    length: int = _INT16.unpack_from(view, 8)[0]
    pos = 10
    client_id = None
    if length >= 0:
        if pos + length > end:
            raise MalformedHeaderError(f"client id of {length} bytes runs past the end of a {end}-byte frame")
        client_id = str(view[pos : pos + length], "utf-8", "replace")
        pos += length
    first_flexible = flexible_from.get(api_key)
    if first_flexible is not None and api_version >= first_flexible:
        pos = _skip_tagged_fields(view, pos, end)
    return RequestHeader(api_key, api_version, correlation_id, client_id, pos)


def _skip_tagged_fields(view: memoryview, pos: int, end: int) -> int:
    try:
        count, pos = decode_uvarint(view, pos)
        for _ in range(count):
            _tag, pos = decode_uvarint(view, pos)
            size, pos = decode_uvarint(view, pos)
            if pos + size > end:
                raise MalformedHeaderError(f"tagged header field of {size} bytes runs past the end of the frame")
            pos += size
    except MalformedVarintError as exc:
        raise MalformedHeaderError(f"bad tagged fields in the request header: {exc}") from None
    return pos
