"""The sans-I/O Kafka protocol codec: bytes in, typed messages out, and back.

- :mod:`.messages` (generated, one module per API): every request and response of every version,
  and ``API_SPECS`` / :func:`api_spec`, the registry by API key;
- :mod:`.framing`: the broker side (:class:`RequestDecoder`, :func:`decode_request`,
  :func:`encode_response`) and the client side (:func:`encode_request`, :func:`decode_response`);
- :mod:`.primitives` and :mod:`.message`: the reader, the writers and the base classes the generated
  code is made of; :mod:`.errors` and :mod:`.error_codes`: the one error family and Kafka's error codes.

It imports neither asyncio nor sockets nor the store (an import-linter contract checks this).
"""

from __future__ import annotations

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
from .framing import (
    DEFAULT_MAX_FRAME_SIZE,
    REQUEST_FLEXIBLE_FROM,
    DecodedRequest,
    RequestDecoder,
    RequestError,
    RequestHeader,
    decode_request,
    decode_response,
    encode_request,
    encode_response,
    read_request_header,
    unsupported_api_versions_response,
)
from .message import ApiMessage, Message, Struct
from .messages import API_SPECS, api_spec
from .primitives import Reader

__all__ = [
    "API_SPECS",
    "API_VERSIONS_KEY",
    "DEFAULT_MAX_FRAME_SIZE",
    "REQUEST_FLEXIBLE_FROM",
    "ApiMessage",
    "ApiSpec",
    "DecodeError",
    "DecodedRequest",
    "EncodeError",
    "ErrorCode",
    "FrameError",
    "FrameTooLargeError",
    "MalformedHeaderError",
    "Message",
    "NegativeFrameLengthError",
    "ProtocolError",
    "Reader",
    "RequestDecoder",
    "RequestError",
    "RequestHeader",
    "Struct",
    "TruncatedFrameError",
    "UnknownApiKeyError",
    "UnsupportedVersionError",
    "api_spec",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
    "read_request_header",
    "unsupported_api_versions_response",
]
