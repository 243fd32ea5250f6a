"""Sans-I/O request decoding and response encoding: bytes in, typed requests out; a response in, a frame out.

A broker connection feeds what it reads to a :class:`RequestDecoder` (or splits frames itself with
``rockafka.core_pyx.framing.FrameSplitter`` and calls :func:`decode_request` per frame). Each frame
becomes either a :class:`DecodedRequest` (header, API spec and typed body) or a :class:`RequestError`
that still carries the header, so the broker can answer that one request with ``error.error_code``:

- unknown API key (:class:`UnknownApiKeyError`, INVALID_REQUEST; Kafka itself closes the connection);
- version outside the API's valid range (:class:`UnsupportedVersionError`, UNSUPPORTED_VERSION; for
  ApiVersions answer with :func:`unsupported_api_versions_response` at version 0);
- a body that does not parse (:class:`DecodeError`, INVALID_REQUEST).

Frame-level errors raise instead (:class:`NegativeFrameLengthError`, :class:`FrameTooLargeError`,
:class:`TruncatedFrameError` at end of input, :class:`MalformedHeaderError` when not even the header
can be read): there is no request to answer, and the connection must be closed. The kernels' own
errors are translated into this family here, once.

Bodies are decoded in place from the frame: ``records`` fields are memoryviews into it. Bytes after
the body are ignored, as Kafka's broker ignores them. :func:`encode_response` writes the size prefix,
the response header (v0 or v1 by the response version; always v0 for ApiVersions) and the body.
:func:`encode_request` and :func:`decode_response` are the client side of the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from struct import error as StructError
from typing import TYPE_CHECKING, Final, TypeVar

from rockafka.core_pyx import errors as kernel_errors
from rockafka.core_pyx.framing import DEFAULT_MAX_FRAME_SIZE, FrameSplitter
from rockafka.core_pyx.reqheader import RequestHeader, decode_request_header

from .api import API_VERSIONS_KEY, ApiSpec
from .error_codes import ErrorCode
from .errors import (
    DecodeError,
    EncodeError,
    FrameError,
    FrameTooLargeError,
    MalformedHeaderError,
    NegativeFrameLengthError,
    ProtocolError,
    TruncatedFrameError,
    UnknownApiKeyError,
    UnsupportedVersionError,
)
from .message import ApiMessage
from .messages import API_SPECS, api_spec
from .messages.api_versions import ApiVersion, ApiVersionsResponse
from .messages.request_header import RequestHeader as RequestHeaderMessage
from .primitives import Reader, pack_int32

if TYPE_CHECKING:
    from collections.abc import Mapping

    from typing_extensions import Buffer

M = TypeVar("M", bound=ApiMessage)

#: API key -> first flexible request version (the request header is v2 from there on).
REQUEST_FLEXIBLE_FROM: Final[Mapping[int, int]] = {
    key: spec.request_flexible_from for key, spec in API_SPECS.items() if spec.request_flexible_from is not None
}
_FRAME_ERRORS: Final[dict[type[kernel_errors.FrameError], type[FrameError]]] = {
    kernel_errors.NegativeFrameLengthError: NegativeFrameLengthError,
    kernel_errors.FrameTooLargeError: FrameTooLargeError,
    kernel_errors.TruncatedFrameError: TruncatedFrameError,
    kernel_errors.MalformedHeaderError: MalformedHeaderError,
}


def _translate(exc: kernel_errors.FrameError) -> FrameError:
    return _FRAME_ERRORS.get(type(exc), FrameError)(str(exc))


@dataclass(frozen=True, slots=True)
class DecodedRequest:
    """One request: its header, its API and its typed body."""

    header: RequestHeader
    spec: ApiSpec
    body: ApiMessage

    @property
    def version(self) -> int:
        return self.header.api_version

    @property
    def expects_response(self) -> bool:
        """False only for a Produce request with acks=0, which Kafka never answers."""
        return self.header.api_key != 0 or getattr(self.body, "acks", -1) != 0


@dataclass(frozen=True, slots=True)
class RequestError:
    """A request whose header was read but which cannot be served: answer it with ``error_code``."""

    header: RequestHeader
    error: ProtocolError
    spec: ApiSpec | None  # None for an unknown API key

    @property
    def error_code(self) -> ErrorCode:
        return self.error.error_code


def read_request_header(frame: Buffer) -> RequestHeader:
    """The request header of ``frame`` (a frame payload); :class:`MalformedHeaderError` if it does not fit."""
    try:
        return decode_request_header(frame, REQUEST_FLEXIBLE_FROM)
    except kernel_errors.FrameError as exc:
        raise _translate(exc) from None


def decode_request(frame: Buffer) -> DecodedRequest | RequestError:
    """Decode one frame payload (without its size prefix) into a request, or the error to answer it with."""
    header = read_request_header(frame)
    spec = API_SPECS.get(header.api_key)
    if spec is None:
        return RequestError(header, UnknownApiKeyError(header.api_key), None)
    version = header.api_version
    if not spec.min_version <= version <= spec.max_version:
        error = UnsupportedVersionError(spec.request.__name__, version, spec.min_version, spec.max_version)
        return RequestError(header, error, spec)
    try:
        body = spec.request.read(Reader(frame, header.body_offset), version)
    except DecodeError as exc:
        return RequestError(header, exc, spec)
    return DecodedRequest(header, spec, body)


class RequestDecoder:
    """Bytes from one connection in, decoded requests out, in order."""

    __slots__ = ("_splitter",)

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self._splitter = FrameSplitter(max_frame_size)

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame held back."""
        return self._splitter.pending

    def feed(self, data: Buffer) -> list[DecodedRequest | RequestError]:
        """Add ``data``; return every request it completes. Raises a :class:`FrameError` for a bad frame."""
        try:
            frames = self._splitter.feed(data)
        except kernel_errors.FrameError as exc:
            raise _translate(exc) from None
        return [decode_request(frame) for frame in frames]

    def finish(self) -> None:
        """The connection's input has ended: :class:`TruncatedFrameError` if a request was cut short."""
        try:
            self._splitter.finish()
        except kernel_errors.FrameError as exc:
            raise _translate(exc) from None


def encode_response(header: RequestHeader, body: ApiMessage, version: int | None = None) -> bytes:
    """The response frame (size prefix, response header, body) answering the request with ``header``.

    ``version`` defaults to the request's version; pass 0 for the UNSUPPORTED_VERSION ApiVersions answer.
    """
    spec = api_spec(header.api_key)
    if version is None:
        version = header.api_version
    if type(body) is not spec.response:
        raise EncodeError(f"a {type(body).__name__} cannot answer a {spec.name} request")
    body.check_version(version)
    out = bytearray(8)
    out[4:8] = pack_int32(header.correlation_id)
    if spec.response_header_version(version) >= 1:
        out.append(0)  # the response header's empty tagged-field section
    _write_body(out, body, version)
    out[0:4] = pack_int32(len(out) - 4)
    return bytes(out)


def unsupported_api_versions_response(min_version: int = 0, max_version: int | None = None) -> ApiVersionsResponse:
    """The answer to an ApiVersions request of a version this broker does not speak: error 35 and the
    ApiVersions range the client should retry with. Encode it at version 0 (its header is v0 anyway)."""
    top = ApiVersionsResponse.MAX_VERSION if max_version is None else max_version
    entry = ApiVersion(api_key=API_VERSIONS_KEY, min_version=min_version, max_version=top)
    return ApiVersionsResponse(error_code=ErrorCode.UNSUPPORTED_VERSION, api_keys=[entry])


def encode_request(body: ApiMessage, version: int, correlation_id: int, client_id: str | None = "rockafka") -> bytes:
    """A request frame (size prefix, request header of the right version, body): the client side."""
    spec = api_spec(body.API_KEY)
    if type(body) is not spec.request:
        raise EncodeError(f"{type(body).__name__} is not a request")
    body.check_version(version)
    header = RequestHeaderMessage(
        request_api_key=spec.api_key, request_api_version=version, correlation_id=correlation_id, client_id=client_id
    )
    out = bytearray(4)
    header.write(out, spec.request_header_version(version))
    _write_body(out, body, version)
    out[0:4] = pack_int32(len(out) - 4)
    return bytes(out)


def decode_response(frame: Buffer, response: type[M], version: int) -> tuple[int, M]:
    """``(correlation_id, body)`` of a response frame payload: the client side. An ApiVersions response
    with a non-zero error code is read as version 0, as brokers send it."""
    spec = api_spec(response.API_KEY)
    response.check_version(version)
    r = Reader(frame)
    correlation_id = r.int32()
    if spec.response_header_version(version) >= 1:
        r.tagged_fields()
    if spec.api_key == API_VERSIONS_KEY and version > 0 and r.remaining >= 2 and Reader(frame, r.pos).int16() != 0:
        version = 0
    body = response.read(r, version)
    r.expect_end()
    return correlation_id, body


def _write_body(out: bytearray, body: ApiMessage, version: int) -> None:
    try:
        body.write(out, version)
    except StructError as exc:
        raise EncodeError(f"{type(body).__name__} v{version}: {exc}") from None


__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "REQUEST_FLEXIBLE_FROM",
    "DecodedRequest",
    "RequestDecoder",
    "RequestError",
    "RequestHeader",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
    "read_request_header",
    "unsupported_api_versions_response",
]
